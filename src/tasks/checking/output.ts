/**
 * The output of a check, kept bounded (issue 37): a run can print gigabytes, so only its first and last bytes
 * are kept, and what is shown is plain text (terminal escape codes and carriage-return overwrites removed).
 * Pure: no vscode; linear time (a hand-written scanner, no regexes).
 */

const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const CR = 0x0d;
/** The 8-bit forms of CSI and OSC, as they decode from UTF-8. */
const C1_CSI = 0x9b;
const C1_OSC = 0x9d;
const C1_ST = 0x9c;

/** Where the escape sequence starting at `i` ends (the index after it). Never looks back: linear over a text. */
function escapeEnd(text: string, i: number): number {
  const code = text.charCodeAt(i);
  let j = i + 1;
  let kind: 'csi' | 'osc' | 'other';
  if (code === C1_CSI) kind = 'csi';
  else if (code === C1_OSC) kind = 'osc';
  else {
    const next = text.charCodeAt(j);
    if (next === 0x5b /* [ */) { kind = 'csi'; j++; }
    else if (next === 0x5d /* ] */ || next === 0x50 /* P: DCS */ || next === 0x5f /* _: APC */ || next === 0x5e /* ^: PM */) { kind = 'osc'; j++; }
    else kind = 'other';
  }
  if (kind === 'csi') {
    // Parameters (0x30–0x3F), intermediates (0x20–0x2F), one final byte (0x40–0x7E); anything else ends it unfinished.
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c >= 0x20 && c <= 0x3f) { j++; continue; }
      return c >= 0x40 && c <= 0x7e ? j + 1 : j;
    }
    return j;
  }
  if (kind === 'osc') {
    // A string ended by BEL or ST (ESC \ or 0x9C); a line end or another ESC ends it unfinished (not swallowed).
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === BEL || c === C1_ST) return j + 1;
      if (c === ESC) return text.charCodeAt(j + 1) === 0x5c /* \ */ ? j + 2 : j;
      if (c === LF || c === CR) return j;
      j++;
    }
    return j;
  }
  // ESC, then intermediates (0x20–0x2F), then one final byte (0x30–0x7E): ESC ( B, ESC 7, ESC =, …
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c >= 0x20 && c <= 0x2f) { j++; continue; }
    return c >= 0x30 && c <= 0x7e ? j + 1 : j;
  }
  return j;
}

/**
 * The text as a terminal would leave it, roughly: ANSI escape sequences (CSI, OSC ended by BEL or ST, and the
 * short ESC sequences) removed, and in each line only what follows its last carriage return (a progress bar's
 * last state; a CR just before the line end is a Windows line end and is dropped). One pass, linear time.
 */
export function stripAnsi(text: string): string {
  const out: string[] = [];
  let line: string[] = [];
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === ESC || c === C1_CSI || c === C1_OSC) {
      if (i > start) line.push(text.slice(start, i));
      i = escapeEnd(text, i);
      start = i;
    } else if (c === CR) {
      if (i > start) line.push(text.slice(start, i));
      const next = i + 1 < n ? text.charCodeAt(i + 1) : LF;
      // A CR followed by more of the line starts the line over; before a line end (or another CR) it is dropped.
      if (next !== LF && next !== CR) line = [];
      i++;
      start = i;
    } else if (c === LF) {
      if (i > start) line.push(text.slice(start, i));
      out.push(line.length === 1 ? line[0] : line.join(''), '\n');
      line = [];
      i++;
      start = i;
    } else {
      i++;
    }
  }
  if (n > start) line.push(text.slice(start, n));
  if (line.length) out.push(line.join(''));
  return out.join('');
}

/** The length of `bytes` without a UTF-8 character cut at its end. */
function wholeCharsEnd(bytes: Buffer): number {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && (bytes[i] & 0xc0) === 0x80) { i--; back++; }
  if (i < 0) return bytes.length;
  const lead = bytes[i];
  const need = lead < 0x80 ? 1 : (lead & 0xe0) === 0xc0 ? 2 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf8) === 0xf0 ? 4 : 1;
  return i + need > bytes.length ? i : bytes.length;
}

