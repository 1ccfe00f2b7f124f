/**
 * The review plan: an answer, the texts recorded when the task was sent and the files now → per file, the
 * hunks to offer (each with its place in the text now and the text that lands) and everything not offered,
 * with its reason. Nothing here writes; the integration builds one WorkspaceEdit entry per hunk from it.
 *
 * How a file's proposal becomes hunks:
 * - Whole file: diffed against the text that was sent (three-way with the file now), or against the file now
 *   when no text was recorded (two-way: nothing can conflict). A fenced block cannot say "no newline at end",
 *   so the file keeps its final-newline state. A block that elides parts ("// ... existing code ...", not
 *   in the file) or is empty for a non-empty file is not applied.
 * - Diff: each hunk is placed in the text that was sent (exactly, anywhere, nearest its stated line first).
 *   A hunk that does not fit there is placed in the file now by its context with up to `fuzz` (default 2)
 *   context lines left out at each end, within 100 lines of where the other hunks put it: it is flagged
 *   `byContext`. A hunk that fits neither is listed in `skippedHunks`; the file's other hunks stay offered.
 * - Several blocks for one file: the later block wins over earlier ones (listed as superseded), except that
 *   diffs in a row are combined; where hunks of two diffs overlap or touch, the later block's hunk wins.
 * - The range proposal (one unnamed block): replaces the sent range in the sent text (or, when no text was
 *   recorded, the range where it is now, `source.currentRange`), then merges like a whole file. A named
 *   "whole file" for the source that drops every line before the sent range, or every line after it, is
 *   taken the same way: the agents saw only the range, so that block is the range's new code, not the file.
 * - Diff hunks for the source when its range started or ended inside a line are matched against those lines
 *   cut as they were sent; a changed cut line gets back the part the agents did not see (`asSeen`).
 * - Three-way merge rules: merge.ts. Conflicts are hunks with `conflict: true`: offer them unchecked.
 * - New files: created when missing and never sent; a missing file that was sent was moved or deleted since
 *   (not re-created). Deletions and renames are listed, never applied.
 *
 * Paths are checked lexically (paths.ts). The caller's `ReviewFiles.current` must answer `refused` for a path
 * that the file system says leads outside the workspace (use `confinePath`), is not a regular file, or is too
 * large or binary to merge; the plan then lists it with that reason.
 */
import { type ParsedAnswer, type Proposal, type UnnamedBlock, parseAnswer } from './answer';
import type { Budget } from './diff';
import {
  type Eol,
  eolOf,
  finalNewlineOf,
  hasNoEol,
  joinLines,
  lineStarts,
  setFinalNewline,
  toLines,
  withNoEol,
  withoutNoEol,
} from './lines';
import { type Change, type MergedHunk, changesBetween, merge3 } from './merge';
import { type DiffHunk, MAX_HUNK_HEADERS, keepFinalNewline, newSide, placeHunks } from './patch';
import { landPartial, partialHunks } from './partial';
import { checkPath, runsCode } from './paths';
import { isElisionLine } from './reader';
import { type HunkSkipCode, type RunsCode, type SkipCode, type TooComplex, type Translate, conflictMarkers, hunkLabel, hunkSkipReason, pathProblem, plain, skipReason } from './words';

export type FileState = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'refused'; reason: string; outside?: boolean };

/** The caller's view of the workspace. Both are called with paths that passed `checkPath`, once each. */
export interface ReviewFiles {
  /** The file now (an open document's text, else the disk's), missing, or refused (see above). */
  current(path: string): FileState;
  /** The text recorded when the task was sent; undefined when not sent or over the recorded-size bound. */
  sent(path: string): string | undefined;
}

