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

  const before = definitionsOf(ours);
  const after = definitionsOf(result);
  for (const [key, lines] of before) {
    const now = after.get(key)?.length ?? 0;
    if (now >= lines.length) continue;
    const name = key.slice(key.lastIndexOf('.') + 1).replace(/:[gs]et$/, '');
    if (stated.has(name)) continue;
    for (const i of lines) {
      const k = replacedBy[i];
      if (k >= 0 && !explicit(ours[i].trim())) hold(k, { code: 'definitionLost', detail: name });
    }
  }
  for (const [key, lines] of after) {
    if (lines.length < 2 || (before.get(key)?.length ?? 0) !== 1) continue;
    const name = key.slice(key.lastIndexOf('.') + 1).replace(/:[gs]et$/, '');
    for (const i of lines) if (origin[i] >= 0) hold(origin[i], { code: 'definitionTwice', detail: name });
  }
  for (const [k, first] of runsWrittenTwice(ours, result, origin)) hold(k, { code: 'linesTwice', detail: first });
  return held;
}

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

/** Each definition's qualified key → the lines declaring it. */
function definitionsOf(lines: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const stack: { indent: number; name: string }[] = [];
  lines.forEach((line, i) => {
    if (line.length > MAX_LINE || !line.trim()) return;
    const name = declaredOn(line);
    // Headings are prose, and a signature without a body (an overload, a declaration) is not a second definition.
    if (name === undefined || name.startsWith('#') || /;\s*$/.test(line)) return;
    // A decorated second `def` of a property (its setter) is the same property's other half.
    if (/^\s*@[\w.]*\.(?:setter|deleter)\b/.test(previousNonBlank(lines, i))) return;
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const accessor = /^\s*(?:(?:static|public|private|protected|override)\s+)*(get|set)\s+[A-Za-z_$]/.exec(line)?.[1];
    const key = [...stack.map(s => s.name), name].join('.') + (accessor ? `:${accessor}` : '');
    stack.push({ indent, name });
    const at = out.get(key);
    if (at) at.push(i);
    else out.set(key, [i]);
  });
  return out;
}

function previousNonBlank(lines: readonly string[], i: number): string {
  for (let j = i - 1; j >= 0 && j >= i - 3; j--) if (lines[j].trim()) return lines[j].slice(0, MAX_LINE);
  return '';
}

/**
 * The changes that write a long run of lines (RUN non-blank lines in a row, SUBSTANTIAL of them real code) that the
 * result holds more often than the file now, and twice at least; with the run's first line. Runs are compared by
 * a hash of their lines, so the cost is one pass over each text.
 */
function runsWrittenTwice(ours: readonly string[], result: readonly string[], origin: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  if (!origin.some(o => o >= 0)) return out;
  const windows = (text: readonly string[]) => {
    const lines: { hash: number; real: boolean; at: number }[] = [];
    text.forEach((l, at) => {
      const t = l.slice(0, MAX_LINE).trim();
      if (t) lines.push({ hash: hashOf(t), real: t.length >= 12 && /[A-Za-z]/.test(t), at });
    });
    const keys: { key: string; first: number; last: number }[] = [];
    let real = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].real) real++;
      if (i >= RUN && lines[i - RUN].real) real--;
      if (i >= RUN - 1 && real >= SUBSTANTIAL) {
        let key = '';
        for (let j = i - RUN + 1; j <= i; j++) key += `${lines[j].hash},`;
        keys.push({ key, first: lines[i - RUN + 1].at, last: lines[i].at });
      }
    }
    return keys;
  };
  const count = (keys: { key: string }[]) => {
    const m = new Map<string, number>();
    for (const { key } of keys) m.set(key, (m.get(key) ?? 0) + 1);
    return m;
  };
  const before = count(windows(ours));
  const resultWindows = windows(result);
  const after = count(resultWindows);
  for (const w of resultWindows) {
    const n = after.get(w.key)!;
    if (n < 2 || n <= (before.get(w.key) ?? 0)) continue;
    for (let i = w.first; i <= w.last; i++) {
      if (origin[i] >= 0 && !out.has(origin[i])) out.set(origin[i], result[w.first].trim().slice(0, 80));
    }
  }
  return out;
}

/** FNV-1a of a line: runs are compared by their lines' hashes (a collision can only hold a hunk back, never land one). */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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
