/**
 * Placing a unified diff's hunks (patch.ts reads them) in a text: exactly anywhere, nearest the stated line first,
 * or with fuzz near it; linear in the text and bounded by a shared work budget.
 */
import type { Budget } from './diff';
import { NO_EOL, hasNoEol, withNoEol, withoutNoEol } from './lines';
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

/** How many places of an ambiguous hunk are named in its reason. */
const MAX_CANDIDATES = 5;

export interface PlaceResult {
  placed: PlacedHunk[];
  failed: number[];
  /** Failed hunks whose lines match in more than one place (1-based lines of the first few), never guessed. */
  ambiguous: Map<number, number[]>;
}

/**
 * Finds each hunk's lines in `target` (keys); hunks stay in order and never overlap. A place is taken only when
 * it is proven (issue 34): a hunk with line numbers at the line it states (shifted by where the previous hunks
 * were found, as GNU patch does), else anywhere its lines occur exactly once; a hunk without line numbers (a bare
 * `@@`, a headerless diff, an edit block) only where its lines occur exactly once. Lines that occur in several
 * places make the hunk `ambiguous`, with the candidates. With `fuzz` > 0, up to that many context lines at each
 * end may be left out, within `fuzzWindow` lines of the stated place only, and again only at one place. An edit
 * block (`hunk.edit`) is matched exactly, then ignoring trailing whitespace, then ignoring indentation (its new
 * lines re-indented like the file's), never by fuzz. `strictEol`: take `\ No newline` markers literally;
 * otherwise a hunk's last line matches the text's last line either way and the text's final-newline state is
 * kept (see `keepFinalNewline`).
 */
export function placeHunks(
  target: readonly string[],
  hunks: readonly DiffHunk[],
  strictEol: boolean,
  options: PlaceOptions = {},
): PlaceResult {
  const allowed = Math.max(0, Math.min(4_000_000, options.budget?.left ?? 4_000_000));
  const lines = new TargetLines(target, strictEol, allowed);
  const placed: PlacedHunk[] = [];
  const failed: number[] = [];
  const ambiguous = new Map<number, number[]>();
  let minPos = 0;
  let shift = 0;
  let group = options.firstGroup ?? 0;
  hunks.forEach((h, index) => {
    const g = group++;
    if (options.only && !options.only.has(index)) return;
    const p = patternOf(h, strictEol);
    const numbered = h.oldStart !== undefined;
    const expected = !numbered ? minPos : Math.max(0, (h.oldCount === 0 ? h.oldStart! : h.oldStart! - 1) + shift);
    const { found, candidates } = findPlace(lines, h, p, { expected, minPos, numbered, maxFuzz: options.fuzz ?? 0, window: options.fuzzWindow ?? 100 });
    if (!found) {
      failed.push(index);
      if (candidates.length) ambiguous.set(index, candidates);
      return;
    }
    const start = found.at - found.front;
    const indent = found.tier === 2 ? indentShift(h, target, start) : undefined;
    const changes: Change[] = p.runs.map(r => ({
      start: start + r.offset,
      end: start + r.offset + r.removed,
      lines: indent ? r.added.map(indent) : r.added,
      group: g,
      attach: r.attach,
    }));
    placed.push({ hunk: index, at: found.at, fuzz: found.fuzz, changes });
    minPos = found.at + p.old.length - found.front - Math.min(found.fuzz, p.trail);
    if (numbered) shift = start - (h.oldCount === 0 ? h.oldStart! : h.oldStart! - 1);
  });
  if (options.budget) options.budget.left -= allowed - Math.max(0, lines.budget);
  return { placed, failed, ambiguous };
}

/**
 * The ways a line may match: exactly (the unterminated last line matches its text either way), and for edit
 * blocks without trailing whitespace, then without any indentation.
 */
const TIERS: ((key: string) => string)[] = [k => k, k => withoutNoEol(k).trimEnd(), k => withoutNoEol(k).trim()];

