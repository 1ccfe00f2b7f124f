// The emulated API: current Developer API, its earlier form, and the platform routes (models, attachments, SSE).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ALLOWED_UPLOAD_TYPES,
  ApiError,
  asciiContentDisposition,
  contentDisposition,
  sniffMimeType,
  isMultipart,
  resolveMimeType,
  sendJson,
  validationError,
  type ErrorDetail,
  type ParsedBody,
} from './http';
import { MAX_UPLOAD_BYTES, parseMultipart } from './multipart';
import { streamError, streamTask } from './sse';
import {
  DEFAULT_AGENT_COUNT,
  DEFAULT_MODEL_ID,
  MODELS,
  TIERS,
  displayKey,
  iso,
  statusAt,
  taskStateJson,
  type KeyRecord,
  type Store,
  type ThreadRecord,
  type Tier,
} from './state';
import type { StoredFile } from './types';
import { CURRENT_BASE_PATH, LEGACY_BASE_PATH } from './types';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  body: ParsedBody;
  key: KeyRecord;
  store: Store;
  /** Origin of the main listener, for URLs the service hands out. */
  origin: string;
  /** Origin that plays the blob store of the direct upload flow (the other listener). */
  blobOrigin: string;
  onStreamOpen(): void;
  onStreamClose(): void;
}

type Handler = (ctx: RouteContext, params: string[]) => void | Promise<void>;
interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const MAX_PROMPT_CHARS = 10_000;
const MAX_ATTACHMENTS = 5;
const STORAGE_QUOTA_BYTES = 1024 * 1024 * 1024;
const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
export const BLOB_PATH_PREFIX = '/__blob/';
const RUN_FIELDS = ['prompt', 'modelId', 'stream', 'options', 'attachment_ids'];
const THREAD_RUN_FIELDS = ['prompt', 'modelId', 'stream'];
const MODEL_IDS = MODELS.options.map((m) => m.id);

const V1 = escape(CURRENT_BASE_PATH);
const LEGACY = escape(LEGACY_BASE_PATH);
const SEG = '([^/]+)';

const routes: Route[] = [
  { method: 'POST', pattern: re(`${V1}/run`), handler: (c) => submitRun(c, false) },
  { method: 'GET', pattern: re(`${V1}/status/${SEG}`), handler: (c, [id]) => getStatus(c, id, false) },
  { method: 'GET', pattern: re(`${V1}/results/${SEG}`), handler: (c, [id]) => getResults(c, id, false) },
  { method: 'GET', pattern: re(`${V1}/threads`), handler: listThreads },
  { method: 'POST', pattern: re(`${V1}/threads`), handler: createThread },
  { method: 'GET', pattern: re(`${V1}/threads/${SEG}`), handler: (c, [id]) => getThread(c, id) },
  { method: 'GET', pattern: re(`${V1}/threads/${SEG}/messages`), handler: (c, [id]) => getMessages(c, id) },
  { method: 'POST', pattern: re(`${V1}/threads/${SEG}/runs`), handler: (c, [id]) => runInThread(c, id) },
  { method: 'GET', pattern: re(`${V1}/files`), handler: listFiles },
  { method: 'POST', pattern: re(`${V1}/files`), handler: uploadFile },
  { method: 'POST', pattern: re(`${V1}/files/upload-token`), handler: createUploadToken },
  { method: 'POST', pattern: re(`${V1}/files/complete`), handler: completeUpload },
  { method: 'GET', pattern: re(`${V1}/files/${SEG}`), handler: (c, [id]) => sendJson(c.res, 200, fileJson(ownFile(c, id))) },
  { method: 'DELETE', pattern: re(`${V1}/files/${SEG}`), handler: (c, [id]) => deleteFile(c, id) },
  { method: 'GET', pattern: re(`${V1}/files/${SEG}/content`), handler: (c, [id]) => downloadFile(c, id) },
  { method: 'GET', pattern: re(`${V1}/usage`), handler: (c) => sendJson(c.res, 200, consoleOnly(c).usage(c.key.userId)) },
  { method: 'GET', pattern: re(`${V1}/storage`), handler: storageSummary },
  { method: 'GET', pattern: re(`${V1}/keys`), handler: listKeys },
  { method: 'POST', pattern: re(`${V1}/keys`), handler: createKey },
  { method: 'DELETE', pattern: re(`${V1}/keys`), handler: revokeKey },

  { method: 'POST', pattern: re(`${LEGACY}/run`), handler: (c) => submitRun(c, true) },
  { method: 'GET', pattern: re(`${LEGACY}/status/${SEG}`), handler: (c, [id]) => getStatus(c, id, true) },
  { method: 'GET', pattern: re(`${LEGACY}/results/${SEG}`), handler: (c, [id]) => getResults(c, id, true) },

  { method: 'GET', pattern: re('/api/v1/models'), handler: (c) => sendJson(c.res, 200, MODELS) },
  { method: 'POST', pattern: re('/api/v1/attachments/upload'), handler: uploadAttachment },
  { method: 'GET', pattern: re(`/api/v1/stream/${SEG}`), handler: (c, [id]) => openStream(c, id) },
  { method: 'POST', pattern: re(`/api/v1/tasks/${SEG}/cancel`), handler: (c, [id]) => cancelTask(c, id) },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function re(source: string): RegExp {
  return new RegExp(`^${source}/?$`);
}

export async function dispatch(ctx: RouteContext): Promise<void> {
  const pathname = ctx.url.pathname;
  let pathMatched = false;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) {
      continue;
    }
    pathMatched = true;
    if (route.method === ctx.req.method) {
      await route.handler(ctx, match.slice(1).map(decodeURIComponent));
      return;
    }
  }
  // Whatever the answer, an unread upload must be drained so the client sees it.
  ctx.req.resume();
  throw pathMatched ? new ApiError(405, 'Method not allowed') : new ApiError(404, 'Not found');
}

