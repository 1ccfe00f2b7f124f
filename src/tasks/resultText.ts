/** Reading an answer's text. Pure and linear-time: a result is server text of any shape and size. */

export interface CodeBlock {
  /** The info string after the opening fence (usually a language). */
  info: string;
  code: string;
  /** 0-based line of the opening fence. */
  line: number;
}

/**
 * The fenced code blocks of a markdown text, in one pass over its lines (no backtracking regex: many
 * unclosed fences must not make this slow). A closing fence is a line of at least as many backticks or
 * tildes of the same kind as the opening one, with nothing but spaces after; an unclosed block is dropped.
 */
export function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { char: string; size: number; info: string; line: number; body: string[] } | undefined;
  let lineNo = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/\r$/, '');
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(trimmed);
    if (open) {
      if (fence && fence[1][0] === open.char && fence[1].length >= open.size && !fence[2].trim()) {
        blocks.push({ info: open.info, code: open.body.length ? `${open.body.join('\n')}\n` : '', line: open.line });
        open = undefined;
      } else open.body.push(trimmed);
    } else if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      open = { char: fence[1][0], size: fence[1].length, info: fence[2].trim(), line: lineNo, body: [] };
    }
    lineNo++;
  }
  return blocks;
}

/** The code the user most likely wants to insert: a lone fenced block, else the whole answer. */
export function insertableText(result: string): string {
  const blocks = codeBlocks(result);
  return blocks.length === 1 ? blocks[0].code : result;
}

/** A block's first non-empty lines (at most `lines`, `max` characters), for a pick list. */
export function blockPreview(block: Pick<CodeBlock, 'code'>, lines = 2, max = 120): string {
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
