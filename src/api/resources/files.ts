/** Files (current form only): upload, list, read, download, delete, and the direct upload flow for large files. */
import type { Readable } from 'node:stream';
import { BODY_LIMITS, BODY_TIMEOUTS, guardStream } from '../bodies';
import { filenameFromDisposition } from '../filenames';
import { redactSecrets } from '../redact';
import { type InspectedSource, type UploadOptions, type UploadSource, checkedUpload, inspectSource, multipart, rawBody, uploadCall } from '../multipart';
import { checkedUrl } from '../addresses';
import { TooLargeError } from '../errors';
import { PLATFORM_BODY_LIMIT_BYTES, multipartBytes } from '../uploads';
import { ApiResource, enc } from '../resource';
import { checkId, checkText } from '../requests';
import { BlobPutSchema, DeleteFileSchema, FileListSchema, FileSchema, FileUploadTokenSchema } from '../schemas';
import type { CallOptions } from '../transport';
import type { PageRequest } from './threads';

/**
 * What the blob store of the direct upload needs besides the upload token: its API version, the exact
 * pathname kept (without `X-Add-Random-Suffix: 0` it renames the blob, and `files/complete` then finds
 * nothing at the pathname it was given), the type and the access of the stored blob.
 */
const BLOB_PUT_HEADERS = { 'x-api-version': '9', 'X-Add-Random-Suffix': '0', 'X-Access': 'private' } as const;

export interface Download {
  /** The body, bounded: it errors with ResponseTooLargeError past `maxBytes`, TimeoutError when it stalls. */
  stream: Readable;
  /** From Content-Disposition (filename* preferred), else the id. */
  filename: string;
  contentType?: string;
  /** Bytes, when the server said. */
  contentLength?: number;
}

export interface DownloadOptions extends CallOptions {
  /** Most bytes to read, after decompression. Default 64 MiB. */
  maxBytes?: number;
  /**
   * Give up when the body makes no progress (less than 16 KiB arrives) for this long, ms. Default: the
   * call's timeout (the client's request timeout): a trickle of a byte every few seconds ends there too.
   */
  idleTimeoutMs?: number;
  /** Give up when the body takes longer than this in all, ms. Default 15 min. */
  totalTimeoutMs?: number;
  /** Called with the bytes received so far, as they arrive. */
  onProgress?: (receivedBytes: number) => void;
}

export class Files extends ApiResource {
  async list(page: PageRequest = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('GET', '/files', '/files', { query: { limit: page.limit, offset: page.offset } }),
      FileListSchema,
      call,
    );
  }

  /**
   * Uploads a file (10 MB at most), streamed from disk. Its size and type are judged first, as the service
   * judges them (the type sniffed from the first bytes), so a file it would refuse is never sent. Up to the
   * platform's request limit it is one multipart POST /files; above, the direct flow: an upload token, a PUT
   * of the bytes to the blob store (its own token, never the API key), then POST /files/complete.
   */
  async upload(source: UploadSource, options: UploadOptions & { purpose?: string } = {}) {
    this.requireCurrent('/files');
    const file = await inspectSource(source);
    const purpose = options.purpose ?? 'assistants';
    const type = checkedUpload('file', file, {}, 'POST /files');
    if (multipartBytes(file.filename, file.size, { purpose }) > PLATFORM_BODY_LIMIT_BYTES) return this.uploadDirect(source, file, type, purpose, options);
    const form = await multipart(source, { purpose }, options.onProgress, file);
    return this.transport.json(
      this.current('POST', '/files', '/files', { body: form.stream, headers: form.headers, idempotent: false }),
      FileSchema,
      uploadCall(options),
    );
  }

  async get(fileId: string, call?: CallOptions) {
    const id = checkId(fileId, 'file id');
    return this.transport.json(this.current('GET', `/files/${enc(id)}`, '/files/{fileId}'), FileSchema, call);
  }

  async delete(fileId: string, call?: CallOptions) {
    const id = checkId(fileId, 'file id');
    return this.transport.json(
      this.current('DELETE', `/files/${enc(id)}`, '/files/{fileId}', { idempotent: true }),
      DeleteFileSchema,
      call,
    );
  }

  /** GET /files/{id}/content as a bounded stream; the name comes from Content-Disposition. */
  async download(fileId: string, options: DownloadOptions = {}): Promise<Download> {
    const id = checkId(fileId, 'file id');
    const spec = this.current('GET', `/files/${enc(id)}/content`, '/files/{fileId}/content');
    const { stream, headers } = await this.transport.stream(spec, options);
    const length = Number(headers['content-length']);
    return {
      stream: guardStream(stream, {
        maxBytes: options.maxBytes ?? BODY_LIMITS.downloadBytes,
        idleTimeoutMs: options.idleTimeoutMs ?? options.timeoutMs ?? this.transport.timeoutMs,
        totalTimeoutMs: options.totalTimeoutMs ?? BODY_TIMEOUTS.downloadTotalMs,
        progressBytes: BODY_LIMITS.downloadProgressBytes,
        onProgress: options.onProgress,
        signal: options.signal,
        endpoint: spec.endpoint,
        what: 'The download',
      }),
      // A name the server gives is server text: cleaned of the secrets like every JSON body (transport.ts).
      filename: redactSecrets(filenameFromDisposition(headers['content-disposition']) ?? id, await this.transport.secretsFor(spec)),
      contentType: headers['content-type'],
      contentLength: Number.isFinite(length) && headers['content-length'] !== undefined ? length : undefined,
    };
  }

  private async uploadDirect(source: UploadSource, file: InspectedSource, type: string, purpose: string, options: UploadOptions) {
    const token = await this.createUploadToken({ filename: file.filename, mime_type: type, purpose }, { signal: options.signal });
    if (token.max_bytes !== undefined && file.size > token.max_bytes) {
      throw new TooLargeError(`${file.filename} is ${file.size} bytes; the service takes at most ${token.max_bytes} here.`, { endpoint: 'POST /files/upload-token' });
    }
    const target = checkedUrl(token.upload_url, 'upload address');
    await this.transport.json(
      {
        method: 'PUT',
        url: target.toString(),
        endpoint: 'PUT {upload_url}',
        body: rawBody(source, file.size, options.onProgress),
        headers: {
          ...BLOB_PUT_HEADERS,
          'Content-Type': type,
          'X-Content-Type': type,
          'Content-Length': String(file.size),
          Authorization: `Bearer ${token.upload_token}`,
        },
        idempotent: false,
        secrets: [token.upload_token],
      },
      BlobPutSchema,
      uploadCall(options),
    );
    return this.completeUpload({ file_id: token.file_id, pathname: token.pathname, filename: file.filename, mime_type: type, purpose }, { signal: options.signal });
  }

  /** POST /files/upload-token: the first step of the direct upload flow (files over 4.5 MB). */
  async createUploadToken(request: { filename: string; mime_type?: string; purpose?: string }, call?: CallOptions) {
    checkText(request.filename, 'file name');
    return this.transport.json(
      this.current('POST', '/files/upload-token', '/files/upload-token', { body: request, idempotent: false }),
      FileUploadTokenSchema,
      call,
    );
  }

  /** POST /files/complete: the last step of the direct upload flow. */
  async completeUpload(
    request: { file_id: string; pathname: string; filename: string; mime_type?: string; purpose?: string },
    call?: CallOptions,
  ) {
    return this.transport.json(
      this.current('POST', '/files/complete', '/files/complete', { body: request, idempotent: false }),
      FileSchema,
      call,
    );
  }
}
