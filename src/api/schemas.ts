/**
 * Shapes of every response, liberal in what they accept: unknown fields are kept (looseObject), status
 * values are any string (an unknown one is "not finished"), and only what the client cannot work without
 * is required. zod/mini: the full zod API is ~35x larger to load for the same checks.
 */
import * as z from 'zod/mini';

const id = z.union([z.string(), z.number()]);
const text = z.string();
const count = z.number();
/** Arrays the server may send as null. */
const list = <T extends z.ZodMiniType>(item: T) => z.nullish(z.array(item));

/**
 * One agent as the service's progress tracker reports it: `agent_id` 0-based, `status` QUEUED, PROCESSING...,
 * COMPLETED, FAILED or TIMEOUT (earlier servers: lower case); `result` (cut to 600 bytes + "..." in stream
 * events), `reasoning`, `model`. The list comes in no particular order (a Go map).
 */
export const AgentStatusSchema = z.looseObject({
  status: z.optional(text),
  agent_id: z.optional(id),
  progress: z.optional(z.nullable(count)),
  result: z.optional(z.nullable(text)),
  reasoning: z.optional(z.nullable(text)),
  model: z.optional(z.nullable(text)),
});

/** An engine run's spending: `initialUsd` and `remainingUsd` only when a budget was set. */
export const BudgetUsageSchema = z.looseObject({
  initialUsd: z.optional(z.nullable(count)),
  consumedUsd: z.optional(z.nullable(count)),
  remainingUsd: z.optional(z.nullable(count)),
});

/**
 * Tool events (`toolEvents` of /status, `tool_usage` of stream events, `tool_events` of thread messages) are
 * not checked here: one odd event must not make the whole state unreadable. `readToolEvents()`
 * (toolEvents.ts) reads them field by field, bounded.
 */
const toolEvents = z.optional(z.unknown());

export const PendingApprovalSchema = z.looseObject({
  approvalId: z.optional(text),
  permission: z.optional(text),
  agentName: z.optional(text),
  patterns: list(text),
});

/**
 * One event of the live task stream (`data:` JSON with a `type`): `start`, `progress`, `pulse`, `complete`
 * (the result in `message`) or `error`. No event carries a status.
 */
export const TaskStreamEventSchema = z.looseObject({
  type: z.string(),
  /** `start`: the model the service runs the task with. */
  model_id: z.optional(z.nullable(z.string())),
  message: z.optional(z.nullable(z.string())),
  error: z.optional(z.nullable(z.string())),
  agent_statuses: list(AgentStatusSchema),
  pending_approval: z.optional(z.nullable(PendingApprovalSchema)),
  /** `progress` and `complete`: the tools the agents used (compacted: no generated files). */
  tool_usage: toolEvents,
  budget_usage: z.optional(z.nullable(BudgetUsageSchema)),
  /** `complete`: the thread the task was saved to (the first `complete` may lack it) and its trace. */
  conversation_id: z.optional(z.nullable(id)),
  trace_id: z.optional(z.nullable(text)),
});

export const TaskSubmissionSchema = z.looseObject({
  taskId: text,
  status: text,
  message: z.optional(text),
  threadId: z.optional(id),
});

export const TaskStateSchema = z.looseObject({
  taskId: z.optional(text),
  status: text,
  result: z.optional(z.nullable(text)),
  error: z.optional(z.nullable(text)),
  prompt: z.optional(text),
  modelId: z.optional(text),
  updatedAt: z.optional(count),
  progressVersion: z.optional(count),
  agentStatuses: list(AgentStatusSchema),
  pendingApproval: z.optional(z.nullable(PendingApprovalSchema)),
  budgetUsage: z.optional(z.nullable(BudgetUsageSchema)),
  toolEvents,
  /** The thread every completed task is saved to, a moment after it completed. */
  conversationId: z.optional(z.nullable(id)),
  traceId: z.optional(z.nullable(text)),
});

/** POST {engine}/api/v1/run answers `{task_id, status}`; a run that completed inline adds its result, thread and trace. */
export const EngineRunSchema = z.looseObject({
  task_id: text,
  status: z.optional(text),
  result: z.optional(z.nullable(text)),
  conversation_id: z.optional(z.nullable(id)),
  trace_id: z.optional(z.nullable(text)),
});

/**
 * GET {engine}/api/v1/tasks/{id}/trace. Its parts are the service's stored JSON, read loosely by
 * `readTrace()` (trace.ts): `steps` are agent results with Go field names (`AgentID`, `AgentName`, `Status`,
 * `Response`, `ExecutionTime`, `ToolEvents`), zero values for agents that have not ended; `report` is often absent.
 */
export const ExecutionTraceSchema = z.looseObject({
  trace: z.nullable(
    z.looseObject({
      id: z.optional(z.nullable(id)),
      task_id: z.optional(z.nullable(text)),
      user_id: z.optional(z.nullable(id)),
      goal: z.optional(z.nullable(text)),
      plan: z.optional(z.unknown()),
      steps: z.optional(z.unknown()),
      self_eval: z.optional(z.unknown()),
      report: z.optional(z.unknown()),
      artifacts: z.optional(z.unknown()),
      created_at: z.optional(z.nullable(text)),
    }),
  ),
});

/** POST {engine}/api/v1/tasks/{id}/cancel answers the task's run state (snake_case); a finished task comes back unchanged. */
export const TaskCancelSchema = z.looseObject({
  task_id: z.optional(text),
  status: z.optional(text),
  error: z.optional(z.nullable(text)),
});

export const TaskResultSchema = z.looseObject({
  taskId: z.optional(text),
  status: z.optional(text),
  result: z.optional(z.nullable(text)),
  error: z.optional(z.nullable(text)),
});

