// The Developer API (current form and its earlier form) and the dispatcher for every route; the engine's routes
// are in engine.ts, the blob store in blob.ts.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { engineRoutes } from './engine';
import {
  ALLOWED_UPLOAD_TYPES,
  ApiError,
  asciiContentDisposition,
  contentDisposition,
  resolveMimeType,
  sendJson,
  validationError,
  type ErrorDetail,
} from './http';
import { MAX_UPLOAD_BYTES } from './multipart';
import { sniffMimeType } from './sniff';
import {
  DEFAULT_AGENT_COUNT,
  DEFAULT_MODEL_ID,
  MAX_INLINE_STATE_BYTES,
  TIERS,
  displayKey,
  iso,
  statusAt,
  taskStateJson,
  type KeyRecord,
  type MessageRecord,
  type Store,
  type ThreadRecord,
  type Tier,
} from './state';
import {
  checkAttachmentIds,
  checkAttachmentTypes,
  checkBoolean,
  checkCapacity,
  checkEntitlement,
  checkModel,
  checkPlanLimit,
  checkPrompt,
  escapeRe,
  objectBody,
  re,
  readUpload,
  resolveAttachments,
  SEG,
  unknownFields,
  type Route,
  type RouteContext,
} from './submit';
import type { StoredFile } from './types';
import { CURRENT_BASE_PATH, LEGACY_BASE_PATH } from './types';

export type { RouteContext } from './submit';
export { BLOB_PATH_PREFIX, putBlob } from './blob';

const MAX_PROMPT_CHARS = 10_000;
const RUN_FIELDS = ['prompt', 'modelId', 'stream', 'options', 'attachment_ids'];
const THREAD_RUN_FIELDS = ['prompt', 'modelId', 'stream'];

const V1 = escapeRe(CURRENT_BASE_PATH);
const LEGACY = escapeRe(LEGACY_BASE_PATH);

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

  ...engineRoutes,
];

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
  checkAttachmentIds(body.attachment_ids, errors);
  if (!legacy && ctx.store.config.strictRunRequest) {
    errors.push(...unknownFields(body, RUN_FIELDS));
  }
  if (errors.length > 0) {
    throw validationError(errors);
  }

  // The earlier form selects the model inside options; a top-level modelId is ignored there.
  const modelId = ((legacy ? options.modelId : body.modelId) as string | undefined) ?? DEFAULT_MODEL_ID;
  checkPlanLimit(ctx);
  const attachmentIds = resolveAttachments(ctx, (body.attachment_ids ?? []) as string[]);
  checkEntitlement(ctx, modelId);
  checkAttachmentTypes(ctx, attachmentIds);
  checkCapacity(ctx);
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
    throw new ApiError(404, 'Task not found');
  }
  return task;
}

