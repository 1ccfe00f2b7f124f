/**
 * The Developer API, one method per endpoint. Pure Node: never imports vscode, so it runs in unit tests,
 * benchmarks and the extension host alike.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { type AddressSettings, type ApiAddresses, resolveAddresses } from './addresses';
import {
  AbortedError,
  ApiError,
  ConnectionError,
  InvalidRequestError,
  ResponseFormatError,
  TimeoutError,
  TooLargeError,
  UnsupportedError,
} from './errors';
import {
  LIMITS,
  type SubmitTaskRequest,
  type ThreadRunRequest,
  buildRunBody,
  buildThreadRunBody,
  checkId,
} from './requests';
import {
  ApiKeyListSchema,
  AttachmentSchema,
  CreateApiKeySchema,
  DeleteFileSchema,
  FileListSchema,
  FileSchema,
  FileUploadTokenSchema,
  ModelListSchema,
  RevokeApiKeySchema,
  StorageSchema,
  TaskResultSchema,
  type TaskState,
  TaskStateSchema,
  TaskSubmissionSchema,
  ThreadListSchema,
  ThreadMessagesSchema,
  ThreadSchema,
  UsageSchema,
  describeMismatch,
  isTerminalStatus,
} from './schemas';
import { filenameFromDisposition } from './filenames';
import { sseData } from './sse';
import { type CallOptions, type RequestSpec, Transport, type TransportOptions } from './transport';

export interface ClientOptions extends AddressSettings, TransportOptions {}

export interface PageRequest {
  limit?: number;
  offset?: number;
}

/** A file to upload: a path on disk (streamed, never read whole) or bytes in memory. */
export type UploadSource = { path: string; filename?: string } | { data: Uint8Array; filename: string };

export interface UploadOptions extends CallOptions {
  /** Called as bytes go out. */
  onProgress?: (sentBytes: number, totalBytes: number | undefined) => void;
}

export interface Download {
  stream: Readable;
  /** From Content-Disposition (filename* preferred), else the id. */
  filename: string;
  contentType?: string;
  /** Bytes, when the server said. */
  contentLength?: number;
}

export interface StreamOptions extends CallOptions {
  /** Called with every state the service pushes, the last one terminal. */
  onState?: (state: TaskState) => void;
  /** Give up when nothing (not even a keep-alive) arrives for this long, ms. Default 60 s. */
  idleTimeoutMs?: number;
}

const enc = encodeURIComponent;

