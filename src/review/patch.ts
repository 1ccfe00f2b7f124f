/**
 * Unified diffs: parsing (one pass over the lines, no backtracking); placing their hunks in a text is placement.ts.
 *
 * Parsing is lenient where answers are sloppy and strict where it matters: `---`/`+++` headers are optional
 * (git's `a/` `b/` prefixes stripped, `/dev/null` = created or deleted, git's quoted names decoded); hunk
 * counts may be omitted (= 1) or wrong (the lines decide: a hunk runs while its lines look like diff lines);
 * a blank line inside a hunk is an empty context line (editors strip the space); `\ No newline at end of file`
 * is honoured. A `@@` line without numbers is a hunk placed by its context alone.
 */

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
  /**
   * A search/replace edit block (editBlocks.ts): its `-` lines are the SEARCH text, found exactly once
   * (trailing whitespace and indentation tolerated), never by fuzz; Roo's `:start_line:` may pick among several.
   */
  edit?: { startLine?: number };
  /**
   * The apply_patch format's `@@ <line>` anchors (issue 43), outermost first (`@@ class Cart` then `@@ def total`):
   * among several places of the hunk's lines, the one inside the last anchor found in order.
   */
  anchors?: string[];
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
  const { head, pastCap } = cutAtCap(text, maxHunks);
  const lines = head.split('\n');
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
  if (pastCap) (cur ?? fresh()).headersPastCap += pastCap;
  // A diff of bare lines (` `, `-`, `+`, no header at all): one hunk placed by its lines alone.
  if (!files.length && isBareHunk(lines)) readHunk(['@@', ...lines], 0, fresh(), () => false);
  return files.filter(f => f.hunks.length || f.headersPastCap || f.created || f.deleted || f.renamed || f.binary);
}

/**
 * The text up to the first hunk header past the cap, and how many headers follow it (a `@@` line with a diff
 * line after it, as the parser counts them). What lies past the cap is scanned, never split into lines: a
 * 15 MB answer of a million headers would be two million strings. The plan refuses such a diff as too complex
 * (`buildPlan`), so the sections past the cap need only their count.
 */
function cutAtCap(text: string, maxHunks: number): { head: string; pastCap: number } {
  let seen = 0;
  let at = text.startsWith('@@') ? 0 : -1;
  if (at < 0) {
    const next = text.indexOf('\n@@');
    at = next < 0 ? -1 : next + 1;
  }
  while (at >= 0 && ++seen <= maxHunks) {
    const next = text.indexOf('\n@@', at);
    at = next < 0 ? -1 : next + 1;
  }
  if (at < 0) return { head: text, pastCap: 0 };
  let pastCap = 0;
  for (let line = at; line >= 0; ) {
    const end = text.indexOf('\n', line);
    if (end < 0) break;
    const isHeader = text.startsWith('@@', line);
    const c = text.charCodeAt(end + 1);
    if (isHeader && (c === 32 || c === 43 || c === 45)) pastCap++;
    line = end + 1;
  }
  return { head: text.slice(0, at), pastCap };
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

/** Every line a diff line (` `, `-`, `+` or empty), at least one `-` or `+`, and no `---`/`+++` header among them. */
function isBareHunk(lines: readonly string[]): boolean {
  let changes = 0;
  for (const l of lines) {
    if (l === '') continue;
    const c = l.charCodeAt(0);
    if (c !== 32 && c !== 43 && c !== 45) return false;
    if (l.startsWith('--- ') || l.startsWith('+++ ')) return false;
    if (c !== 32) changes++;
  }
  return changes > 0;
}