/** The target's lines as a hunk's lines may match them, per tier, each tier's index built on first use; the work they cost is charged to `budget`. */
class TargetLines {
  readonly n: number;
  private readonly lastTagged: boolean;
  private readonly normalized: (readonly string[] | undefined)[];
  private readonly indexes: (Map<string, number[]> | undefined)[] = [];

  constructor(
    private readonly target: readonly string[],
    private readonly strictEol: boolean,
    public budget: number,
  ) {
    this.n = target.length;
    this.lastTagged = this.n > 0 && hasNoEol(target[this.n - 1]);
    this.normalized = [target, undefined, undefined];
  }

  private textOf(tier: number): readonly string[] {
    let t = this.normalized[tier];
    if (!t) {
      t = this.target.map(TIERS[tier]);
      this.normalized[tier] = t;
      this.budget -= this.n;
    }
    return t;
  }

  private eq(tier: number, ti: number, key: string): boolean {
    if (tier > 0) return this.textOf(tier)[ti] === TIERS[tier](key);
    const t = this.target[ti];
    if (t === key) return true;
    return !this.strictEol && ti === this.n - 1 && this.lastTagged && t.length === key.length + 1 && t.startsWith(key);
  }

  /** Whether `old[front, front + len)` matches the target at `at`. */
  matchesAt(tier: number, at: number, old: readonly string[], front: number, len: number): boolean {
    let k = 0;
    while (k < len && this.eq(tier, at + k, old[front + k])) k++;
    this.budget -= k + 1;
    return k === len;
  }

  /** The first line at or after `from` that is `prefix` or starts with it, both trimmed (a word boundary after it); charged to the budget. */
  nextStartingWith(prefix: string, from: number): number | undefined {
    const p = prefix.trim();
    if (!p) return undefined;
    const text = this.textOf(2);
    for (let i = from; i < this.n && this.budget > 0; i++) {
      this.budget--;
      const l = text[i];
      if (l.startsWith(p) && (l.length === p.length || !/[\w$]/.test(l[p.length]) || !/[\w$]$/.test(p))) return i;
    }
    return undefined;
  }

  /** Where a line is (ascending), per tier; the exact tier also finds the unterminated last line by its text. */
  placesOf(tier: number, key: string): number[] {
    let index = this.indexes[tier];
    if (!index) {
      const built = new Map<string, number[]>();
      this.textOf(tier).forEach((line, i) => {
        const list = built.get(line);
        if (list) list.push(i);
        else built.set(line, [i]);
      });
      this.indexes[tier] = index = built;
      this.budget -= this.n;
    }
    const list = index.get(tier ? TIERS[tier](key) : key) ?? [];
    const n = this.n;
    if (tier === 0 && !this.strictEol && this.lastTagged && this.target[n - 1] !== key && withNoEol(key) === this.target[n - 1]) return [...list, n - 1];
    return list;
  }
}

interface Found {
  at: number;
  fuzz: number;
  front: number;
  tier: number;
}

/**
 * Where one hunk goes: at its stated place if it fits there, else at the one place it matches (by tier for an
 * edit block, by fuzz within the window for a diff hunk); several places are its candidates, never a guess.
 */
