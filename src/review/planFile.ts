/** Planning one file: its proposals (a whole file, diffs in a row, the range block) against the file now and the text that was sent. */
import type { Proposal, UnnamedBlock } from './answer';
import type { Budget } from './diff';
import { finalNewlineOf, hasNoEol, joinLines, lineStarts, reindented, setFinalNewline, toLines, withNoEol, withoutNoEol } from './lines';
import { type Change, changesBetween } from './merge';
import type { DiffHunk } from './patch';
import { keepFinalNewline, newSide, placeHunks } from './placement';
import { create, finish } from './planHunks';
import { elidedLine } from './planPartials';
import type { FileState, PlanFile, PlanOptions, RangeRecord, ReviewFiles, SentSource, Skip, SkippedHunk } from './planTypes';
import { checkPath } from './paths';
import { keepsEnough, redefined } from './proof';
import { type HunkSkipCode, type SkipCode, type Translate, hunkSkipReason } from './words';

/** What every file of one plan is planned with: the words, how a file is listed as skipped, the work bound, the names the answer says it removes. */
export interface PlanContext {
  t: Translate;
  skipAt: Skip;
  budget: Budget;
  stated: ReadonlySet<string>;
}

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

export function planFile(path: string, proposals: Proposal[], files: ReviewFiles, options: PlanOptions, cx: PlanContext): PlanFile {
  const { t, skipAt, budget, stated } = cx;
  const first = proposals[0];
  const blocks = proposals.map(p => p.block);
  const skip = (code: SkipCode, ...args: (string | number)[]) => skipAt(path, first.kind, blocks, first.line, code, ...args);
  const state = files.current(path);
  const refused = refusedOrUndefined(state, skip);
  if (refused) return refused;
  const sentText = files.sent(path);
  if (first.kind === 'whole') return planWhole({ path, first, blocks, state, sentText, options, cx, skip });

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
  // The source's range, when it cut lines: the agents saw those lines cut, and wrote their context so.
  const seen = base && isSource(path, options) ? asSeen(base, options.source?.range) : undefined;

  const skipped: SkippedHunk[] = [];
  const skipHunk = (block: number, hunkIndex: number, h: DiffHunk, code: HunkSkipCode, detail = '') =>
    skipped.push({ hunk: hunkIndex + 1, block, header: h.header, code, reason: hunkSkipReason(t, code, hunkIndex + 1, h.header, detail) });
  const placed = placeDiffs(diffs, { base, seen, ours: ours.keys, strict, fuzz: options.fuzz ?? 2, budget }, skipHunk);
  if (!placed.length) {
    const f = skip('doesNotApply');
    f.skippedHunks = skipped;
    return f;
  }

  // Where hunks of different blocks overlap or touch, the later block's hunk wins.
  const multi = diffs.length > 1;
  const keep = (list: PlacedDiffHunk[]) => (multi ? keepLatest(list, diffs, skipHunk) : list);
  const inBase = keep(placed.filter(p => p.inBase));
  const inOurs = keep(placed.filter(p => !p.inBase));
  const sortChanges = (list: PlacedDiffHunk[]) => list.flatMap(p => p.changes).sort((a, b) => a.start - b.start);
  let baseChanges = sortChanges(inBase);
  let oursChanges = sortChanges(inOurs);
  if (!strict) {
    if (base) baseChanges = keepFinalNewline(base, baseChanges);
    oursChanges = keepFinalNewline(ours.keys, oursChanges);
  }
  const fuzzy = new Set(inOurs.filter(p => p.fuzz > 0).map(p => p.changes[0].group));
  const origin = new Map(placed.map(p => [p.changes[0]?.group, { block: p.block, hunk: p.hunk + 1, header: p.header }]));
  const direct = { changes: base ? oursChanges : [], origin };
  // What the answer shows removed: every `-` line (an edit block's SEARCH text); a line the agents saw cut is theirs whole.
  const shown = new Set<string>();
  for (const h of allHunks) for (const l of h.lines) if (l.op === '-') shown.add(l.text.trim());
  if (seen && base && options.source?.range) for (const i of [options.source.range.startLine, options.source.range.endLine]) if (i < base.length && shown.has(withoutNoEol(seen.keys[i]).trim())) shown.add(withoutNoEol(base[i]).trim());
  return finish({ path, from: 'diff', blocks, line: first.line, current, ours: ours.keys, base, changes: base ? baseChanges : oursChanges, direct, byContext: fuzzy, t, budget, skipped, shown, stated });
}

