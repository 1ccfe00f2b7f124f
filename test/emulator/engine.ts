// The engine's routes (they take the key too; a wrong key gets 401 "Unauthorized"): its own task submission
// POST /api/v1/run (enforced budget, role models, reasoning effort, idempotency key), the stream, cancel, the
// execution trace, attachment uploads; and the platform's model list.
import { ApiError, sendJson, validationError, type ErrorDetail } from './http';
import { MAX_UPLOAD_BYTES } from './multipart';
import { attachmentMimeType, attachmentTypeRule, MAX_VIDEO_ATTACHMENT_BYTES } from './sniff';
import { streamError, streamTask } from './sse';
import {
  DEFAULT_MODEL_ID,
  hasTrace,
  MAX_INLINE_STATE_BYTES,
  MODELS,
  reasoningLevels,
  statusAt,
  traceJson,
  type TaskRecord,
} from './state';
import {
  checkAttachmentIds,
  checkAttachmentTypes,
  checkCapacity,
  checkEntitlement,
  checkModel,
  checkPlanLimit,
  checkPrompt,
  objectBody,
  re,
  readUpload,
  resolveAttachments,
  SEG,
  unknownFields,
  type Route,
  type RouteContext,
} from './submit';

const ENGINE_RUN_FIELDS = ['prompt', 'demo', 'conversation_id', 'projectId', 'modelId', 'reasoningEffort', 'attachment_ids', 'budget', 'role_models', 'options', 'private_chat'];

export const engineRoutes: Route[] = [
  { method: 'GET', pattern: re('/api/v1/models'), handler: (c) => sendJson(c.res, 200, MODELS) },
  { method: 'POST', pattern: re('/api/v1/run'), handler: engineRun },
  { method: 'POST', pattern: re('/api/v1/attachments/upload'), handler: uploadAttachment },
  { method: 'GET', pattern: re(`/api/v1/stream/${SEG}`), handler: (c, [id]) => openStream(c, id) },
  { method: 'POST', pattern: re(`/api/v1/tasks/${SEG}/cancel`), handler: (c, [id]) => cancelTask(c, id) },
  { method: 'GET', pattern: re(`/api/v1/tasks/${SEG}/trace`), handler: (c, [id]) => getTrace(c, id) },
];

/** The engine's RunResponse: `{task_id, status}`, plus result, conversation and trace once completed. */
function runResponse(task: TaskRecord | undefined, taskId: string, status: string): Record<string, unknown> {
  const body: Record<string, unknown> = { task_id: taskId, status };
  if (task && status === 'completed') {
    if (task.result.trim() !== '') {
      body.result = task.result;
    }
    if (task.conversationId !== undefined) {
      body.conversation_id = task.conversationId;
    }
    body.trace_id = `trace_${task.id}`;
  }
  return body;
}

function stringMap(value: unknown, location: string, errors: ErrorDetail[]): Record<string, string> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    errors.push({ location, message: 'expected object of strings', value });
    return undefined;
  }
  return value as Record<string, string>;
}

/**
 * POST {engine}/api/v1/run: the plan limit, then the reasoning effort (checked against the model's levels, 400),
 * the attachments, the models of the plan (also per role), the attachment types; a repeated
 * `options.idempotencyKey` answers with the task it made. The budget is enforced while the task runs.
 */
function engineRun(ctx: RouteContext): void {
  const body = objectBody(ctx);
  const errors: ErrorDetail[] = [];
  checkPrompt(body.prompt, errors);
  checkModel(body.modelId, 'body.modelId', errors);
  if (body.reasoningEffort !== undefined && typeof body.reasoningEffort !== 'string') {
    errors.push({ location: 'body.reasoningEffort', message: 'expected string', value: body.reasoningEffort });
  }
  if (body.budget !== undefined && body.budget !== null && (typeof body.budget !== 'number' || !Number.isFinite(body.budget))) {
    errors.push({ location: 'body.budget', message: 'expected number', value: body.budget });
  }
  const roleModels = stringMap(body.role_models, 'body.role_models', errors);
  for (const [role, model] of Object.entries(roleModels ?? {})) {
    checkModel(model, `body.role_models.${role}`, errors);
  }
  let options: Record<string, unknown> = {};
  if (body.options !== undefined && body.options !== null) {
    if (typeof body.options !== 'object' || Array.isArray(body.options)) {
      errors.push({ location: 'body.options', message: 'expected object', value: body.options });
    } else {
      options = body.options as Record<string, unknown>;
    }
  }
  checkAttachmentIds(body.attachment_ids, errors);
  errors.push(...unknownFields(body, ENGINE_RUN_FIELDS));
  if (errors.length > 0) {
    throw validationError(errors);
  }

  checkPlanLimit(ctx);
  const modelId = typeof body.modelId === 'string' ? body.modelId.trim() : '';
  const effort = typeof body.reasoningEffort === 'string' ? body.reasoningEffort.trim().toLowerCase() : '';
  if (effort !== '') {
    if (modelId === '') {
      throw new ApiError(400, 'modelId is required when reasoningEffort is set');
    }
    const levels = reasoningLevels(modelId);
    if (!levels) {
      throw new ApiError(400, `model "${modelId}" does not support configurable reasoning effort`);
    }
    if (!levels.includes(effort)) {
      throw new ApiError(400, `reasoning effort "${effort}" is not supported by model "${modelId}"`);
    }
  }
  const attachmentIds = resolveAttachments(ctx, (body.attachment_ids ?? []) as string[]);
  const model = modelId || DEFAULT_MODEL_ID;
  checkEntitlement(ctx, model, roleModels);
  checkAttachmentTypes(ctx, attachmentIds);

  const idempotencyKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
  if (idempotencyKey !== '') {
    const earlier = ctx.store.idempotentTask(ctx.key.userId, idempotencyKey);
    if (earlier) {
      sendJson(ctx.res, 200, runResponse(earlier.task, earlier.taskId, earlier.status));
      return;
    }
  }
  checkCapacity(ctx);
  const agentCount = Number.isInteger(options.agentCount) && (options.agentCount as number) >= 1 && (options.agentCount as number) <= 8 ? (options.agentCount as number) : undefined;
  const task = ctx.store.createTask({
    userId: ctx.key.userId,
    apiKey: ctx.key.key,
    source: 'engineRun',
    prompt: body.prompt as string,
    modelId: model,
    options: { ...options, ...(agentCount === undefined ? { agentCount: undefined } : {}) },
    body,
    attachmentIds,
    budget: typeof body.budget === 'number' ? body.budget : undefined,
    roleModels,
    reasoningEffort: effort || undefined,
    idempotencyKey: idempotencyKey || undefined,
  });
  sendJson(ctx.res, 200, runResponse(task, task.id, 'processing'));
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
  const task = ctx.store.findTask(id, ctx.key.userId);
  if (!task) {
    throw new ApiError(404, 'Task not found');
  }
  ctx.onStreamOpen();
  streamTask(
    ctx.res,
    task,
    ctx.store,
    { format: config.streamFormat, pulseIntervalMs: config.pulseIntervalMs, keepAliveIntervalMs: config.keepAliveIntervalMs, cutMs: config.streamCutMs },
    ctx.onStreamClose,
  );
}