/** Where `bytes` starts without the tail of a UTF-8 character cut at its start. */
function wholeCharsStart(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length && i < 3 && (bytes[i] & 0xc0) === 0x80) i++;
  return i;
}

export const OUTPUT_HEAD_BYTES = 64 * 1024;
export const OUTPUT_TAIL_BYTES = 448 * 1024;

/**
 * What a process wrote (stdout and stderr together), kept bounded: the first `headBytes` and the last
 * `tailBytes`; `bytes` counts everything written. Memory stays within head + tail + one chunk.
 */
export class BoundedOutput {
  private readonly headBytes: number;
  private readonly tailBytes: number;
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  private written = 0;

  constructor(options: { headBytes?: number; tailBytes?: number } = {}) {
    this.headBytes = Math.max(0, Math.floor(options.headBytes ?? OUTPUT_HEAD_BYTES));
    this.tailBytes = Math.max(0, Math.floor(options.tailBytes ?? OUTPUT_TAIL_BYTES));
  }

  /** All bytes written, kept or not. */
  get bytes(): number {
    return this.written;
  }

  /** Bytes written but not kept. */
  get droppedBytes(): number {
    return this.written - this.headLength - this.tailLength;
  }

  push(chunk: Buffer | string): void {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (!data.length) return;
    this.written += data.length;
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, data.length);
      this.head.push(Buffer.from(data.subarray(0, take)));
      this.headLength += take;
      data = data.subarray(take);
      if (!data.length) return;
    }
    if (this.tailBytes === 0) return;
    // A copy, so that a large chunk's buffer is not held by the slice kept of it.
    const kept = Buffer.from(data.length > this.tailBytes ? data.subarray(data.length - this.tailBytes) : data);
    this.tailChunks.push(kept);
    this.tailLength += kept.length;
    while (this.tailChunks.length > 1 && this.tailLength - this.tailChunks[0].length >= this.tailBytes) {
      this.tailLength -= this.tailChunks.shift()!.length;
    }
    if (this.tailLength > this.tailBytes) {
      const first = this.tailChunks[0];
      const cut = this.tailLength - this.tailBytes;
      this.tailChunks[0] = Buffer.from(first.subarray(cut));
      this.tailLength -= cut;
    }
  }

  /**
   * What was kept, as text without ANSI codes: everything, or the head, a line saying how many bytes were left
   * out, and the tail. A UTF-8 character cut by either edge is left out whole (counted in the bytes left out).
   */
  text(): string {
    const head = Buffer.concat(this.head, this.headLength);
    const tail = Buffer.concat(this.tailChunks, this.tailLength);
    const dropped = this.droppedBytes;
    if (dropped === 0) return stripAnsi(Buffer.concat([head, tail]).toString('utf8'));
    const headEnd = wholeCharsEnd(head);
    const tailStart = wholeCharsStart(tail);
    const leftOut = dropped + (head.length - headEnd) + tailStart;
    const headText = stripAnsi(head.subarray(0, headEnd).toString('utf8'));
    const tailText = stripAnsi(tail.subarray(tailStart).toString('utf8'));
    const sep = headText.endsWith('\n') || !headText ? '' : '\n';
    return `${headText}${sep}… ${leftOut} bytes left out …\n${tailText}`;
  }

  /** The last `lines` lines of the output (at most `maxChars` characters), without ANSI codes or trailing blank lines. */
  tail(lines = 40, maxChars = 6000): string {
    return lastLines(this.text(), lines, maxChars);
  }
}

/** The last `lines` lines of a text, at most `maxChars` characters of it (never half a surrogate pair), trailing blanks dropped. */
export function lastLines(text: string, lines = 40, maxChars = 6000): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  let start = end;
  for (let found = 0; found < lines && start > 0; found++) {
    const nl = text.lastIndexOf('\n', start - 1);
    start = nl < 0 ? 0 : nl;
    if (nl < 0) break;
  }
  if (text[start] === '\n') start++;
  if (end - start > maxChars) {
    start = end - maxChars;
    const code = text.charCodeAt(start);
    if (code >= 0xdc00 && code <= 0xdfff) start++;
  }
  return text.slice(start, end);
}
