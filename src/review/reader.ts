/**
 * The one reader of answers (issue 24): an answer's markdown → its fenced blocks, each with its place (fence
 * lines), language, body, kind and target file(s). Every surface (the rendered result, Copy, Apply…, Insert at
 * Cursor, Review Changes, the chat buttons, the done notification) reads blocks here and nowhere else, so they
 * all number and understand blocks alike.
 *
 * Linear in the answer: one pass over the lines; only a line that starts (after at most 3 spaces) with ` or ~
 * is sliced; every regex is anchored and runs on a bounded piece (an info string, one line before a fence, a
 * block's first line, a line of a block's body).
 *
 * Namings understood (first the info string, then the diff's own headers, then a first comment line, then the
 * line just before the fence): ```ts src/b.ts · ```ts:src/b.ts · path= / file= / filename= / title="…" ·
 * ```src/b.ts · **src/b.ts** / `src/b.ts` / ### src/b.ts / File: src/b.ts / In `src/b.ts`: on the line before
 * (the whole line is the naming: never a sentence that mentions a file) · a first line `// src/b.ts`,
 * `# app/util.py`, `<!-- x.html -->`, `/* x.css *\/` (that line is then not part of the file's text) · unified
 * diff headers (`diff --git`, `---`/`+++`, `a/` `b/`) · `*** Begin Patch` files. Two different names for one
 * block, or a name that matches two workspace folders, is a problem with its reason, never a guess.
 *
 * Its parts: the fence scanner (`fences.ts`), the namings (`namings.ts`), what a body is — diff, patch, output
 * (`blockShapes.ts`), elision lines (`elisions.ts`), the `*** Begin Patch` format (`beginPatch.ts`), the shapes
 * (`readerTypes.ts`). Here: each block's kind and targets, a name checked and placed in a workspace folder, the
 * range block.
 */
import { parseBeginPatch, unanchored } from './beginPatch';
import { firstNonBlank, looksLikeDiff, looksLikeOutput, looksLikePatch } from './blockShapes';
import { parseEditBlocks, looksLikeEditBlocks } from './editBlocks';
import { firstElision } from './elisions';
import { type RawBlock, scanFences } from './fences';
import { type Named, commentNaming, isPathLike, namingLine, readInfo } from './namings';
import { parseUnifiedDiff } from './patch';
import { statedRemovals } from './landingGuard';
import { afterPart, definitionOf, keepsEnough, stripGutter } from './proof';
import { checkPath, displayPath } from './paths';
import type { AnswerBlock, BlockProblem, BlockSection, BlockTarget, ReadAnswer, ReadOptions, WorkspaceFolderName } from './readerTypes';

/** Reads an answer: its blocks, kinds and targets. Linear in its length. */
export function readAnswer(text: string, options: ReadOptions = {}): ReadAnswer {
  const { blocks: raws, unclosed: rawUnclosed, lineCount } = scanFences(text);
  const folders = (options.folders ?? []).map(f => (typeof f === 'string' ? { name: f } : f));
  const resolve = (named: Named): { target?: BlockTarget; problem?: BlockProblem } => resolveName(named, folders);
  const blocks = raws.map((r, i) => readBlock(r, i, resolve));
  const unclosed = rawUnclosed && readBlock(rawUnclosed, blocks.length, resolve);
  const out: ReadAnswer = { blocks, lineCount, statedRemovals: statedRemovals(text, insideBlocks([...raws, ...(rawUnclosed ? [rawUnclosed] : [])])) };
  if (unclosed) out.unclosed = unclosed;

  laterVersions(blocks);

  // The range block: with a source file that no block names, the one unnamed code block (output blocks do not
  // count, unless it is the only unnamed block of all).
  const source = options.sourcePath !== undefined ? checkPath(options.sourcePath) : undefined;
  if (source?.ok) {
    const namesSource = [...blocks, ...(unclosed ? [unclosed] : [])].some(
      b => b.targets.some(t => t.path === source.path && (!t.folder || t.folder === options.sourceFolder)) || b.problems.some(p => p.raw === source.path),
    );
    const unnamed = blocks.filter(b => !b.targets.length && !b.problems.length && (b.kind === 'snippet' || b.kind === 'partial' || b.kind === 'output'));
    const code = unnamed.filter(b => b.kind !== 'output');
    // An edit block that names no file is for the source: its SEARCH text proves its place there, or it is listed.
    for (const b of blocks) {
      if (b.edits && !b.targets.length && !b.problems.length && b.sections?.length) {
        const target: BlockTarget = { path: source.path, raw: displayPath(options.sourcePath!), naming: 'source' };
        if (options.sourceFolder !== undefined && folders.length > 1) target.folder = options.sourceFolder;
        b.targets.push(target);
        b.path = target.path;
        b.sections = b.sections.map(s => ({ ...s, target }));
      }
    }
    // An unnamed diff may be for the source too: then no block is taken for the range.
    const unnamedDiff = blocks.some(b => (b.kind === 'diff' || b.kind === 'patch') && !b.targets.length && !b.problems.length && !b.sections?.some(s => s.problem));
    // Output and prose are never code to land (issue 24: Copy only), not even when nothing else is unnamed.
    const pick = code.length === 1 ? code[0] : undefined;
    if (pick && !namesSource && !unnamedDiff) {
      if (pick.kind !== 'partial') pick.kind = 'range';
      out.rangeBlock = pick;
    } else if (code.length > 1 && !namesSource && !unnamedDiff) {
      // Several unnamed code blocks (the fix, a usage example, a test): the plan takes the one proven to be the
      // range's new code, if exactly one is (planFile.ts).
      out.rangeCandidates = code;
    }
  }
  return out;
}

