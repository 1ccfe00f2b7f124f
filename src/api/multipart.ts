/** Multipart bodies for uploads: the file part streams from disk in small chunks, with an exact Content-Length. */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { type ApiError, InvalidRequestError, TooLargeError } from './errors';
import { SNIFF_BYTES } from './sniff';
import { PLATFORM_BODY_LIMIT_BYTES, type UploadCandidate, type UploadKind, type UploadVerdict, boundaryPrefix, judgeUpload, mimeTypeOf, multipartEnvelope } from './uploads';
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
export type InspectedSource = UploadCandidate;

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

/**
 * The upload's type as the service will read it, after judging the upload (uploads.ts): throws a
 * TooLargeError or InvalidRequestError, with nothing sent, for an upload the service would refuse.
 */
export function checkedUpload(kind: UploadKind, file: InspectedSource, options: { modelId?: string }, endpoint: string): string {
  const verdict = judgeUpload(kind, file, options);
  if (verdict.ok) return verdict.type;
  throw uploadRefusal(kind, file.filename, verdict, endpoint);
}

const ATTACHMENT_TYPES_TEXT = 'text, Markdown, JSON, CSV, PDF, PNG, JPEG, GIF, WebP, audio, and Word, Excel or PowerPoint documents';
const FILE_TYPES_TEXT = 'text, JSON, CSV, Markdown, SVG, PDF, PNG, JPEG, GIF or WebP';

function uploadRefusal(kind: UploadKind, filename: string, verdict: Exclude<UploadVerdict, { ok: true }>, endpoint: string): ApiError {
  const name = path.basename(filename);
  switch (verdict.problem) {
    case 'tooLarge':
      return new TooLargeError(
        kind === 'file'
          ? `${name} is ${(verdict.size / 1024 / 1024).toFixed(1)} MB; the service stores files up to 10 MB. Nothing was uploaded.`
          : `${name} is ${verdict.size} bytes; an attachment is sent in one request, and the service takes at most ${PLATFORM_BODY_LIMIT_BYTES} bytes per request. Nothing was uploaded.`,
        { endpoint },
      );
    case 'empty':
      return new InvalidRequestError(`${name} is empty: the service stores no empty files. Nothing was uploaded.`, { endpoint });
    case 'videoModel':
      return new InvalidRequestError(`${name} is a video (${verdict.type}): only a video-capable (Gemini) model takes video attachments. Nothing was uploaded.`, { endpoint });
    case 'type':
      return new InvalidRequestError(
        kind === 'file'
          ? `${name} reads as ${verdict.type}, a type the service does not store (it takes ${FILE_TYPES_TEXT}, judged by the first bytes). Nothing was uploaded.`
          : `${name} reads as ${verdict.type}, a type a task refuses as an attachment (it takes ${ATTACHMENT_TYPES_TEXT}, judged by the first bytes). Nothing was uploaded.`,
        { endpoint },
      );
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

/** Builds the body. The caller has judged the upload (size and type) first: see uploads.ts. */
export async function multipart(
  source: UploadSource,
  fields: Record<string, string>,
  onProgress?: (sentBytes: number, totalBytes: number) => void,
  /** The source as already inspected (its size and name), to skip a second look at the disk. */
  inspected?: Pick<InspectedSource, 'size' | 'filename'>,
): Promise<MultipartBody> {
  const { size, filename } = inspected ?? (await inspectSource(source));
  const boundary = `${boundaryPrefix}${randomUUID()}`;
  const envelope = multipartEnvelope(boundary, fields, filename, mimeTypeOf(filename));
  const preamble = Buffer.from(envelope.preamble, 'utf8');
  const epilogue = Buffer.from(envelope.epilogue, 'utf8');
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
