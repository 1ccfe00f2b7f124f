/**
 * What proves a block's place (issue 34): a hunk is offered only where the code shows it belongs.
 * - `keepsEnough`: a block that replaces a range or a whole file keeps enough of it (its declaration, most of
 *   its lines or of its words); a one-line usage example, a template or another file's code does not.
 * - `definitionOf` / `findDefinition`: an unnamed block that defines a function, class or section that the file
 *   has exactly once replaces that definition, not whatever was selected.
 * - `stripGutter`: line-numbered code (`15 | x`, `3: x`) loses its numbers when every line has one, in order.
 * - `editSyntax`: a line that is edit syntax (conflict or search markers, diff headers), never file text unless
 *   the file already has such lines; a run of numbered lines is a gutter, not code.
 * Every test reads bounded lines; all are linear in the lines given.
 */

const WORD = /[A-Za-z_$][\w$]*/g;
const MAX_LINE = 2_000;

function nonBlank(keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const k of keys) {
    const t = k.slice(0, MAX_LINE).trim();
    if (t) out.push(t);
  }
  return out;
}

function words(lines: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) for (const w of l.match(WORD) ?? []) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/**
 * Whether `next` (a block's lines) is shown to replace `old` (a range's or a file's lines): `old` is blank,
 * or `next` declares what `old` declares first, or keeps half of its lines, or three fifths of
 * its words (counted with repeats).
 */
export function keepsEnough(next: readonly string[], old: readonly string[], named = false): boolean {
  // The usual whole file keeps most lines where they were: counted from both ends, nothing hashed.
  if (alignedHalf(next, old)) return true;
  const before = nonBlank(old);
  // Nothing to lose (a blank range): any block may go there. A file the block names (its naming targets it) of
  // one line is that file's new text too.
  if (!before.length) return true;
  if (before.length === 1 && named) return true;
  const after = nonBlank(next);
  if (!after.length) return false;
  const kept = new Set(after);
  if (before.filter(l => kept.has(l)).length * 2 >= before.length) return true;
  // Only lines that hold the name can declare it: the regexes run on those alone.
  const declared = declarationIn(before);
  const bare = declared?.replace(/^#+ /, '');
  if (declared !== undefined && after.some(l => l.includes(bare!) && declaredOn(l) === declared)) return true;
  const a = words(before);
  const b = words(after);
  let total = 0;
  let common = 0;
  for (const [w, count] of a) {
    total += count;
    common += Math.min(count, b.get(w) ?? 0);
  }
  return total > 0 && common * 5 >= total * 3;
}

/** Whether half of `old`'s non-blank lines are equal (trimmed) in `next` at the same place from its start or its end. */
function alignedHalf(next: readonly string[], old: readonly string[]): boolean {
  let text = 0;
  let same = 0;
  const n = old.length;
  const m = next.length;
  for (let i = 0; i < n; i++) {
    const o = old[i].trim();
    if (!o) continue;
    text++;
    if ((i < m && next[i].trim() === o) || (m - n + i >= 0 && next[m - n + i].trim() === o)) same++;
  }
  return text > 0 && same * 2 >= text;
}

/** A declaration's name on one line (a function, class, method, type, Python def, Go func, a markdown heading, a CSS rule), or undefined. */
export function declaredOn(line: string): string | undefined {
  if (line.length > 500) return undefined;
  const l = line.replace(/^\s+/, '');
  const m =
    /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/.exec(l) ??
    /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:class|interface|enum|struct|trait|impl|module|namespace)\s+([A-Za-z_$][\w$]*)/.exec(l) ??
    /^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*=/.exec(l) ??
    /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]{1,200})?=\s*(?:async\s+)?(?:function\b|\([^)]{0,300}\)\s*(?::[^=]{1,200})?=>|[A-Za-z_$][\w$]*\s*=>)/.exec(l) ??
    /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(l) ??
    /^class\s+([A-Za-z_]\w*)\s*[:(]/.exec(l) ??
    /^func\s+(?:\([^)]{0,200}\)\s*)?([A-Za-z_]\w*)\s*[([]/.exec(l) ??
    /^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)/.exec(l) ??
    /^(?:(?:public|private|protected|internal|static|final|override|virtual|abstract|async|readonly|get|set)\s+)+(?:[\w<>[\],.?]+\s+)?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(/.exec(l) ??
    /^(?!(?:if|for|while|switch|catch|return|function|else|do|try|with|new|await|typeof|delete|throw|yield)\b)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]{0,300}\)\s*(?::\s*[^{]{1,200})?\{\s*$/.exec(l);
  if (m) return m[1];
  const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l);
  if (heading && line === l) return `${heading[1]} ${heading[2]}`;
  return undefined;
}

