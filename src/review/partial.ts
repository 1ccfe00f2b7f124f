/**
 * A "whole file" that leaves parts out ("// ... existing code ...") is never a whole-file replacement: the
 * parts it shows land by their unchanged lines, as diff hunks, and everything it leaves out stays.
 *
 * Each shown part (the lines between two elision markers) is anchored in the file by its first and last line
 * that occur exactly once in the rest of the file (lines of a few characters, braces and blanks never anchor);
 * the anchors then grow over lines that match exactly on both sides. The file's lines between the anchors are
 * diffed with the part's lines: that is the part's hunk. A part with no anchor, anchors out of order, or a
 * stretch of the file far longer than what the part shows there (it left lines out without saying so) makes
 * the whole block unplaceable: nothing of it lands and it is listed with its reason. Linear apart from the
 * bounded line diffs.
 */
import { type Budget, diffLines } from './diff';
import { withoutNoEol } from './lines';
import type { DiffHunk, DiffLine } from './patch';
import { isElisionLine } from './elisions';

/**
 * The parts of a block's lines between elision markers (blank-only parts dropped). `atTop`: no marker before
 * the first part (it shows the file's start); `atEnd`: none after the last (it shows the file's end).
 */
export function shownParts(keys: readonly string[], language = ''): { parts: string[][]; atTop: boolean; atEnd: boolean } {
  const parts: string[][] = [];
  let cur: string[] = [];
  let markers = 0;
  let atTop = false;
  let afterLastMarker = false;
  const flush = () => {
    while (cur.length && !withoutNoEol(cur[0]).trim()) cur.shift();
    while (cur.length && !withoutNoEol(cur[cur.length - 1]).trim()) cur.pop();
    if (cur.length) {
      if (!parts.length && !markers) atTop = true;
      parts.push(cur);
    }
    cur = [];
  };
  for (const k of keys) {
    if (isElisionLine(withoutNoEol(k), language)) {
      flush();
      markers++;
      afterLastMarker = false;
    } else {
      cur.push(withoutNoEol(k));
      if (withoutNoEol(k).trim()) afterLastMarker = true;
    }
  }
  flush();
  return { parts, atTop, atEnd: afterLastMarker };
}

const anchorable = (line: string) => {
  const t = line.trim();
  return t.length >= 4 && /[A-Za-z0-9]/.test(t);
};

/**
 * For each anchorable line of `ref`, its position when it occurs exactly once at or after `from`, else undefined.
 * Positions are indexed once so each question is O(log n) (they are sorted).
 */
function uniqueAfter(ref: readonly string[]): (line: string, from: number) => number | undefined {
  const at = new Map<string, number[]>();
  ref.forEach((line, i) => {
    if (!anchorable(line)) return;
    const list = at.get(line);
    if (list) list.push(i);
    else at.set(line, [i]);
  });
  return (line, from) => {
    const list = at.get(line);
    if (!list) return undefined;
    // The first position ≥ from (binary search) must be the last one.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo === list.length - 1 ? list[lo] : undefined;
  };
}

/**
 * Hunks for the shown parts of `keys` against `reference` (the text they were written for), or undefined when
 * some part cannot be placed. The hunks carry line numbers: they match the reference exactly where they say.
 */
