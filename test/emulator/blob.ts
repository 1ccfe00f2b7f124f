// The blob store of the direct upload (`PUT {upload_url}`), on the emulator's other origin like the real store
// on its own host. It takes no API key: the upload token as `Authorization: Bearer`, bound to one pathname. It
// honours the headers the vendor's blob client sends: `X-Add-Random-Suffix: 0` keeps the pathname (otherwise
// the store renames the blob, and files/complete then cannot find it), `X-Content-Type` sets the stored type
// (else the extension decides), the access header must not ask for public access on this private store, and
// `x-api-version` must be a number when sent.
import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveMimeType, sendJson } from './http';
import type { Store } from './state';

export const BLOB_PATH_PREFIX = '/__blob/';
const MAX_BLOB_BYTES = 2 * 10 * 1024 * 1024;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function blobError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

/** `name-<30 random characters>.ext`, as the store does unless asked not to. */
function withRandomSuffix(pathname: string): string {
  const suffix = Array.from({ length: 30 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const slash = pathname.lastIndexOf('/');
  const dot = pathname.lastIndexOf('.');
  return dot > slash + 1 ? `${pathname.slice(0, dot)}-${suffix}${pathname.slice(dot)}` : `${pathname}-${suffix}`;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function putBlob(req: IncomingMessage, res: ServerResponse, store: Store, pathname: string, blobOrigin: string): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BLOB_BYTES) {
      chunks.push(chunk as Buffer);
    }
  }
  const now = store.now();
  const auth = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '')?.[1]?.trim();
  const token = auth === undefined ? undefined : store.uploadTokenByValue(auth);
  if (!token || token.pathname !== pathname || now > token.expiresAt) {
    blobError(res, 403, 'forbidden', 'Access denied, please provide a valid token for this resource.');
    return;
  }
  const version = header(req, 'x-api-version');
  if (version !== undefined && !/^\d+$/.test(version.trim())) {
    blobError(res, 400, 'bad_request', 'Invalid x-api-version header.');
    return;
  }
  const access = (header(req, 'x-vercel-blob-access') ?? header(req, 'x-access'))?.trim().toLowerCase();
  if (access !== undefined && access !== 'private') {
    blobError(res, 400, 'bad_request', `Cannot use ${access} access on a private store.`);
    return;
  }
  if (size > MAX_BLOB_BYTES) {
    blobError(res, 400, 'file_too_large', 'File is too large.');
    return;
  }
  const keep = !store.config.blobRandomSuffix || header(req, 'x-add-random-suffix')?.trim() === '0';
  const stored = keep ? pathname : withRandomSuffix(pathname);
  if (store.blobs.has(stored) && header(req, 'x-allow-overwrite')?.trim() !== '1') {
    blobError(res, 400, 'bad_request', 'This blob already exists, use `allowOverwrite: true` if you want to overwrite it. Or `addRandomSuffix: true` to generate a unique filename.');
    return;
  }
  const filename = stored.split('/').pop() ?? 'file';
  const contentType = header(req, 'x-content-type')?.trim() || resolveMimeType(undefined, filename);
  store.blobs.set(stored, { bytes: Buffer.concat(chunks), contentType, uploadedAt: now });
  sendJson(res, 200, {
    url: `${blobOrigin}${BLOB_PATH_PREFIX}${stored}`,
    downloadUrl: `${blobOrigin}${BLOB_PATH_PREFIX}${stored}?download=1`,
    pathname: stored,
    contentType,
    contentDisposition: `attachment; filename="${filename}"`,
  });
}
