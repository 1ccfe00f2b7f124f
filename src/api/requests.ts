/**
 * What the client sends, checked before sending: every check here fails with an InvalidRequestError and
 * no request. Strict in what we send: only fields the user set, in the shape of the configured API form.
 */
import type { ApiForm } from './addresses';
import { InvalidRequestError, UnsupportedError } from './errors';
import { MAX_FILE_BYTES } from './uploads';

export const LIMITS = {
  /** Characters (Unicode code points) in a prompt. */
  promptMaxChars: 10_000,
  agentCountMin: 1,
  agentCountMax: 8,
  maxAttachments: 5,
  /** Bytes per stored file (10 MB). An attachment is limited by its request instead: see uploads.ts. */
  maxUploadBytes: MAX_FILE_BYTES,
} as const;

export interface SubmitTaskRequest {
  prompt: string;
  /** Provider-prefixed model id, e.g. `zai/glm-5.2`; omitted = the service's default. */
  modelId?: string;
  agentCount?: number;
  silent?: boolean;
  mock?: boolean;
  /** Task budget in USD (>= 0). */
  budgetUsd?: number;
  /** Ids from the attachments upload, at most 5. */
  attachmentIds?: string[];
  /** Per-role model overrides, sent as `role_models`. */
  roleModels?: Record<string, string>;
  /** The user's key for the third-party AI gateway, sent as `vercelAiKey`. */
  gatewayKey?: string;
}

/**
 * A submission through the engine's own `POST {engine}/api/v1/run`, which enforces `budgetUsd`, honours
 * `roleModels` and `reasoningEffort` (one of the model's `reasoningEffortLevels`; the model must be named), and
 * makes a retried submission safe with `idempotencyKey`. No gateway key: that run has no field for it.
 */
export interface EngineRunRequest extends Omit<SubmitTaskRequest, 'gatewayKey'> {
  reasoningEffort?: string;
  /** The same key on a retry answers with the task the first try made, not a second task. */
  idempotencyKey?: string;
}

export interface ThreadRunRequest {
  prompt: string;
  modelId?: string;
}

/** Length as the service counts it: code points, not UTF-16 units. */
export function promptLength(prompt: string): number {
  let n = 0;
  for (const _ of prompt) n++;
  return n;
}

export function checkPrompt(prompt: unknown): asserts prompt is string {
  if (typeof prompt !== 'string' || prompt.trim().length === 0) {
    throw new InvalidRequestError('The prompt is empty: there is nothing to send.');
  }
  const length = promptLength(prompt);
  if (length > LIMITS.promptMaxChars) {
    throw new InvalidRequestError(
      `The prompt has ${length.toLocaleString('en-US')} characters; the service accepts at most ${LIMITS.promptMaxChars.toLocaleString('en-US')}.`,
    );
  }
}

export function checkAgentCount(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < LIMITS.agentCountMin || value > LIMITS.agentCountMax) {
    throw new InvalidRequestError(`The agent count must be a whole number from ${LIMITS.agentCountMin} to ${LIMITS.agentCountMax} (got ${String(value)}).`);
  }
}

/** Longest id accepted in a path, characters. The service's ids are short (`task_<uuid>`, integers). */
const MAX_ID_LENGTH = 200;

/**
 * Vets an id before it goes into a path. Encoding is not enough: `.` and `..` survive it and move the request
 * (`DELETE /files/..` is `DELETE /`), and a server may decode `%2e` or `%2F` again. Ids come from the service,
 * so an odd one is refused with no request sent.
 */
export function checkId(value: unknown, what: string): string {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof id !== 'string' || id === '') throw new InvalidRequestError(`A ${what} is required.`);
  if (id === '.' || id === '..' || id.length > MAX_ID_LENGTH || /[\/\\%?#\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(id)) {
    const shown = JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
    throw new InvalidRequestError(
      `The service sent an invalid ${what} (${shown}): an id must not be "." or "..", nor hold "/", "\\", "%", "?", "#", spaces or control characters. Nothing was sent.`,
    );
  }
  return id;
}

/** A required piece of text (a file name): not empty. */
export function checkText(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new InvalidRequestError(`A ${what} is required.`);
  return value;
}