export function partialHunks(keys: readonly string[], reference: readonly string[], language = '', budget?: Budget): DiffHunk[] | undefined {
  const { parts, atTop, atEnd } = shownParts(keys, language);
  if (!parts.length) return undefined;
  const ref = reference.map(withoutNoEol);
  const onlyAfter = uniqueAfter(ref);

  const hunks: DiffHunk[] = [];
  let pos = 0;
  for (const [index, part] of parts.entries()) {
    let i = -1;
    let pi = -1;
    for (let k = 0; k < part.length && pi < 0; k++) {
      if (!anchorable(part[k])) continue;
      const found = onlyAfter(part[k], pos);
      if (found !== undefined) [i, pi] = [k, found];
    }
    if (pi < 0) return undefined;
    let j = i;
    let pj = pi;
    for (let k = part.length - 1; k > i; k--) {
      if (!anchorable(part[k])) continue;
      const found = onlyAfter(part[k], pi + 1);
      if (found !== undefined) {
        [j, pj] = [k, found];
        break;
      }
    }
    // Lines shown past the bottom anchor, ending like the file does a little further on (a closing brace):
    // those file lines are what they replace. Likewise above the top anchor.
    const close = part[part.length - 1];
    if (j < part.length - 1 && close.trim()) {
      const want = pj + (part.length - 1 - j);
      for (let d = 0; d <= 3; d++) {
        const e = [want - d, want + d].find(x => x > pj && x < ref.length && ref[x] === close);
        if (e !== undefined) {
          [j, pj] = [part.length - 1, e];
          break;
        }
      }
    }
    const open = part[0];
    if (i > 0 && open.trim()) {
      const want = pi - i;
      for (let d = 0; d <= 3; d++) {
        const e = [want + d, want - d].find(x => x >= pos && x < pi && ref[x] === open);
        if (e !== undefined) {
          [i, pi] = [0, e];
          break;
        }
      }
    }
    // Grow over lines equal on both sides (closing braces, blank lines).
    while (i > 0 && pi > pos && part[i - 1] === ref[pi - 1]) [i, pi] = [i - 1, pi - 1];
    while (j < part.length - 1 && pj < ref.length - 1 && part[j + 1] === ref[pj + 1]) [j, pj] = [j + 1, pj + 1];
    // A first part with no marker above it shows the file's start: the lines above its anchor are those lines
    // (changed), not new ones, when there are about as many. Likewise at the end. Otherwise lines shown
    // beyond the anchors are added, and the file's lines there stay.
    if (index === 0 && atTop && i > 0 && pi - pos <= i + 3) [i, pi] = [0, pos];
    if (index === parts.length - 1 && atEnd && j < part.length - 1 && ref.length - 1 - pj <= part.length - 1 - j + 3) [j, pj] = [part.length - 1, ref.length - 1];
    // Lines shown beyond the anchors where the file goes on: new lines only when none of them looks like the
    // file's lines there (a changed `return` after the last anchor would otherwise be added beside the old one).
    const lastPart = index === parts.length - 1;
    if (j < part.length - 1 && !(lastPart && atEnd && pj >= ref.length - 1) && resemblesAny(part.slice(j + 1), ref.slice(pj + 1, pj + 1 + (part.length - 1 - j) + 2))) return undefined;
    if (i > 0 && !(index === 0 && atTop && pi === 0) && resemblesAny(part.slice(0, i), ref.slice(Math.max(pos, pi - i - 2), pi))) return undefined;
    const shown = j - i + 1;
    const span = pj - pi + 1;
    // The file has far more lines here than the part shows: it left lines out without a marker.
    if (span > 2 * shown + 10) return undefined;
    const lines: DiffLine[] = [];
    const add = (op: DiffLine['op'], text: string) => lines.push({ op, text, noEol: false });
    for (let k = 0; k < i; k++) add('+', part[k]);
    const a = ref.slice(pi, pj + 1);
    const b = part.slice(i, j + 1);
    let ai = 0;
    for (const e of diffLines(a, b, budget).edits) {
      for (; ai < e.aStart; ai++) add(' ', a[ai]);
      for (let k = e.aStart; k < e.aEnd; k++) add('-', a[k]);
      for (let k = e.bStart; k < e.bEnd; k++) add('+', b[k]);
      ai = e.aEnd;
    }
    for (; ai < a.length; ai++) add(' ', a[ai]);
    for (let k = j + 1; k < part.length; k++) add('+', part[k]);
    pos = pj + 1;
    if (!lines.some(l => l.op !== ' ')) continue;
    const oldCount = lines.filter(l => l.op !== '+').length;
    const newCount = lines.filter(l => l.op !== '-').length;
    const header = `@@ -${pi + 1},${oldCount} +${pi + 1},${newCount} @@`;
    hunks.push({ oldStart: pi + 1, oldCount, newStart: pi + 1, newCount, header, lines });
  }
  return hunks;
}

/** What a block that leaves parts out becomes for the plan: hunks by context, a whole file after all, or a reason. */
export type PartialOutcome =
  | { kind: 'hunks'; hunks: DiffHunk[] }
  | { kind: 'whole' }
  | { kind: 'skip'; code: 'elided' | 'partial'; marker: string };

/**
 * `keys`: the block's lines; `reference`: the text it was written for (the sent text, else the file now), or
 * undefined for a file that does not exist (a new file cannot be partial: it is listed). `elided` says which
 * marker is really a left-out part (a marker line the file itself has is content): undefined → a whole file.
 */
export function landPartial(keys: readonly string[], reference: readonly string[] | undefined, elided: string | undefined, language = '', budget?: Budget): PartialOutcome {
  if (elided === undefined) return { kind: 'whole' };
  if (!reference) return { kind: 'skip', code: 'elided', marker: elided };
  const hunks = partialHunks(keys, reference, language, budget);
  return hunks ? { kind: 'hunks', hunks } : { kind: 'skip', code: 'partial', marker: elided };
}

const WORDS = /[A-Za-z_$][\w$]*|\d+/g;

/** Whether some line of `shown` looks like some line of `file`: the same first word and half of its words. */
function resemblesAny(shown: readonly string[], file: readonly string[]): boolean {
  const sets = file.filter(l => l.trim()).map(l => (l.slice(0, 400).match(WORDS) ?? []));
  for (const line of shown) {
    const w = line.slice(0, 400).match(WORDS) ?? [];
    if (!w.length) continue;
    for (const f of sets) {
      if (!f.length || f[0] !== w[0]) continue;
      const other = new Set(f);
      const common = w.filter(x => other.has(x)).length;
      if (common * 2 >= Math.min(w.length, f.length)) return true;
    }
  }
  return false;
}
