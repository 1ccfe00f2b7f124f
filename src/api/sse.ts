/**
 * A Server-Sent Events parser that takes bytes as they come and does work in proportion to them: each chunk
 * is scanned once, a partial line is kept as a list of chunks (never concatenated again and again), and a
 * line or event over the cap is an error before it is ever joined. A CR at the end of one chunk and the LF
 * at the start of the next are one line break.
 */
import { tooLarge } from './bodies';

const LF = 0x0a;
const CR = 0x0d;

export interface SseHandlers {
  /** The `data` of one complete event, joined across its `data:` lines. */
  onEvent(data: string): void;
  /** A comment line (`:` keep-alive). */
  onComment?(): void;
}

export class SseParser {
  private line: Buffer[] = [];
  private lineBytes = 0;
  private data: string[] = [];
  private eventBytes = 0;
  /** The previous chunk ended in CR: an LF first in the next one belongs to that line break. */
  private afterCR = false;

  constructor(
    private readonly handlers: SseHandlers,
    /** Cap of one line and of one event's data, bytes. */
    private readonly maxBytes: number,
    private readonly endpoint?: string,
  ) {}

  /** Feeds the next chunk. Throws ResponseTooLargeError when a line or an event grows past the cap. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.afterCR && chunk.length > 0) {
      this.afterCR = false;
      if (chunk[0] === LF) start = 1;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.append(chunk.subarray(start, i));
      this.endLine();
      if (byte === CR) {
        if (i + 1 < chunk.length) {
          if (chunk[i + 1] === LF) i++;
        } else {
          this.afterCR = true;
        }
      }
      start = i + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The stream ended: an event not closed by a blank line is dropped, as the SSE standard says. */
  end(): void {
    this.line = [];
    this.lineBytes = 0;
    this.data = [];
    this.eventBytes = 0;
  }

  private append(part: Buffer): void {
    if (!part.length) return;
    this.lineBytes += part.length;
    if (this.lineBytes > this.maxBytes) throw tooLarge('A line of the event stream', this.maxBytes, this.endpoint);
    this.line.push(part);
  }

  private endLine(): void {
    const text = this.line.length === 1 ? this.line[0].toString('utf8') : Buffer.concat(this.line, this.lineBytes).toString('utf8');
    this.line = [];
    this.lineBytes = 0;
    if (text === '') {
      const data = this.data;
      this.data = [];
      this.eventBytes = 0;
      if (data.length) this.handlers.onEvent(data.join('\n'));
      return;
    }
    if (text.startsWith(':')) {
      this.handlers.onComment?.();
      return;
    }
    if (text.startsWith('data:')) {
      const value = text.slice(text.startsWith('data: ') ? 6 : 5);
      this.eventBytes += value.length + 1;
      if (this.eventBytes > this.maxBytes) throw tooLarge('An event of the event stream', this.maxBytes, this.endpoint);
      this.data.push(value);
    }
    // Event names, ids and retry hints carry nothing we use.
  }
}