/** Zero-based, as in vscode.Range. */
export interface RangeRecord {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** The task's source: where the range proposal goes. */
export interface SentSource {
  /** Workspace-relative path (the task's source label). */
  path: string;
  /** The range that was sent, in the sent text; absent when the whole file was sent. */
  range?: RangeRecord;
  /** Where that range is in the file now (SourceRangeTracker), for when no text was recorded. */
  currentRange?: RangeRecord;
}

export interface PlanOptions {
  source?: SentSource;
  /** `vscode.l10n.t` in the extension. Default: English templates filled in. */
  translate?: Translate;
  /** Line break of created files. Default LF. */
  newFileEol?: Eol;
  /** Context lines a hunk placed in the file now may leave out at each end. Default 2. */
  fuzz?: number;
  /** Hunks offered at most, over all files; files beyond are listed as `tooMany`. Default 5,000. */
  maxHunks?: number;
  /**
   * Steps of diff and search work for the whole plan (default 40 million, well under a second): past it,
   * diffs become coarse and unplaced hunks are listed, so a hostile answer of many files stays bounded.
   */
  workBudget?: number;
  /** Paths differing only in case name one file (Windows, macOS by default): their blocks are grouped. */
  caseInsensitivePaths?: boolean;
  /** Hunk headers in the answer's diffs at most; past it the plan is `tooComplex` at once. Default 50,000. */
  maxHunkHeaders?: number;
}

export interface Position {
  line: number;
  character: number;
}

export interface PlanHunk {
  /** `<path>#<index>`: stable for the same plan inputs. */
  id: string;
  /** 1-based, in the order of the file. */
  index: number;
  label: string;
  /** Lines `[startLine, endLine)` of the text now (0-based) are replaced; equal for an insertion. */
  currentRange: { startLine: number; endLine: number };
  /** The same as valid editor positions (the end of an unterminated last line, not past it). */
  start: Position;
  end: Position;
  /** The same as offsets into the text now. */
  startOffset: number;
  endOffset: number;
  /** The text now in that range, exactly. */
  oldText: string;
  /** The text that lands, in the file's line break. */
  newText: string;
  /** Touches lines the user changed since the task was sent: offer unchecked. */
  conflict: boolean;
  /** For a conflict: the region as sent, as it is now, and as the proposal has it. */
  sides?: { base: string; ours: string; theirs: string };
  /** Lands at another line than in the text that was sent. */
  shifted: boolean;
  /** Next to (not on) lines the user changed. */
  nearUserEdit: boolean;
  /** Placed in the file now by its context (a diff hunk that did not fit the text that was sent, or fuzz). */
  byContext: boolean;
}

export interface SkippedHunk {
  /** 1-based index of the hunk in its diff block. */
  hunk: number;
  block: number;
  header: string;
  code: HunkSkipCode;
  reason: string;
}

export interface PlanFile {
  /** Normalised workspace-relative path; '' for a block that names none. */
  path: string;
  kind: 'modify' | 'create' | 'skip';
  reasonCode?: SkipCode;
  reason?: string;
  from: 'whole' | 'diff' | 'range' | 'unnamed';
  /** Answer blocks (codeBlocks() indexes) this entry comes from; -1 for an unclosed block. */
  blocks: number[];
  /** 0-based line of the first block's fence in the answer. */
  line: number;
  /** No text was recorded: merged against the file now only. */
  twoWay: boolean;
  eol: Eol;
  /** A file that can run code (.vscode, package.json, Makefile, … `RUNS_CODE`): it starts unchecked. */
  sensitive: boolean;
  /** Why it can run code (`runsCodeReason` words it). */
  runsCode?: RunsCode;
  alreadyApplied: number;
  /** The diff hit its work bound somewhere: hunks may be coarser than needed. */
  coarse: boolean;
  hunks: PlanHunk[];
  skippedHunks: SkippedHunk[];
}

export interface ReviewPlan {
  files: PlanFile[];
  hunkCount: number;
  conflictCount: number;
  /**
   * The answer is more than a review here can take (more hunk headers than `maxHunkHeaders`, or the work
   * budget was spent): the caller says so with these numbers (`tooComplexReason`) and offers the raw answer
   * instead of a preview that would be partial.
   */
  tooComplex?: TooComplex;
}

export const WORK_BUDGET = 40_000_000;

const ELISION =
  /^\s*(?:\/\/+|#+|\/\*+|\{\/\*|<!--|--|;+|%+|\*)\s*(?:\.\.\.|…|\[\.\.\.\]|(?:[^\n]*?\b(?:existing code|rest of (?:the )?(?:file|code|class|function|method|module|implementation)|(?:remains?|stays?|is) (?:the same|unchanged)|unchanged code|code (?:omitted|unchanged)|same as before|omitted for brevity)\b))/i;

/** A line that stands for left-out code and is not in `reference`, or undefined. */
export function elidedLine(keys: readonly string[], reference: readonly string[], language?: string): string | undefined {
  let candidates: Set<string> | undefined;
  for (const k of keys) {
    if (k.length < 240 && (ELISION.test(k) || (language !== undefined && isElisionLine(withoutNoEol(k), language)))) (candidates ??= new Set()).add(withoutNoEol(k));
  }
  if (!candidates) return undefined;
  for (const r of reference) candidates.delete(withoutNoEol(r));
  const first = candidates.values().next();
  return first.done ? undefined : first.value.trim().slice(0, 80);
}

export function buildPlan(answer: ParsedAnswer | string, files: ReviewFiles, options: PlanOptions = {}): ReviewPlan {
  const t = options.translate ?? plain;
  const allowed = options.workBudget ?? WORK_BUDGET;
  const budget: Budget = { left: allowed };
  const parsed = typeof answer === 'string' ? parseAnswer(answer, { sourcePath: options.source?.path }) : answer;
  let headers = 0;
  for (const p of parsed.proposals) if (p.kind === 'diff') headers += p.diff.hunks.length + (p.diff.headersPastCap ?? 0);
  const maxHeaders = options.maxHunkHeaders ?? MAX_HUNK_HEADERS;
  const verdict = (): TooComplex => ({ hunkHeaders: headers, maxHunkHeaders: maxHeaders, blocks: parsed.proposals.length, work: allowed - budget.left, workBudget: allowed });
  if (headers > maxHeaders) return { files: [], hunkCount: 0, conflictCount: 0, tooComplex: verdict() };
  const entries: PlanFile[] = [];
  const skip = (path: string, from: PlanFile['from'], blocks: number[], line: number, code: SkipCode, ...args: (string | number)[]): PlanFile => ({
    ...emptyFile(path, from, blocks, line),
    kind: 'skip',
    reasonCode: code,
    reason: skipReason(t, code, ...args),
  });

  // Each path's texts are asked for once (the contract above), also when a partial block asks first.
  files = onceEach(files);
  const byPath = new Map<string, Proposal[]>();
  const rangeSource = options.source?.range ? checkPath(options.source.path) : undefined;
  const partials = landablePartials(parsed.proposals, files, budget, rangeSource?.ok ? rangeSource.path : undefined, (p, code, ...args) =>
    entries.push(skip(p.path, 'whole', [p.block], p.line, code, ...args)),
  );
  for (const p of partials) {
    const key = options.caseInsensitivePaths ? p.path.toLowerCase() : p.path;
    const list = byPath.get(key);
    if (list) list.push(p);
    else byPath.set(key, [p]);
  }
  for (const list of byPath.values()) {
    const path = list[0].path;
    // The later block wins; diffs in a row are combined.
    let effective: Proposal[] = [];
    for (const p of list) {
      if (p.kind === 'whole' || effective[0]?.kind === 'whole') {
        for (const old of effective) entries.push(skip(path, old.kind, [old.block], old.line, 'superseded'));
        effective = [p];
      } else effective.push(p);
    }
    entries.push(planFile(path, effective, files, options, t, skip, budget));
  }

  const source = options.source && checkPath(options.source.path);
  if (parsed.rangeBlock && options.source && source?.ok) {
    entries.push(planRange(source.path, options.source, parsed.rangeBlock, files.current(source.path), files.sent(source.path), t, skip, budget));
  }
  for (const u of parsed.unnamed) {
    // Program output and prose blocks (```text, a shell transcript) are not changes: nothing to list.
    if (u.kind === 'output') continue;
    if (u !== parsed.rangeBlock || !source?.ok) entries.push(skip('', 'unnamed', [u.block], u.line, 'noPath'));
  }
  for (const r of parsed.rejected) {
    const args =
      r.code === 'invalidPath'
        ? [r.path, pathProblem(t, r.problem ?? 'empty')]
        : r.code === 'conflictingHeader' || r.code === 'ambiguousFolder' || r.code === 'inSeveralFolders'
          ? [r.detail ?? '']
          : r.code === 'ambiguousName'
            ? [`${r.path}, ${r.detail ?? ''}`]
            : [];
    entries.push(skip(r.code === 'invalidPath' ? '' : r.path, r.isDiff ? 'diff' : 'whole', [r.block], r.line, r.code, ...args));
  }
  entries.sort((a, b) => a.line - b.line);

  let hunkCount = 0;
  let conflictCount = 0;
  const max = options.maxHunks ?? 5000;
  const planned: PlanFile[] = entries.map(f => {
    if (f.kind === 'skip') return f;
    if (hunkCount + f.hunks.length > max) return skip(f.path, f.from, f.blocks, f.line, 'tooMany');
    hunkCount += f.hunks.length;
    conflictCount += f.hunks.filter(h => h.conflict).length;
    return f;
  });
  // The budget spent: some diffs were cut coarse and some hunks not searched for. A partial preview would mislead.
  if (budget.left <= 0) return { files: planned, hunkCount, conflictCount, tooComplex: verdict() };
  return { files: planned, hunkCount, conflictCount };
}

/** `files` answering each path once, however often it is asked. */
function onceEach(files: ReviewFiles): ReviewFiles {
  const current = new Map<string, FileState>();
  const sent = new Map<string, string | undefined>();
  return {
    current: p => {
      if (!current.has(p)) current.set(p, files.current(p));
      return current.get(p)!;
    },
    sent: p => {
      if (!sent.has(p)) sent.set(p, files.sent(p));
      return sent.get(p);
    },
  };
}

/**
 * Whole-file proposals that leave parts out become diffs of the parts they show (partial.ts), so two partial
 * blocks for one file combine like diffs instead of the later replacing the earlier; one whose parts cannot be
 * placed (or for a file that does not exist) is listed through `skip`. A marker line the file itself has is
 * content: such a block stays a whole file.
 * A "whole file" with less than half the lines (and four fifths of the characters) of a file of 12 lines or more is a fragment of it ("In `a.ts`:" above
 * one function): it lands by its lines like a partial block, or is listed; never replaces the file. The
 * task's source with a sent range is left to the range rule (`planFile`).
 */
function landablePartials(
  proposals: readonly Proposal[],
  files: ReviewFiles,
  budget: Budget,
  rangeSourcePath: string | undefined,
  skip: (p: Proposal, code: 'elided' | 'partial' | 'fragment', ...args: (string | number)[]) => void,
): Proposal[] {
  const out: Proposal[] = [];
  for (const p of proposals) {
    if (p.kind !== 'whole') {
      out.push(p);
      continue;
    }
    const state = files.current(p.path);
    if (state.kind === 'refused' || (p.elision === undefined && (state.kind !== 'file' || p.path === rangeSourcePath))) {
      out.push(p);
      continue;
    }
    const sent = files.sent(p.path);
    const referenceText = sent ?? (state.kind === 'file' ? state.text : undefined);
    // The usual whole file is about as long as the file: ruled out by its length in characters, nothing split.
    if (p.elision === undefined && (referenceText === undefined || p.text.length * 1.25 >= referenceText.length)) {
      out.push(p);
      continue;
    }
    const reference = referenceText !== undefined ? toLines(referenceText).keys : undefined;
    const keys = toLines(p.text).keys;
    if (p.elision === undefined) {
      if (!reference || reference.length < 12 || keys.length * 2 >= reference.length) {
        out.push(p);
        continue;
      }
      const hunks = partialHunks(keys, reference, p.language, budget);
      if (!hunks) skip(p, 'fragment', keys.length, reference.length);
      else if (!hunks.length) out.push({ ...p, text: joinLines(reference, '\n') });
      else out.push({ kind: 'diff', path: p.path, block: p.block, line: p.line, diff: { created: false, deleted: false, renamed: false, binary: false, hunks, eolMarked: false, headersPastCap: 0 }, ...(p.folder !== undefined ? { folder: p.folder } : {}), ...(p.naming ? { naming: p.naming } : {}) });
      continue;
    }
    const elided = elidedLine(keys, reference ?? [], p.language);
    const outcome = landPartial(keys, reference, elided, p.language, budget);
    if (outcome.kind === 'whole') out.push({ ...p, elision: undefined });
    else if (outcome.kind === 'skip') skip(p, outcome.code, outcome.marker);
    else if (!outcome.hunks.length) out.push({ ...p, elision: undefined, text: reference ? joinLines(reference, '\n') : p.text });
    else {
      const diff = { created: false, deleted: false, renamed: false, binary: false, hunks: outcome.hunks, eolMarked: false, headersPastCap: 0 };
      out.push({ kind: 'diff', path: p.path, block: p.block, line: p.line, diff, ...(p.folder !== undefined ? { folder: p.folder } : {}), ...(p.naming ? { naming: p.naming } : {}) });
    }
  }
  return out;
}

function emptyFile(path: string, from: PlanFile['from'], blocks: number[], line: number): PlanFile {
  const code = path ? runsCode(path) : undefined;
  return {
    path,
    kind: 'modify',
    from,
    blocks,
    line,
    twoWay: false,
    eol: '\n',
    sensitive: !!code,
    ...(code ? { runsCode: code } : {}),
    alreadyApplied: 0,
    coarse: false,
    hunks: [],
    skippedHunks: [],
  };
}

type Skip = (path: string, from: PlanFile['from'], blocks: number[], line: number, code: SkipCode, ...args: (string | number)[]) => PlanFile;

function isSource(path: string, options: PlanOptions): boolean {
  const source = options.source && checkPath(options.source.path);
  if (!source?.ok) return false;
  return options.caseInsensitivePaths ? source.path.toLowerCase() === path.toLowerCase() : source.path === path;
}

/** Whether changes delete every line before the range, or every line after it (where there are any). */
function dropsAllOutside(changes: readonly Change[], lineCount: number, range: RangeRecord): boolean {
  const first = range.startLine;
  const end = range.endCharacter === 0 && range.endLine > range.startLine ? range.endLine : range.endLine + 1;
  return changes.some(c => (first > 0 && c.start === 0 && c.end >= first) || (end < lineCount && c.start <= end && c.end === lineCount));
}

function refusedOrUndefined(state: ReturnType<ReviewFiles['current']>, skip: (code: SkipCode, ...args: string[]) => PlanFile): PlanFile | undefined {
  if (state.kind !== 'refused') return undefined;
  return state.outside ? skip('outside') : skip('refused', state.reason);
}

function planFile(path: string, proposals: Proposal[], files: ReviewFiles, options: PlanOptions, t: Translate, skipAt: Skip, budget: Budget): PlanFile {
  const first = proposals[0];
  const blocks = proposals.map(p => p.block);
  const skip = (code: SkipCode, ...args: (string | number)[]) => skipAt(path, first.kind, blocks, first.line, code, ...args);
  const state = files.current(path);
  const refused = refusedOrUndefined(state, skip);
  if (refused) return refused;
  const sentText = files.sent(path);

  if (first.kind === 'whole') {
    if (state.kind === 'missing') return sentText !== undefined ? skip('gone') : create(path, first.kind, blocks, first.line, toLines(first.text).keys, options, t);
    const current = (state as { text: string }).text;
    if (!first.text && current) return skip('emptyBlock');
    const ours = toLines(current);
    const base = sentText !== undefined ? toLines(sentText).keys : undefined;
    const reference = base ?? ours.keys;
    const theirs = setFinalNewline(toLines(first.text).keys, finalNewlineOf(reference));
    const elided = elidedLine(theirs, reference, first.language);
    if (elided !== undefined) return skip('elided', elided);
    const { changes, coarse } = changesBetween(reference, theirs, 0, budget);
    const range = isSource(path, options) ? options.source?.range : undefined;
    if (base && range && dropsAllOutside(changes, base.length, range)) {
      // The agents saw only the range: a "whole file" that drops everything they did not see is the range's new code.
      const snippet = { block: first.block, line: first.line, language: first.language, code: first.text, isDiff: false };
      return planRange(path, options.source!, snippet, state, sentText, t, skipAt, budget);
    }
    return finish(path, first.kind, blocks, first.line, current, ours.keys, base, changes, undefined, new Set(), coarse, t, budget);
  }

  const diffs = proposals as Extract<Proposal, { kind: 'diff' }>[];
  const created = diffs.some(d => d.diff.created);
  const allHunks = diffs.flatMap(d => d.diff.hunks);
  const strict = diffs.some(d => d.diff.eolMarked);
  const onlyAdds = allHunks.every(h => h.lines.every(l => l.op === '+'));
  if (state.kind === 'missing') {
    if (sentText !== undefined) return skip('gone');
    if (!created && !onlyAdds) return skip('missing');
    return create(path, 'diff', blocks, first.line, newSide(allHunks, strict), options, t);
  }
  const current = (state as { text: string }).text;
  const ours = toLines(current);
  if (created) {
    const content = newSide(allHunks, strict);
    const same = content.length === ours.keys.length && content.every((k, i) => k === ours.keys[i] || (!strict && withNoEol(k) === ours.keys[i]));
    return same ? skip('unchanged') : skip('exists');
  }
  const base = sentText !== undefined ? toLines(sentText).keys : undefined;
  const fuzz = options.fuzz ?? 2;
  // The source's range, when it cut lines: the agents saw those lines cut, and wrote their context so.
  const seen = base && isSource(path, options) ? asSeen(base, options.source?.range) : undefined;

  // Place every diff's hunks: in the sent text, else in the file now by context.
  interface Placed {
    changes: Change[];
    block: number;
    hunk: number;
    header: string;
    inBase: boolean;
    fuzz: number;
  }
  const placed: Placed[] = [];
  const skipped: SkippedHunk[] = [];
  const skipHunk = (block: number, hunkIndex: number, h: DiffHunk, code: HunkSkipCode) =>
    skipped.push({ hunk: hunkIndex + 1, block, header: h.header, code, reason: hunkSkipReason(t, code, hunkIndex + 1, h.header) });
  let group = 0;
  for (const d of diffs) {
    const hunks = d.diff.hunks;
    let failed: number[] = hunks.map((_, i) => i);
    if (base) {
      const r = placeHunks(seen?.keys ?? base, hunks, strict, { fuzz: 0, firstGroup: group, budget });
      for (const p of r.placed) {
        const changes = seen ? p.changes.map(c => seen.restore(c)) : p.changes;
        placed.push({ changes, block: d.block, hunk: p.hunk, header: hunks[p.hunk].header, inBase: true, fuzz: 0 });
      }
      failed = r.failed;
    }
    if (failed.length) {
      const r = placeHunks(ours.keys, hunks, strict, { fuzz, firstGroup: group, only: new Set(failed), budget });
      for (const p of r.placed) placed.push({ changes: p.changes, block: d.block, hunk: p.hunk, header: hunks[p.hunk].header, inBase: false, fuzz: p.fuzz });
      for (const i of r.failed) skipHunk(d.block, i, hunks[i], 'doesNotApply');
    }
    group += hunks.length;
  }
  if (!placed.length) {
    const f = skip('doesNotApply');
    f.skippedHunks = skipped;
    return f;
  }

  // Where hunks of different blocks overlap or touch, the later block's hunk wins.
  const keep = (list: Placed[]): Placed[] => {
    // Spans accepted so far, sorted and disjoint: a binary search finds the only ones that can clash.
    const starts: number[] = [];
    const ends: number[] = [];
    const kept: Placed[] = [];
    for (const p of [...list].sort((a, b) => b.block - a.block || a.hunk - b.hunk)) {
      let lo = p.changes[0].start;
      let hi = p.changes[0].end;
      for (const c of p.changes) {
        lo = Math.min(lo, c.start);
        hi = Math.max(hi, c.end);
      }
      let at = 0;
      for (let step = starts.length; step > 0; step >>= 1) while (at + step <= starts.length && starts[at + step - 1] <= hi) at += step;
      // starts[0..at) begin at or before hi: only the last of them can reach lo.
      if (at > 0 && ends[at - 1] >= lo) {
        skipHunk(p.block, p.hunk, diffs.find(x => x.block === p.block)!.diff.hunks[p.hunk], 'superseded');
        continue;
      }
      starts.splice(at, 0, lo);
      ends.splice(at, 0, hi);
      kept.push(p);
    }
    return kept;
  };
  const multi = diffs.length > 1;
  const inBase = multi ? keep(placed.filter(p => p.inBase)) : placed.filter(p => p.inBase);
  const inOurs = multi ? keep(placed.filter(p => !p.inBase)) : placed.filter(p => !p.inBase);
  const sortChanges = (list: Placed[]) => list.flatMap(p => p.changes).sort((a, b) => a.start - b.start);
  let baseChanges = sortChanges(inBase);
  let oursChanges = sortChanges(inOurs);
  if (!strict) {
    if (base) baseChanges = keepFinalNewline(base, baseChanges);
    oursChanges = keepFinalNewline(ours.keys, oursChanges);
  }
  const fuzzy = new Set(inOurs.filter(p => p.fuzz > 0).map(p => p.changes[0].group));
  const origin = new Map(placed.map(p => [p.changes[0]?.group, { block: p.block, hunk: p.hunk + 1, header: p.header }]));
  const direct = { changes: base ? oursChanges : [], origin };
  return finish(path, 'diff', blocks, first.line, current, ours.keys, base, base ? baseChanges : oursChanges, direct, fuzzy, false, t, budget, skipped);
}

/**
 * The sent text as the agents saw it when the range starts or ends inside a line (a selection from the first
 * non-blank character is the usual one): those lines cut to the range. `restore` gives a change made to a
 * cut line back the part the agents did not see (before the range on its first line, after it on its last).
 */
export function asSeen(base: readonly string[], range: RangeRecord | undefined): { keys: string[]; restore: (c: Change) => Change } | undefined {
  if (!range) return undefined;
  const first = range.startLine;
  // A range ending at column 0 ends with the line before, whole.
  const wholeEnd = range.endCharacter === 0 && range.endLine > range.startLine;
  const last = wholeEnd ? range.endLine - 1 : range.endLine;
  if (first < 0 || last >= base.length || last < first) return undefined;
  const content = (i: number) => withoutNoEol(base[i]);
  const prefix = content(first).slice(0, Math.max(0, range.startCharacter));
  const suffix = wholeEnd ? '' : content(last).slice(Math.max(0, range.endCharacter));
  if (!prefix && !suffix) return undefined;
  const keys = base.slice();
  const cut = (i: number, from: number, to?: number) => {
    const tagged = hasNoEol(base[i]);
    const text = content(i).slice(from, to);
    keys[i] = tagged ? withNoEol(text) : text;
  };
  if (first === last) cut(first, prefix.length, suffix ? content(last).length - suffix.length : undefined);
  else {
    if (prefix) cut(first, prefix.length);
    if (suffix) cut(last, 0, content(last).length - suffix.length);
  }
  const restore = (c: Change): Change => {
    const touchesFirst = !!prefix && c.start === first && c.end > first;
    const touchesLast = !!suffix && c.start <= last && c.end === last + 1;
    if (!touchesFirst && !touchesLast) return c;
    const lines = c.lines.length ? c.lines.slice() : [''];
    // The new line that stands for the cut one: the one most like it (lines may be inserted around it).
    const likest = (seenKey: string, preferLast: boolean) => {
      const seenText = withoutNoEol(seenKey);
      let best = preferLast ? lines.length - 1 : 0;
      let bestLength = -1;
      lines.forEach((k, i) => {
        const text = withoutNoEol(k);
        let n = 0;
        while (n < text.length && n < seenText.length && text.charCodeAt(n) === seenText.charCodeAt(n)) n++;
        if (n > bestLength || (preferLast && n === bestLength)) [best, bestLength] = [i, n];
      });
      return best;
    };
    if (touchesFirst) {
      const k = likest(keys[first], false);
      lines[k] = prefix + lines[k];
    }
    if (touchesLast) {
      const k = likest(keys[last], true);
      lines[k] = hasNoEol(lines[k]) ? withNoEol(withoutNoEol(lines[k]) + suffix) : lines[k] + suffix;
    }
    // A cut line removed whole: what the agents did not see of it stays, if it is more than blanks.
    if (!c.lines.length && !lines[0].trim()) return c;
    return { ...c, lines };
  };
  return { keys, restore };
}

function planRange(
  path: string,
  source: SentSource,
  block: UnnamedBlock,
  state: FileState,
  sentText: string | undefined,
  t: Translate,
  skipAt: Skip,
  budget: Budget,
): PlanFile {
  const skip = (code: SkipCode, ...args: (string | number)[]) => skipAt(path, 'range', [block.block], block.line, code, ...args);
  const refused = refusedOrUndefined(state, skip);
  if (refused) return refused;
  if (state.kind === 'missing') return skip('gone');
  const current = (state as { text: string }).text;
  const ours = toLines(current);
  const base = sentText !== undefined ? toLines(sentText).keys : undefined;
  const range = base ? source.range : source.range ? source.currentRange : undefined;
  if (!base && source.range && !source.currentRange) return skip('noRange');
  const reference = base ?? ours.keys;
  let theirs: string[];
  if (!range) theirs = setFinalNewline(toLines(block.code).keys, finalNewlineOf(reference));
  else {
    // The block replaces the range's characters; it keeps the range's own final line break (as Apply does).
    const text = joinLines(reference, '\n');
    const starts = lineStarts(text);
    const offset = (line: number, character: number) => {
      if (line >= starts.length - 1) return text.length;
      const lineEnd = line + 1 < starts.length ? starts[line + 1] - (text[starts[line + 1] - 1] === '\n' ? 1 : 0) : text.length;
      return Math.min(starts[line] + Math.max(0, character), lineEnd);
    };
    const s = offset(range.startLine, range.startCharacter);
    const e = Math.max(s, offset(range.endLine, range.endCharacter));
    let code = block.code;
    if (!text.slice(s, e).endsWith('\n') && code.endsWith('\n')) code = code.slice(0, -1);
    theirs = toLines(text.slice(0, s) + code + text.slice(e)).keys;
  }
  const elided = elidedLine(toLines(block.code).keys, reference);
  if (elided !== undefined) return skip('elided', elided);
  const { changes, coarse } = changesBetween(reference, theirs, 0, budget);
  return finish(path, 'range', [block.block], block.line, current, ours.keys, base, changes, undefined, new Set(), coarse, t, budget);
}

function create(path: string, from: PlanFile['from'], blocks: number[], line: number, keys: string[], options: PlanOptions, t: Translate): PlanFile {
  const eol = options.newFileEol ?? '\n';
  const newText = joinLines(keys, eol);
  const hunk: PlanHunk = {
    id: `${path}#1`,
    index: 1,
    label: hunkLabel(t, { index: 1, total: 1, first: 1, last: keys.length, lineCount: 0, conflict: false, nearUserEdit: false, byContext: false, create: true }),
    currentRange: { startLine: 0, endLine: 0 },
    start: { line: 0, character: 0 },
    end: { line: 0, character: 0 },
    startOffset: 0,
    endOffset: 0,
    oldText: '',
    newText,
    conflict: false,
    shifted: false,
    nearUserEdit: false,
    byContext: false,
  };
  return { ...emptyFile(path, from, blocks, line), kind: 'create', eol, hunks: [hunk] };
}

/** Merges and turns the merged hunks into plan hunks with positions, texts and labels. */
function finish(
  path: string,
  from: PlanFile['from'],
  blocks: number[],
  line: number,
  current: string,
  ours: string[],
  base: string[] | undefined,
  changes: Change[],
  /** Diff hunks placed in the file now although a text was recorded, and where each group came from. */
  direct: { changes: Change[]; origin: Map<number, { block: number; hunk: number; header: string }> } | undefined,
  byContext: Set<number>,
  coarseDiff: boolean,
  t: Translate,
  budget: Budget,
  skipped: SkippedHunk[] = [],
): PlanFile {
  const eol = eolOf(current);
  const merged = merge3(base ?? ours, ours, changes, undefined, budget);
  const all: (MergedHunk & { direct?: boolean })[] = [...merged.hunks];
  // Hunks placed in the file now directly: no mapping, no user edits to conflict with (their context matched).
  if (direct) for (const h of merge3(ours, ours, direct.changes).hunks) all.push({ ...h, direct: true });
  all.sort((a, b) => a.oursStart - b.oursStart || a.oursEnd - b.oursEnd);
  const kept: typeof all = [];
  for (const h of all) {
    const prev = kept[kept.length - 1];
    const clash = prev && (h.oursStart < prev.oursEnd || (h.oursStart === prev.oursEnd && h.oursStart === h.oursEnd && prev.oursStart === prev.oursEnd));
    if (!clash) {
      kept.push(h);
      continue;
    }
    // Merged hunks never overlap each other: the one placed directly gives way.
    const loser = h.direct ? h : prev;
    if (loser === prev) kept[kept.length - 1] = h;
    const from = direct?.origin.get(loser.groups[0]);
    if (from) skipped.push({ hunk: from.hunk, block: from.block, header: from.header, code: 'overlaps', reason: hunkSkipReason(t, 'overlaps', from.hunk, from.header) });
  }

  const n = ours.length;
  const starts = lineStarts(current);
  const fileFinalNewline = finalNewlineOf(ours);
  const hunks: PlanHunk[] = [];
  for (const h of kept) {
    let { oursStart, lines } = h;
    let conflict = !!h.conflict;
    // Lines appended after an unterminated last line: that line gets its break, the new end keeps none.
    if (oursStart === n && n > 0 && hasNoEol(ours[n - 1]) && lines.length) {
      oursStart = n - 1;
      lines = [withoutNoEol(ours[n - 1]), ...lines];
      lines[lines.length - 1] = withNoEol(lines[lines.length - 1]);
    }
    // A missing line break may only end the file: anything else would join two lines. Never silently.
    if (lines.some((k, i) => hasNoEol(k) && (i < lines.length - 1 || h.oursEnd !== n))) conflict = true;
    const oursEnd = Math.max(h.oursEnd, oursStart);
    const startOffset = starts[oursStart];
    const endOffset = starts[oursEnd];
    const end =
      oursEnd < n || fileFinalNewline
        ? { line: oursEnd, character: 0 }
        : { line: n - 1, character: current.length - starts[n - 1] };
    hunks.push({
      id: '',
      index: 0,
      label: '',
      currentRange: { startLine: oursStart, endLine: oursEnd },
      start: { line: oursStart, character: 0 },
      end,
      startOffset,
      endOffset,
      oldText: current.slice(startOffset, endOffset),
      newText: joinLines(lines, eol),
      conflict,
      sides: h.conflict && {
        base: joinLines(h.conflict.base, eol),
        ours: joinLines(h.conflict.ours, eol),
        theirs: joinLines(h.conflict.theirs, eol),
      },
      shifted: h.shifted && !h.direct,
      nearUserEdit: h.nearUserEdit,
      byContext: !!h.direct || h.groups.some(g => byContext.has(g)),
    });
  }
  hunks.forEach((h, i) => {
    h.index = i + 1;
    h.id = `${path}#${i + 1}`;
    const { startLine, endLine } = h.currentRange;
    h.label = hunkLabel(t, {
      index: i + 1,
      total: hunks.length,
      first: startLine + 1,
      last: endLine,
      lineCount: n,
      conflict: h.conflict,
      nearUserEdit: h.nearUserEdit,
      byContext: h.byContext,
      create: false,
    });
    if (!h.sides) delete h.sides;
  });
  const file: PlanFile = {
    ...emptyFile(path, from, blocks, line),
    twoWay: !base,
    eol,
    alreadyApplied: merged.alreadyApplied,
    coarse: coarseDiff || merged.coarse,
    hunks,
    skippedHunks: skipped,
  };
  if (!hunks.length) {
    const reason = skipped.length ? 'doesNotApply' : 'unchanged';
    return { ...file, kind: 'skip', reasonCode: reason, reason: skipReason(t, reason) };
  }
  return file;
}

/**
 * The text with the chosen hunks applied (all when `chosen` is omitted): the right-hand side of "Open All
 * Changes", and what a WorkspaceEdit with those entries checked writes. Hunks of one file never overlap.
 */
export function applyHunks(text: string, hunks: readonly PlanHunk[], chosen?: (h: PlanHunk) => boolean): string {
  const picked = hunks.filter(h => !chosen || chosen(h)).sort((a, b) => a.startOffset - b.startOffset);
  let out = '';
  let at = 0;
  for (const h of picked) {
    out += text.slice(at, h.startOffset) + h.newText;
    at = h.endOffset;
  }
  return out + text.slice(at);
}

/** A conflict's three versions in one text with markers (for a side-by-side or an editor that shows them). */
export function conflictText(hunk: PlanHunk, eol: Eol, t: Translate = plain): string {
  if (!hunk.sides) return hunk.newText;
  const m = conflictMarkers(t);
  const block = (s: string) => (s && !s.endsWith('\n') ? s + eol : s);
  return `${m.ours}${eol}${block(hunk.sides.ours)}${m.base}${eol}${block(hunk.sides.base)}${m.sep}${eol}${block(hunk.sides.theirs)}${m.theirs}${eol}`;
}
