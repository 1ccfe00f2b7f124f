// Response helpers producing the three error bodies the real service uses.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

export interface ErrorDetail {
  location: string;
  message: string;
  value: unknown;
}

/** Thrown by route handlers; the dispatcher turns it into an RFC 7807 response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
    /** 'auth': the auth layer's `{status, detail}` body instead of RFC 7807. */
    readonly shape: 'problem' | 'auth' = 'problem',
  ) {
    super(detail);
  }
}

export function validationError(errors: ErrorDetail[]): ApiError {
  return new ApiError(422, 'validation failed', errors);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function problemBody(status: number, detail: string, errors?: ErrorDetail[]): Record<string, unknown> {
  const body: Record<string, unknown> = { title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (errors) {
    body.errors = errors;
  }
  return body;
}

export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  errors?: ErrorDetail[],
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, problemBody(status, detail, errors), headers, 'application/problem+json');
}

/** The auth layer answers in its own `{status, detail}` shape, not RFC 7807. */
export function sendAuthError(res: ServerResponse, status = 401, detail = 'Invalid or missing API key', headers: Record<string, string> = {}): void {
  sendJson(res, status, { status, detail }, headers);
}

export function isMultipart(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
}

const MAX_JSON_BODY = 64 * 1024 * 1024;

/** Buffers a non-multipart request body; resolves undefined when it exceeds MAX_JSON_BODY (rest is drained). */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_JSON_BODY) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(size <= MAX_JSON_BODY ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

export type ParsedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string };

export function parseJsonBody(raw: Buffer): ParsedBody {
  if (raw.length === 0) {
    return { kind: 'none' };
  }
  try {
    return { kind: 'json', value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch (err) {
    return { kind: 'invalid', message: (err as Error).message };
  }
}

/** RFC 6266 header: ASCII fallback plus the exact UTF-8 name (RFC 5987). */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  tsx: 'text/typescript',
  py: 'text/x-python',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  c: 'text/x-c',
  cpp: 'text/x-c++',
  css: 'text/css',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  zip: 'application/zip',
};

/**
 * The part's own type wins; busboy reports a missing part type as text/plain, so that (and octet-stream)
 * falls back to the extension.
 */
export function resolveMimeType(partType: string | undefined, filename: string): string {
  const ext = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  const guessed = MIME_BY_EXTENSION[ext];
  if (!partType || partType === 'application/octet-stream' || partType === 'text/plain') {
    return guessed ?? partType ?? 'application/octet-stream';
  }
  return partType;
}

/** The live download header: `filename=` with the name reduced to [A-Za-z0-9._-] (others as `_`), no `filename*`. */
export function asciiContentDisposition(filename: string): string {
  const base = filename.trim().split(/[\\/]/).pop() ?? '';
  const safe = [...base].map((c) => (/^[A-Za-z0-9._-]$/.test(c) ? c : '_')).join('');
  return `attachment; filename=${safe === '' || safe === '.' ? 'file.bin' : safe}`;
}

/** What the live service accepts as a file upload (after sniffing); generated files may also be Office, zip, HTML. */
export const ALLOWED_UPLOAD_TYPES = [
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
];