/** A whole file's new text: created, proven to be this file's (issue 34), or the range's new code when it drops everything the agents did not see. */
function planWhole(d: {
  path: string;
  first: Extract<Proposal, { kind: 'whole' }>;
  blocks: number[];
  state: ReturnType<ReviewFiles['current']>;
  sentText: string | undefined;
  options: PlanOptions;
  cx: PlanContext;
  skip: (code: SkipCode, ...args: (string | number)[]) => PlanFile;
}): PlanFile {
  const { path, first, blocks, state, sentText, options, cx, skip } = d;
  const { t, budget, stated } = cx;
  if (state.kind === 'missing') return sentText !== undefined ? skip('gone') : create(path, first.kind, blocks, first.line, toLines(first.text).keys, options, t);
  const current = (state as { text: string }).text;
  if (!first.text && current) return skip('emptyBlock');
  const ours = toLines(current);
  const base = sentText !== undefined ? toLines(sentText).keys : undefined;
  const reference = base ?? ours.keys;
  const theirs = setFinalNewline(reindented(toLines(first.text).keys, reference), finalNewlineOf(reference));
  const elided = elidedLine(theirs, reference, first.language);
  if (elided !== undefined) return skip('elided', elided);
  const { changes, coarse } = changesBetween(reference, theirs, 0, budget);
  const range = isSource(path, options) ? options.source?.range : undefined;
  if (base && range && dropsAllOutside(changes, base.length, range)) {
    // The agents saw only the range: a "whole file" that drops everything they did not see is the range's new code.
    const snippet = { block: first.block, line: first.line, language: first.language, code: first.text, isDiff: false };
    return planRange(path, options.source!, snippet, state, sentText, cx);
  }
  // A named block replaces the file only when it is shown to be that file's new text (issue 34).
  if (!keepsEnough(theirs.map(withoutNoEol), reference.map(withoutNoEol), true)) return skip('unproven');
  return finish({ path, from: first.kind, blocks, line: first.line, current, ours: ours.keys, base, changes, coarseDiff: coarse, t, budget, shown: 'all', stated });
}

/** A diff hunk placed: its changes, where it came from, and whether in the sent text or in the file now. */
interface PlacedDiffHunk {
  changes: Change[];
  block: number;
  hunk: number;
  header: string;
  inBase: boolean;
  fuzz: number;
}

type SkipHunk = (block: number, hunkIndex: number, h: DiffHunk, code: HunkSkipCode, detail?: string) => void;

/** Places every diff's hunks: in the sent text (as the agents saw it), else in the file now by context; the others are listed. */
function placeDiffs(
  diffs: Extract<Proposal, { kind: 'diff' }>[],
  on: { base: string[] | undefined; seen: ReturnType<typeof asSeen>; ours: string[]; strict: boolean; fuzz: number; budget: Budget },
  skipHunk: SkipHunk,
): PlacedDiffHunk[] {
  const { base, seen, ours, strict, fuzz, budget } = on;
  const placed: PlacedDiffHunk[] = [];
  let group = 0;
  for (const d of diffs) {
    const hunks = d.diff.hunks;
    let failed: number[] = hunks.map((_, i) => i);
    let inBaseAmbiguous = new Map<number, number[]>();
    if (base) {
      const r = placeHunks(seen?.keys ?? base, hunks, strict, { fuzz: 0, firstGroup: group, budget });
      for (const p of r.placed) {
        const changes = seen ? p.changes.map(c => seen.restore(c)) : p.changes;
        placed.push({ changes, block: d.block, hunk: p.hunk, header: hunks[p.hunk].header, inBase: true, fuzz: 0 });
      }
      failed = r.failed;
      inBaseAmbiguous = r.ambiguous;
    }
    if (failed.length) {
      const r = placeHunks(ours, hunks, strict, { fuzz, firstGroup: group, only: new Set(failed), budget });
      for (const p of r.placed) placed.push({ changes: p.changes, block: d.block, hunk: p.hunk, header: hunks[p.hunk].header, inBase: false, fuzz: p.fuzz });
      for (const i of r.failed) {
        const where = r.ambiguous.get(i) ?? inBaseAmbiguous.get(i);
        if (where) skipHunk(d.block, i, hunks[i], 'ambiguous', where.join(', '));
        else skipHunk(d.block, i, hunks[i], hunks[i].edit ? 'notFound' : 'doesNotApply');
      }
    }
    group += hunks.length;
  }
  return placed;
}

