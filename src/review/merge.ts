/**
 * Three-way merge of line keys (see lines.ts): base = what was sent, ours = the file now, theirs = the
 * proposal's changes to base. Each change of theirs lands in the text now at its shifted place, or is a
 * conflict when it touches lines the user changed since. The rules, diff3's with two deliberate differences:
 *
 * - Overlap is a conflict: a change of theirs and one of ours share a base line, or one inserts strictly
 *   inside lines the other replaces.
 * - Adjacency is not a conflict (diff3 and git make it one): a change next to the user's edit touches no line
 *   the user changed. It lands, flagged `nearUserEdit`, so the review can say so.
 * - Both inserting at the same place, different text: not a conflict either (flagged). The proposal's lines go
 *   after the user's, next to the line that follows (where an inserted line's context usually is), unless
 *   the change says it belongs to the line before (`attach: 'before'`, a diff run with context only above it).
 * - The same change on both sides is no conflict and no hunk: it is counted in `alreadyApplied`. So is a
 *   conflict region whose two results are equal.
 */
import { type Budget, type Edit, diffLines } from './diff';

/** A change of theirs: base `[start, end)` becomes `lines` (keys). Sorted, never overlapping or touching. */
export interface Change {
  start: number;
  end: number;
  lines: string[];
  /** Changes of one group (one hunk of a diff) become one review hunk when nothing comes between them. */
  group: number;
  /** For an insertion at the same place as the user's: which neighbour it belongs to. Default 'after'. */
  attach?: 'before' | 'after';
}

export interface MergedHunk {
  /** Lines `[oursStart, oursEnd)` of the text now are replaced by `lines`. */
  oursStart: number;
  oursEnd: number;
  lines: string[];
  baseStart: number;
  baseEnd: number;
  groups: number[];
  /** Lands at another line number than it had in the text that was sent. */
  shifted: boolean;
  nearUserEdit: boolean;
  /** Both sides of a conflict region (keys): it replaces the user's version with the proposal's. */
  conflict?: { base: string[]; ours: string[]; theirs: string[] };
}

export interface MergeResult {
  hunks: MergedHunk[];
  /** Changes already present in the text now (made on both sides). */
  alreadyApplied: number;
  /** The diff of base and ours was coarse somewhere (hostile or huge input): conflicts may be wider than needed. */
  coarse: boolean;
}

/** Changes that turn `a` into `b`, runs closer than GROUP_GAP unchanged lines forming one group. */
export const GROUP_GAP = 2;

export function changesBetween(a: readonly string[], b: readonly string[], firstGroup = 0, budget?: Budget): { changes: Change[]; coarse: boolean } {
  const { edits, coarse } = diffLines(a, b, budget);
  let group = firstGroup - 1;
  let prevEnd = -Infinity;
  const changes = edits.map(e => {
    if (e.aStart - prevEnd > GROUP_GAP) group++;
    prevEnd = e.aEnd;
    return { start: e.aStart, end: e.aEnd, lines: b.slice(e.bStart, e.bEnd), group };
  });
  return { changes, coarse };
}

type Relation = 'before' | 'after' | 'conflict' | 'same';

/** Where the user's edit `o` is relative to the change `t`, in base lines. */
function relate(o: Edit, t: Change): Relation {
  const oEmpty = o.aStart === o.aEnd;
  const tEmpty = t.start === t.end;
  if (!oEmpty && !tEmpty) return o.aEnd <= t.start ? 'before' : o.aStart >= t.end ? 'after' : 'conflict';
  if (oEmpty && tEmpty) return o.aStart < t.start ? 'before' : o.aStart > t.start ? 'after' : 'same';
  if (oEmpty) return o.aStart <= t.start ? 'before' : o.aStart >= t.end ? 'after' : 'conflict';
  return o.aEnd <= t.start ? 'before' : o.aStart >= t.start ? 'after' : 'conflict';
}

const sameLines = (x: readonly string[], from: number, to: number, y: readonly string[]) => {
  if (to - from !== y.length) return false;
  for (let i = 0; i < y.length; i++) if (x[from + i] !== y[i]) return false;
  return true;
};