function findPlace(
  lines: TargetLines,
  h: DiffHunk,
  p: Pattern,
  where: { expected: number; minPos: number; numbered: boolean; maxFuzz: number; window: number },
): { found?: Found; candidates: number[] } {
  const { expected, minPos, numbered, window } = where;
  const n = lines.n;
  let candidates: number[] = [];
  const levels = h.edit ? TIERS.length : where.maxFuzz + 1;
  for (let level = 0; level < levels && !candidates.length && lines.budget > 0; level++) {
    const fuzz = h.edit ? 0 : level;
    const tier = h.edit ? level : 0;
    const front = Math.min(fuzz, p.lead);
    const back = Math.min(fuzz, p.trail);
    if (fuzz > 0 && front === 0 && back === 0) continue; // nothing more to leave out
    const len = p.old.length - front - back;
    // With no line to match (an insertion without context), only a stated line can place it.
    if (len <= 0) {
      if (fuzz === 0 && p.old.length === 0 && numbered && expected >= minPos && expected <= n) return { found: { at: expected, fuzz: 0, front: 0, tier }, candidates };
      continue;
    }
    const centre = expected + front;
    const lo = minPos;
    const hi = n - len;
    if (hi < lo) continue;
    const matchesAt = (at: number) => lines.matchesAt(tier, at, p.old, front, len);
    // The stated place first: a hunk with line numbers that fits there is proven there.
    if (numbered && centre >= lo && centre <= hi && matchesAt(centre)) return { found: { at: centre, fuzz, front, tier }, candidates };
    const matches: number[] = [];
    if (fuzz > 0) {
      // Within the window only: at most 2 × window + 1 places.
      for (let at = Math.max(lo, centre - window); at <= Math.min(hi, centre + window) && lines.budget > 0 && matches.length <= MAX_CANDIDATES; at++) {
        if (matchesAt(at)) matches.push(at);
      }
    } else {
      // Anywhere: only the places where the pattern's rarest line sits are tried (an index of the lines), so a
      // header claiming line 999,999,999 or a context of closing braces costs its candidates, not a walk.
      let rarest: number[] | undefined;
      let offset = 0;
      for (let k = 0; k < len && lines.budget > 0; k++) {
        const list = lines.placesOf(tier, p.old[front + k]);
        lines.budget -= 1;
        if (!rarest || list.length < rarest.length) [rarest, offset] = [list, k];
        if (list.length <= 1) break;
      }
      for (const i of rarest ?? []) {
        const at = i - offset;
        if (at < lo || at > hi) continue;
        if (lines.budget <= 0 || matches.length > MAX_CANDIDATES) break;
        if (matchesAt(at)) matches.push(at);
      }
    }
    if (matches.length === 1) return { found: { at: matches[0], fuzz, front, tier }, candidates };
    if (matches.length > 1) {
      // Roo's `:start_line:` names one of them.
      const stated = h.edit?.startLine !== undefined ? matches.find(m => m === h.edit!.startLine! - 1) : h.anchors ? insideAnchors(lines, h.anchors, matches) : undefined;
      if (stated !== undefined) return { found: { at: stated, fuzz, front, tier }, candidates };
      candidates = matches.slice(0, MAX_CANDIDATES).map(m => m - front + 1);
    }
  }
  return { candidates };
}

/**
 * The one place of `matches` inside the anchors (apply_patch's `@@ class X` / `@@ def y`): each anchor is the
 * next line, in order, that is it or starts with it (trimmed); the place is the first match after the last one and
 * before that anchor's next occurrence. Undefined when an anchor is not found or no match lies there.
 */
function insideAnchors(lines: TargetLines, anchors: readonly string[], matches: readonly number[]): number | undefined {
  let from = 0;
  let last = '';
  for (const a of anchors) {
    const at = lines.nextStartingWith(a, from);
    if (at === undefined) return undefined;
    from = at + 1;
    last = a;
  }
  const next = lines.nextStartingWith(last, from) ?? lines.n;
  return matches.find(m => m >= from && m < next);
}

const leading = (s: string) => /^[ \t]*/.exec(s)![0];

/**
 * An edit block matched without its indentation: its new lines take the file's indentation in place of its
 * SEARCH text's (the difference at the first non-blank line), so REPLACE lands at the file's depth.
 */
function indentShift(h: DiffHunk, target: readonly string[], start: number): ((key: string) => string) | undefined {
  const removed = h.lines.filter(l => l.op !== '+');
  const k = removed.findIndex(l => l.text.trim());
  if (k < 0) return undefined;
  const wrote = leading(removed[k].text);
  const file = leading(withoutNoEol(target[start + k]));
  if (wrote === file) return undefined;
  return key => {
    if (!key.trim()) return key;
    if (key.startsWith(wrote)) return file + key.slice(wrote.length);
    // Less indented than the SEARCH text: keep what is there beyond the common part.
    const own = leading(key);
    return file.slice(0, Math.max(0, file.length - (wrote.length - own.length))) + key.slice(own.length);
  };
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