function resolveName(named: Named, folders: readonly WorkspaceFolderName[]): { target?: BlockTarget; problem?: BlockProblem } {
  let raw = named.raw.trim();
  const shown = displayPath(raw);
  // Diff headers and patches keep their paths; a naming in prose may carry `./` or a quote.
  raw = raw.replace(/^["'`]|["'`]$/g, '');
  const checked = checkPath(raw);
  if (!checked.ok) {
    const outside = checked.problem === 'absolute' || checked.problem === 'escapes';
    return { problem: outside ? { code: 'outside', raw: shown, naming: named.naming } : { code: 'invalidPath', raw: shown, naming: named.naming, problem: checked.problem } };
  }
  const base: BlockTarget = { path: checked.path, raw: shown, naming: named.naming };
  if (named.attribute) base.attribute = named.attribute;
  const slash = checked.path.indexOf('/');
  if (slash > 0 && folders.length) {
    const first = checked.path.slice(0, slash);
    const rest = checked.path.slice(slash + 1);
    let matches = folders.filter(f => f.name === first);
    if (!matches.length) matches = folders.filter(f => f.name.toLowerCase() === first.toLowerCase());
    if (matches.length > 1) return { problem: { code: 'ambiguousFolder', raw: shown, naming: named.naming, detail: first } };
    if (matches.length === 1 && !matches[0].hasSelfNamedChild) {
      if (folders.length === 1) return { target: { ...base, path: rest } };
      return { target: { ...base, path: rest, folder: matches[0].name } };
    }
  }
  return { target: base };
}

const sameTarget = (a: BlockTarget, b: BlockTarget) => a.path === b.path && a.folder === b.folder;

function readBlock(r: RawBlock, index: number, resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  const info = readInfo(r.info);
  const block: AnswerBlock = {
    index,
    startLine: r.startLine,
    endLine: r.endLine,
    closed: r.closed,
    fence: r.fence,
    indent: r.indent,
    info: r.info,
    language: info.language,
    body: r.body,
    code: r.body,
    kind: 'snippet',
    targets: [],
    problems: [],
  };
  const infoTargets: BlockTarget[] = [];
  for (const n of info.names) {
    const res = resolve(n);
    if (res.problem) block.problems.push(res.problem);
    else if (res.target && !infoTargets.some(t => sameTarget(t, res.target!))) infoTargets.push(res.target);
  }
  if (infoTargets.length > 1) {
    block.problems.push({ code: 'ambiguousName', raw: infoTargets[0].raw, detail: infoTargets[1].raw, naming: infoTargets[1].naming });
    infoTargets.length = 0;
  }
  const infoRefused = block.problems.length > 0;

  if (looksLikePatch(r.body)) return readPatch(block, infoTargets, resolve);
  if (looksLikeEditBlocks(r.body)) return readEdits(block, infoTargets, infoRefused, r, resolve);
  if (looksLikeDiff(info.language, r.body)) return readDiff(block, infoTargets, infoRefused, r, resolve);

  // A first comment line naming the file, and the line before the fence.
  const first = firstNonBlank(r.body, 1);
  const commentRaw = first ? commentNaming(first.line) : undefined;
  const comment = commentRaw !== undefined ? resolve({ raw: commentRaw, naming: 'comment' }) : undefined;
  const beforeRaw = r.before ? namingLine(r.before.text) : undefined;
  const before = beforeRaw !== undefined ? resolve({ raw: beforeRaw, naming: 'lineBefore' }) : undefined;

  let target: BlockTarget | undefined = infoTargets[0];
  if (!infoRefused) {
    // The comment line names the file: unless the info string named another one, it is a naming.
    if (comment?.target) {
      if (!target) target = comment.target;
      else if (!sameTarget(target, comment.target)) {
        // The info string wins; a comment naming another file is the file's own first line (content).
        comment.target = undefined;
      }
    } else if (comment?.problem && !target) block.problems.push(comment.problem);
    if (before?.target) {
      if (!target) {
        target = before.target;
        block.namingLine = r.before!.line;
      } else if (!sameTarget(target, before.target)) {
        block.problems.push({ code: 'ambiguousName', raw: target.raw, detail: before.target.raw, naming: 'lineBefore' });
        target = undefined;
      } else block.namingLine = r.before!.line;
    } else if (before?.problem && !target && !block.problems.length) block.problems.push(before.problem);
  }
  if (comment?.target && target && sameTarget(target, comment.target) && first) {
    // The naming comment is not part of the file.
    block.code = r.body.slice(first.next);
  }
  if (target) {
    block.targets.push(target);
    block.path = target.path;
  }

  if (!target && !block.problems.length && looksLikeOutput(info.language, r.body)) {
    block.kind = 'output';
    return block;
  }
  // Line-numbered code ("15 | x", "3: x" on every line, counting up) lands without its numbers.
  const numbered = stripGutter(block.code);
  if (numbered !== undefined) block.code = numbered;
  // "// Before" … "// After" … in one block: the "after" is the proposal.
  const after = afterPart(block.code);
  if (after !== undefined) block.code = after;
  const elision = firstElision(block.code, info.language);
  if (elision !== undefined) {
    block.kind = 'partial';
    block.elision = elision;
  } else block.kind = target || block.problems.length ? 'file' : 'snippet';
  return block;
}

function readDiff(block: AnswerBlock, infoTargets: BlockTarget[], infoRefused: boolean, r: RawBlock, resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  block.kind = 'diff';
  const files = parseUnifiedDiff(block.body);
  for (const f of files) unanchored(f);
  block.sections = [];
  const named = infoTargets[0];
  if (infoRefused) {
    block.sections = files.map(diff => ({ diff }));
    return block;
  }
  if (named) {
    // The info string names the file: a header naming another file makes the block refused.
    for (const diff of files) {
      const other = diff.newPath ?? diff.oldPath;
      const res = other !== undefined ? resolve({ raw: other, naming: 'diffHeader' }) : undefined;
      if (other !== undefined && !(res?.target && sameTarget(res.target, named))) {
        block.problems.push({ code: 'conflictingHeader', raw: named.raw, detail: displayPath(other), naming: 'diffHeader' });
        block.sections = files.map(d => ({ diff: d }));
        return block;
      }
    }
    block.targets.push(named);
    block.path = named.path;
    block.sections = files.map(diff => ({ diff, target: named }));
    return block;
  }
  const headerless = files.every(f => f.oldPath === undefined && f.newPath === undefined);
  if (headerless) {
    // A diff without headers: named by the line before the fence, else unnamed.
    const beforeRaw = r.before ? namingLine(r.before.text) : undefined;
    const before = beforeRaw !== undefined ? resolve({ raw: beforeRaw, naming: 'lineBefore' }) : undefined;
    if (before?.target && files.length) {
      block.targets.push(before.target);
      block.path = before.target.path;
      block.namingLine = r.before!.line;
      block.sections = files.map(diff => ({ diff, target: before.target }));
    } else {
      if (before?.problem && files.length) block.problems.push(before.problem);
      block.sections = files.map(diff => ({ diff }));
    }
    return block;
  }
  for (const diff of files) {
    const raw = diff.deleted ? diff.oldPath : (diff.newPath ?? diff.oldPath);
    if (raw === undefined) {
      block.sections.push({ diff });
      continue;
    }
    const res = resolve({ raw, naming: 'diffHeader' });
    if (res.target) {
      block.sections.push({ diff, target: res.target });
      if (!block.targets.some(t => sameTarget(t, res.target!))) block.targets.push(res.target);
    } else block.sections.push({ diff, problem: res.problem });
  }
  if (block.targets.length === 1) block.path = block.targets[0].path;
  return block;
}

function readPatch(block: AnswerBlock, infoTargets: BlockTarget[], resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  block.kind = 'patch';
  block.sections = [];
  void infoTargets;
  for (const f of parseBeginPatch(block.body)) {
    const res = resolve({ raw: f.path, naming: 'patchHeader' });
    const section: BlockSection = { diff: f.diff };
    if (f.movedTo !== undefined) section.movedTo = f.movedTo;
    if (res.target) {
      section.target = res.target;
      if (!block.targets.some(t => sameTarget(t, res.target!))) block.targets.push(res.target);
    } else section.problem = res.problem;
    block.sections.push(section);
  }
  if (block.targets.length === 1) block.path = block.targets[0].path;
  return block;
}

/**
 * Search/replace edit blocks (editBlocks.ts): read as a diff of hunks without context or line numbers. The file
 * is named as any block names it, or on the fence's first line (aider's variant), or by a bare path on the line
 * before the fence (aider's own format, where no other text can stand there).
 */
function readEdits(block: AnswerBlock, infoTargets: BlockTarget[], infoRefused: boolean, r: RawBlock, resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  block.kind = 'diff';
  block.edits = true;
  const parsed = parseEditBlocks(r.body);
  const diff = { created: false, deleted: false, renamed: false, binary: false, hunks: parsed.malformed ? [] : parsed.hunks, eolMarked: false, headersPastCap: 0 };
  // An empty SEARCH is a new file (aider): its REPLACE is the file's text.
  if (diff.hunks.length === 1 && diff.hunks[0].lines.every(l => l.op === '+')) diff.created = true;
  block.sections = [{ diff }];
  if (infoRefused) return block;
  let target = infoTargets[0];
  const candidates: Named[] = [];
  if (parsed.namedInside !== undefined) candidates.push({ raw: parsed.namedInside.replace(/^(?:\/\/|#)\s*/, ''), naming: 'comment' });
  if (r.before) {
    const named = namingLine(r.before.text);
    const bare = r.before.text.trim();
    if (named !== undefined) candidates.push({ raw: named, naming: 'lineBefore' });
    else if (isPathLike(bare)) candidates.push({ raw: bare, naming: 'lineBefore' });
  }
  for (const c of candidates) {
    const res = resolve(c);
    if (res.problem) {
      if (!target) {
        block.problems.push(res.problem);
        return block;
      }
      continue;
    }
    if (!res.target) continue;
    if (!target) {
      target = res.target;
      if (c.naming === 'lineBefore') block.namingLine = r.before!.line;
    } else if (!sameTarget(target, res.target)) {
      if (c.naming === 'lineBefore') continue; // the fence's own naming wins over prose before it
      block.problems.push({ code: 'ambiguousName', raw: target.raw, detail: res.target.raw, naming: c.naming });
      return block;
    }
  }
  if (target) {
    block.targets.push(target);
    block.path = target.path;
    block.sections = [{ diff, target }];
  }
  return block;
}

/**
 * A draft then "the final version" without a name: an unnamed code block that declares first what the named
 * whole file before it declares first, and keeps enough of it, is a later version of that file. It takes the
 * file's name, so the plan lands it and lists the draft as superseded (never the draft over the file and the
 * final version over the selection).
 */
function laterVersions(blocks: AnswerBlock[]): void {
  let last: AnswerBlock | undefined;
  for (const b of blocks) {
    if (b.kind === 'file' && b.targets.length === 1) {
      last = b;
      continue;
    }
    if (!last || b.kind !== 'snippet' || b.targets.length || b.problems.length) continue;
    const mine = b.code.split('\n');
    const theirs = last.code.split('\n');
    const declared = definitionOf(theirs);
    if (!declared || definitionOf(mine)?.name !== declared.name || !keepsEnough(mine, theirs) || !keepsEnough(theirs, mine)) continue;
    b.kind = 'file';
    b.targets.push({ ...last.targets[0], naming: 'sameAs' });
    b.path = last.path;
  }
}

/** Whether a line of the answer is inside one of `blocks` (fences included): asked in increasing line order. */
function insideBlocks(blocks: readonly { startLine: number; endLine: number }[]): (line: number) => boolean {
  const spans = [...blocks].sort((a, b) => a.startLine - b.startLine);
  let k = 0;
  return line => {
    while (k < spans.length && spans[k].endLine < line) k++;
    return k < spans.length && spans[k].startLine <= line;
  };
}
