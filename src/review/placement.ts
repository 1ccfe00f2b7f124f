/**
 * Placing a unified diff's hunks (patch.ts reads them) in a text: exactly anywhere, nearest the stated line first,
 * or with fuzz near it; linear in the text and bounded by a shared work budget.
 */
import type { Budget } from './diff';
import { NO_EOL, hasNoEol, withNoEol } from './lines';
import type { Change } from './merge';
import type { DiffHunk, DiffLine } from './patch';

/** The new side of a diff as keys (a created file's content). */
export function newSide(hunks: readonly DiffHunk[], strictEol: boolean): string[] {
  const out: string[] = [];
  for (const h of hunks) for (const l of h.lines) if (l.op !== '-') out.push(keyOf(l, strictEol));
  return out;
}

function keyOf(l: DiffLine, strictEol: boolean): string {
  return strictEol && l.noEol ? l.text + NO_EOL : l.text;
}

export interface PlacedHunk {
  /** Index of the hunk in the diff. */
  hunk: number;
  /** First line of its matched lines in the target, 0-based. */
  at: number;
  /** Context lines left out at each end to make it match (0 = exact). */
  fuzz: number;
  changes: Change[];
}

export interface PlaceOptions {
  /** Context lines that may be left out at each end (GNU patch's fuzz), default 0. */
  fuzz?: number;
  /** Lines a fuzzy match may be away from where the hunk says (an exact one may be anywhere). Default 100. */
  fuzzWindow?: number;
  /** Line comparisons: at most 4 million for the whole diff, fewer when this shared budget has less left. */
  budget?: Budget;
  /** The group of the first hunk's changes (later hunks count on). */
  firstGroup?: number;
  /** Only hunks with these indexes are placed (default all). */
  only?: ReadonlySet<number>;
}

interface Pattern {
  old: string[];
  runs: { offset: number; removed: number; added: string[]; attach: 'before' | 'after' }[];
  lead: number;
  trail: number;
}

function patternOf(h: DiffHunk, strictEol: boolean): Pattern {
  const old: string[] = [];
  const runs: Pattern['runs'] = [];
  let run: Pattern['runs'][number] | undefined;
  for (const l of h.lines) {
    if (l.op === ' ') {
      run = undefined;
      old.push(keyOf(l, strictEol));
      continue;
    }
    if (!run) {
      run = { offset: old.length, removed: 0, added: [], attach: 'after' };
      runs.push(run);
    }
    if (l.op === '-') {
      old.push(keyOf(l, strictEol));
      run.removed++;
    } else run.added.push(keyOf(l, strictEol));
  }
  let lead = 0;
  while (lead < h.lines.length && h.lines[lead].op === ' ') lead++;
  let trail = 0;
  while (trail < h.lines.length - lead && h.lines[h.lines.length - 1 - trail].op === ' ') trail++;
  // A run with context above it and none below belongs to the line before it (an append).
  const last = runs[runs.length - 1];
  if (last && trail === 0 && lead > 0 && runs.length === 1) last.attach = 'before';
  return { old, runs, lead, trail };
}

/**
 * Finds each hunk's lines in `target` (keys) near where its header says, shifted by where the previous hunks
 * were found (as GNU patch does), nearest first; hunks stay in order and never overlap. With `fuzz` > 0, up to
 * that many context lines at each end may be left out, within `fuzzWindow` lines only. `strictEol`: take
 * `\ No newline` markers literally; otherwise a hunk's last line matches the text's last line either way and
 * the text's final-newline state is kept (see `keepFinalNewline`).
 */