export const ThreadSchema = z.looseObject({
  id,
  timestamp: z.optional(text),
  user_input: z.optional(z.nullable(text)),
  result: z.optional(z.nullable(text)),
  execution_time: z.optional(count),
  model: z.optional(z.nullable(text)),
  agent_count: z.optional(count),
  title: z.optional(z.nullable(text)),
});

export const ThreadListSchema = z.looseObject({
  conversations: list(ThreadSchema),
  total: z.optional(count),
  limit: z.optional(count),
  offset: z.optional(count),
  has_more: z.optional(z.boolean()),
});

export const ThreadMessageSchema = z.looseObject({
  id: z.optional(id),
  message_id: z.optional(text),
  thread_id: z.optional(id),
  role: text,
  content: z.nullish(text),
  is_agent_status: z.optional(z.boolean()),
  created_at: z.optional(z.nullable(text)),
  elapsed_seconds: z.optional(z.nullable(count)),
  error: z.optional(z.nullable(text)),
  /** `[{title, url, snippet}]` and the tools of the answer, read loosely (toolEvents.ts). */
  sources: z.optional(z.unknown()),
  tool_events: toolEvents,
});

export const ThreadMessagesSchema = z.looseObject({
  messages: list(ThreadMessageSchema),
  truncated: z.optional(z.boolean()),
});

export const FileSchema = z.looseObject({
  id: text,
  object: z.optional(text),
  bytes: z.optional(count),
  created_at: z.optional(count),
  filename: text,
  purpose: z.optional(text),
  mime_type: z.optional(z.nullable(text)),
});

export const FileListSchema = z.looseObject({
  files: list(FileSchema),
  total: z.optional(count),
  limit: z.optional(count),
  offset: z.optional(count),
});

export const DeleteFileSchema = z.looseObject({
  id: z.optional(text),
  deleted: z.optional(z.boolean()),
});

export const FileUploadTokenSchema = z.looseObject({
  file_id: text,
  upload_url: text,
  upload_token: text,
  pathname: text,
  expires_at: z.optional(count),
  max_bytes: z.optional(count),
});

/** The blob store's answer to the direct upload's PUT (only its success matters). */
export const BlobPutSchema = z.looseObject({});

export const StorageSchema = z.looseObject({
  usedBytes: count,
  quotaBytes: count,
  categories: list(z.looseObject({ id: text, label: z.optional(text), bytes: count, count: z.optional(count) })),
});

export const ApiKeyUsageSchema = z.looseObject({
  keyId: id,
  displayKey: z.optional(text),
  tier: z.optional(text),
  createdAt: z.optional(z.nullable(text)),
  lastUsedAt: z.optional(z.nullable(text)),
  revokedAt: z.optional(z.nullable(text)),
  hourlyLimit: z.optional(count),
  monthlyQuota: z.optional(count),
  currentHourlyUsage: z.optional(count),
  dailyUsage: z.optional(count),
  weeklyUsage: z.optional(count),
  monthlyUsage: z.optional(count),
});

export const UsageSchema = z.looseObject({
  totalRequests: z.optional(count),
  requestsThisMonth: z.optional(count),
  requestsThisWeek: z.optional(count),
  requestsToday: z.optional(count),
  monthlyQuota: z.optional(count),
  monthlyRemaining: z.optional(count),
  periodStart: z.optional(z.nullable(text)),
  periodEnd: z.optional(z.nullable(text)),
  apiKeys: list(ApiKeyUsageSchema),
  usageHistory: list(z.looseObject({ date: text, count })),
});

export const ModelSchema = z.looseObject({
  id: text,
  label: z.optional(text),
  badge: z.optional(z.nullable(text)),
  description: z.optional(z.nullable(text)),
  usageMultiple: z.optional(z.nullable(count)),
  reasoningEffortLevels: list(text),
  defaultReasoningEffort: z.optional(z.nullable(text)),
});

export const ModelListSchema = z.looseObject({
  enabled: z.optional(z.boolean()),
  options: list(ModelSchema),
  defaultModelId: z.optional(z.nullable(text)),
});

export const AttachmentSchema = z.looseObject({
  id: text,
  mime_type: z.optional(text),
  size: z.optional(count),
});

export type AgentStatus = z.infer<typeof AgentStatusSchema>;
export type TaskSubmission = z.infer<typeof TaskSubmissionSchema>;
export type TaskState = z.infer<typeof TaskStateSchema>;
export type TaskResult = z.infer<typeof TaskResultSchema>;
export type TaskCancel = z.infer<typeof TaskCancelSchema>;
export type EngineRun = z.infer<typeof EngineRunSchema>;
export type ExecutionTrace = z.infer<typeof ExecutionTraceSchema>;
export type BudgetUsage = z.infer<typeof BudgetUsageSchema>;
export type Thread = z.infer<typeof ThreadSchema>;
export type ThreadList = z.infer<typeof ThreadListSchema>;
export type ThreadMessage = z.infer<typeof ThreadMessageSchema>;
export type ThreadMessages = z.infer<typeof ThreadMessagesSchema>;
export type ApiFile = z.infer<typeof FileSchema>;
export type FileList = z.infer<typeof FileListSchema>;
export type DeleteFileResult = z.infer<typeof DeleteFileSchema>;
export type FileUploadToken = z.infer<typeof FileUploadTokenSchema>;
export type Storage = z.infer<typeof StorageSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type Model = z.infer<typeof ModelSchema>;
export type ModelList = z.infer<typeof ModelListSchema>;
export type Attachment = z.infer<typeof AttachmentSchema>;

/** Describes the first mismatch as `field "a.b[2].c": expected …`, for an error the user can act on. */
export function describeMismatch(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  const path = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`))
    .join('');
  return `${path ? `field "${path}"` : 'body'}: ${issue.message}`;
}