/**
 * POST /api/v1/tasks/{id}/cancel: a running or paused task becomes canceled; a finished one is answered
 * unchanged. 404 for an unknown task, 403 "Unauthorized" for another user's.
 */
function cancelTask(ctx: RouteContext, id: string): void {
  const task = ctx.store.tasksById.get(id);
  if (!task || ctx.store.findTask(id, task.userId) === undefined) {
    throw new ApiError(404, 'Task not found');
  }
  if (task.userId !== ctx.key.userId) {
    throw new ApiError(403, 'Unauthorized');
  }
  const now = ctx.store.now();
  ctx.store.cancel(task, now);
  sendJson(ctx.res, 200, runResponse(task, task.id, statusAt(task, now)));
}

/**
 * GET /api/v1/tasks/{id}/trace: saved after each agent ends and once more at completion, kept beyond the task's
 * lifetime (route.go registerTraceHandler). 404 "Trace not found" (unknown, no agent ended yet, or not stored),
 * 403 "Unauthorized" for another user's, 413 over 3 MiB.
 */
function getTrace(ctx: RouteContext, id: string): void {
  const task = ctx.store.tasksById.get(id);
  if (!task || !hasTrace(task, ctx.store.now())) {
    throw new ApiError(404, 'Trace not found');
  }
  if (task.userId !== ctx.key.userId) {
    throw new ApiError(403, 'Unauthorized');
  }
  const json = JSON.stringify(traceJson(task, ctx.store.now()));
  if (Buffer.byteLength(json) > MAX_INLINE_STATE_BYTES) {
    throw new ApiError(413, 'Execution trace is too large for inline retrieval');
  }
  ctx.res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  ctx.res.end(json);
}

/**
 * POST /api/v1/attachments/upload (engine; behind the platform's 4,500,000-byte request limit): 30 uploads a
 * minute per user, any type taken and stored with its sniffed type (Office and CSV refined by the name), the
 * per-type size limit (20 MB, video 100 MB); the id lives ten minutes. Kinder `sniffUploads: false`: the
 * declared type, 10 MB.
 */
async function uploadAttachment(ctx: RouteContext): Promise<void> {
  const store = ctx.store;
  const refusal = store.access.upload(ctx.key.userId, store.now(), store.config.attachmentUploadsPerMinute);
  if (refusal) {
    ctx.req.resume();
    throw new ApiError(refusal.status, refusal.detail);
  }
  const live = store.config.sniffUploads;
  const form = await readUpload(ctx, live ? MAX_VIDEO_ATTACHMENT_BYTES : MAX_UPLOAD_BYTES, () =>
    live ? new ApiError(400, 'File too large') : new ApiError(413, 'File exceeds the 10 MB limit'),
  );
  let mimeType = form.file.mimeType;
  if (live) {
    mimeType = attachmentMimeType(form.file.filename, form.file.bytes);
    const { limit } = attachmentTypeRule(mimeType);
    if (form.file.bytes.length > limit) {
      throw new ApiError(400, `File type ${mimeType} exceeds limit of ${Math.floor(limit / (1024 * 1024))} MB`);
    }
  }
  const now = store.now();
  const ttl = store.config.attachmentTtlMs;
  const attachment = store.addAttachment({
    userId: ctx.key.userId,
    filename: form.file.filename,
    size: form.file.bytes.length,
    mime_type: mimeType,
    bytes: form.file.bytes,
    createdAt: now,
    expiresAt: ttl > 0 ? now + ttl : undefined,
  });
  sendJson(ctx.res, 200, { id: attachment.id, mime_type: attachment.mime_type, size: attachment.size });
}
