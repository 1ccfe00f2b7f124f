/**
 * A text as a list of line keys, the unit every diff and merge here works on. CRLF and LF compare equal (the
 * key holds no line break); a last line without a line break is tagged, so "no newline at end of file" is a
 * change like any other and never lost. Linear in the text's length.
 */

/** Appended to the key of a last line that has no line break. No key can hold it otherwise (keys come from split('\n')). */
export const NO_EOL = '\n';

export type Eol = '\n' | '\r\n';

export interface Lines {
  keys: string[];
  /** The text's line break: CRLF when its first line break is one, else LF. */
  eol: Eol;
}

export function eolOf(text: string): Eol {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

/** The line keys of a text. A `\r` before each `\n` is dropped; a lone `\r` is content. */
export function toLines(text: string): Lines {
  const eol = eolOf(text);
  if (!text) return { keys: [], eol };
  const keys = text.split('\n');
  const last = keys.length - 1;
  if (text.includes('\r')) {
    for (let i = 0; i < last; i++) {
      const k = keys[i];
      if (k.length && k.charCodeAt(k.length - 1) === 13) keys[i] = k.slice(0, -1);
    }
  }
  if (keys[last] === '') keys.pop();
  else keys[last] += NO_EOL;
  return { keys, eol };
}

export function hasNoEol(key: string): boolean {
  return key.length > 0 && key.charCodeAt(key.length - 1) === 10;
}

/** The key as a line of text: content plus `eol`, or the bare content for a tagged last line. */
export function lineText(key: string, eol: Eol): string {
  return hasNoEol(key) ? key.slice(0, -1) : key + eol;
}

export function joinLines(keys: readonly string[], eol: Eol, from = 0, to = keys.length): string {
  let out = '';
  for (let i = from; i < to; i++) out += lineText(keys[i], eol);
  return out;
}

export function withNoEol(key: string): string {
  return hasNoEol(key) ? key : key + NO_EOL;
}

export function withoutNoEol(key: string): string {
  return hasNoEol(key) ? key.slice(0, -1) : key;
}

/** Makes the last key's final-newline state match `finalNewline` (an empty list stays empty). */
export function setFinalNewline(keys: string[], finalNewline: boolean): string[] {
  if (!keys.length) return keys;
  const last = keys.length - 1;
  const fixed = finalNewline ? withoutNoEol(keys[last]) : withNoEol(keys[last]);
  if (fixed === keys[last]) return keys;
  const out = keys.slice();
  out[last] = fixed;
  return out;
}

export function finalNewlineOf(keys: readonly string[]): boolean {
  return !keys.length || !hasNoEol(keys[keys.length - 1]);
}

/** Offsets of the start of each line of `text` (as the text really is, CRLF counted), plus its length at the end. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  if (starts[starts.length - 1] !== text.length) starts.push(text.length);
  return starts;
}

/** The leading blanks every non-blank line of `keys` starts with (undefined when there is no such line). */
function commonIndent(keys: readonly string[]): string | undefined {
  let common: string | undefined;
  for (const k of keys) {
    if (!k.trim()) continue;
    const indent = /^[ \t]*/.exec(k)![0];
    if (common === undefined) common = indent;
    else {
      let n = 0;
      while (n < common.length && n < indent.length && common[n] === indent[n]) n++;
      common = common.slice(0, n);
    }
    if (!common) return '';
  }
  return common;
}

/**
 * `block` moved to the indentation of `reference` (issue 43): a block that is shifted as a whole (a fence inside a
 * list or a quote, a method written at the margin for a selection inside a class) lands at the file's
 * indentation, not re-indenting the file. Unchanged when both share one, or when the two mix tabs and spaces.
 */
export function reindented(block: readonly string[], reference: readonly string[]): string[] {
  const from = commonIndent(block);
  const to = commonIndent(reference);
  if (from === undefined || to === undefined || from === to) return [...block];
  const kind = (s: string) => (s.includes('\t') ? (s.includes(' ') ? 'mixed' : 'tab') : s ? 'space' : '');
  const a = kind(from);
  const b = kind(to);
  if (a === 'mixed' || b === 'mixed' || (a && b && a !== b)) return [...block];
  const moved = block.map(k => (k.trim() ? to + k.slice(from.length) : k));
  // Only when the file shows it: more of the block's lines are the file's own lines, as they stand, once moved.
  const own = new Set(reference.map(withoutNoEol));
  const same = (keys: readonly string[]) => keys.reduce((n, k) => n + (k.trim() && own.has(withoutNoEol(k)) ? 1 : 0), 0);
  return same(moved) > same(block) ? moved : [...block];
}