// ---- body helpers ----

/** The JSON object body; `optional` accepts an empty body as {}. */
function objectBody(ctx: RouteContext, optional = false): Record<string, unknown> {
  const body = ctx.body;
  if (body.kind === 'none') {
    if (optional) {
      return {};
    }
    throw new ApiError(400, 'request body is required');
  }
  if (body.kind === 'invalid') {
    throw new ApiError(400, `unable to parse body: ${body.message}`);
  }
  if (typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    throw validationError([{ location: 'body', message: 'expected object', value: body.value }]);
  }
  return body.value as Record<string, unknown>;
}

function unknownFields(body: Record<string, unknown>, allowed: string[]): ErrorDetail[] {
  return Object.keys(body)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ location: `body.${k}`, message: 'unexpected property', value: body[k] }));
}

function checkPrompt(value: unknown, errors: ErrorDetail[], maxChars?: number): void {
  const location = 'body.prompt';
  if (value === undefined) {
    errors.push({ location, message: 'expected required property prompt to be present', value: null });
  } else if (typeof value !== 'string') {
    errors.push({ location, message: 'expected string', value });
  } else if (value.length === 0) {
    errors.push({ location, message: 'expected length >= 1', value });
  } else if (maxChars !== undefined && [...value].length > maxChars) {
    errors.push({ location, message: `expected length <= ${maxChars}`, value: `${value.slice(0, 40)}…` });
  }
}

function checkModel(value: unknown, location: string, errors: ErrorDetail[]): void {
  if (value === undefined) {
    return;
  }
  if (typeof value !== 'string') {
    errors.push({ location, message: 'expected string', value });
  } else if (value.length === 0) {
    errors.push({ location, message: 'expected length >= 1', value });
  } else if (!MODEL_IDS.includes(value)) {
    errors.push({ location, message: `unknown model; expected one of ${MODEL_IDS.join(', ')}`, value });
  }
}

function checkBoolean(body: Record<string, unknown>, field: string, errors: ErrorDetail[]): void {
  if (body[field] !== undefined && typeof body[field] !== 'boolean') {
    errors.push({ location: `body.${field}`, message: 'expected boolean', value: body[field] });
  }
}

// ---- tasks ----