/** Where hunks of different blocks overlap or touch, the later block's hunk wins; the other is listed as superseded. */
function keepLatest(list: PlacedDiffHunk[], diffs: Extract<Proposal, { kind: 'diff' }>[], skipHunk: SkipHunk): PlacedDiffHunk[] {
  // Spans accepted so far, sorted and disjoint: a binary search finds the only ones that can clash.
  const starts: number[] = [];
  const ends: number[] = [];
  const kept: PlacedDiffHunk[] = [];
  for (const p of [...list].sort((a, b) => b.block - a.block || a.hunk - b.hunk)) {
    // A hunk of context alone changes nothing: nothing to keep or clash.
    if (!p.changes.length) continue;
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

export function planRange(
  path: string,
  source: SentSource,
  block: UnnamedBlock,
  state: FileState,
  sentText: string | undefined,
  cx: PlanContext,
  /** The range is a definition the block was found to replace (proven by its name): not judged again. */
  proven = false,
): PlanFile {
  const { t, skipAt, budget, stated } = cx;
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
  const blockKeys = toLines(block.code).keys.map(withoutNoEol);
  let theirs: string[];
  let shown: Set<string> | 'all' = 'all';
  if (!range) {
    // The whole file was sent: the block is its new text when it keeps enough of it, unless it is one definition
    // of the file (found once by its name) and much shorter than the file: then it replaces that definition.
    const whole = reference.map(withoutNoEol);
    const at = blockKeys.length * 5 < whole.length * 4 ? redefined(blockKeys, whole) : undefined;
    if (at) {
      const definition: RangeRecord = { startLine: at.start, startCharacter: 0, endLine: at.end, endCharacter: 0 };
      return planRange(path, { ...source, range: definition, currentRange: definition }, block, state, sentText, cx, true);
    }
    if (!keepsEnough(blockKeys, whole)) return skipAt('', 'unnamed', [block.block], block.line, 'noPath');
    theirs = setFinalNewline(reindented(toLines(block.code).keys, reference), finalNewlineOf(reference));
  } else {
    // The block replaces the range only when it is shown to be its new code; a block that defines something the
    // file has once elsewhere replaces that; anything else has no proven place (Insert or Copy, issue 34).
    const lastLine = range.endCharacter === 0 && range.endLine > range.startLine ? range.endLine : range.endLine + 1;
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
    // A selection inside one line (a word, an expression) takes a one-line block: the line is shown changed.
    const inLine = range.startLine === range.endLine && !text.slice(s, e).includes('\n') && (s > starts[range.startLine] || e < offset(range.startLine, Number.MAX_SAFE_INTEGER));
    const oneLineBlock = blockKeys.filter(l => l.trim()).length <= 1;
    if (!proven && !(inLine && oneLineBlock) && !keepsEnough(blockKeys, text.slice(s, e).split('\n'))) {
      const at = redefined(blockKeys, reference.map(withoutNoEol));
      if (!at) return skipAt('', 'unnamed', [block.block], block.line, 'noPath');
      const definition: RangeRecord = { startLine: at.start, startCharacter: 0, endLine: at.end, endCharacter: 0 };
      return planRange(path, { ...source, range: base ? definition : source.range, currentRange: base ? source.currentRange : definition }, block, state, sentText, cx, true);
    }
    // The lines the range touches are what it may change (a cut line is the agents' whole).
    shown = new Set(reference.slice(range.startLine, lastLine).map(l => withoutNoEol(l).trim()));
    let code = block.code;
    // Whole lines replaced: the block takes their indentation (a method written at the margin for one in a class).
    if (range.startCharacter === 0 && !inLine) code = reindented(code.split('\n'), reference.slice(range.startLine, lastLine).map(withoutNoEol)).join('\n');
    if (!text.slice(s, e).endsWith('\n') && code.endsWith('\n')) code = code.slice(0, -1);
    theirs = toLines(text.slice(0, s) + code + text.slice(e)).keys;
  }
  const elided = elidedLine(toLines(block.code).keys, reference);
  if (elided !== undefined) return skip('elided', elided);
  const { changes, coarse } = changesBetween(reference, theirs, 0, budget);
  return finish({ path, from: 'range', blocks: [block.block], line: block.line, current, ours: ours.keys, base, changes, coarseDiff: coarse, t, budget, shown, stated });
}
