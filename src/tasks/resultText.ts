/** Reading an answer's text. Pure and linear-time: a result is server text of any shape and size. Its blocks come from the one reader (review/reader.ts). */
import { reviewPart } from '../parts';


/** A block's first non-empty lines (at most `lines`, `max` characters), for a pick list. */
export function blockPreview(block: { code: string }, lines = 2, max = 120): string {
  const shown: string[] = [];
  let start = 0;
  const code = block.code;
  while (shown.length < lines && start < code.length && start < 64 * 1024) {
    const end = code.indexOf('\n', start);
    const line = code.slice(start, end === -1 ? undefined : end).trim();
    if (line) shown.push(line);
    if (end === -1) break;
    start = end + 1;
  }
  const text = shown.join(' ⏎ ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text || '(empty)';
}

/** How many lines a block has (a final newline does not start another). */
export function lineCount(code: string): number {
  if (!code) return 0;
  let n = 1;
  for (let i = 0; i < code.length - 1; i++) if (code.charCodeAt(i) === 10) n++;
  return n;
}

/** What Insert at Cursor writes into the cursor's line: the characters `start`..`end` of it become `text`. */
export interface LineEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * How `code` goes in at `cursor` (a character offset in `lineText`): on lines of its own, never glued to the line's
 * code (the cursor may be where the user left it long ago: issue 35), re-indented like the cursor's line, before
 * the line when the cursor is in its indentation, else after it. A blank line is filled by a one-line block, and
 * kept after a longer one. Linear.
 */
export function blockInsertion(lineText: string, cursor: number, code: string, eol: string): LineEdit {
  const body = code.replace(/\r?\n$/, '');
  const indent = /^[ \t]*/.exec(lineText)![0];
  if (!body.includes('\n') && !lineText.trim()) return { start: 0, end: lineText.length, text: indent + body.trimStart() };
  const lines = body.split(/\r?\n/);
  let common: string | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    const own = /^[ \t]*/.exec(line)![0];
    if (common === undefined) {
      common = own;
      continue;
    }
    let i = 0;
    while (i < common.length && i < own.length && common[i] === own[i]) i++;
    common = common.slice(0, i);
  }
  const cut = common?.length ?? 0;
  const block = lines.map(line => (line.trim() ? indent + line.slice(cut) : '')).join(eol);
  // In the indentation (always, on a blank line): the block goes before the line, which keeps its place.
  if (cursor <= indent.length) return { start: 0, end: 0, text: block + eol };
  return { start: lineText.length, end: lineText.length, text: eol + block };
}

/**
 * The text with every ATX heading outside fenced code `by` levels deeper (at most `######`): a message's
 * own `# Title` under a transcript's `## Agents` becomes `### Title`. Fences as the reader finds them. Linear.
 */
export function shiftHeadings(text: string, by: number): string {
  const inCode = reviewPart().fenceMask(text);
  return text
    .split('\n')
    .map((line, i) => {
      if (inCode[i]) return line;
      const heading = /^( {0,3})(#{1,6})(\s)/.exec(line);
      return heading ? `${heading[1]}${'#'.repeat(Math.min(6, heading[2].length + by))}${line.slice(heading[1].length + heading[2].length)}` : line;
    })
    .join('\n');
}