function submitRun(ctx: RouteContext, legacy: boolean): void {
  const body = objectBody(ctx);
  const errors: ErrorDetail[] = [];
  checkPrompt(body.prompt, errors, MAX_PROMPT_CHARS);
  if (!legacy) {
    checkModel(body.modelId, 'body.modelId', errors);
    checkBoolean(body, 'stream', errors);
  }

  let options: Record<string, unknown> = {};
  if (body.options !== undefined && body.options !== null) {
    if (typeof body.options !== 'object' || Array.isArray(body.options)) {
      errors.push({ location: 'body.options', message: 'expected object', value: body.options });
    } else {
      options = body.options as Record<string, unknown>;
      const { agentCount, budget } = options;
      if (agentCount !== undefined && (!Number.isInteger(agentCount) || (agentCount as number) < 1 || (agentCount as number) > 8)) {
        errors.push({ location: 'body.options.agentCount', message: 'expected integer between 1 and 8', value: agentCount });
      }
      if (budget !== undefined && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) {
        errors.push({ location: 'body.options.budget', message: 'expected number >= 0', value: budget });
      }
      if (legacy) {
        checkModel(options.modelId, 'body.options.modelId', errors);
      }
    }
  }

  const ids = body.attachment_ids;
  if (ids !== undefined && ids !== null) {
    if (!Array.isArray(ids)) {
      errors.push({ location: 'body.attachment_ids', message: 'expected array', value: ids });
    } else {
      if (ids.length > MAX_ATTACHMENTS) {
        errors.push({ location: 'body.attachment_ids', message: `expected array length <= ${MAX_ATTACHMENTS}`, value: ids });
      }
      ids.forEach((id, i) => {
        if (typeof id !== 'string') {
          errors.push({ location: `body.attachment_ids[${i}]`, message: 'expected string', value: id });
        }
      });
    }
  }
  if (!legacy && ctx.store.config.strictRunRequest) {
    errors.push(...unknownFields(body, RUN_FIELDS));
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }

  const attachmentIds = (ids ?? []) as string[];
  for (const id of attachmentIds) {
    const attachment = ctx.store.attachmentsById.get(id);
    if (!attachment || attachment.userId !== ctx.key.userId) {
      throw new ApiError(403, `Attachment ${id} is not accessible`);
    }
  }

  // The earlier form selects the model inside options; a top-level modelId is ignored there.
  const modelId = ((legacy ? options.modelId : body.modelId) as string | undefined) ?? DEFAULT_MODEL_ID;
  const task = ctx.store.createTask({
    userId: ctx.key.userId,
    apiKey: ctx.key.key,
    source: legacy ? 'legacyRun' : 'run',
    prompt: body.prompt as string,
    modelId,
    options,
    body,
    attachmentIds,
  });
  sendJson(ctx.res, 200, { taskId: task.id, status: 'processing', message: 'Task submitted successfully' });
}

function ownTask(ctx: RouteContext, id: string) {
  const task = ctx.store.findTask(id, ctx.key.userId);
  if (!task) {
    throw new ApiError(404, `Task ${id} not found`);
  }
  return task;
}