/** The lines `ts` (changes of base, in order) make of `base[start, end)`. */
function theirsOf(base: readonly string[], start: number, end: number, ts: readonly Change[]): string[] {
  const lines: string[] = [];
  let at = start;
  for (const c of ts) {
    for (let x = at; x < c.start; x++) lines.push(base[x]);
    for (const line of c.lines) lines.push(line);
    at = c.end;
  }
  for (let x = at; x < end; x++) lines.push(base[x]);
  return lines;
}

/**
 * The merged hunks, in order. Two hunks that would insert at the same point of the text now (the user deleted
 * the lines between their places) become one, so their order is not left to chance: a conflict when either is
 * one. A run of such hunks is gathered in `open` and built once when it closes (linear: 20,000 insertions at one
 * place are one pass, not one copy of everything gathered so far per insertion).
 */
class MergedHunks {
  readonly hunks: MergedHunk[] = [];
  private open: { h: MergedHunk; ts: Change[]; lines: string[]; groups: Set<number>; conflict: boolean; joined: boolean } | undefined;

  constructor(private readonly base: readonly string[]) {}

  emit(h: MergedHunk, ts: Change[]): void {
    const open = this.open;
    const prev = open?.h;
    if (!open || !prev || prev.oursStart !== prev.oursEnd || h.oursStart !== h.oursEnd || prev.oursEnd !== h.oursStart) {
      this.close();
      this.open = { h, ts, lines: h.lines, groups: new Set(h.groups), conflict: !!h.conflict, joined: false };
      return;
    }
    if (!open.joined) {
      // The first join: from here on the gathered lines and changes are this run's own arrays.
      open.h = { ...prev };
      open.lines = prev.lines.slice();
      open.ts = open.ts.slice();
      open.joined = true;
    }
    const m = open.h;
    for (const c of ts) open.ts.push(c);
    for (const line of h.lines) open.lines.push(line);
    for (const g of h.groups) open.groups.add(g);
    m.baseStart = Math.min(m.baseStart, h.baseStart);
    m.baseEnd = Math.max(m.baseEnd, h.baseEnd);
    m.shifted ||= h.shifted;
    m.nearUserEdit = true;
    open.conflict ||= !!h.conflict;
  }

  close(): void {
    const open = this.open;
    if (!open) return;
    const { h, ts, conflict, joined } = open;
    if (joined) {
      h.groups = [...open.groups];
      if (conflict) {
        h.lines = theirsOf(this.base, h.baseStart, h.baseEnd, ts);
        h.conflict = { base: this.base.slice(h.baseStart, h.baseEnd), ours: [], theirs: h.lines };
      } else h.lines = open.lines;
    }
    this.hunks.push(h);
    this.open = undefined;
  }
}

/**
 * A conflict region from the change `theirs[j]` and the user's edit `O[i]`, grown over every edit and change that
 * overlaps it on both sides. Returns the region and the first edit and the last change past it.
 */
function conflictRegion(O: readonly Edit[], i: number, theirs: readonly Change[], j: number): { start: number; end: number; ts: Change[]; k: number; j: number } {
  const t = theirs[j];
  let start = Math.min(t.start, O[i].aStart);
  let end = Math.max(t.end, O[i].aEnd);
  const ts: Change[] = [t];
  let k = i + 1;
  let grown = true;
  const overlaps = (s: number, e: number) => (s === e ? s > start && s < end : s < end && e > start);
  while (grown) {
    grown = false;
    while (k < O.length && overlaps(O[k].aStart, O[k].aEnd)) {
      start = Math.min(start, O[k].aStart);
      end = Math.max(end, O[k].aEnd);
      k++;
      grown = true;
    }
    while (j + 1 < theirs.length && overlaps(theirs[j + 1].start, theirs[j + 1].end)) {
      j++;
      ts.push(theirs[j]);
      start = Math.min(start, theirs[j].start);
      end = Math.max(end, theirs[j].end);
      grown = true;
    }
  }
  return { start, end, ts, k, j };
}

/**
 * Merges `theirs` into `ours`. With `base === ours` (no text was recorded: a two-way merge against the file
 * now) there are no user edits and so no conflicts. `oursEdits` may be passed when already computed.
 */