function checkRoleModels(roleModels: Record<string, string>): void {
  for (const [role, model] of Object.entries(roleModels)) {
    if (!role.trim() || typeof model !== 'string' || !model.trim()) {
      throw new InvalidRequestError(`Role model overrides must map a role name to a model id (check "${role}").`);
    }
  }
}

/** The checks every run shares (the Developer run and the engine run); returns the attachment ids. */
function checkRun(req: Pick<SubmitTaskRequest, 'prompt' | 'agentCount' | 'budgetUsd' | 'attachmentIds' | 'modelId' | 'roleModels'>): string[] {
  checkPrompt(req.prompt);
  checkAgentCount(req.agentCount);
  if (req.budgetUsd !== undefined && !(typeof req.budgetUsd === 'number' && Number.isFinite(req.budgetUsd) && req.budgetUsd >= 0)) {
    throw new InvalidRequestError(`The budget must be a number of USD, 0 or more (got ${String(req.budgetUsd)}).`);
  }
  const attachments = req.attachmentIds ?? [];
  if (attachments.length > LIMITS.maxAttachments) {
    throw new InvalidRequestError(`At most ${LIMITS.maxAttachments} attachments can be sent with a task (got ${attachments.length}).`);
  }
  if (req.modelId !== undefined && !req.modelId.trim()) throw new InvalidRequestError('The model id is empty.');
  if (req.roleModels) checkRoleModels(req.roleModels);
  return attachments;
}

/** Checks a submission and builds the JSON body for the configured API form. */
export function buildRunBody(form: ApiForm, req: SubmitTaskRequest): Record<string, unknown> {
  const attachments = checkRun(req);

  const options: Record<string, unknown> = {};
  if (req.agentCount !== undefined) options.agentCount = req.agentCount;
  if (req.silent) options.silent = true;
  if (req.mock) options.mock = true;
  if (req.budgetUsd !== undefined) options.budget = req.budgetUsd;

  const body: Record<string, unknown> = { prompt: req.prompt };
  if (form === 'earlier') {
    if (attachments.length) throw new UnsupportedError('Attachments are not available on the earlier API form (…/api/developer).');
    if (req.modelId) options.modelId = req.modelId;
  } else {
    if (req.modelId) body.modelId = req.modelId;
    if (attachments.length) body.attachment_ids = attachments;
  }
  if (Object.keys(options).length) body.options = options;
  if (req.roleModels && Object.keys(req.roleModels).length) body.role_models = req.roleModels;
  if (req.gatewayKey) body.vercelAiKey = req.gatewayKey;
  return body;
}

/** Checks an engine run and builds its body: `budget`, `role_models`, `reasoningEffort` at the top, the rest in `options`. */
export function buildEngineRunBody(req: EngineRunRequest): Record<string, unknown> {
  const attachments = checkRun(req);
  const effort = req.reasoningEffort?.trim().toLowerCase();
  if (effort && !req.modelId?.trim()) throw new InvalidRequestError('A reasoning effort needs a model: the service asks which model it applies to.');

  const body: Record<string, unknown> = { prompt: req.prompt };
  if (req.modelId?.trim()) body.modelId = req.modelId.trim();
  if (effort) body.reasoningEffort = effort;
  if (attachments.length) body.attachment_ids = attachments;
  if (req.budgetUsd !== undefined) body.budget = req.budgetUsd;
  if (req.roleModels && Object.keys(req.roleModels).length) body.role_models = req.roleModels;
  const options: Record<string, unknown> = {};
  if (req.agentCount !== undefined) options.agentCount = req.agentCount;
  if (req.silent) options.silent = true;
  if (req.mock) options.mock = true;
  if (req.idempotencyKey) options.idempotencyKey = req.idempotencyKey;
  if (Object.keys(options).length) body.options = options;
  return body;
}

export function buildThreadRunBody(req: ThreadRunRequest): Record<string, unknown> {
  checkPrompt(req.prompt);
  const body: Record<string, unknown> = { prompt: req.prompt };
  if (req.modelId?.trim()) body.modelId = req.modelId.trim();
  return body;
}
