/**
 * The landing guard on what would be written (issue 43): whatever form the answer took, a file's hunks are
 * judged together on the text they would leave, against the file now. A hunk is held back when, through it,
 * - a definition of the file disappears that the answer does not remove explicitly (its declaration line shown
 *   removed, or its name in a sentence of the answer that says it is removed, renamed, moved or merged);
 * - a definition that was there once is there twice (a "before" and an "after", a module pasted over a part);
 * - the file would hold the same long run of lines twice where it held it at most once.
 * Definitions are read line by line (`declaredOn`), named with the definitions they sit in by indentation
 * (`Cart.total` and `Order.total` are two), accessors apart from each other, headings of prose left out
 * (a reworded heading is not code lost). Linear in the lines: one pass over the file and one over the result.
 */
import { declaredOn } from './proof';

export type ResultGuard = 'definitionLost' | 'definitionTwice' | 'linesTwice';

/** A hunk as the guard sees it: lines `[start, end)` of the file now replaced by `lines`. Sorted, not overlapping. */
export interface GuardedChange {
  start: number;
  end: number;
  lines: readonly string[];
}

export interface Held {
  code: ResultGuard;
  /** The definition's name, or the run's first line. */
  detail: string;
}

/** Lines in a run that may not appear twice, of which `SUBSTANTIAL` hold real code. */
const RUN = 10;
const SUBSTANTIAL = 6;
const MAX_LINE = 2_000;

/** Why each change is held, by its index; changes not in the map are not held by this guard. */
export function heldByResult(
  ours: readonly string[],
  changes: readonly GuardedChange[],
  explicit: (trimmedLine: string) => boolean,
  stated: ReadonlySet<string>,
): Map<number, Held> {
  const held = new Map<number, Held>();
  if (!changes.length) return held;
  const hold = (k: number, h: Held) => {
    if (!held.has(k)) held.set(k, h);
  };
  // Only a name the changes declare or remove can be lost or doubled: most hunks declare none, and cost their own lines.
  const names = new Set<string>();
  const note = (line: string) => {
    const name = definedOn(line);
    if (name !== undefined) names.add(name);
  };
  for (const c of changes) {
    for (let i = c.start; i < c.end; i++) note(ours[i]);
    for (const l of c.lines) note(l);
  }
  if (names.size) heldDefinitions(ours, changes, names, explicit, stated, hold);
  heldRuns(ours, changes, hold);
  return held;
}

/** A definition's name on a line, or undefined: headings are prose, and a signature without a body (an overload, a declaration) is not a definition. */
function definedOn(line: string): string | undefined {
  if (line.length > MAX_LINE || !line.trim()) return undefined;
  const name = declaredOn(line);
  return name === undefined || name.startsWith('#') || /;\s*$/.test(line) ? undefined : name;
}

function heldDefinitions(
  ours: readonly string[],
  changes: readonly GuardedChange[],
  names: ReadonlySet<string>,
  explicit: (trimmedLine: string) => boolean,
  stated: ReadonlySet<string>,
  hold: (k: number, h: Held) => void,
): void {
  // The result, and for each of its lines the change it comes from (-1: the file's own line, kept).
  const result: string[] = [];
  const origin: number[] = [];
  /** For each line of the file now, the change that replaces it (-1: kept). */
  const replacedBy = new Array<number>(ours.length).fill(-1);
  let at = 0;
  changes.forEach((c, k) => {
    for (; at < c.start; at++) {
      result.push(ours[at]);
      origin.push(-1);
    }
    for (let i = c.start; i < c.end; i++) replacedBy[i] = k;
    for (const l of c.lines) {
      result.push(l);
      origin.push(k);
    }
    at = Math.max(at, c.end);
  });
  for (; at < ours.length; at++) {
    result.push(ours[at]);
    origin.push(-1);
  }
  const before = definitionsOf(ours, names);
  const after = definitionsOf(result, names);
  for (const [key, lines] of before) {
    const now = after.get(key)?.length ?? 0;
    if (now >= lines.length) continue;
    const name = bareName(key);
    if (stated.has(name)) continue;
    for (const i of lines) {
      const k = replacedBy[i];
      if (k >= 0 && !explicit(ours[i].trim())) hold(k, { code: 'definitionLost', detail: name });
    }
  }
  for (const [key, lines] of after) {
    if (lines.length < 2 || (before.get(key)?.length ?? 0) !== 1) continue;
    for (const i of lines) if (origin[i] >= 0) hold(origin[i], { code: 'definitionTwice', detail: bareName(key) });
  }
}

const bareName = (key: string) => key.slice(key.lastIndexOf('.') + 1).replace(/:[gs]et$/, '');

/**
 * What inserting `inserted` before line `at` of `file` would write twice (issue 43: Insert at Cursor goes through
 * the same guard): the name of a definition the file has once, or the first line of a long run; undefined if nothing.
 */
export function insertionRepeats(file: string, at: number, inserted: string): Held | undefined {
  const ours = file.split('\n').map(l => l.replace(/\r$/, ''));
  const lines = inserted.split('\n').map(l => l.replace(/\r$/, ''));
  const held = heldByResult(ours, [{ start: at, end: at, lines }], () => false, new Set()).get(0);
  return held && held.code !== 'definitionLost' ? held : undefined;
}

/** How far up a definition's enclosing definitions are looked for. */
const MAX_ENCLOSING_SCAN = 5_000;

/**
 * The qualified key → the lines declaring it, of the definitions named in `names` only (a line is read only when it
 * holds one of them): each named with the definitions it sits in, found by looking up for less indented ones.
 */
