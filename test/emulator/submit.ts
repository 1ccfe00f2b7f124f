// Body checks and the checks every task submission passes (Developer /run, thread runs, the engine's /run), in
// the service's order: the plan's task limit, the attachments (another user's: 403; expired ones skipped; none
// left: 400), the plan's models (403), the attachment types (422), the execution capacity (429).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAID_PLANS } from './access';
import { ApiError, isMultipart, validationError, type ErrorDetail, type ParsedBody } from './http';
import { MAX_UPLOAD_BYTES, parseMultipart } from './multipart';
import { attachmentTypeRule } from './sniff';
import { MODELS, PAID_MODELS, type KeyRecord, type Store } from './state';

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
export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const re = (source: string): RegExp => new RegExp(`^${source}/?$`);
export const SEG = '([^/]+)';

export const MODEL_IDS = MODELS.options.map((m) => m.id);

/** The JSON object body; `optional` accepts an empty body as {}. */
export function objectBody(ctx: RouteContext, optional = false): Record<string, unknown> {
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

export function unknownFields(body: Record<string, unknown>, allowed: string[]): ErrorDetail[] {
  return Object.keys(body)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ location: `body.${k}`, message: 'unexpected property', value: body[k] }));
}

export function checkPrompt(value: unknown, errors: ErrorDetail[], maxChars?: number): void {
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

export function checkModel(value: unknown, location: string, errors: ErrorDetail[]): void {
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

export function checkBoolean(body: Record<string, unknown>, field: string, errors: ErrorDetail[]): void {
  if (body[field] !== undefined && typeof body[field] !== 'boolean') {
    errors.push({ location: `body.${field}`, message: 'expected boolean', value: body[field] });
  }
}

/** `attachment_ids`: an array of at most five strings. */
export function checkAttachmentIds(value: unknown, errors: ErrorDetail[]): void {
  if (value === undefined || value === null) {
    return;
  }
  if (!Array.isArray(value)) {
    errors.push({ location: 'body.attachment_ids', message: 'expected array', value });
    return;
  }
  if (value.length > 5) {
    errors.push({ location: 'body.attachment_ids', message: 'expected array length <= 5', value });
  }
  value.forEach((id, i) => {
    if (typeof id !== 'string') {
      errors.push({ location: `body.attachment_ids[${i}]`, message: 'expected string', value: id });
    }
  });
}

/** The plan's task limit: 429 "User rate limit exceeded" (a refused submission uses none of it). */
export function checkPlanLimit(ctx: RouteContext): void {
  const refusal = ctx.store.access.submitTask(ctx.key.userId, ctx.store.now());
  if (refusal) {
    throw new ApiError(refusal.status, refusal.detail);
  }
}

/**
 * The attachments a task takes: an id of another user is refused (403); unknown and expired ids (they live ten
 * minutes) are skipped; when ids were given and none is left, 400.
 */
export function resolveAttachments(ctx: RouteContext, ids: string[]): string[] {
  const prefix = `u:${ctx.key.userId}:`;
  if (ids.some((id) => !id.trim().startsWith(prefix))) {
    throw new ApiError(403, 'One or more attachments are not accessible');
  }
  const now = ctx.store.now();
  const resolved = ids.filter((id) => {
    const a = ctx.store.attachmentsById.get(id.trim());
    return a !== undefined && (a.expiresAt === undefined || now < a.expiresAt);
  });
  if (ids.length > 0 && resolved.length === 0) {
    throw new ApiError(400, 'None of the provided attachments could be resolved');
  }
  return resolved.map((id) => id.trim());
}

/** A model outside the plan: 403 `model "…" requires a Pro or Super subscription` (also per role model). */
export function checkEntitlement(ctx: RouteContext, modelId: string, roleModels: Record<string, string> = {}): void {
  if (PAID_PLANS.includes(ctx.store.access.planOf(ctx.key.userId))) {
    return;
  }
  if (PAID_MODELS.includes(modelId)) {
    throw new ApiError(403, `model "${modelId}" requires a Pro or Super subscription`);
  }
  for (const [role, model] of Object.entries(roleModels)) {
    if (PAID_MODELS.includes(model)) {
      throw new ApiError(403, `model "${model}" for role "${role}" requires a Pro or Super subscription`);
    }
  }
}

/** Attachment types a task refuses (422 `unsupported attachment type "…"`); the kinder `sniffUploads: false` skips it. */
export function checkAttachmentTypes(ctx: RouteContext, ids: string[]): void {
  if (!ctx.store.config.sniffUploads) {
    return;
  }
  for (const id of ids) {
    const attachment = ctx.store.attachmentsById.get(id);
    const refusal = attachment && attachmentTypeRule(attachment.mime_type).refusal;
    if (refusal) {
      throw new ApiError(422, refusal);
    }
  }
}

/** The test override's execution capacity: 429 "Task execution capacity reached, retry later". */
export function checkCapacity(ctx: RouteContext): void {
  const refusal = ctx.store.access.capacity(ctx.store.now());
  if (refusal) {
    throw new ApiError(refusal.status, refusal.detail);
  }
}

/** The multipart `file` of an upload (415 for another body type, 422 without a file). */
export async function readUpload(ctx: RouteContext, maxBytes = MAX_UPLOAD_BYTES, tooLarge?: () => ApiError) {
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