export function placeHunks(
  target: readonly string[],
  hunks: readonly DiffHunk[],
  strictEol: boolean,
  options: PlaceOptions = {},
): { placed: PlacedHunk[]; failed: number[] } {
  const maxFuzz = options.fuzz ?? 0;
  const window = options.fuzzWindow ?? 100;
  const allowed = Math.max(0, Math.min(4_000_000, options.budget?.left ?? 4_000_000));
  let budget = allowed;
  const n = target.length;
  const lastKey = n ? target[n - 1] : '';
  const lastTagged = n > 0 && hasNoEol(lastKey);
  const eq = (ti: number, key: string) => {
    const t = target[ti];
    if (t === key) return true;
    return !strictEol && ti === n - 1 && lastTagged && t.length === key.length + 1 && t.startsWith(key);
  };
  // Where each line is, built on the first search that needs it (one pass, charged to the budget).
  let lineIndex: Map<string, number[]> | undefined;
  /** The places in [lo, hi] whose line matches `key`, ascending: `list[from, to)`, then `extra` when >= 0. */
  const candidates = (key: string, lo: number, hi: number) => {
    if (!lineIndex) {
      lineIndex = new Map();
      for (let i = 0; i < n; i++) {
        const list = lineIndex.get(target[i]);
        if (list) list.push(i);
        else lineIndex.set(target[i], [i]);
      }
      budget -= n;
    }
    const list = lineIndex.get(key) ?? [];
    // The unterminated last line matches its text without the marker (see `eq`).
    const extra = !strictEol && lastTagged && target[n - 1] !== key && withNoEol(key) === target[n - 1] && n - 1 >= lo && n - 1 <= hi ? n - 1 : -1;
    return { list, from: lowerBound(list, lo), to: lowerBound(list, hi + 1), extra };
  };
  const placed: PlacedHunk[] = [];
  const failed: number[] = [];
  let minPos = 0;
  let shift = 0;
  let group = options.firstGroup ?? 0;
  hunks.forEach((h, index) => {
    const g = group++;
    if (options.only && !options.only.has(index)) return;
    const p = patternOf(h, strictEol);
    const expected =
      h.oldStart === undefined ? minPos : Math.max(0, (h.oldCount === 0 ? h.oldStart : h.oldStart - 1) + shift);
    let found: { at: number; fuzz: number; front: number } | undefined;
    for (let fuzz = 0; fuzz <= maxFuzz && !found && budget > 0; fuzz++) {
      const front = Math.min(fuzz, p.lead);
      const back = Math.min(fuzz, p.trail);
      if (fuzz > 0 && front === 0 && back === 0) continue; // nothing more to leave out
      const len = p.old.length - front - back;
      if (len <= 0 && (fuzz > 0 || p.old.length > 0)) continue;
      const centre = expected + front;
      const lo = minPos;
      const hi = n - len;
      if (hi < lo) continue;
      const tryAt = (at: number) => {
        let k = 0;
        while (k < len && eq(at + k, p.old[front + k])) k++;
        budget -= k + 1;
        if (k === len) found = { at, fuzz, front };
        return !!found;
      };
      if (len === 0) {
        // With no line to match (an insertion without context) only the stated place will do.
        if (centre >= lo && centre <= hi) tryAt(centre);
        continue;
      }
      if (fuzz > 0) {
        // Within the window only: at most 2 × window + 1 places.
        for (let dist = 0; dist <= window && budget > 0 && !found; dist++) {
          if (centre - dist >= lo && centre - dist <= hi && tryAt(centre - dist)) break;
          if (dist > 0 && centre + dist >= lo && centre + dist <= hi) tryAt(centre + dist);
        }
        continue;
      }
      // Anywhere, nearest first: only the places whose first line matches are tried (an index of the lines),
      // so a header claiming line 999,999,999 costs its candidates, not a walk to it.
      const c = candidates(p.old[front], lo, hi);
      const count = c.to - c.from + (c.extra >= 0 ? 1 : 0);
      const place = (i: number) => (i < c.to - c.from ? c.list[c.from + i] : c.extra);
      let right = lowerBoundIn(c.list, c.from, c.to, centre) - c.from;
      if (right === c.to - c.from && c.extra >= 0 && c.extra < centre) right++;
      let left = right - 1;
      while (budget > 0 && !found && (left >= 0 || right < count)) {
        const dl = left >= 0 ? centre - place(left) : Infinity;
        const dr = right < count ? place(right) - centre : Infinity;
        // Ties: the place before the stated one first, as GNU patch does.
        if (dr === 0 || dr < dl) tryAt(place(right++));
        else tryAt(place(left--));
      }
    }
    if (!found) {
      failed.push(index);
      return;
    }
    const start = found.at - found.front;
    const changes: Change[] = p.runs.map(r => ({
      start: start + r.offset,
      end: start + r.offset + r.removed,
      lines: r.added,
      group: g,
      attach: r.attach,
    }));
    placed.push({ hunk: index, at: found.at, fuzz: found.fuzz, changes });
    minPos = found.at + p.old.length - found.front - Math.min(found.fuzz, p.trail);
    if (h.oldStart !== undefined) shift = start - (h.oldCount === 0 ? h.oldStart : h.oldStart - 1);
  });
  if (options.budget) options.budget.left -= allowed - Math.max(0, budget);
  return { placed, failed };
}

/** The first index of sorted `list` whose value is at least `value`. */
function lowerBound(list: readonly number[], value: number): number {
  return lowerBoundIn(list, 0, list.length, value);
}

/** The same within `list[from, to)`. */
function lowerBoundIn(list: readonly number[], from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Keeps a text's "no newline at end of file" when a diff did not speak of it: a change reaching the end ends
 * without a line break again, and lines appended after the last line move the missing break to the new end.
 */
export function keepFinalNewline(target: readonly string[], changes: Change[]): Change[] {
  const n = target.length;
  if (!n || !hasNoEol(target[n - 1]) || !changes.length) return changes;
  const out = changes.slice();
  const c = { ...out[out.length - 1] };
  if (c.end !== n) return changes;
  if (c.start === n) {
    // Appended after the unterminated last line: that line gets its break, the new last line loses it.
    c.start = n - 1;
    c.lines = [target[n - 1].slice(0, -1), ...c.lines];
  } else if (!c.lines.length) {
    // The end was deleted: the line before becomes the last one, without a break.
    const prev = out[out.length - 2];
    if (c.start === 0 || (prev && prev.end >= c.start)) return changes;
    c.start -= 1;
    c.lines = [target[c.start]];
  } else c.lines = c.lines.slice();
  c.lines[c.lines.length - 1] = withNoEol(c.lines[c.lines.length - 1]);
  out[out.length - 1] = c;
  return out;
}

