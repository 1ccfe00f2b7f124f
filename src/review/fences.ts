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

/** An HTML code block's opening: `<pre …><code class="language-ts">` (its code may start on the same line). */
const HTML_OPEN = /^<pre\b[^>]{0,200}>\s*<code\b([^>]{0,200})>/i;
const LIST_ITEM = /^\s{0,8}(?:[-*+]|\d{1,9}[.)])\s/;
/** An agent tool's XML call written in the answer outside a fence (Cline's, Roo's): read as the block it is. */
const TOOL_OPEN = /^<(replace_in_file|apply_diff|write_to_file)>\s*$/;

/** An HTML code block's text as written: entities decoded (`&lt;` is `<` in the code). */
function decodeEntities(s: string): string {
  return s.replace(/&(?:lt|gt|amp|quot|apos|nbsp|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi, (m, dec: string | undefined, hex: string | undefined) => {
    if (dec !== undefined || hex !== undefined) {
      const n = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
      return n > 0 && n <= 0x10ffff && n !== 0xfeff ? String.fromCodePoint(n) : m;
    }
    return ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'", '&nbsp;': ' ' } as Record<string, string>)[m.toLowerCase()] ?? m;
  });
}

/** A block being read: where it opened and how its lines are taken. */
interface OpenBlock {
  fence: string;
  indent: number;
  info: string;
  line: number;
  bodyStart: number;
  before?: RawBlock['before'];
  /** A markdown block holding fenced examples, and how many of them are open. */
  nests: boolean;
  depth: number;
  /** The block quote levels it sits in (`> ```ts`), taken off each of its lines. */
  quote: number;
  /** It sits in a list item, so its fences may be indented up to 7 spaces. */
  list: boolean;
  /** An HTML `<pre><code>` block: its code from `bodyStart` to `</code>`, entities decoded. */
  html?: boolean;
  /** A tool's XML call (`replace_in_file`, …): it ends at its closing tag. */
  tool?: string;
}

/** One line's start: past its indentation and any block quote markers. */
interface LineStart {
  from: number;
  end: number;
  /** The first character that is not indentation or a quote marker. */
  s: number;
  /** Spaces before `s` (after the quote markers, if any). */
  spaces: number;
  quote: number;
}

/** Splits an answer into fenced blocks in one pass (see the module comment). */
export function scanFences(text: string): { blocks: RawBlock[]; unclosed?: RawBlock; lineCount: number } {
  return new FenceScanner(text).scan();
}

class FenceScanner {
  private readonly blocks: RawBlock[] = [];
  private open: OpenBlock | undefined;
  /** The last prose line was a list item (or a line indented under one): a fence may be indented further. */
  private inList = false;
  private lineNo = 0;
  // The last line outside a block that was not blank, for a naming just before a fence.
  private prevStart = -1;
  private prevEnd = -1;
  private prevLine = -1;
  private blankRun = 0;
  private readonly hasCr: boolean;

  constructor(private readonly text: string) {
    this.hasCr = text.includes('\r');
  }

  scan(): { blocks: RawBlock[]; unclosed?: RawBlock; lineCount: number } {
    const text = this.text;
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      const line = this.startOf(from, nl === -1 ? text.length : nl);
      // A line is read again when the block it ended or opened takes it too.
      while (!this.read(line));
      this.lineNo++;
      if (nl === -1) break;
      from = nl + 1;
    }
    return { blocks: this.blocks, unclosed: this.unclosed(), lineCount: this.lineNo };
  }

  private startOf(from: number, end: number): LineStart {
    const text = this.text;
    let s = from;
    while (s < end && s - from < 8 && text.charCodeAt(s) === 32) s++;
    let spaces = s - from;
    // A block quote's markers (`> `, `> > `) before the fence: read past, counted.
    let quote = 0;
    if (text.charCodeAt(s) === 62 && spaces < 4) {
      while (s < end && text.charCodeAt(s) === 62 && quote < 8) {
        s++;
        quote++;
        if (text.charCodeAt(s) === 32) s++;
      }
      const q = s;
      while (s < end && s - q < 8 && text.charCodeAt(s) === 32) s++;
      spaces = s - q;
    }
    return { from, end, s, spaces, quote };
  }

  /** Reads one line; false when it must be read again (a block ended before it, or one opened on it). */
  private read(l: LineStart): boolean {
    const open = this.open;
    const fence = this.fenceOn(l);
    if (open?.html) return this.readHtml(l, open);
    if (open?.tool) return this.readTool(l, open);
    if (open && open.quote > 0 && l.quote < open.quote && !(fence && !fence[2].trim())) {
      // The quote ended (a line without its markers): so did the block in it.
      this.push(open, this.lineNo - 1, this.bodyOf(open.bodyStart, l.from, open));
      return false;
    }
    if (open) {
      this.readInside(fence, open, l);
      return true;
    }
    const c = this.text.charCodeAt(l.s);
    if (c === 60 && l.quote === 0 && l.spaces < 4) {
      const tool = TOOL_OPEN.exec(this.text.slice(l.s, Math.min(l.end, l.s + 40)).replace(/\r$/, ''));
      if (tool) {
        this.open = { fence: `<${tool[1]}>`, indent: 0, info: '', line: this.lineNo, bodyStart: Math.min(this.text.length, l.end + 1), before: this.before(), nests: false, depth: 0, quote: 0, list: false, tool: tool[1] };
        return true;
      }
      const m = HTML_OPEN.exec(this.text.slice(l.s, Math.min(l.end, l.s + 600)));
      if (m) {
        const language = /\b(?:language|lang)-([\w+#.-]{1,40})/i.exec(m[1])?.[1] ?? '';
        this.open = { fence: '<pre>', indent: 0, info: language, line: this.lineNo, bodyStart: l.s + m[0].length, before: this.before(), nests: false, depth: 0, quote: 0, list: false, html: true };
        return false;
      }
    }
    if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      const info = fence[2].trim();
      const nests = /^(?:md|markdown|mdx|gfm)(?:\s|$)/i.test(info) || /^\S{0,400}\.(?:md|markdown|mdx)$/i.test(info);
      this.open = {
        fence: fence[1].slice(0, 64),
        indent: l.spaces,
        info: info.length > MAX_INFO ? info.slice(0, MAX_INFO) : info,
        line: this.lineNo,
        bodyStart: Math.min(this.text.length, l.end + 1),
        before: this.before(),
        nests,
        depth: 0,
        quote: l.quote,
        list: l.spaces > 3,
      };
      return true;
    }
    this.prose(l);
    return true;
  }

  /** The fence on a line, if it may be one here (its indentation, its quote level). */
  private fenceOn(l: LineStart): RegExpExecArray | null {
    const c = this.text.charCodeAt(l.s);
    const open = this.open;
    const deepest = open ? (open.list ? 7 : 3) : this.inList ? 7 : 3;
    if ((c !== 96 && c !== 126) || l.spaces > deepest || (open && l.quote > open.quote)) return null;
    const lineEnd = l.end > l.from && this.text.charCodeAt(l.end - 1) === 13 ? l.end - 1 : l.end;
    // Bounded: the fence run and the info string are cut at a sane length before any regex runs.
    return /^(`{3,}|~{3,})(.*)$/.exec(this.text.slice(l.s, Math.min(lineEnd, l.s + 4096)));
  }

  /** A line inside a fenced block: an example opening or closing in a markdown block, or the block's end. */
  private readInside(fence: RegExpExecArray | null, open: OpenBlock, l: LineStart): void {
    if (!fence || fence[1][0] !== open.fence[0]) return;
    const bare = !fence[2].trim();
    // A markdown block holding fenced examples (```md … ```ts … ``` … ```): an inner fence with an info string
    // opens an example (a closing fence never has one), and the next bare fence closes that example, not the block.
    if (open.nests && fence[1].length === open.fence.length && !bare && !fence[2].includes('`')) open.depth++;
    else if (open.depth > 0 && fence[1].length >= open.fence.length && bare) open.depth--;
    else if (fence[1].length >= open.fence.length && bare) this.push(open, this.lineNo, this.bodyOf(open.bodyStart, l.from, open));
  }

  /** A line of an HTML code block: it ends at `</code>` (on its opening line or a later one). */
  private readHtml(l: LineStart, open: OpenBlock): true {
    const start = open.line === this.lineNo ? open.bodyStart : l.from;
    const close = this.text.slice(start, l.end).indexOf('</code>');
    if (close >= 0) this.push(open, this.lineNo, this.htmlBody(open, start + close));
    return true;
  }

  /** A line of a tool's XML call: it ends at its closing tag, alone on its line. */
  private readTool(l: LineStart, open: OpenBlock): true {
    if (l.end - l.s > 40 || this.text.slice(l.s, l.end).trim() !== `</${open.tool}>`) return true;
    const body = this.bodyOf(open.bodyStart, l.from, open);
    // write_to_file: its <path> names the file, its <content> is the file's text.
    const write = open.tool === 'write_to_file' ? /^\s*<path>\s*([^<\n]{1,400}?)\s*<\/path>\s*\n\s*<content>\s*\n([^]*?)^\s*<\/content>\s*$/m.exec(body) : null;
    if (write) open.info = `path=${write[1].includes(' ') ? JSON.stringify(write[1]) : write[1]}`;
    this.push(open, this.lineNo, write ? write[2] : body);
    return true;
  }

  private htmlBody(open: OpenBlock, end: number): string {
    const body = decodeEntities(this.text.slice(open.bodyStart, end).replace(/\r\n?/g, '\n')).replace(/^\n/, '');
    return body && !body.endsWith('\n') ? `${body}\n` : body;
  }

  /** A prose line: remembered (by offsets, nothing sliced) as the candidate naming for the next fence. */
  private prose(l: LineStart): void {
    const text = this.text;
    let k = l.s;
    while (k < l.end && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9 || text.charCodeAt(k) === 13)) k++;
    if (k === l.end) {
      this.blankRun++;
      return;
    }
    // In a quote, the naming is what follows its markers.
    this.prevStart = l.quote > 0 ? l.s : l.from;
    this.prevEnd = l.end;
    this.prevLine = this.lineNo;
    this.blankRun = 0;
    // A list item, or a line indented under one, keeps a list open for the next fence.
    this.inList = LIST_ITEM.test(text.slice(l.from, Math.min(l.end, l.from + 24))) || (this.inList && k > l.from + 1);
  }

  private before(): RawBlock['before'] {
    if (this.prevStart < 0 || this.blankRun > 1 || this.prevEnd - this.prevStart > MAX_NAMING_LINE * 2) return undefined;
    return { line: this.prevLine, text: this.text.slice(this.prevStart, this.prevEnd).trim() };
  }

  private bodyOf(start: number, end: number, open: OpenBlock): string {
    let body = this.text.slice(start, end);
    if (this.hasCr) body = body.replace(/\r\n?/g, '\n');
    if (open.quote > 0) body = body.replace(new RegExp(`^ {0,3}(?:> ?){1,${open.quote}}`, 'gm'), '');
    if (open.indent > 0) body = body.replace(new RegExp(`^ {1,${open.indent}}`, 'gm'), '');
    return body;
  }

  private push(open: OpenBlock, endLine: number, body: string): void {
    this.blocks.push({ startLine: open.line, endLine, closed: true, fence: open.fence, indent: open.indent, info: open.info, body, before: open.before });
    this.open = undefined;
    this.prevStart = -1;
    this.blankRun = 0;
  }

  /** The block still open at the end (the answer may be cut off): shown, never landed. */
  private unclosed(): RawBlock | undefined {
    const open = this.open;
    if (!open) return undefined;
    const body = open.html ? this.htmlBody(open, this.text.length) : this.bodyOf(open.bodyStart, this.text.length, open);
    return {
      startLine: open.line,
      endLine: Math.max(open.line, this.lineNo - 1),
      closed: false,
      fence: open.fence,
      indent: open.indent,
      info: open.info,
      body: body && !body.endsWith('\n') ? `${body}\n` : body,
      before: open.before,
    };
  }
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