export class DeveloperApiClient {
  readonly addresses: ApiAddresses;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.addresses = resolveAddresses(options);
    this.transport = new Transport(options);
  }

  get form() {
    return this.addresses.form;
  }

  // Tasks ---------------------------------------------------------------------------------------

  /** POST /run. Never retried once it may have reached the server. */
  async submitTask(request: SubmitTaskRequest, call?: CallOptions) {
    const body = buildRunBody(this.form, request);
    return this.transport.json(this.api('POST', '/run', '/run', { body, idempotent: false }), TaskSubmissionSchema, call);
  }

  /** GET /status/{taskId}. */
  async getTaskStatus(taskId: string, call?: CallOptions) {
    const id = checkId(taskId, 'task id');
    return this.transport.json(this.api('GET', `/status/${enc(id)}`, '/status/{taskId}'), TaskStateSchema, call);
  }

  /** GET /results/{taskId}: the result once completed, `{status}` only before. */
  async getTaskResult(taskId: string, call?: CallOptions) {
    const id = checkId(taskId, 'task id');
    return this.transport.json(this.api('GET', `/results/${enc(id)}`, '/results/{taskId}'), TaskResultSchema, call);
  }

  /**
   * Follows a task over Server-Sent Events until a terminal state, which it returns. Rejects with the
   * typed error when the stream cannot be opened, or with a ConnectionError if it ends before that.
   */
  async streamTask(taskId: string, options: StreamOptions = {}): Promise<TaskState> {
    const id = checkId(taskId, 'task id');
    const spec: RequestSpec = {
      method: 'GET',
      url: `${this.addresses.streamUrl}/api/v1/stream/${enc(id)}`,
      endpoint: 'GET /api/v1/stream/{taskId}',
      idempotent: true,
      headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' },
    };
    const { stream, headers } = await this.transport.stream(spec, { retry: false, ...options });
    if (!String(headers['content-type'] ?? '').includes('text/event-stream')) {
      stream.destroy();
      throw new UnsupportedError(`${spec.endpoint} did not answer with an event stream.`, { endpoint: spec.endpoint });
    }
    // Destroying the response does not wake a pending read, so abort and silence also end the wait itself.
    let interrupt: ((reason: Error) => void) | undefined;
    const stop = (reason: Error) => {
      stream.destroy();
      interrupt?.(reason);
    };
    const onAbort = () => stop(new AbortedError('The stream was canceled', { endpoint: spec.endpoint }));
    if (options.signal?.aborted) {
      stream.destroy();
      throw new AbortedError('The stream was canceled', { endpoint: spec.endpoint });
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A stream that goes silent would hold the task forever: no sign of life for a while ends it.
    let idleTimer: NodeJS.Timeout | undefined;
    const alive = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop(new TimeoutError('The task stream went quiet', { endpoint: spec.endpoint })), options.idleTimeoutMs ?? 60_000);
    };
    alive();
    const events = sseData(stream, alive)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await new Promise<IteratorResult<string>>((resolve, reject) => {
          interrupt = reject;
          events.next().then(resolve, reject);
        });
        if (next.done) break;
        const data = next.value;
        let state: TaskState;
        try {
          const parsed = TaskStateSchema.safeParse(JSON.parse(data));
          if (!parsed.success) throw new Error(describeMismatch(parsed.error));
          state = parsed.data;
        } catch (e) {
          throw new ResponseFormatError(`Unexpected event from ${spec.endpoint}: ${(e as Error).message}`, { endpoint: spec.endpoint });
        }
        options.onState?.(state);
        if (isTerminalStatus(state.status)) return state;
      }
      throw new ApiError('The task stream ended before the task finished.', { endpoint: spec.endpoint });
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (options.signal?.aborted) throw new AbortedError('The stream was canceled', { endpoint: spec.endpoint });
      throw new ConnectionError('The task stream was interrupted', false, {
        endpoint: spec.endpoint,
        cause: e,
      });
    } finally {
      interrupt = undefined;
      clearTimeout(idleTimer);
      options.signal?.removeEventListener('abort', onAbort);
      stream.destroy();
      void events.return?.(undefined).catch(() => undefined);
    }
  }

  // Threads -------------------------------------------------------------------------------------

  async listThreads(page: PageRequest = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('GET', '/threads', '/threads', { query: { limit: page.limit, offset: page.offset } }),
      ThreadListSchema,
      call,
    );
  }

  async createThread(request: { title?: string } = {}, call?: CallOptions) {
    const body = request.title?.trim() ? { title: request.title.trim() } : {};
    return this.transport.json(this.current('POST', '/threads', '/threads', { body, idempotent: false }), ThreadSchema, call);
  }

  async getThread(threadId: string | number, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    return this.transport.json(this.current('GET', `/threads/${enc(id)}`, '/threads/{threadId}'), ThreadSchema, call);
  }

  async listThreadMessages(threadId: string | number, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    return this.transport.json(
      this.current('GET', `/threads/${enc(id)}/messages`, '/threads/{threadId}/messages'),
      ThreadMessagesSchema,
      call,
    );
  }

  /** POST /threads/{id}/runs: a task in the thread's context. Never retried once it may have reached the server. */
  async runInThread(threadId: string | number, request: ThreadRunRequest, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    const body = buildThreadRunBody(request);
    return this.transport.json(
      this.current('POST', `/threads/${enc(id)}/runs`, '/threads/{threadId}/runs', { body, idempotent: false }),
      TaskSubmissionSchema,
      call,
    );
  }

  // Files ---------------------------------------------------------------------------------------

  async listFiles(page: PageRequest = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('GET', '/files', '/files', { query: { limit: page.limit, offset: page.offset } }),
      FileListSchema,
      call,
    );
  }

  /** POST /files, multipart, streamed from disk. The 10 MB limit is checked before sending. */
  async uploadFile(source: UploadSource, options: UploadOptions & { purpose?: string } = {}) {
    this.requireCurrent('/files');
    const form = await multipart(source, { purpose: options.purpose ?? 'assistants' }, options.onProgress);
    return this.transport.json(
      this.current('POST', '/files', '/files', { body: form.stream, headers: form.headers, idempotent: false }),
      FileSchema,
      uploadCall(options),
    );
  }

  async getFile(fileId: string, call?: CallOptions) {
    const id = checkId(fileId, 'file id');
    return this.transport.json(this.current('GET', `/files/${enc(id)}`, '/files/{fileId}'), FileSchema, call);
  }

  async deleteFile(fileId: string, call?: CallOptions) {
    const id = checkId(fileId, 'file id');
    return this.transport.json(
      this.current('DELETE', `/files/${enc(id)}`, '/files/{fileId}', { idempotent: true }),
      DeleteFileSchema,
      call,
    );
  }

  /** GET /files/{id}/content as a stream; the name comes from Content-Disposition. */
  async downloadFile(fileId: string, call?: CallOptions): Promise<Download> {
    const id = checkId(fileId, 'file id');
    const { stream, headers } = await this.transport.stream(
      this.current('GET', `/files/${enc(id)}/content`, '/files/{fileId}/content'),
      call,
    );
    const length = Number(headers['content-length']);
    return {
      stream,
      filename: filenameFromDisposition(headers['content-disposition']) ?? id,
      contentType: headers['content-type'],
      contentLength: Number.isFinite(length) && headers['content-length'] !== undefined ? length : undefined,
    };
  }

  async createUploadToken(request: { filename: string; mime_type?: string; purpose?: string }, call?: CallOptions) {
    checkId(request.filename, 'file name');
    return this.transport.json(
      this.current('POST', '/files/upload-token', '/files/upload-token', { body: request, idempotent: false }),
      FileUploadTokenSchema,
      call,
    );
  }

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

  // Account -------------------------------------------------------------------------------------

  async getUsage(call?: CallOptions) {
    return this.transport.json(this.current('GET', '/usage', '/usage'), UsageSchema, call);
  }

  async getStorage(call?: CallOptions) {
    return this.transport.json(this.current('GET', '/storage', '/storage'), StorageSchema, call);
  }

  async listKeys(call?: CallOptions) {
    return this.transport.json(this.current('GET', '/keys', '/keys'), ApiKeyListSchema, call);
  }

  async createKey(request: { tier?: string } = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('POST', '/keys', '/keys', { body: request, idempotent: false }),
      CreateApiKeySchema,
      call,
    );
  }

  async revokeKey(keyId: number, call?: CallOptions) {
    return this.transport.json(
      this.current('DELETE', '/keys', '/keys', { body: { keyId }, idempotent: true }),
      RevokeApiKeySchema,
      call,
    );
  }

  /** GET {platform_url}/api/v1/models. Available on both API forms. */
  async listModels(call?: CallOptions) {
    return this.transport.json(
      { method: 'GET', url: `${this.addresses.platformUrl}/api/v1/models`, endpoint: 'GET /api/v1/models', idempotent: true },
      ModelListSchema,
      call,
    );
  }

  /** POST {platform_url}/api/v1/attachments/upload: an id for `attachmentIds` of the next task. */
  async uploadAttachment(source: UploadSource, options: UploadOptions = {}) {
    this.requireCurrent('/api/v1/attachments/upload');
    const form = await multipart(source, {}, options.onProgress);
    return this.transport.json(
      {
        method: 'POST',
        url: `${this.addresses.platformUrl}/api/v1/attachments/upload`,
        endpoint: 'POST /api/v1/attachments/upload',
        body: form.stream,
        headers: form.headers,
        idempotent: false,
      },
      AttachmentSchema,
      uploadCall(options),
    );
  }

  // ---------------------------------------------------------------------------------------------

  /** A call that exists on both API forms (run, status, results). */
  private api(method: RequestSpec['method'], pathname: string, template: string, extra: Partial<RequestSpec> = {}): RequestSpec {
    return { method, url: this.addresses.baseUrl + pathname, endpoint: `${method} ${template}`, idempotent: method !== 'POST', ...extra };
  }

  /** A call that exists only on the current API form: fails at once on the earlier one. */
  private current(method: RequestSpec['method'], pathname: string, template: string, extra: Partial<RequestSpec> = {}): RequestSpec {
    this.requireCurrent(template, method);
    return this.api(method, pathname, template, extra);
  }

  private requireCurrent(template: string, method = 'POST'): void {
    if (this.form === 'earlier') {
      throw new UnsupportedError(
        `${method} ${template} is not available on the earlier API form (…/api/developer): set the base URL to …/api/v1/developer.`,
        { endpoint: `${method} ${template}` },
      );
    }
  }
}

/**
 * An upload's body is a one-shot stream, so it is never retried, and its timeout allows a slow uplink
 * (10 MB at 0.5 Mbit/s) rather than the 30 s of a JSON call.
 */
function uploadCall(options: UploadOptions): CallOptions {
  return { signal: options.signal, timeoutMs: options.timeoutMs ?? 10 * 60_000, retry: false };
}

/** A multipart body whose file part streams from disk in small chunks, with an exact Content-Length. */
interface MultipartBody {
  stream: Readable;
  headers: Record<string, string>;
}

async function multipart(
  source: UploadSource,
  fields: Record<string, string>,
  onProgress?: (sentBytes: number, totalBytes: number) => void,
): Promise<MultipartBody> {
  let size: number;
  let filename: string;
  if ('path' in source) {
    const info = await stat(source.path).catch(() => undefined);
    if (!info?.isFile()) throw new InvalidRequestError(`Cannot read ${source.path}: not a file.`);
    size = info.size;
    filename = source.filename ?? path.basename(source.path);
  } else {
    size = source.data.byteLength;
    filename = source.filename;
  }
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

function checkUploadSize(bytes: number, name: string): void {
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
