/** Multipart bodies for uploads: the file part streams from disk in small chunks, with an exact Content-Length. */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { InvalidRequestError, TooLargeError } from './errors';
import { LIMITS } from './requests';
import { SNIFF_BYTES } from './sniff';
import type { CallOptions } from './transport';

/** A file to upload: a path on disk (streamed, never read whole) or bytes in memory. */
export type UploadSource = { path: string; filename?: string } | { data: Uint8Array; filename: string };

export interface UploadOptions extends CallOptions {
  /** Called as bytes go out. */
  onProgress?: (sentBytes: number, totalBytes: number | undefined) => void;
}

export interface MultipartBody {
  stream: Readable;
  headers: Record<string, string>;
}

/**
 * An upload's body is a one-shot stream, so it is never retried, and its timeout allows a slow uplink
 * (10 MB at 0.5 Mbit/s) rather than the 30 s of a JSON call.
 */
export function uploadCall(options: UploadOptions): CallOptions {
  return { signal: options.signal, timeoutMs: options.timeoutMs ?? 10 * 60_000, retry: false };
}

/** What an upload is before anything is sent: its size, name and first bytes (for the type check). */
export interface InspectedSource {
  size: number;
  filename: string;
  head: Uint8Array;
}

export async function inspectSource(source: UploadSource): Promise<InspectedSource> {
  if (!('path' in source)) return { size: source.data.byteLength, filename: source.filename, head: source.data.subarray(0, SNIFF_BYTES) };
  const info = await stat(source.path).catch(() => undefined);
  if (!info?.isFile()) throw new InvalidRequestError(`Cannot read ${source.path}: not a file.`);
  const handle = await open(source.path, 'r');
  try {
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, info.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { size: info.size, filename: source.filename ?? path.basename(source.path), head: head.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

/** The file's bytes alone as a body (the direct upload's PUT), streamed from disk, with progress. */
export function rawBody(source: UploadSource, size: number, onProgress?: (sentBytes: number, totalBytes: number) => void): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    let sent = 0;
    const all =
      'path' in source
        ? createReadStream(source.path, { highWaterMark: 64 * 1024 })
        : [Buffer.from(source.data.buffer, source.data.byteOffset, source.data.byteLength)];
    for await (const chunk of all) {
      sent += (chunk as Buffer).length;
      onProgress?.(sent, size);
      yield chunk as Buffer;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Builds the body; the 10 MB limit is checked before anything is sent. */
export async function multipart(
  source: UploadSource,
  fields: Record<string, string>,
  onProgress?: (sentBytes: number, totalBytes: number) => void,
  /** The source as already inspected (its size and name), to skip a second look at the disk. */
  inspected?: Pick<InspectedSource, 'size' | 'filename'>,
): Promise<MultipartBody> {
  const { size, filename } = inspected ?? (await inspectSource(source));
  checkUploadSize(size, filename);
  const boundary = `----multi-agent-tasks-${randomUUID()}`;
  const quoted = filename.replace(/["\\\r\n]/g, '_');
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(filename)}\r\n` +
    `Content-Type: ${mimeTypeOf(filename)}\r\n\r\n`;
  const preamble = Buffer.from(head, 'utf8');
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const total = preamble.length + size + epilogue.length;
  async function* parts(): AsyncGenerator<Buffer> {
    let sent = 0;
    const emit = (chunk: Buffer) => {
      sent += chunk.length;
      onProgress?.(sent, total);
      return chunk;
    };
    yield emit(preamble);
    if ('path' in source) {
      for await (const chunk of createReadStream(source.path, { highWaterMark: 64 * 1024 })) yield emit(chunk as Buffer);
    } else {
      yield emit(Buffer.from(source.data.buffer, source.data.byteOffset, source.data.byteLength));
    }
    yield emit(epilogue);
  }
  return {
    stream: Readable.from(parts(), { objectMode: false }),
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(total) },
  };
}

export function checkUploadSize(bytes: number, name: string): void {
  if (bytes > LIMITS.maxUploadBytes) {
    const mb = (bytes / 1024 / 1024).toFixed(1);
    throw new TooLargeError(`${path.basename(name)} is ${mb} MB; the service accepts files up to 10 MB.`);
  }
}

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.ts': 'text/plain',
  '.py': 'text/x-python',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

export function mimeTypeOf(filename: string): string {
  return MIME_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}
