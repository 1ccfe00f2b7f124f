/**
 * What the service takes as an upload, as one rule for every caller: the api client checks it before it
 * sends a byte, and the extension's one pre-check words it for the user. No dependencies, so the upper
 * floors import it without loading the api bundle.
 */
import { detectContentType, essence } from './sniff';

/** Bytes per stored file (`POST /files`, and the direct upload): 10 MB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The platform refuses request bodies over this many bytes before the service sees them; the engine too. */
export const PLATFORM_BODY_LIMIT_BYTES = 4_500_000;

/**
 * Types `POST /files` stores, judged on the sniffed type without parameters (so JSON, CSV, Markdown and SVG
 * without an XML declaration arrive as text/plain, and an SVG with one as text/xml, which is refused).
 */
const FILE_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'application/json',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'text/csv',
  'text/markdown',
]);

const OFFICE_TYPES: Readonly<Record<string, string>> = {
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Types a task's attachment may have at `/run` (anything else: 422 `unsupported attachment type`). */
const ATTACHMENT_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'application/json',
  'text/csv',
  ...Object.values(OFFICE_TYPES),
]);
const ATTACHMENT_VIDEO_TYPES: ReadonlySet<string> = new Set(['video/mp4', 'video/webm']);
const ATTACHMENT_AUDIO = /^audio\/(wav|wave|mpeg|mp3|webm|ogg)$/;

/** The extension of a name, lower-cased, with its dot; '' for none (or a leading-dot name like `.env`). */
function extensionOf(filename: string): string {
  const base = filename.trim().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 || dot === base.length - 1 ? '' : base.slice(dot).toLowerCase();
}

/**
 * The type the service records for an uploaded attachment: the sniffed type, refined by the name only where
 * the bytes cannot tell (an Office document is a zip; a CSV is text).
 */
export function attachmentTypeOf(filename: string, head: Uint8Array): string {
  const sniffed = essence(detectContentType(head));
  const ext = extensionOf(filename);
  if (OFFICE_TYPES[ext] && (sniffed === 'application/zip' || sniffed === 'application/octet-stream')) return OFFICE_TYPES[ext];
  if (ext === '.csv' && (sniffed === 'text/plain' || sniffed === 'application/octet-stream')) return 'text/csv';
  return sniffed;
}

/** The type `POST /files` records: the sniffed type without parameters. */
export function fileTypeOf(head: Uint8Array): string {
  return essence(detectContentType(head));
}

/** What is sent: a stored file (`POST /files`) or a task's attachment. */
export type UploadKind = 'file' | 'attachment';

export interface UploadCandidate {
  filename: string;
  /** Bytes of the file. */
  size: number;
  /** Its first bytes (at least the first 512, when the file has them). */
  head: Uint8Array;
}

export type UploadVerdict =
  | { ok: true; type: string }
  /** Larger than `limitBytes` (for an attachment, its request body, which is the file plus a small envelope). */
  | { ok: false; problem: 'tooLarge'; limitBytes: number; size: number }
  | { ok: false; problem: 'empty' }
  /** The service would refuse its type (`type`, as the service reads it). */
  | { ok: false; problem: 'type'; type: string }
  /** A video attachment, which only a video-capable (Gemini) model takes. */
  | { ok: false; problem: 'videoModel'; type: string };

/**
 * Whether the service will take this upload, judged as it judges it: the size of what is sent, and the type
 * sniffed from the bytes. For an attachment the type check is the one `/run` applies (the upload itself
 * takes any type), so a refused attachment is caught before it is uploaded and before the task is sent.
 */
export function judgeUpload(kind: UploadKind, file: UploadCandidate, options: { modelId?: string } = {}): UploadVerdict {
  if (kind === 'file') {
    if (file.size > MAX_FILE_BYTES) return { ok: false, problem: 'tooLarge', limitBytes: MAX_FILE_BYTES, size: file.size };
    if (file.size === 0) return { ok: false, problem: 'empty' };
    const type = fileTypeOf(file.head);
    return FILE_TYPES.has(type) ? { ok: true, type } : { ok: false, problem: 'type', type };
  }
  if (multipartBytes(file.filename, file.size) > PLATFORM_BODY_LIMIT_BYTES) {
    return { ok: false, problem: 'tooLarge', limitBytes: PLATFORM_BODY_LIMIT_BYTES, size: file.size };
  }
  const type = attachmentTypeOf(file.filename, file.head);
  if (ATTACHMENT_VIDEO_TYPES.has(type)) {
    // Without a model id (the service's default, which the client does not know) the service decides.
    return options.modelId === undefined || /gemini/i.test(options.modelId) ? { ok: true, type } : { ok: false, problem: 'videoModel', type };
  }
  return ATTACHMENT_TYPES.has(type) || ATTACHMENT_AUDIO.test(type) ? { ok: true, type } : { ok: false, problem: 'type', type };
}

/** The multipart boundary: a fixed prefix and a UUID, so every body of the same file has the same length. */
export const boundaryPrefix = '----multi-agent-tasks-';
const BOUNDARY_LENGTH = boundaryPrefix.length + 36;

/** The text around the file in a multipart body: form fields first, then the file part's headers. */
export function multipartEnvelope(boundary: string, fields: Record<string, string>, filename: string, contentType: string) {
  const quoted = filename.replace(/["\\\r\n]/g, '_');
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(filename)}\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  return { preamble: head, epilogue: `\r\n--${boundary}--\r\n` };
}

/** Bytes of the multipart body that carries a file of `size` bytes (an attachment has no other fields). */
export function multipartBytes(filename: string, size: number, fields: Record<string, string> = {}): number {
  const { preamble, epilogue } = multipartEnvelope('x'.repeat(BOUNDARY_LENGTH), fields, filename, mimeTypeOf(filename));
  return Buffer.byteLength(preamble, 'utf8') + size + Buffer.byteLength(epilogue, 'utf8');
}

const MIME_TYPES: Readonly<Record<string, string>> = {
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

/** The declared type of a multipart file part, from its name (the service ignores it and sniffs the bytes). */
export function mimeTypeOf(filename: string): string {
  return MIME_TYPES[extensionOf(filename)] ?? 'application/octet-stream';
}
