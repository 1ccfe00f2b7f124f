/**
 * The fence scanner, the only one (issue 24; the architecture test finds no other): an answer's markdown →
 * its fenced blocks as written (fence lines, indentation, info string, body, the prose line just before),
 * in one pass over the lines. Only a line that starts (after at most 3 spaces) with ` or ~ is sliced, and
 * only its first 4,096 characters. What the blocks are and where they go is read in `reader.ts`.
 */
import { MAX_INFO, MAX_NAMING_LINE } from './namings';
import type { AnswerBlock } from './readerTypes';

/** A fenced block as split, before its kind and targets are read. */
export interface RawBlock extends Pick<AnswerBlock, 'startLine' | 'endLine' | 'closed' | 'fence' | 'indent' | 'info' | 'body'> {
  /** The line before the opening fence that may name the file, trimmed; undefined when none qualifies. */
  before?: { line: number; text: string };
}

/** Splits an answer into fenced blocks in one pass (see the module comment). */
export function scanFences(text: string): { blocks: RawBlock[]; unclosed?: RawBlock; lineCount: number } {
  const blocks: RawBlock[] = [];
  let open: { fence: string; indent: number; info: string; line: number; bodyStart: number; before?: RawBlock['before']; nests: boolean; depth: number } | undefined;
  let lineNo = 0;
  let from = 0;
  // The last two lines outside a block that were not blank, for a naming just before a fence.
  let prevStart = -1;
  let prevEnd = -1;
  let prevLine = -1;
  let blankRun = 0;
  const hasCr = text.includes('\r');
  const bodyOf = (start: number, end: number, indent: number) => {
    let body = text.slice(start, end);
    if (hasCr) body = body.replace(/\r\n?/g, '\n');
    if (indent > 0) body = body.replace(new RegExp(`^ {1,${indent}}`, 'gm'), '');
    return body;
  };
  for (;;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    let s = from;
    while (s < end && s - from < 4 && text.charCodeAt(s) === 32) s++;
    const c = text.charCodeAt(s);
    let fence: RegExpExecArray | null = null;
    if ((c === 96 || c === 126) && s - from < 4) {
      const lineEnd = end > from && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      // Bounded: the fence run and the info string are cut at a sane length before any regex runs.
      fence = /^(`{3,}|~{3,})(.*)$/.exec(text.slice(s, Math.min(lineEnd, s + 4096)));
    }
    if (open) {
      // A markdown block holding fenced examples (```md … ```ts … ``` … ```): an inner fence with an info string
      // opens an example (a closing fence never has one), and the next bare fence closes that example, not the block.
      if (open.nests && fence && fence[1][0] === open.fence[0] && fence[1].length === open.fence.length && fence[2].trim() && !fence[2].includes('`')) {
        open.depth++;
      } else if (open.depth > 0 && fence && fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && !fence[2].trim()) {
        open.depth--;
      } else if (fence && fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && !fence[2].trim()) {
        blocks.push({
          startLine: open.line,
          endLine: lineNo,
          closed: true,
          fence: open.fence,
          indent: open.indent,
          info: open.info,
          body: bodyOf(open.bodyStart, from, open.indent),
          before: open.before,
        });
        open = undefined;
        prevStart = -1;
        blankRun = 0;
      }
    } else if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      const info = fence[2].trim();
      let before: RawBlock['before'];
      if (prevStart >= 0 && blankRun <= 1 && prevEnd - prevStart <= MAX_NAMING_LINE * 2) {
        before = { line: prevLine, text: text.slice(prevStart, prevEnd).trim() };
      }
      const nests = /^(?:md|markdown|mdx|gfm)(?:\s|$)/i.test(info) || /^\S{0,400}\.(?:md|markdown|mdx)$/i.test(info);
      open = { fence: fence[1].slice(0, 64), indent: s - from, info: info.length > MAX_INFO ? info.slice(0, MAX_INFO) : info, line: lineNo, bodyStart: Math.min(text.length, end + 1), before, nests, depth: 0 };
    } else {
      // A prose line: remember it (by offsets, nothing sliced) as the candidate naming for the next fence.
      let k = s;
      while (k < end && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9 || text.charCodeAt(k) === 13)) k++;
      if (k === end) blankRun++;
      else {
        prevStart = from;
        prevEnd = end;
        prevLine = lineNo;
        blankRun = 0;
      }
    }
    lineNo++;
    if (nl === -1) break;
    from = nl + 1;
  }
  let unclosed: RawBlock | undefined;
  if (open) {
    unclosed = {
      startLine: open.line,
      endLine: Math.max(open.line, lineNo - 1),
      closed: false,
      fence: open.fence,
      indent: open.indent,
      info: open.info,
      body: bodyOf(open.bodyStart, text.length, open.indent),
      before: open.before,
    };
    if (unclosed.body && !unclosed.body.endsWith('\n')) unclosed.body += '\n';
  }
  return { blocks, unclosed, lineCount: lineNo };
}

/**
 * For each line of `text`: 0 outside any fenced block, 1 a fence line (opening or closing), 2 inside a block.
 * What a renderer or heading shifter needs to leave code alone, by the same rules as `readAnswer`.
 */
export function fenceMask(text: string): Uint8Array {
  const { blocks, unclosed, lineCount } = scanFences(text);
  const mask = new Uint8Array(lineCount);
  for (const b of unclosed ? [...blocks, unclosed] : blocks) {
    mask[b.startLine] = 1;
    for (let i = b.startLine + 1; i < b.endLine; i++) mask[i] = 2;
    if (b.closed) mask[b.endLine] = 1;
    else if (b.endLine > b.startLine) mask[b.endLine] = 2;
  }
  return mask;
}
