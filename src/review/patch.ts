/**
 * Unified diffs: parsing (one pass over the lines, no backtracking) and placing their hunks in a text.
 *
 * Parsing is lenient where answers are sloppy and strict where it matters: `---`/`+++` headers are optional
 * (git's `a/` `b/` prefixes stripped, `/dev/null` = created or deleted, git's quoted names decoded); hunk
 * counts may be omitted (= 1) or wrong (the lines decide: a hunk runs while its lines look like diff lines);
 * a blank line inside a hunk is an empty context line (editors strip the space); `\ No newline at end of file`
 * is honoured. A `@@` line without numbers is a hunk placed by its context alone.
 */
import type { Budget } from './diff';
import { NO_EOL, hasNoEol, withNoEol } from './lines';
import type { Change } from './merge';

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
  /** Followed by `\ No newline at end of file`. */
  noEol: boolean;
}

export interface DiffHunk {
  /** 1-based, as in the header; undefined for a `@@` line without numbers. */
  oldStart?: number;
  oldCount?: number;
  newStart?: number;
  newCount?: number;
  /** The header line, bounded, for labels and skip reasons. */
  header: string;
  lines: DiffLine[];
}

export interface FileDiff {
  /** Paths of the headers, prefixes stripped; undefined when absent. `/dev/null` gives `created`/`deleted`. */
  oldPath?: string;
  newPath?: string;
  created: boolean;
  deleted: boolean;
  renamed: boolean;
  binary: boolean;
  hunks: DiffHunk[];
  /** Some line carries `\ No newline at end of file`: final newlines are then taken literally. */
  eolMarked: boolean;
  /** Hunk headers past the cap of one diff text (`MAX_HUNK_HEADERS`): counted, not read. */
  headersPastCap: number;
}

const MAX_HEADER = 200;

/**
 * Hunk headers read in one diff text at most (20,000 one-line insertions must still be reviewable); the rest
 * are only counted, so a 15 MB answer of a million headers costs a count, and the plan calls it too complex.
 */
export const MAX_HUNK_HEADERS = 50_000;

/** The file sections of a diff (several when it has several `---`/`+++` pairs or `diff --git` lines). */
export function parseUnifiedDiff(text: string, maxHunks = MAX_HUNK_HEADERS): FileDiff[] {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  const files: FileDiff[] = [];
  let cur: FileDiff | undefined;
  // Right after a `diff --git` line: its `---`/`+++` lines belong to the same section.
  let gitSection = false;
  const fresh = (): FileDiff => {
    const f: FileDiff = { created: false, deleted: false, renamed: false, binary: false, hunks: [], eolMarked: false, headersPastCap: 0 };
    files.push(f);
    return f;
  };
  const isHeaderPair = (i: number) => lines[i].startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ');

  let read = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      cur = fresh();
      gitSection = true;
      const paths = gitHeaderPaths(line.slice(11));
      cur.oldPath = paths?.old;
      cur.newPath = paths?.new;
      i++;
      continue;
    }
    if (isHeaderPair(i)) {
      if (!cur || cur.hunks.length || !gitSection) cur = fresh();
      gitSection = false;
      const oldRaw = headerPath(line.slice(4));
      const newRaw = headerPath(lines[i + 1].slice(4));
      const stripped = (oldRaw === null || oldRaw?.startsWith('a/')) && (newRaw === null || newRaw?.startsWith('b/')) && !(oldRaw === null && newRaw === null);
      cur.oldPath = oldRaw === null ? undefined : stripped ? oldRaw?.slice(2) : oldRaw;
      cur.newPath = newRaw === null ? undefined : stripped ? newRaw?.slice(2) : newRaw;
      if (oldRaw === null) cur.created = true;
      if (newRaw === null) cur.deleted = true;
      i += 2;
      continue;
    }
    if (line.startsWith('@@')) {
      cur ??= fresh();
      gitSection = false;
      if (read >= maxHunks) {
        // Counted like a hunk when a diff line follows (an empty header is no hunk, as readHunk drops it).
        const next = lines[i + 1]?.charCodeAt(0);
        if (next === 32 || next === 43 || next === 45) cur.headersPastCap++;
        i++;
        continue;
      }
      read++;
      i = readHunk(lines, i, cur, isHeaderPair);
      continue;
    }
    if (cur && !cur.hunks.length) {
      if (line.startsWith('new file mode')) cur.created = true;
      else if (line.startsWith('deleted file mode')) cur.deleted = true;
      else if (line.startsWith('rename from') || line.startsWith('rename to') || line.startsWith('copy from') || line.startsWith('copy to')) cur.renamed = true;
      else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch')) cur.binary = true;
    }
    i++;
  }
  return files.filter(f => f.hunks.length || f.headersPastCap || f.created || f.deleted || f.renamed || f.binary);
}

