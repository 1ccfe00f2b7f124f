/** A file's merged changes → the plan's hunks (positions, texts, labels); a created file's one hunk; applying chosen hunks to a text. */
import type { Budget } from './diff';
import { type Eol, eolOf, finalNewlineOf, hasNoEol, joinLines, lineStarts, withNoEol, withoutNoEol } from './lines';
import { type Change, type MergedHunk, merge3 } from './merge';
import { type PlanFile, type PlanHunk, type PlanOptions, type SkippedHunk, emptyFile } from './planTypes';
import { type Held, heldByResult } from './landingGuard';
import { writesEditSyntax } from './proof';
import { type Translate, conflictMarkers, hunkLabel, hunkSkipReason, plain, skipReason } from './words';

export function create(path: string, from: PlanFile['from'], blocks: number[], line: number, keys: string[], options: PlanOptions, t: Translate): PlanFile {
  const eol = options.newFileEol ?? '\n';
  const newText = joinLines(keys, eol);
  const hunk: PlanHunk = {
    id: `${path}#1`,
    index: 1,
    label: hunkLabel(t, { index: 1, total: 1, first: 1, last: keys.length, lineCount: 0, removed: 0, inserted: keys.length, conflict: false, nearUserEdit: false, byContext: false, create: true }),
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

/** What `finish` merges: one file's texts and changes, and where its entry comes from. */
export interface FinishInput {
  path: string;
  from: PlanFile['from'];
  blocks: number[];
  line: number;
  /** The file now, and its lines. */
  current: string;
  ours: string[];
  /** The text that was sent, as lines; undefined: merged against the file now only. */
  base: string[] | undefined;
  changes: Change[];
  /** Diff hunks placed in the file now although a text was recorded, and where each group came from. */
  direct?: { changes: Change[]; origin: Map<number, { block: number; hunk: number; header: string }> };
  /** Change groups placed by their context. Default none. */
  byContext?: Set<number>;
  /** The diff hit its work bound. Default false. */
  coarseDiff?: boolean;
  t: Translate;
  budget: Budget;
  /** Hunks already listed as not offered; overlapping direct hunks are added to it. */
  skipped?: SkippedHunk[];
  /**
   * The lines the answer shows removed (trimmed): a diff's `-` lines, an edit block's SEARCH text, the lines of
   * the range or definition a block was proven to replace; `all` for a whole file proven to be this file's. A
   * hunk that would remove any other line is held back (the lost-line guard: no form of answer bypasses it).
   */
  shown: Set<string> | 'all';
  /** Names the answer's prose says it removes, renames, moves or merges: their definitions may go. Default none. */
  stated?: ReadonlySet<string>;
}

/** The lines a hunk loses: its old lines less those it writes again (a multiset difference), trimmed, non-blank. */
function lostLines(old: readonly string[], next: readonly string[]): string[] {
  const again = new Map<string, number>();
  for (const k of next) {
    const t = withoutNoEol(k).trim();
    again.set(t, (again.get(t) ?? 0) + 1);
  }
  const lost: string[] = [];
  for (const k of old) {
    const t = withoutNoEol(k).trim();
    if (!t) continue;
    const n = again.get(t) ?? 0;
    if (n > 0) again.set(t, n - 1);
    else lost.push(t);
  }
  return lost;
}

type Placed = MergedHunk & { direct?: boolean };

/** Merges and turns the merged hunks into plan hunks with positions, texts and labels. */
export function finish(input: FinishInput): PlanFile {
  const { path, from, blocks, line, current, ours, base, changes, direct, coarseDiff = false, t, budget, skipped = [], shown } = input;
  const eol = eolOf(current);
  const merged = merge3(base ?? ours, ours, changes, undefined, budget);
  const all: Placed[] = [...merged.hunks];
  // Hunks placed in the file now directly: no mapping, no user edits to conflict with (their context matched).
  if (direct) for (const h of merge3(ours, ours, direct.changes).hunks) all.push({ ...h, direct: true });
  all.sort((a, b) => a.oursStart - b.oursStart || a.oursEnd - b.oursEnd);
  const kept = withoutClashes(all, input, skipped);

  const hunks: PlanHunk[] = [];
  /** Lines each hunk takes out and puts in, as the answer changes them (for its label). */
  const sizes: { removed: number; inserted: number }[] = [];
  const geometry = { starts: lineStarts(current), finalNewline: finalNewlineOf(ours), eol };
  let position = 0;
  let plainLines: string[] | undefined;
  const fileLines = () => (plainLines ??= ours.map(withoutNoEol));
  // The guards on each hunk (issue 34): a hunk that loses a line the answer does not show removed, or writes edit
  // syntax the file does not have, is held back with its reason, never offered. A conflict is offered unchecked.
  const guards = kept.map(h => {
    if (h.conflict) return undefined;
    const old = ours.slice(h.oursStart, h.oursEnd);
    return shown !== 'all' && lostLines(old, h.lines).some(l => !shown.has(l)) ? ('unproven' as const) : writesEditSyntax(h.lines.map(withoutNoEol), fileLines) ? ('editSyntax' as const) : undefined;
  });
  // The guard on the result (issue 43): the hunks that would land by default, judged together on what they write.
  const landing = kept.flatMap((h, i) => (h.conflict || guards[i] ? [] : [{ i, start: h.oursStart, end: h.oursEnd, lines: h.lines.map(withoutNoEol) }]));
  // Only a diff's - lines (and an edit's SEARCH text) remove explicitly: a range or a whole file replaced does not.
  const explicit = (l: string) => from === 'diff' && shown !== 'all' && shown.has(l);
  const held = heldByResult(fileLines(), landing, explicit, input.stated ?? new Set());
  const heldOf = new Map<number, Held>();
  for (const [k, why] of held) heldOf.set(landing[k].i, why);
  kept.forEach((h, i) => {
    position++;
    const guard = guards[i] ?? heldOf.get(i)?.code;
    if (guard) {
      const from = direct?.origin.get(h.groups[0]);
      const header = from?.header ?? `lines ${h.oursStart + 1}–${Math.max(h.oursStart + 1, h.oursEnd)}`;
      const index = from?.hunk ?? position;
      skipped.push({ hunk: index, block: from?.block ?? blocks[0], header, code: guard, reason: hunkSkipReason(t, guard, index, header, heldOf.get(i)?.detail) });
      return;
    }
    sizes.push({ removed: Math.max(0, h.oursEnd - h.oursStart), inserted: h.lines.length });
    hunks.push(planHunkOf(h, input, geometry));
  });
  numberAndLabel(hunks, sizes, path, ours.length, t);
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

/** The hunks in order without overlaps: merged hunks never overlap each other, so one placed directly gives way (listed). */
function withoutClashes(all: Placed[], { direct, t }: Pick<FinishInput, 'direct' | 't'>, skipped: SkippedHunk[]): Placed[] {
  const kept: Placed[] = [];
  for (const h of all) {
    const prev = kept[kept.length - 1];
    const clash = prev && (h.oursStart < prev.oursEnd || (h.oursStart === prev.oursEnd && h.oursStart === h.oursEnd && prev.oursStart === prev.oursEnd));
    if (!clash) {
      kept.push(h);
      continue;
    }
    const loser = h.direct ? h : prev;
    if (loser === prev) kept[kept.length - 1] = h;
    const from = direct?.origin.get(loser.groups[0]);
    if (from) skipped.push({ hunk: from.hunk, block: from.block, header: from.header, code: 'overlaps', reason: hunkSkipReason(t, 'overlaps', from.hunk, from.header) });
  }
  return kept;
}

/** A merged hunk as the plan offers it: its range and offsets in the file now, its old and new text. */
function planHunkOf(h: Placed, { current, ours, byContext = new Set() }: FinishInput, geometry: { starts: number[]; finalNewline: boolean; eol: Eol }): PlanHunk {
  const n = ours.length;
  const { starts, eol } = geometry;
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
  const end = oursEnd < n || geometry.finalNewline ? { line: oursEnd, character: 0 } : { line: n - 1, character: current.length - starts[n - 1] };
  return {
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
  };
}

/** Each offered hunk's number, id and label, once all are known ("2 of 3"). */
function numberAndLabel(hunks: PlanHunk[], sizes: { removed: number; inserted: number }[], path: string, lineCount: number, t: Translate): void {
  hunks.forEach((h, i) => {
    h.index = i + 1;
    h.id = `${path}#${i + 1}`;
    const { startLine, endLine } = h.currentRange;
    h.label = hunkLabel(t, {
      index: i + 1,
      total: hunks.length,
      first: startLine + 1,
      last: endLine,
      lineCount,
      ...sizes[i],
      conflict: h.conflict,
      nearUserEdit: h.nearUserEdit,
      byContext: h.byContext,
      create: false,
    });
    if (!h.sides) delete h.sides;
  });
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