function definitionsOf(lines: readonly string[], names: ReadonlySet<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const wanted = [...names];
  // Looking up for enclosing definitions is bounded for the whole file: past it, a name stands alone (which can
  // only hold more back, never land more).
  const scan = { left: 200_000 };
  lines.forEach((line, i) => {
    if (line.length > MAX_LINE || !wanted.some(n => line.includes(n))) return;
    const name = definedOn(line);
    if (name === undefined || !names.has(name)) return;
    // A decorated second `def` of a property (its setter) is the same property's other half.
    if (/^\s*@[\w.]*\.(?:setter|deleter)\b/.test(previousNonBlank(lines, i))) return;
    const accessor = /^\s*(?:(?:static|public|private|protected|override)\s+)*(get|set)\s+[A-Za-z_$]/.exec(line)?.[1];
    const key = [...enclosing(lines, i, scan), name].join('.') + (accessor ? `:${accessor}` : '');
    const at = out.get(key);
    if (at) at.push(i);
    else out.set(key, [i]);
  });
  return out;
}

const indentWidth = (line: string) => /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;

/** The names of the definitions line `i` sits in, outermost first: each less indented definition above it. */
function enclosing(lines: readonly string[], i: number, scan: { left: number }): string[] {
  const out: string[] = [];
  let limit = indentWidth(lines[i]);
  for (let j = i - 1; j >= 0 && limit > 0 && i - j <= MAX_ENCLOSING_SCAN && scan.left-- > 0; j--) {
    const l = lines[j];
    if (!l.trim() || l.length > MAX_LINE) continue;
    const indent = indentWidth(l);
    if (indent >= limit) continue;
    const name = definedOn(l);
    if (name === undefined) continue;
    out.unshift(name);
    limit = indent;
  }
  return out;
}

function previousNonBlank(lines: readonly string[], i: number): string {
  for (let j = i - 1; j >= 0 && j >= i - 3; j--) if (lines[j].trim()) return lines[j].slice(0, MAX_LINE);
  return '';
}

/**
 * Holds a change that writes a long run of lines (RUN non-blank lines in a row of its own, SUBSTANTIAL of them real
 * code) which the file already has outside the lines the change replaces, and not inside them (a run moved or kept
 * is not written twice). The file's lines are indexed only when a change adds RUN lines or more; a run is compared
 * line by line from the places its first line is found, within a bound of work.
 */
function heldRuns(ours: readonly string[], changes: readonly GuardedChange[], hold: (k: number, h: Held) => void): void {
  let index: Map<string, number[]> | undefined;
  let work = 2_000_000;
  const trimmed = (l: string) => l.slice(0, MAX_LINE).trim();
  const real = (t: string) => t.length >= 12 && /[A-Za-z]/.test(t);
  changes.forEach((c, k) => {
    const added = c.lines.map(trimmed).filter(t => t);
    if (added.length < RUN) return;
    index ??= indexOf(ours);
    // The same run twice in what the change writes itself (its own lines pasted twice).
    const own = new Set<string>();
    for (let s = 0; s + RUN <= added.length && work > 0; s++) {
      const run = added.slice(s, s + RUN);
      if (run.filter(real).length < SUBSTANTIAL) continue;
      const key = run.join('\n');
      work -= key.length;
      if (own.has(key)) {
        hold(k, { code: 'linesTwice', detail: run[0].slice(0, 80) });
        return;
      }
      own.add(key);
      let outside = false;
      let inside = false;
      for (const p of index.get(run[0]) ?? []) {
        work -= RUN;
        if (work <= 0) break;
        if (!runAt(ours, p, run)) continue;
        if (p >= c.start && p < c.end) inside = true;
        else outside = true;
      }
      if (outside && !inside) {
        hold(k, { code: 'linesTwice', detail: run[0].slice(0, 80) });
        return;
      }
    }
  });
}

function indexOf(lines: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const t = l.slice(0, MAX_LINE).trim();
    if (!t) return;
    const at = out.get(t);
    if (at) at.push(i);
    else out.set(t, [i]);
  });
  return out;
}

/** Whether the non-blank lines of `lines` from `p` on are `run`. */
function runAt(lines: readonly string[], p: number, run: readonly string[]): boolean {
  let k = 0;
  for (let i = p; i < lines.length && k < run.length; i++) {
    const t = lines[i].slice(0, MAX_LINE).trim();
    if (!t) continue;
    if (t !== run[k]) return false;
    k++;
  }
  return k === run.length;
}


const REMOVAL = /\b(?:remov|delet|drop|renam|mov(?:e|ed|ing)\b|merg|inlin|replac|consolidat|combin|eliminat|unused|dead code|get rid|no longer|split|extract|削除|移動|名前)/i;
const IDENT = /`([A-Za-z_$][\w$.]*)(?:\(\))?`|\b([A-Za-z_$][\w$]*(?:[A-Z_][\w$]*|\(\)))/g;
const MAX_PROSE = 200_000;

/**
 * The names a sentence of the answer's prose (outside its code blocks) says are removed, renamed, moved or merged:
 * a definition with such a name may disappear from a whole file that the answer gives. `code` tells whether a
 * 0-based line of the answer is inside a code block.
 */
export function statedRemovals(answer: string, code: (line: number) => boolean): Set<string> {
  const names = new Set<string>();
  const lines = answer.slice(0, MAX_PROSE).split('\n');
  lines.forEach((line, i) => {
    if (code(i) || line.length > MAX_LINE) return;
    for (const sentence of line.split(/(?<=[.!?。])\s+/)) {
      if (!REMOVAL.test(sentence)) continue;
      for (const m of sentence.matchAll(IDENT)) {
        const name = (m[1] ?? m[2]).replace(/\(\)$/, '');
        names.add(name.slice(name.lastIndexOf('.') + 1));
      }
    }
  });
  return names;
}