/** Reads the hunk whose header is at `start`; returns the index of the first line after it. */
function readHunk(lines: string[], start: number, file: FileDiff, isHeaderPair: (i: number) => boolean): number {
  const headerLine = lines[start];
  const hunk: DiffHunk = { header: headerLine.length > MAX_HEADER ? `${headerLine.slice(0, MAX_HEADER)}…` : headerLine, lines: [] };
  const numbers = hunkNumbers(headerLine);
  if (numbers) Object.assign(hunk, numbers);
  let oldLeft = numbers ? numbers.oldCount : Infinity;
  let newLeft = numbers ? numbers.newCount : Infinity;
  let i = start + 1;
  const add = (op: DiffLine['op'], text: string) => hunk.lines.push({ op, text, noEol: false });
  const isNext = (k: number) => lines[k].startsWith('@@') || lines[k].startsWith('diff --git ') || isHeaderPair(k);
  // First by the header's counts, then on while the lines still look like a hunk's (the counts were wrong).
  while (i < lines.length && (oldLeft > 0 || newLeft > 0) && !isNext(i)) {
    const l = lines[i];
    const c = l.charCodeAt(0);
    if (l === '' || c === 32) {
      add(' ', l.slice(1));
      oldLeft--;
      newLeft--;
    } else if (c === 45) {
      add('-', l.slice(1));
      oldLeft--;
    } else if (c === 43) {
      add('+', l.slice(1));
      newLeft--;
    } else if (c === 92) {
      markNoEol(hunk, file);
    } else break;
    i++;
  }
  const countsMet = oldLeft <= 0 && newLeft <= 0;
  const counted = hunk.lines.length;
  while (i < lines.length && !isNext(i)) {
    const l = lines[i];
    const c = l.charCodeAt(0);
    if (c === 92) markNoEol(hunk, file);
    else if (c === 32 || c === 45 || c === 43 || (l === '' && i + 1 < lines.length && /^[ +-]/.test(lines[i + 1]) && !isNext(i + 1))) {
      add(l === '' ? ' ' : (l[0] as DiffLine['op']), l.slice(1));
    } else break;
    i++;
  }
  // Trailing blank lines are separators, unless the header's counts asked for exactly them.
  while (!(numbers && countsMet && counted === hunk.lines.length) && hunk.lines.length && hunk.lines[hunk.lines.length - 1].op === ' ' && hunk.lines[hunk.lines.length - 1].text === '') hunk.lines.pop();
  if (hunk.lines.length) file.hunks.push(hunk);
  return i;
}

function markNoEol(hunk: DiffHunk, file: FileDiff) {
  const last = hunk.lines[hunk.lines.length - 1];
  if (!last) return;
  last.noEol = true;
  file.eolMarked = true;
}

function readNumber(s: string, at: number): { value: number; next: number } | undefined {
  let next = at;
  while (next < s.length && next - at < 10 && s.charCodeAt(next) >= 48 && s.charCodeAt(next) <= 57) next++;
  if (next === at || next - at >= 10) return undefined;
  return { value: Number(s.slice(at, next)), next };
}

/** `@@ -a[,b] +c[,d] @@`: counts default to 1. */
export function hunkNumbers(line: string): { oldStart: number; oldCount: number; newStart: number; newCount: number } | undefined {
  let at = 2;
  while (line[at] === ' ') at++;
  if (line[at] !== '-') return undefined;
  const a = readNumber(line, at + 1);
  if (!a) return undefined;
  let b = { value: 1, next: a.next };
  if (line[a.next] === ',') {
    const r = readNumber(line, a.next + 1);
    if (!r) return undefined;
    b = r;
  }
  at = b.next;
  while (line[at] === ' ') at++;
  if (line[at] !== '+') return undefined;
  const c = readNumber(line, at + 1);
  if (!c) return undefined;
  let d = { value: 1, next: c.next };
  if (line[c.next] === ',') {
    const r = readNumber(line, c.next + 1);
    if (!r) return undefined;
    d = r;
  }
  at = d.next;
  while (line[at] === ' ') at++;
  if (!line.startsWith('@@', at)) return undefined;
  return { oldStart: a.value, oldCount: b.value, newStart: c.value, newCount: d.value };
}

/** A `---`/`+++` header's path: up to a tab (a timestamp follows), git's quoting decoded; null for /dev/null. */
function headerPath(rest: string): string | null | undefined {
  if (rest.length > 4096) return undefined;
  const tab = rest.indexOf('\t');
  let p = (tab === -1 ? rest : rest.slice(0, tab)).trimEnd();
  if (p.startsWith('"')) p = unquote(p) ?? '';
  if (p === '/dev/null') return null;
  return p || undefined;
}

/** `diff --git a/x b/x`: the paths when they can be told apart (the same name twice, or quoted). */
function gitHeaderPaths(rest: string): { old?: string; new?: string } | undefined {
  const t = rest.trimEnd();
  if (t.startsWith('"')) return undefined;
  const half = (t.length - 1) / 2;
  if (Number.isInteger(half) && t[half] === ' ' && t.startsWith('a/') && t.slice(half + 1).startsWith('b/') && t.slice(2, half) === t.slice(half + 3)) {
    return { old: t.slice(2, half), new: t.slice(half + 3) };
  }
  return undefined;
}

/** C-style quoting as git writes names with special characters ("a/caf\303\251.txt"). */
function unquote(q: string): string | undefined {
  const bytes: number[] = [];
  const ESC: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  let i = 1;
  for (; i < q.length; i++) {
    const ch = q[i];
    if (ch === '"') break;
    if (ch === '\\') {
      const nx = q[i + 1];
      if (nx !== undefined && nx >= '0' && nx <= '7') {
        const oct = /^[0-7]{1,3}/.exec(q.slice(i + 1, i + 4))![0];
        bytes.push(parseInt(oct, 8) & 0xff);
        i += oct.length;
      } else if (nx !== undefined && ESC[nx] !== undefined) {
        bytes.push(ESC[nx]);
        i++;
      } else return undefined;
    } else {
      for (const b of new TextEncoder().encode(ch)) bytes.push(b);
    }
  }
  if (i >= q.length) return undefined;
  return new TextDecoder().decode(new Uint8Array(bytes));
}

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