function sendRawJson(res: ServerResponse, json: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function getStatus(ctx: RouteContext, id: string, legacy: boolean): void {
  sendRawJson(ctx.res, taskStateJson(ownTask(ctx, id), Date.now(), legacy));
}

function getResults(ctx: RouteContext, id: string, legacy: boolean): void {
  const task = ownTask(ctx, id);
  const status = statusAt(task, Date.now());
  switch (status) {
    case 'processing':
      sendJson(ctx.res, 200, { status });
      return;
    case 'completed':
      if (task.resultTooLargeForResults) {
        throw new ApiError(413, 'Task result is too large for inline retrieval');
      }
      sendJson(ctx.res, 200, { taskId: task.id, status, result: task.result });
      return;
    case 'failed':
      sendJson(ctx.res, 200, { taskId: task.id, status, error: task.error });
      return;
    default:
      if (legacy) {
        const error = status === 'canceled' ? 'Task was canceled' : 'Task is awaiting approval in the web console';
        sendJson(ctx.res, 200, { taskId: task.id, status: 'failed', error });
      } else {
        sendJson(ctx.res, 200, { taskId: task.id, status });
      }
  }
}

function openStream(ctx: RouteContext, id: string): void {
  const config = ctx.store.config;
  if (!config.streamEnabled) {
    throw new ApiError(404, 'Streaming is not enabled');
  }
  if (config.streamFormat === 'typed') {
    // Live: 200 and one error event for a task that is unknown, expired or another user's.
    const any = ctx.store.tasksById.get(id);
    if (!any || ctx.store.findTask(id, any.userId) === undefined) {
      streamError(ctx.res, 'Task not found');
      return;
    }
    if (any.userId !== ctx.key.userId) {
      streamError(ctx.res, 'Unauthorized');
      return;
    }
  }
  const task = ownTask(ctx, id);
  ctx.onStreamOpen();
  streamTask(ctx.res, task, ctx.store, { format: config.streamFormat, pulseIntervalMs: config.pulseIntervalMs }, ctx.onStreamClose);
}

/**
 * POST /api/v1/tasks/{id}/cancel (engine, takes the key): a running or paused task becomes canceled; a finished one
 * is answered unchanged. The answer is the engine's RunResponse `{task_id, status, result?, conversation_id?}`.
 */
function cancelTask(ctx: RouteContext, id: string): void {
  const task = ctx.store.tasksById.get(id);
  if (!task || ctx.store.findTask(id, task.userId) === undefined) {
    throw new ApiError(404, 'Task not found');
  }
  if (task.userId !== ctx.key.userId) {
    throw new ApiError(403, 'Unauthorized');
  }
  const now = Date.now();
  ctx.store.cancel(task, now);
  const status = statusAt(task, now);
  const body: Record<string, unknown> = { task_id: task.id, status };
  if (status === 'completed') {
    body.result = task.result;
  }
  if (task.threadId !== undefined) {
    body.conversation_id = task.threadId;
  }
  sendJson(ctx.res, 200, body);
}

// ---- threads ----

function threadJson(ctx: RouteContext, thread: ThreadRecord): Record<string, unknown> {
  ctx.store.settleThread(thread);
  const last = thread.lastTaskId ? ctx.store.tasksById.get(thread.lastTaskId) : undefined;
  const firstPrompt = thread.messages.find((m) => m.role === 'user')?.content;
  const lastAnswer = [...thread.messages].reverse().find((m) => m.role === 'assistant' && m.error === undefined);
  return {
    id: thread.id,
    timestamp: iso(thread.createdAt),
    user_input: thread.title ?? firstPrompt ?? '',
    result: lastAnswer?.content ?? '',
    execution_time: lastAnswer ? Math.round(lastAnswer.elapsedSeconds ?? 0) : 0,
    model: last?.modelId ?? DEFAULT_MODEL_ID,
    agent_count: last?.agentCount ?? DEFAULT_AGENT_COUNT,
    sources: [],
    agentStatuses: [],
    toolEvents: [],
  };
}

function ownThread(ctx: RouteContext, rawId: string): ThreadRecord {
  if (!/^\d+$/.test(rawId) || Number(rawId) < 1) {
    throw validationError([{ location: 'path.threadId', message: 'expected integer >= 1', value: rawId }]);
  }
  const thread = ctx.store.findThread(Number(rawId), ctx.key.userId);
  if (!thread) {
    throw new ApiError(404, `Thread ${rawId} not found`);
  }
  return thread;
}

/** limit/offset query parameters; `clamp` caps an over-large limit instead of refusing it. */
function paging(ctx: RouteContext, clamp: boolean): { limit: number; offset: number } {
  const read = (name: string, fallback: number): number => {
    const raw = ctx.url.searchParams.get(name);
    if (raw === null || raw === '') {
      return fallback;
    }
    if (!/^-?\d+$/.test(raw)) {
      throw validationError([{ location: `query.${name}`, message: 'expected integer', value: raw }]);
    }
    return Number(raw);
  };
  let limit = read('limit', 20);
  const offset = read('offset', 0);
  if (clamp && limit > 100) {
    limit = 100;
  }
  const errors: ErrorDetail[] = [];
  if (limit < 1 || limit > 100) {
    errors.push({ location: 'query.limit', message: 'expected integer between 1 and 100', value: limit });
  }
  if (offset < 0) {
    errors.push({ location: 'query.offset', message: 'expected integer >= 0', value: offset });
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }
  return { limit, offset };
}

function listThreads(ctx: RouteContext): void {
  // Live: limit and offset are ignored; the newest 20 always.
  const { limit, offset } = ctx.store.config.threadPaging ? paging(ctx, true) : { limit: 20, offset: 0 };
  const all = [...ctx.store.threads.values()].filter((t) => t.userId === ctx.key.userId).sort((a, b) => b.id - a.id);
  const page = all.slice(offset, offset + limit);
  sendJson(ctx.res, 200, {
    conversations: page.map((t) => threadJson(ctx, t)),
    total: all.length,
    limit,
    offset,
    has_more: offset + page.length < all.length,
  });
}

function createThread(ctx: RouteContext): void {
  const body = objectBody(ctx, true);
  const errors: ErrorDetail[] = [];
  if (body.title !== undefined && typeof body.title !== 'string') {
    errors.push({ location: 'body.title', message: 'expected string', value: body.title });
  }
  if (ctx.store.config.strictRunRequest) {
    errors.push(...unknownFields(body, ['title']));
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }
  const title = typeof body.title === 'string' && body.title !== '' ? body.title : undefined;
  sendJson(ctx.res, 200, threadJson(ctx, ctx.store.createThread(ctx.key.userId, title)));
}

function getThread(ctx: RouteContext, id: string): void {
  sendJson(ctx.res, 200, threadJson(ctx, ownThread(ctx, id)));
}

function getMessages(ctx: RouteContext, id: string): void {
  const thread = ctx.store.settleThread(ownThread(ctx, id));
  const messages = thread.messages.map((m) => {
    const json: Record<string, unknown> = {
      id: m.id,
      message_id: m.messageId,
      thread_id: m.threadId,
      role: m.role,
      content: m.content,
      is_agent_status: false,
      rating: 0,
      created_at: iso(m.createdAt),
    };
    if (m.elapsedSeconds !== undefined) {
      json.elapsed_seconds = m.elapsedSeconds;
    }
    if (m.error !== undefined) {
      json.error = m.error;
    }
    return json;
  });
  sendJson(ctx.res, 200, { messages, truncated: false });
}

function runInThread(ctx: RouteContext, id: string): void {
  const thread = ownThread(ctx, id);
  const body = objectBody(ctx);
  const errors: ErrorDetail[] = [];
  checkPrompt(body.prompt, errors);
  checkModel(body.modelId, 'body.modelId', errors);
  checkBoolean(body, 'stream', errors);
  if (ctx.store.config.strictRunRequest) {
    errors.push(...unknownFields(body, THREAD_RUN_FIELDS));
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }
  const prompt = body.prompt as string;
  const task = ctx.store.createTask({
    userId: ctx.key.userId,
    apiKey: ctx.key.key,
    source: 'threadRun',
    threadId: thread.id,
    prompt,
    modelId: (body.modelId as string | undefined) ?? DEFAULT_MODEL_ID,
    options: {},
    body,
    attachmentIds: [],
  });
  ctx.store.addMessage(thread, { role: 'user', content: prompt, createdAt: task.createdAt });
  thread.pending.push(task.id);
  thread.lastTaskId = task.id;
  sendJson(ctx.res, 200, { taskId: task.id, status: 'processing', threadId: String(thread.id) });
}

// ---- files ----

function fileJson(f: StoredFile): Record<string, unknown> {
  return {
    id: f.id,
    object: 'file',
    bytes: f.bytes.length,
    created_at: Math.floor(f.createdAt / 1000),
    filename: f.filename,
    purpose: f.purpose,
    mime_type: f.mime_type,
  };
}

function ownFile(ctx: RouteContext, id: string): StoredFile {
  const file = ctx.store.findFile(id, ctx.key.userId);
  if (!file) {
    throw new ApiError(404, `File ${id} not found`);
  }
  return file;
}

function listFiles(ctx: RouteContext): void {
  const { limit, offset } = paging(ctx, false);
  const all = [...ctx.store.filesById.values()]
    .filter((f) => f.userId === ctx.key.userId)
    .sort((a, b) => b.createdAt - a.createdAt);
  sendJson(ctx.res, 200, { files: all.slice(offset, offset + limit).map(fileJson), total: all.length, limit, offset });
}

async function readUpload(ctx: RouteContext, maxBytes = MAX_UPLOAD_BYTES, tooLarge?: () => ApiError) {
  if (!isMultipart(ctx.req)) {
    ctx.req.resume();
    throw new ApiError(415, 'Content-Type must be multipart/form-data');
  }
  const form = await parseMultipart(ctx.req, 'file', maxBytes, tooLarge);
  if (!form.file) {
    throw validationError([{ location: 'body.file', message: 'expected required property file to be present', value: null }]);
  }
  return { ...form, file: form.file };
}

/** Live: the type comes from the bytes; empty is 400, anything outside the allowed list 415. */
function checkedUploadType(ctx: RouteContext, bytes: Buffer, declared: string): string {
  if (!ctx.store.config.sniffUploads) {
    return declared;
  }
  if (bytes.length === 0) {
    throw new ApiError(400, 'Uploaded file is empty');
  }
  const sniffed = sniffMimeType(bytes);
  if (!ALLOWED_UPLOAD_TYPES.includes(sniffed)) {
    throw new ApiError(415, `Unsupported file type: ${sniffed}`);
  }
  return sniffed;
}

const fileTooLarge = (): ApiError => new ApiError(400, `File exceeds maximum size of ${MAX_UPLOAD_BYTES} bytes`);

async function uploadFile(ctx: RouteContext): Promise<void> {
  const form = await readUpload(ctx, MAX_UPLOAD_BYTES, ctx.store.config.sniffUploads ? fileTooLarge : undefined);
  const mimeType = checkedUploadType(ctx, form.file.bytes, form.file.mimeType);
  const file = ctx.store.addFile({
    userId: ctx.key.userId,
    filename: form.file.filename,
    bytes: form.file.bytes,
    purpose: form.fields.purpose || 'assistants',
    mime_type: mimeType,
    createdAt: Date.now(),
  });
  sendJson(ctx.res, 200, fileJson(file));
}

function deleteFile(ctx: RouteContext, id: string): void {
  ctx.store.filesById.delete(ownFile(ctx, id).id);
  sendJson(ctx.res, 200, { id, deleted: true });
}

function downloadFile(ctx: RouteContext, id: string): void {
  const file = ownFile(ctx, id);
  const limit = ctx.store.config.downloadLimitBytes;
  if (limit > 0 && file.bytes.length > limit) {
    throw new ApiError(413, 'File is too large for inline download');
  }
  ctx.res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': file.bytes.length,
    'content-disposition': ctx.store.config.utf8DownloadNames
      ? contentDisposition(file.filename)
      : asciiContentDisposition(file.filename),
    'x-content-type-options': 'nosniff',
  });
  ctx.res.end(file.bytes);
}

