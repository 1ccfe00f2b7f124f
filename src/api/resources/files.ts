/** Files (current form only): upload, list, read, download, delete, and the direct upload flow for large files. */
import type { Readable } from 'node:stream';
import { BODY_LIMITS, BODY_TIMEOUTS, guardStream } from '../bodies';
import { filenameFromDisposition } from '../filenames';
import { type UploadOptions, type UploadSource, multipart, uploadCall } from '../multipart';
import { ApiResource, enc } from '../resource';
import { checkId, checkText } from '../requests';
import { DeleteFileSchema, FileListSchema, FileSchema, FileUploadTokenSchema } from '../schemas';
import type { CallOptions } from '../transport';
import type { PageRequest } from './threads';

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
  /** Give up when no byte arrives for this long, ms. Default 60 s. */
  idleTimeoutMs?: number;
  /** Give up when the body takes longer than this in all, ms. Default 15 min. */
  totalTimeoutMs?: number;
}

export class Files extends ApiResource {
  async list(page: PageRequest = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('GET', '/files', '/files', { query: { limit: page.limit, offset: page.offset } }),
      FileListSchema,
      call,
    );
  }

  /** POST /files, multipart, streamed from disk. The 10 MB limit is checked before sending. */
  async upload(source: UploadSource, options: UploadOptions & { purpose?: string } = {}) {
    this.requireCurrent('/files');
    const form = await multipart(source, { purpose: options.purpose ?? 'assistants' }, options.onProgress);
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
        idleTimeoutMs: options.idleTimeoutMs ?? BODY_TIMEOUTS.downloadIdleMs,
        totalTimeoutMs: options.totalTimeoutMs ?? BODY_TIMEOUTS.downloadTotalMs,
        signal: options.signal,
        endpoint: spec.endpoint,
        what: 'The download',
      }),
      filename: filenameFromDisposition(headers['content-disposition']) ?? id,
      contentType: headers['content-type'],
      contentLength: Number.isFinite(length) && headers['content-length'] !== undefined ? length : undefined,
    };
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