export function merge3(base: readonly string[], ours: readonly string[], theirs: readonly Change[], oursEdits?: Edit[], budget?: Budget): MergeResult {
  let coarse = false;
  if (!oursEdits) {
    if (base === ours) oursEdits = [];
    else {
      const d = diffLines(base, ours, budget);
      oursEdits = d.edits;
      coarse = d.coarse;
    }
  }
  const O = oursEdits;
  const merged = new MergedHunks(base);
  let alreadyApplied = 0;
  let i = 0; // first edit of ours not known to be before the current change
  let delta = 0; // ours line = base line + delta, after the edits before i
  const isBefore = (o: Edit, t: Change) => {
    const r = relate(o, t);
    if (r === 'same') return (t.attach ?? 'after') === 'after' || sameLines(ours, o.bStart, o.bEnd, t.lines);
    return r === 'before';
  };

  for (let j = 0; j < theirs.length; j++) {
    const t = theirs[j];
    while (i < O.length && isBefore(O[i], t)) {
      delta += O[i].bEnd - O[i].bStart - (O[i].aEnd - O[i].aStart);
      i++;
    }
    const next = O[i];
    const r = next ? relate(next, t) : 'after';
    if (r !== 'conflict') {
      // The same insertion on both sides: the edit just passed holds it.
      const prev = O[i - 1];
      if (prev && relate(prev, t) === 'same' && sameLines(ours, prev.bStart, prev.bEnd, t.lines)) {
        alreadyApplied++;
        continue;
      }
      const oursStart = t.start + delta;
      const oursEnd = t.end + delta;
      if (sameLines(ours, oursStart, oursEnd, t.lines)) continue; // a change that changes nothing
      const near = (!!prev && prev.aEnd >= t.start) || (!!next && next.aStart <= t.end);
      merged.emit({ oursStart, oursEnd, lines: t.lines, baseStart: t.start, baseEnd: t.end, groups: [t.group], shifted: delta !== 0, nearUserEdit: near }, [t]);
      continue;
    }

    const region = conflictRegion(O, i, theirs, j);
    const { start, end, ts, k } = region;
    j = region.j;
    let regionDelta = 0;
    for (let x = i; x < k; x++) regionDelta += O[x].bEnd - O[x].bStart - (O[x].aEnd - O[x].aStart);
    const oursStart = start + delta;
    const oursEnd = end + delta + regionDelta;
    const theirsLines = theirsOf(base, start, end, ts);
    delta += regionDelta;
    i = k;
    if (sameLines(ours, oursStart, oursEnd, theirsLines)) {
      alreadyApplied++;
      continue;
    }
    merged.emit({
      oursStart,
      oursEnd,
      lines: theirsLines,
      baseStart: start,
      baseEnd: end,
      groups: [...new Set(ts.map(c => c.group))],
      shifted: oursStart !== start,
      nearUserEdit: true,
      conflict: { base: base.slice(start, end), ours: ours.slice(oursStart, oursEnd), theirs: theirsLines },
    }, ts);
  }
  merged.close();
  return { hunks: coalesce(merged.hunks, base, ours), alreadyApplied, coarse };
}

/** Neighbouring clean hunks of one group become one, unless the user changed a line between them. */
function coalesce(hunks: MergedHunk[], base: readonly string[], ours: readonly string[]): MergedHunk[] {
  const out: MergedHunk[] = [];
  const owned = new Set<MergedHunk>();
  const untouchedBetween = (a: MergedHunk, b: MergedHunk) =>
    b.oursStart - a.oursEnd === b.baseStart - a.baseEnd && sameLines(ours, a.oursEnd, b.oursStart, base.slice(a.baseEnd, b.baseStart));
  for (const h of hunks) {
    const last = out[out.length - 1];
    if (last && !last.conflict && !h.conflict && last.groups.length === 1 && h.groups.length === 1 && last.groups[0] === h.groups[0] && untouchedBetween(last, h)) {
      // In place: a hunk of many runs is one pass, not a copy of the lines so far per run.
      if (!owned.has(last)) {
        last.lines = last.lines.slice();
        owned.add(last);
      }
      for (let x = last.oursEnd; x < h.oursStart; x++) last.lines.push(ours[x]);
      for (const line of h.lines) last.lines.push(line);
      last.oursEnd = h.oursEnd;
      last.baseEnd = h.baseEnd;
      last.shifted ||= h.shifted;
      last.nearUserEdit ||= h.nearUserEdit;
    } else out.push({ ...h });
  }
  return out;
}