function requireStrings(body: Record<string, unknown>, required: string[], optional: string[]): void {
  const errors: ErrorDetail[] = [];
  for (const field of required) {
    if (typeof body[field] !== 'string' || body[field] === '') {
      errors.push({ location: `body.${field}`, message: 'expected non-empty string', value: body[field] ?? null });
    }
  }
  for (const field of optional) {
    if (body[field] !== undefined && typeof body[field] !== 'string') {
      errors.push({ location: `body.${field}`, message: 'expected string', value: body[field] });
    }
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }
}

function createUploadToken(ctx: RouteContext): void {
  const body = objectBody(ctx);
  requireStrings(body, ['filename'], ['mime_type', 'purpose']);
  // Live: the declared type (default application/octet-stream) must be an allowed upload type.
  const declared = ((body.mime_type as string | undefined) ?? '').trim() || 'application/octet-stream';
  if (ctx.store.config.sniffUploads && !ALLOWED_UPLOAD_TYPES.includes(declared)) {
    throw new ApiError(415, `Unsupported file type: ${declared}`);
  }
  const token = ctx.store.issueUploadToken({
    userId: ctx.key.userId,
    filename: body.filename as string,
    mimeType: body.mime_type as string | undefined,
    purpose: body.purpose as string | undefined,
  });
  sendJson(ctx.res, 200, {
    file_id: token.fileId,
    upload_url: `${ctx.blobOrigin}${BLOB_PATH_PREFIX}${token.pathname}`,
    upload_token: token.token,
    pathname: token.pathname,
    expires_at: Math.floor(token.expiresAt / 1000),
    max_bytes: MAX_UPLOAD_BYTES,
  });
}