/** The first declaration among the first lines that are not comments, imports or decorators. */
function declarationIn(lines: readonly string[]): string | undefined {
  for (const l of lines.slice(0, 12)) {
    const name = declaredOn(l);
    if (name !== undefined) return name;
    if (!/^(?:\/\/|#(?!#* )|\/\*|\*|@|import\b|from\b|use\b|package\b|"use |'use )/.test(l.trim())) return undefined;
  }
  return undefined;
}

const indentOf = (s: string) => /^[ \t]*/.exec(s)![0].length;

/**
 * The lines `[start, end)` of the definition that starts at `start`: to its closing brace (counted on the
 * lines, strings ignored), to the next line as little indented (Python, a brace-less body), or for a markdown
 * heading to the next heading of its level or higher. Bounded to 5,000 lines.
 */
export function extentOf(keys: readonly string[], start: number): number {
  const first = keys[start];
  const heading = /^(#{1,6})\s/.exec(first);
  const limit = Math.min(keys.length, start + 5_000);
  if (heading) {
    let i = start + 1;
    while (i < limit && !(/^(#{1,6})\s/.exec(keys[i]) && /^(#{1,6})\s/.exec(keys[i])![1].length <= heading[1].length)) i++;
    while (i > start + 1 && !keys[i - 1].trim()) i--;
    return i;
  }
  let depth = 0;
  let opened = false;
  for (let i = start; i < limit; i++) {
    const line = keys[i].slice(0, MAX_LINE);
    // Braces outside quotes, in one pass (a quote left open ends at the line's end).
    let quote = '';
    for (let k = 0; k < line.length; k++) {
      const ch = line[k];
      if (quote) {
        if (ch === '\\') k++;
        else if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
      else if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i + 1;
    // A body without braces: an indented block (Python), ended by a line as little indented.
    if (!opened && i === start && /:\s*(?:#.*)?$/.test(line)) {
      const base = indentOf(first);
      let j = start + 1;
      let last = start;
      while (j < limit && (!keys[j].trim() || indentOf(keys[j]) > base)) {
        if (keys[j].trim()) last = j;
        j++;
      }
      return last + 1;
    }
    if (!opened && i > start + 8) break;
    if (!opened && /;\s*$/.test(line)) return i + 1;
  }
  return start + 1;
}

/** What an unnamed block defines: its first declaration's name, and every name it declares at its top level. */
export function definitionOf(keys: readonly string[]): { name: string; names: Set<string> } | undefined {
  const lines = keys.map(k => k.slice(0, MAX_LINE));
  const name = declarationIn(nonBlank(lines));
  if (name === undefined) return undefined;
  const firstAt = lines.findIndex(l => declaredOn(l) === name);
  const top = indentOf(lines[firstAt]);
  const names = new Set<string>();
  for (const l of lines) if (l.trim() && indentOf(l) === top) {
    const n = declaredOn(l);
    if (n !== undefined) names.add(n);
  }
  return { name, names };
}

/** Where `name` is declared in `keys`: its lines `[start, end)`, when it is declared exactly once; else undefined. */
export function findDefinition(keys: readonly string[], name: string): { start: number; end: number } | undefined {
  let at = -1;
  for (let i = 0; i < keys.length; i++) {
    if (declaredOn(keys[i]) !== name) continue;
    if (at >= 0) return undefined;
    at = i;
  }
  return at < 0 ? undefined : { start: at, end: extentOf(keys, at) };
}

const GUTTER = /^[ \t]*(\d{1,7})(?:[ \t]*\|[ \t]?|:[ \t]|\t)/;

/** Line-numbered code without its numbers, when every line (two at least) has one and they count up by one; else undefined. */
export function stripGutter(code: string): string | undefined {
  // Most blocks fail on their first line: nothing is split for them.
  const firstEnd = code.indexOf('\n');
  if (!GUTTER.test(firstEnd < 0 ? code : code.slice(0, Math.min(firstEnd, 200)))) return undefined;
  const lines = code.split('\n');
  const last = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  if (last < 2) return undefined;
  let expected = -1;
  const out: string[] = [];
  for (let i = 0; i < last; i++) {
    const line = lines[i].slice(0, MAX_LINE * 4);
    const m = GUTTER.exec(line) ?? (/^[ \t]*(\d{1,7})[ \t]*$/.exec(line) as RegExpExecArray | null);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (expected >= 0 && n !== expected) return undefined;
    expected = n + 1;
    out.push(line.slice(m[0].length));
  }
  return out.join('\n') + (last < lines.length ? '\n' : '');
}

const EDIT_SYNTAX: RegExp[] = [
  /^<{7}(?:\s|$)/,
  /^={7}\s*$/,
  /^>{7}(?:\s|$)/,
  /^\s*(?:<{5,9}|-{5,9})\s*SEARCH\s*$/,
  /^\s*(?:>{5,9}|\+{5,9})\s*REPLACE\s*$/,
  /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/,
  /^(?:---|\+\+\+) [ab]\//,
  /^diff --git /,
  /^\*\*\* (?:Begin Patch|End Patch|Update File:|Add File:|Delete File:)/,
  // Issue 43: other tools' edit markup landing as code — Zed's <edits>/<old_text>/<new_text>, Cline's and Roo's XML
  // tools, Windsurf's {{ ... }} placeholder, "existing code" comments, Before/After labels.
  /^\s*<\/?(?:edits?|old_text|new_text|replace_in_file|write_to_file|apply_diff|search_and_replace|insert_content|diff|search|replace|content)(?:\s[^>]*)?>\s*$/,
  /^\s*\{\{\s*(?:\.{3}|…)\s*\}\}\s*$/,
  /^\s*(?:\/\/|#|--|;|\/\*+|<!--)\s*(?:\.{3}|…)\s*(?:existing|rest|unchanged|remaining|other|previous|same|more)\b/i,
  /^\s*(?:\/\/|#|--|;|\/\*+|<!--)\s*(?:[❌✅✗✓✔✘]\s*)?(?:before|after)\s*(?:[:(\-—]|\(?fix|$)/i,
];

/**
 * Whether `added` (a hunk's new lines) writes edit syntax that the file does not already have: a conflict or
 * search marker, a diff or patch header, another tool's edit markup or placeholder, an "existing code" comment, a
 * Before/After label, or a gutter of line numbers on every added line (three at least).
 * `file` is read only when an added line is such syntax (most hunks cost their own lines only).
 */
export function writesEditSyntax(added: readonly string[], file: () => readonly string[]): boolean {
  const kinds = new Set<number>();
  for (const l of added) {
    if (l.length > MAX_LINE) continue;
    const c = l.charCodeAt(0);
    // Every pattern starts with one of < = > - + @ d * { / # ; or a blank: the rest are ruled out without a regex.
    if (c !== 60 && c !== 61 && c !== 62 && c !== 45 && c !== 43 && c !== 64 && c !== 100 && c !== 42 && c !== 32 && c !== 9 && c !== 123 && c !== 47 && c !== 35 && c !== 59) continue;
    EDIT_SYNTAX.forEach((re, k) => {
      if (re.test(l)) kinds.add(k);
    });
  }
  if (kinds.size) {
    for (const l of file()) {
      if (l.length > MAX_LINE) continue;
      for (const k of kinds) if (EDIT_SYNTAX[k].test(l)) kinds.delete(k);
      if (!kinds.size) break;
    }
    if (kinds.size) return true;
  }
  let text = 0;
  for (const l of added) if (l.trim()) text++;
  if (text < 3 || stripGutter(`${added.filter(l => l.trim()).join('\n')}\n`) === undefined) return false;
  // The file's own first lines numbered the same way: its gutter is content.
  const head: string[] = [];
  for (const l of file()) {
    if (l.trim()) head.push(l);
    if (head.length === 3) break;
  }
  return stripGutter(`${head.join('\n')}\n`) === undefined;
}

const LABEL = /^\s*(?:\/\/|#|--|;|\/\*+|<!--)\s*(?:[❌✅✗✓✔✘]\s*)?(before|after)\b.{0,80}$/i;

/**
 * A block that shows the code "before" and then "after", each under its label comment (issue 43): its "after"
 * part, which is the proposal; undefined for any other block. Only when the first line is the Before label and
 * one After label follows.
 */
export function afterPart(code: string): string | undefined {
  const lines = code.split('\n');
  const first = lines.findIndex(l => l.trim());
  if (first < 0 || lines[first].length > MAX_LINE || LABEL.exec(lines[first])?.[1].toLowerCase() !== 'before') return undefined;
  let at = -1;
  for (let i = first + 1; i < lines.length; i++) {
    if (lines[i].length > MAX_LINE) continue;
    const label = LABEL.exec(lines[i])?.[1].toLowerCase();
    if (label === 'before' || (label === 'after' && at >= 0)) return undefined;
    if (label === 'after') at = i;
  }
  const after = at >= 0 ? lines.slice(at + 1).join('\n') : '';
  return after.trim() ? after : undefined;
}

/** Where an unnamed block goes in a file when Apply… takes it alone (the same rules as the plan's range block). */
export type UnnamedPlace = { kind: 'range' } | { kind: 'definition'; name: string; startLine: number; endLine: number } | { kind: 'none' };

/**
 * `code` (a block) against `text` (the file now) and the lines `[startLine, endLine)` it was sent from: the range
 * when the block keeps enough of it; else the one definition of the file that the block redefines (found once
 * by its name, and nothing else the block declares is in the file); else no proven place.
 */
export function placeUnnamed(code: string, text: string, startLine: number, endLine: number): UnnamedPlace {
  const keys = code.split('\n').map(l => l.replace(/\r$/, ''));
  const file = text.split('\n').map(l => l.replace(/\r$/, ''));
  if (keepsEnough(keys, file.slice(startLine, Math.max(startLine + 1, endLine)))) return { kind: 'range' };
  const at = redefined(keys, file);
  return at ? { kind: 'definition', name: at.name, startLine: at.start, endLine: at.end } : { kind: 'none' };
}

/**
 * The one definition of `file` that `block` redefines: its first declared name found once in the file, nothing
 * else it declares already there, and enough of that definition kept. The plan and Apply… both ask this.
 */
export function redefined(block: readonly string[], file: readonly string[]): { name: string; start: number; end: number } | undefined {
  const defined = definitionOf(block);
  const at = defined && findDefinition(file, defined.name);
  if (!at || [...defined!.names].some(n => n !== defined!.name && findDefinition(file, n))) return undefined;
  return keepsEnough(block, file.slice(at.start, at.end)) ? { name: defined!.name, ...at } : undefined;
}
