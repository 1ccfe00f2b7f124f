/**
 * Reading a server's bytes with a bound on size and time. Every count is of decoded bytes (after gzip or
 * brotli), so a small compressed bomb stops at the same cap as a plain flood.
 */
import { PassThrough, type Readable } from 'node:stream';
import { AbortedError, ApiError, ConnectionError, ResponseTooLargeError, TimeoutError } from './errors';

/** Caps on what one answer may hold, bytes. */
export const BODY_LIMITS = {
  /** A JSON answer. The service's largest (a task state with its result) stays under about 3 MiB. */
  jsonBytes: 16 * 1024 * 1024,
  /** The body of an error answer: only its message is read. */
  errorBytes: 64 * 1024,
  /** One Server-Sent Events line, and one event: a `complete` event carries the whole result. */
  eventBytes: 4 * 1024 * 1024,
  /** A file download, unless the caller sets its own. */
  downloadBytes: 64 * 1024 * 1024,
  /**
   * What counts as progress of a download: at least this much within each idle window. A server that sends
   * a byte every few seconds never goes quiet, but makes no progress worth waiting for.
   */
  downloadProgressBytes: 16 * 1024,
} as const;

/** Time bounds of bodies that flow after the headers, ms. */
export const BODY_TIMEOUTS = {
  /** A download gives up when the whole body takes longer than this (and when it makes no progress within the request timeout). */
  downloadTotalMs: 15 * 60_000,
  /** The task stream gives up when neither an event nor a keep-alive arrives for this long. */
  streamIdleMs: 60_000,
  /** ...and after this long in all (a task's state lives one hour on the service). */
  streamTotalMs: 65 * 60_000,
} as const;

export function tooLarge(what: string, limitBytes: number, endpoint?: string): ResponseTooLargeError {
  const mib = limitBytes >= 1024 * 1024 ? `${(limitBytes / 1024 / 1024).toFixed(0)} MiB` : `${Math.round(limitBytes / 1024)} KiB`;
  return new ResponseTooLargeError(`${what} is larger than ${mib}; it was not read.`, limitBytes, { endpoint });
}

/**
 * Reads a whole body into memory, at most `maxBytes`. Rejects with ResponseTooLargeError past the cap (the
 * stream is destroyed at once, nothing more is read), or with the stream's own error. Timing is the caller's:
 * destroy the stream to stop the read.
 */
export function readBody(stream: Readable, maxBytes: number, what: string, endpoint?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > maxBytes) {
        chunks.length = 0;
        stream.destroy();
        finish(tooLarge(what, maxBytes, endpoint));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => finish();
    const onError = (e: unknown) => finish(e ?? new Error('stream error'));
    const onClose = () => finish(new Error('The connection closed before the body ended'));
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}

export interface GuardOptions {
  maxBytes: number;
  idleTimeoutMs: number;
  totalTimeoutMs: number;
  /** Bytes that must arrive within each `idleTimeoutMs` (or the body end) to count as progress. Default 1. */
  progressBytes?: number;
  signal?: AbortSignal;
  endpoint?: string;
  what: string;
  /** Called with the bytes read so far, after each chunk. */
  onProgress?: (receivedBytes: number) => void;
}

/**
 * Passes a streaming body through unchanged, but errors it (and destroys the source) when it grows past
 * `maxBytes`, makes no progress (fewer than `progressBytes`) for `idleTimeoutMs`, takes longer than
 * `totalTimeoutMs`, or the signal aborts.
 */
export function guardStream(source: Readable, options: GuardOptions): Readable {
  const out = new PassThrough();
  let size = 0;
  let idle: NodeJS.Timeout | undefined;
  const endpoint = options.endpoint;
  const fail = (error: ApiError) => {
    cleanup();
    source.destroy();
    out.destroy(error);
  };
  const total = setTimeout(() => fail(new TimeoutError(`${options.what} took longer than ${options.totalTimeoutMs} ms`, { endpoint })), options.totalTimeoutMs);
  const progressBytes = Math.max(1, options.progressBytes ?? 1);
  let sinceArmed = 0;
  const stalled = () =>
    progressBytes > 1
      ? `${options.what} made no progress: ${sinceArmed === 0 ? 'nothing' : `only ${sinceArmed} bytes`} arrived in ${Math.round(options.idleTimeoutMs / 1000)} s`
      : `${options.what} stalled for ${options.idleTimeoutMs} ms`;
  const arm = () => {
    clearTimeout(idle);
    sinceArmed = 0;
    idle = setTimeout(() => fail(new TimeoutError(stalled(), { endpoint })), options.idleTimeoutMs);
  };
  const onAbort = () => fail(new AbortedError('The download was canceled', { endpoint }));
  const cleanup = () => {
    clearTimeout(total);
    clearTimeout(idle);
    options.signal?.removeEventListener('abort', onAbort);
  };
  if (options.signal?.aborted) {
    queueMicrotask(onAbort);
  } else {
    options.signal?.addEventListener('abort', onAbort, { once: true });
  }
  arm();
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > options.maxBytes) return fail(tooLarge(options.what, options.maxBytes, endpoint));
    sinceArmed += chunk.length;
    if (sinceArmed >= progressBytes) arm();
    options.onProgress?.(size);
    if (!out.write(chunk)) source.pause();
  });
  out.on('drain', () => source.resume());
  source.once('end', () => {
    cleanup();
    out.end();
  });
  source.once('error', e => {
    cleanup();
    // Aborting the call destroys the source first: that is the caller's cancel, not a broken connection.
    if (options.signal?.aborted) return void out.destroy(new AbortedError('The download was canceled', { endpoint }));
    out.destroy(e instanceof ApiError ? e : new ConnectionError(`${options.what} was interrupted`, false, { endpoint, cause: e }));
  });
  // A reader that stops early (destroys the download) must free the connection and the timers.
  out.once('close', () => {
    cleanup();
    source.destroy();
  });
  return out;
}