/**
 * The blob store's PUT of the direct flow: no API key, the upload token as `Authorization: Bearer`. Answers like
 * the blob store `{url, downloadUrl, pathname, contentType, contentDisposition}`.
 */
export async function putBlob(req: IncomingMessage, res: ServerResponse, store: Store, pathname: string, blobOrigin: string): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_UPLOAD_BYTES * 2) {
      chunks.push(chunk as Buffer);
    }
  }
  const auth = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  const token = store.uploadTokenFor(pathname);
  if (!token || auth === undefined || auth !== token.token || Date.now() > token.expiresAt) {
    sendJson(res, 403, { error: { code: 'forbidden', message: 'Access denied, please provide a valid token for this resource.' } });
    return;
  }
  if (size > MAX_UPLOAD_BYTES * 2) {
    sendJson(res, 400, { error: { code: 'file_too_large', message: 'File is too large.' } });
    return;
  }
  store.blobs.set(pathname, Buffer.concat(chunks));
  const filename = pathname.split('/').pop() ?? 'file';
  sendJson(res, 200, {
    url: `${blobOrigin}${BLOB_PATH_PREFIX}${pathname}`,
    downloadUrl: `${blobOrigin}${BLOB_PATH_PREFIX}${pathname}?download=1`,
    pathname,
    contentType: req.headers['content-type'] ?? 'application/octet-stream',
    contentDisposition: `attachment; filename="${filename}"`,
  });
}