function sendRawJson(res: ServerResponse, json: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/** Over 3 MiB the state comes without its result, agent statuses and tool events; beyond even that, 413. */
function getStatus(ctx: RouteContext, id: string, legacy: boolean): void {
  const json = taskStateJson(ownTask(ctx, id), ctx.store.now(), legacy);
  if (json === undefined) {
    throw new ApiError(413, 'Task status is too large for inline retrieval');
  }
  sendRawJson(ctx.res, json);
}

/**
 * `{taskId, status, result}` once completed, 413 "Task result is too large for inline retrieval" when that is
 * over `resultsLimitBytes` (developer.go GetTaskResults); `{status}` alone for every other status.
 */
function getResults(ctx: RouteContext, id: string, legacy: boolean): void {
  const task = ownTask(ctx, id);
  const status = statusAt(task, ctx.store.now());
  if (status === 'completed') {
    const body = { taskId: task.id, status, result: task.result };
    const limit = ctx.store.config.resultsLimitBytes;
    if (task.resultTooLargeForResults || (limit > 0 && Buffer.byteLength(JSON.stringify(body)) > limit)) {
      throw new ApiError(413, 'Task result is too large for inline retrieval');
    }
    sendJson(ctx.res, 200, body);
    return;
  }
  if (!legacy) {
    sendJson(ctx.res, 200, { status });
    return;
  }
  // The earlier form (emulator only) knows processing|completed|failed and gives a failure's reason.
  if (status === 'processing') {
    sendJson(ctx.res, 200, { status });
  } else if (status === 'failed') {
    sendJson(ctx.res, 200, { taskId: task.id, status, error: task.error });
  } else {
    const error = status === 'canceled' ? 'Task was canceled' : 'Task is awaiting approval in the web console';
    sendJson(ctx.res, 200, { taskId: task.id, status: 'failed', error });
  }
}

// ---- threads ----

function lastAnswer(thread: ThreadRecord): MessageRecord | undefined {
  return [...thread.messages].reverse().find((m) => m.role === 'assistant' && m.error === undefined);
}

function threadJson(ctx: RouteContext, thread: ThreadRecord): Record<string, unknown> {
  const last = thread.lastTaskId ? ctx.store.tasksById.get(thread.lastTaskId) : undefined;
  const answer = lastAnswer(thread);
  return {
    id: thread.id,
    timestamp: iso(thread.createdAt),
    user_input: thread.userInput,
    result: answer?.content ?? '',
    execution_time: answer ? Math.round(answer.elapsedSeconds ?? 0) : 0,
    model: last?.modelId ?? DEFAULT_MODEL_ID,
    agent_count: last?.agentCount ?? DEFAULT_AGENT_COUNT,
    sources: answer?.sources ?? [],
    agentStatuses: answer?.agentStatuses ?? [],
    toolEvents: answer?.toolEvents ?? [],
  };
}

function ownThread(ctx: RouteContext, rawId: string): ThreadRecord {
  if (!/^\d+$/.test(rawId) || Number(rawId) < 1) {
    throw validationError([{ location: 'path.threadId', message: 'expected integer >= 1', value: rawId }]);
  }
  const thread = ctx.store.findThread(Number(rawId), ctx.key.userId);
  if (!thread) {
    throw new ApiError(404, 'Thread not found');
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
  const title = typeof body.title === 'string' ? body.title : '';
  sendJson(ctx.res, 200, threadJson(ctx, ctx.store.createThread(ctx.key.userId, title)));
}

function getThread(ctx: RouteContext, id: string): void {
  sendJson(ctx.res, 200, threadJson(ctx, ownThread(ctx, id)));
}

function messageJson(m: MessageRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: m.id,
    message_id: m.messageId,
    thread_id: m.threadId,
    role: m.role,
    content: m.content,
    is_agent_status: false,
  };
  if (m.elapsedSeconds !== undefined) {
    json.elapsed_seconds = m.elapsedSeconds;
  }
  json.created_at = iso(m.createdAt);
  if (m.error !== undefined) {
    json.error = m.error;
  }
  if (m.sources && m.sources.length > 0) {
    json.sources = m.sources;
  }
  if (m.toolEvents && m.toolEvents.length > 0) {
    json.tool_events = m.toolEvents;
  }
  if (m.agentStatuses && m.agentStatuses.length > 0) {
    json.agent_statuses = m.agentStatuses;
  }
  json.updated_at = iso(m.createdAt);
  json.rating = 0;
  return json;
}

/**
 * The transcript, oldest first. Over 3 MiB the newest messages are left out (and `truncated: true`, which is
 * otherwise absent) until it fits; the service's 413 for a transcript that cannot fit at all is unreachable,
 * since an empty list always fits.
 */
function getMessages(ctx: RouteContext, id: string): void {
  const thread = ownThread(ctx, id);
  const messages = thread.messages.map(messageJson);
  const sizes = messages.map((m) => Buffer.byteLength(JSON.stringify(m)));
  const envelope = Buffer.byteLength(JSON.stringify({ messages: [], truncated: true }));
  let total = envelope + sizes.reduce((n, s) => n + s, 0) + Math.max(0, sizes.length - 1);
  let kept = messages.length;
  while (kept > 0 && total > MAX_INLINE_STATE_BYTES) {
    kept--;
    total -= sizes[kept] + (kept > 0 ? 1 : 0);
  }
  if (total > MAX_INLINE_STATE_BYTES) {
    throw new ApiError(413, 'Thread messages are too large for inline retrieval');
  }
  sendJson(ctx.res, 200, kept < messages.length ? { messages: messages.slice(0, kept), truncated: true } : { messages });
}

function runInThread(ctx: RouteContext, id: string): void {
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
  checkPlanLimit(ctx);
  const thread = ownThread(ctx, id);
  const modelId = (body.modelId as string | undefined) ?? DEFAULT_MODEL_ID;
  checkEntitlement(ctx, modelId);
  checkCapacity(ctx);
  const task = ctx.store.createTask({
    userId: ctx.key.userId,
    apiKey: ctx.key.key,
    source: 'threadRun',
    threadId: thread.id,
    prompt: body.prompt as string,
    modelId,
    options: {},
    body,
    attachmentIds: [],
  });
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
    throw new ApiError(404, 'File not found');
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
const quotaExceeded = (): ApiError => new ApiError(403, 'Storage quota exceeded');

async function uploadFile(ctx: RouteContext): Promise<void> {
  const form = await readUpload(ctx, MAX_UPLOAD_BYTES, ctx.store.config.sniffUploads ? fileTooLarge : undefined);
  const mimeType = checkedUploadType(ctx, form.file.bytes, form.file.mimeType);
  if (!ctx.store.reserveStorage(ctx.key.userId, form.file.bytes.length)) {
    throw quotaExceeded();
  }
  const file = ctx.store.addFile({
    userId: ctx.key.userId,
    filename: form.file.filename,
    bytes: form.file.bytes,
    purpose: form.fields.purpose || 'assistants',
    mime_type: mimeType,
    createdAt: ctx.store.now(),
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

/** Reserves 10 MB of the user's storage for 15 minutes (403 "Storage quota exceeded" when it does not fit). */
function createUploadToken(ctx: RouteContext): void {
  const body = objectBody(ctx);
  requireStrings(body, ['filename'], ['mime_type', 'purpose']);
  const filename = (body.filename as string).trim();
  if (filename === '') {
    throw new ApiError(400, 'filename is required');
  }
  // Live: the declared type (default application/octet-stream) must be an allowed upload type.
  const declared = ((body.mime_type as string | undefined) ?? '').trim() || 'application/octet-stream';
  if (ctx.store.config.sniffUploads && !ALLOWED_UPLOAD_TYPES.includes(declared)) {
    throw new ApiError(415, `Unsupported file type: ${declared}`);
  }
  ctx.store.releaseExpiredReservations(ctx.key.userId);
  const token = ctx.store.issueUploadToken({
    userId: ctx.key.userId,
    filename,
    mimeType: body.mime_type as string | undefined,
    purpose: body.purpose as string | undefined,
  });
  if (!token) {
    throw quotaExceeded();
  }
  sendJson(ctx.res, 200, {
    file_id: token.fileId,
    upload_url: `${ctx.blobOrigin}/__blob/${token.pathname}`,
    upload_token: token.token,
    pathname: token.pathname,
    expires_at: Math.floor(token.expiresAt / 1000),
    max_bytes: MAX_UPLOAD_BYTES,
  });
}

/**
 * Creates the file from the blob at exactly `pathname` (live): 404 "Uploaded blob not found" when the store
 * holds nothing there (no PUT, or the store renamed it). The kinder `sniffUploads: false` also accepts none.
 */
function completeUpload(ctx: RouteContext): void {
  const body = objectBody(ctx);
  requireStrings(body, ['file_id', 'pathname', 'filename'], ['mime_type', 'purpose']);
  const fileId = (body.file_id as string).trim();
  const pathname = (body.pathname as string).trim().replace(/^https?:\/\/[^/]+/, '').replace(/^\/(__blob\/)?/, '');
  if (!pathname.startsWith(`developer-files/u${ctx.key.userId}/${fileId}/`)) {
    throw new ApiError(403, 'Invalid upload pathname');
  }
  if (ctx.store.findFile(fileId, ctx.key.userId)) {
    throw new ApiError(409, 'File already completed');
  }
  const token = ctx.store.takeUploadToken(fileId, ctx.key.userId, pathname);
  if (!token) {
    ctx.store.releaseExpiredReservations(ctx.key.userId);
    throw new ApiError(403, 'Invalid or expired upload reservation');
  }
  const live = ctx.store.config.sniffUploads;
  const blob = ctx.store.blobs.get(pathname);
  ctx.store.blobs.delete(pathname);
  if (blob === undefined && live) {
    throw new ApiError(404, 'Uploaded blob not found');
  }
  const content = blob?.bytes ?? Buffer.alloc(0);
  if (live && content.length > MAX_UPLOAD_BYTES) {
    throw fileTooLarge();
  }
  const filename = (body.filename as string).trim();
  const declared = (body.mime_type as string | undefined) ?? token.mimeType ?? resolveMimeType(undefined, filename);
  const file = ctx.store.addFile({
    id: token.fileId,
    userId: ctx.key.userId,
    filename,
    bytes: content,
    purpose: ((body.purpose as string | undefined) ?? '').trim() || 'assistants',
    mime_type: checkedUploadType(ctx, content, declared),
    createdAt: ctx.store.now(),
  });
  sendJson(ctx.res, 200, fileJson(file));
}

/** Used and quota bytes; files by category (images, files the agents generated, the rest) and pending uploads. */
function storageSummary(ctx: RouteContext): void {
  const userId = ctx.key.userId;
  const files = [...ctx.store.filesById.values()].filter((f) => f.userId === userId);
  const category = (f: StoredFile): string => (f.taskId !== undefined ? 'generated_artifacts' : f.mime_type.startsWith('image/') ? 'images' : 'files');
  const categories: Record<string, unknown>[] = [
    { id: 'files', label: 'Files' },
    { id: 'images', label: 'Images' },
    { id: 'generated_artifacts', label: 'Generated artifacts' },
  ].map((c) => {
    const of = files.filter((f) => category(f) === c.id);
    return { ...c, bytes: of.reduce((n, f) => n + f.bytes.length, 0), count: of.length };
  });
  const pending = ctx.store.usedBytes(userId) - ctx.store.fileBytes(userId);
  if (pending > 0) {
    categories.push({ id: 'pending_uploads', label: 'Pending uploads', bytes: pending, count: 0 });
  }
  sendJson(ctx.res, 200, { usedBytes: ctx.store.usedBytes(userId), quotaBytes: ctx.store.quotaBytes(userId), categories });
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
  const record = ctx.store.addKey(key, ctx.key.userId, tier as Tier, ctx.store.now(), false);
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
  record.revokedAt = ctx.store.now();
  sendJson(ctx.res, 200, { message: 'API key revoked successfully' });
}