/** Creates the file from the bytes PUT to the blob store (live); kinder `sniffUploads: false` also accepts none. */
function completeUpload(ctx: RouteContext): void {
  const body = objectBody(ctx);
  requireStrings(body, ['file_id', 'pathname', 'filename'], ['mime_type', 'purpose']);
  const fileId = (body.file_id as string).trim();
  const pathname = (body.pathname as string).trim().replace(/^\//, '');
  if (!pathname.startsWith(`developer-files/u${ctx.key.userId}/${fileId}/`)) {
    throw new ApiError(403, 'Invalid upload pathname');
  }
  if (ctx.store.findFile(fileId, ctx.key.userId)) {
    throw new ApiError(409, 'File already completed');
  }
  const token = ctx.store.takeUploadToken(fileId, ctx.key.userId, pathname);
  if (!token) {
    throw new ApiError(403, 'Invalid or expired upload reservation');
  }
  const live = ctx.store.config.sniffUploads;
  const bytes = ctx.store.blobs.get(pathname);
  ctx.store.blobs.delete(pathname);
  if (bytes === undefined && live) {
    throw new ApiError(404, 'Uploaded blob not found');
  }
  const content = bytes ?? Buffer.alloc(0);
  if (live && content.length > MAX_UPLOAD_BYTES) {
    throw fileTooLarge();
  }
  const filename = body.filename as string;
  const declared = (body.mime_type as string | undefined) ?? token.mimeType ?? resolveMimeType(undefined, filename);
  const file = ctx.store.addFile({
    id: token.fileId,
    userId: ctx.key.userId,
    filename,
    bytes: content,
    purpose: ((body.purpose as string | undefined) ?? '').trim() || token.purpose || 'assistants',
    mime_type: checkedUploadType(ctx, content, declared),
    createdAt: Date.now(),
  });
  sendJson(ctx.res, 200, fileJson(file));
}

function storageSummary(ctx: RouteContext): void {
  const userId = ctx.key.userId;
  const files = [...ctx.store.filesById.values()].filter((f) => f.userId === userId);
  const attachments = [...ctx.store.attachmentsById.values()].filter((a) => a.userId === userId);
  const fileBytes = files.reduce((n, f) => n + f.bytes.length, 0);
  const attachmentBytes = attachments.reduce((n, a) => n + a.size, 0);
  sendJson(ctx.res, 200, {
    usedBytes: fileBytes + attachmentBytes,
    quotaBytes: STORAGE_QUOTA_BYTES,
    categories: [
      { id: 'files', label: 'Files', bytes: fileBytes, count: files.length },
      { id: 'attachments', label: 'Attachments', bytes: attachmentBytes, count: attachments.length },
    ],
  });
}

async function uploadAttachment(ctx: RouteContext): Promise<void> {
  // The engine takes 20 MB; the type is sniffed (then refined by the name) but not refused.
  const live = ctx.store.config.sniffUploads;
  const form = await readUpload(ctx, live ? MAX_ATTACHMENT_BYTES : MAX_UPLOAD_BYTES, () =>
    live ? new ApiError(400, 'File too large') : new ApiError(413, 'File exceeds the 10 MB limit'),
  );
  let mimeType = form.file.mimeType;
  if (live) {
    const sniffed = sniffMimeType(form.file.bytes);
    mimeType = sniffed === 'text/plain' || sniffed === 'application/octet-stream' ? resolveMimeType(sniffed, form.file.filename) : sniffed;
  }
  const attachment = ctx.store.addAttachment({
    userId: ctx.key.userId,
    filename: form.file.filename,
    size: form.file.bytes.length,
    mime_type: mimeType,
    bytes: form.file.bytes,
    createdAt: Date.now(),
  });
  sendJson(ctx.res, 200, { id: attachment.id, mime_type: attachment.mime_type, size: attachment.size });
}

// ---- keys ----

function keyJson(k: KeyRecord): Record<string, unknown> {
  return {
    keyId: k.keyId,
    displayKey: displayKey(k.key),
    tier: k.tier,
    rateLimit: TIERS[k.tier].hourly,
    monthlyQuota: TIERS[k.tier].monthly,
    createdAt: iso(k.createdAt),
    lastUsedAt: k.lastUsedAt === undefined ? null : iso(k.lastUsedAt),
    revokedAt: k.revokedAt === undefined ? null : iso(k.revokedAt),
  };
}

/** /usage and /keys need a web-console session: the live service refuses an API key there. */
function consoleOnly(ctx: RouteContext): Store {
  if (!ctx.store.config.usageAcceptsKey) {
    ctx.req.resume();
    throw new ApiError(401, 'Unauthorized', undefined, {}, 'auth');
  }
  return ctx.store;
}

function listKeys(ctx: RouteContext): void {
  consoleOnly(ctx);
  sendJson(ctx.res, 200, { keys: ctx.store.userKeys(ctx.key.userId).map(keyJson) });
}

function createKey(ctx: RouteContext): void {
  consoleOnly(ctx);
  const body = objectBody(ctx, true);
  const tier = body.tier ?? 'PRO';
  if (typeof tier !== 'string' || !(tier in TIERS)) {
    throw validationError([{ location: 'body.tier', message: 'expected one of STARTER, PRO, ENTERPRISE', value: tier }]);
  }
  const key = `tfai_${randomBytes(16).toString('hex')}`;
  const record = ctx.store.addKey(key, ctx.key.userId, tier as Tier, Date.now(), false);
  sendJson(ctx.res, 200, {
    message: 'API key created successfully',
    apiKey: key,
    keyId: record.keyId,
    warning: 'Save this key now. It will not be shown again.',
  });
}

function revokeKey(ctx: RouteContext): void {
  consoleOnly(ctx);
  const body = objectBody(ctx);
  if (!Number.isInteger(body.keyId)) {
    throw validationError([{ location: 'body.keyId', message: 'expected integer', value: body.keyId ?? null }]);
  }
  const record = ctx.store.userKeys(ctx.key.userId).find((k) => k.keyId === body.keyId && k.revokedAt === undefined);
  if (!record) {
    throw new ApiError(404, `API key ${String(body.keyId)} not found`);
  }
  record.revokedAt = Date.now();
  sendJson(ctx.res, 200, { message: 'API key revoked successfully' });
}
