// Public types of the Developer API emulator. Shapes of the wire format live next to the routes that produce them.

export const DEMO_API_KEY = 'tfai_demo_0123456789abcdef';
export const SECOND_API_KEY = 'tfai_other_0123456789abcdef';

export const CURRENT_BASE_PATH = '/api/v1/developer';
export const LEGACY_BASE_PATH = '/api/developer';

export interface EmulatorOptions {
  /** 0 (default) = any free port. */
  port?: number;
  host?: string;
  /** Each key is a different user: keys[0] is userId 1, keys[1] userId 2, ... */
  apiKeys?: string[];
  taskDurationMs?: number;
  /** Steps of the evenly rising progress (`progressModel: 'linear'`) and of the live model's updates. */
  progressSteps?: number;
  streamEnabled?: boolean;
  /** Refuse unknown top-level run fields such as `role_models` or `vercelAiKey` with 422. Live default: true. */
  strictRunRequest?: boolean;
  quiet?: boolean;

  // ---- live behaviour; every kinder alternative is an explicit switch ----
  /** 'typed' (live default): start/progress/pulse/complete/error events. 'taskState': one TaskState per event. */
  streamFormat?: StreamFormat;
  /** Typed streams send `{type:'pulse'}` after this long without a change. Live default 25 000. */
  pulseIntervalMs?: number;
  /** 'live' (default): 0.05 queued, 0.5 + 0.01 per update (max 0.95) working, 1 done. 'linear': rises evenly. */
  progressModel?: ProgressModel;
  /** Approve a paused task automatically this long after it starts waiting (no web console in a demo). */
  autoApproveMs?: number;
  /** How long an approved task keeps processing before it completes. Default: half its duration. */
  approvalResumeMs?: number;
  /** Kinder switch: 429 answers carry Retry-After and X-RateLimit-* (live default false). */
  rateLimitHeaders?: boolean;
  /** Kinder switch: /usage and /keys accept the API key (live default false: 401). */
  usageAcceptsKey?: boolean;
  /** Kinder switch: GET /threads honours limit/offset (live default false: always the newest 20). */
  threadPaging?: boolean;
  /** Platform request body limit; 0 turns it off (kinder). Live default 4 500 000. */
  bodyLimitBytes?: number;
  /** GET /files/{id}/content answers 413 above this; 0 turns it off (kinder). Live default 4 MiB. */
  downloadLimitBytes?: number;
  /** Live default true: upload types are sniffed from the bytes (415 otherwise). false = declared type, no 415. */
  sniffUploads?: boolean;
  /** Task state lifetime; /status then answers 404. 0 = forever (kinder). Live default 3 600 000. */
  taskTtlMs?: number;
  /** Kinder switch: Content-Disposition keeps the exact name in `filename*` (live default false: ASCII only). */
  utf8DownloadNames?: boolean;
  /** Typed streams also send `{type:'pulse', reason:'keep-alive'}` this often, changes or not. Live default 55 000. */
  keepAliveIntervalMs?: number;
  /** The platform ends every stream this long after it opened, without a terminal event. 0 = never (kinder). Live 800 000. */
  streamCutMs?: number;
  /** Attachment ids live this long; expired ids are skipped at /run. 0 = forever (kinder). Live 600 000. */
  attachmentTtlMs?: number;
  /** Attachment uploads a user may make per minute (429 beyond). 0 = no limit (kinder). Live 30. */
  attachmentUploadsPerMinute?: number;
  /** Per-user storage quota in bytes (403 "Storage quota exceeded" beyond). Live default 40 GiB. */
  storageQuotaBytes?: number;
  /** After a task completes, its conversation is saved this much later; until then the state has no conversationId. Live default 250. */
  conversationDelayMs?: number;
  /** The blob store renames a PUT blob unless `X-Add-Random-Suffix: 0` is sent (live default true). */
  blobRandomSuffix?: boolean;
  /**
   * 'live' (default): agent statuses as the service's progress tracker writes them: `agent_id` 0-based, status
   * `QUEUED`, `PROCESSING...`, `COMPLETED`, `FAILED`. 'lowercase' (kinder): 1-based ids, queued/running/completed/failed.
   */
  agentStatusForm?: AgentStatusForm;
  /** GET /results answers 413 "Task result is too large for inline retrieval" above this (JSON bytes); 0 = off (kinder). Live 3 MiB. */
  resultsLimitBytes?: number;
  /** 'none' (live default): the trace store keeps no `report`. 'stored' (kinder): the report generator's output is kept. */
  traceReport?: TraceReport;
  /** Each key's plan (task submission limit, paid models). Keys not listed use `defaultPlan`. */
  plans?: Record<string, Plan>;
  /** Plan of a key not listed in `plans`. Default 'unlimited' (emulator-only; see the README). */
  defaultPlan?: Plan;
}

export type StreamFormat = 'typed' | 'taskState';
/**
 * A user's subscription. Task submissions per user: free 1 per 7 days, pro 2 per hour, super and enterprise 20 per
 * hour (sliding windows); 'unlimited' is the emulator's own, without a task limit. Free cannot use paid models.
 */
export type Plan = 'free' | 'pro' | 'super' | 'enterprise' | 'unlimited';
export const PLANS: readonly Plan[] = ['free', 'pro', 'super', 'enterprise', 'unlimited'];
/**
 * What the auth layer does with a key: 'active'; 'disabled' (403 "Account disabled"); 'authUnavailable' (503
 * "Authentication backend unavailable"); 'limiterUnavailable' (503 "Developer API rate limiter unavailable").
 */
export type KeyState = 'active' | 'disabled' | 'authUnavailable' | 'limiterUnavailable';
export const KEY_STATES: readonly KeyState[] = ['active', 'disabled', 'authUnavailable', 'limiterUnavailable'];
export type ProgressModel = 'live' | 'linear';
export type AgentStatusForm = 'live' | 'lowercase';
export type TraceReport = 'none' | 'stored';
export type RateLimitReason = 'hourly' | 'monthly' | 'capacity';

/** Options that make the emulator kinder than the live service, for tests whose client side is not live-ready. */
export const KINDER_OPTIONS: Readonly<EmulatorOptions> = Object.freeze({
  streamFormat: 'taskState',
  progressModel: 'linear',
  strictRunRequest: false,
  rateLimitHeaders: true,
  usageAcceptsKey: true,
  threadPaging: true,
  bodyLimitBytes: 0,
  downloadLimitBytes: 0,
  sniffUploads: false,
  taskTtlMs: 0,
  utf8DownloadNames: true,
  streamCutMs: 0,
  attachmentTtlMs: 0,
  attachmentUploadsPerMinute: 0,
  conversationDelayMs: 0,
  blobRandomSuffix: false,
  agentStatusForm: 'lowercase',
  resultsLimitBytes: 0,
  traceReport: 'stored',
} as const);

export type TaskStatus = 'processing' | 'completed' | 'failed' | 'canceled' | 'awaiting_approval';
export type TaskOutcome = Exclude<TaskStatus, 'processing'>;

export interface TaskOverride {
  outcome?: TaskOutcome;
  durationMs?: number;
  /** Error text of a failed task. */
  error?: string;
  /** Exact result text instead of the synthesized one. */
  result?: string;
  /** Pad the synthesized result with lines to about this many bytes. */
  resultBytes?: number;
  /** GET /results answers 413 "too large for inline retrieval". */
  resultTooLargeForResults?: boolean;
  /** Generated files (0..3). Default: 1, a findings.csv (or the file type the prompt asks for). */
  files?: number;
  /** Sources found by the first agent's web search (0..5). Default 3. */
  sources?: number;
  /** Pad a failed task's error to about this many bytes (a status too large even without its result). */
  errorBytes?: number;
  /** 'none': the task has no execution trace (404). */
  trace?: 'none';
  /** Pad the trace's steps to about this many bytes (413 beyond 3 MiB). */
  traceBytes?: number;
  /** 'none': the trace has no report (the live store keeps none); 'stored': it has one (whatever `traceReport` says). */
  report?: 'none' | 'stored';
  /** 'plain': no landing answer even when the prompt asks for one. */
  answer?: 'plain';
  /**
   * Held: the task keeps processing, whatever its duration, until `release(id)` (or the control API's
   * `POST /__emulator/release`); it then completes (or ends with its outcome) at once. For a test that must act
   * before the answer arrives: no race with a clock. Its progress moves as its duration says, up to its last
   * step, and stays there until it is released.
   */
  hold?: boolean;
  /**
   * A hostile service that echoes the submitting key into everything it says of the task: the result, each
   * agent's subtask and answer (the trace, thread messages), tool previews, generated file names, sources and
   * the trace's report (issue 35: one redaction path for everything the server says).
   */
  echoKey?: boolean;
}

export interface FaultMatch {
  method?: string;
  /** A string matches as a substring of the pathname. */
  path?: string | RegExp;
  /** Default 1; Infinity allowed (-1 over the control API). */
  times?: number;
}

export type FaultAction =
  | {
      kind: 'status';
      status: number;
      body?: unknown;
      headers?: Record<string, string>;
      retryAfter?: string;
      /** Kinder switch: a 429 also carries Retry-After and X-RateLimit-* (the live service sends neither). */
      rateLimitHeaders?: boolean;
    }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'dropMidBody' }
  | { kind: 'malformedJson' }
  /** The route runs (a submission creates its task), then the connection is reset instead of the answer. */
  | { kind: 'dropAnswer' }
  | { kind: 'schemaInvalid' }
  | { kind: 'redirect'; status?: 301 | 302 | 307 | 308; to?: 'otherOrigin' | 'sameOrigin' | string };

export type Fault = FaultMatch & FaultAction;

export interface RecordedRequest {
  method: string;
  /** pathname + search */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  status?: number;
  startedAt: number;
  endedAt?: number;
  /** Parsed JSON request bodies only. */
  body?: unknown;
}

export interface EmulatorStats {
  /** Tasks canceled through the cancel endpoint. */
  canceled: number;
  inFlight: number;
  peakInFlight: number;
  total: number;
  /** SSE streams currently open (they also count in inFlight). */
  streamsOpen: number;
}

/**
 * A test override of the key quota. 'hourly': at most `limit` requests per key in the clock hour (UTC) — or, with
 * `windowMs`, in a sliding window that long; 'monthly': at most `limit` requests per user; 'capacity': at most
 * `limit` task submissions per `windowMs` (or none at all with limit 0), then "Task execution capacity reached".
 */
export interface RateLimit {
  limit: number;
  windowMs?: number;
  /** Which 429 the live service would give. Default 'hourly'. */
  reason?: RateLimitReason;
}

/** Snapshot of a task, with its status derived from the clock at the time of the call. */
export interface EmulatedTask {
  id: string;
  userId: number;
  apiKey: string;
  /** Which route created it ('engineRun': POST {engine}/api/v1/run). */
  source: 'run' | 'legacyRun' | 'threadRun' | 'engineRun';
  threadId?: number;
  createdAt: number;
  completesAt: number;
  durationMs: number;
  status: TaskStatus;
  outcome: TaskOutcome;
  prompt: string;
  modelId: string;
  agentCount: number;
  options: Record<string, unknown>;
  /** The JSON body as received. */
  body: unknown;
  attachmentIds: string[];
  /** Final result text (also for tasks still processing). */
  result: string;
  error?: string;
  resultTooLargeForResults: boolean;
  /** When the task was canceled through POST /api/v1/tasks/{id}/cancel. */
  canceledAt?: number;
  /** Held until released (`TaskOverride.hold`): `completesAt` is far away until then. */
  held?: boolean;
  /** When a paused task was approved (control API or autoApproveMs). */
  approvedAt?: number;
  /** When the task state expires (/status then answers 404); undefined = never. */
  expiresAt?: number;
  /** The thread the completed task was saved to (set once saved). */
  conversationId?: number;
  /** Engine run only: the enforced budget (USD), role models, reasoning effort and idempotency key. */
  budget?: number;
  roleModels?: Record<string, string>;
  reasoningEffort?: string;
  idempotencyKey?: string;
  /** Ids of the files the agents generated (once stored). */
  generatedFileIds: string[];
}

export interface StoredFile {
  id: string;
  userId: number;
  filename: string;
  bytes: Buffer;
  purpose: string;
  mime_type: string;
  /** ms epoch */
  createdAt: number;
  /** Set for files the agents generated. */
  taskId?: string;
}

export interface StoredAttachment {
  id: string;
  userId: number;
  filename: string;
  size: number;
  mime_type: string;
  bytes: Buffer;
  createdAt: number;
  /** Skipped at /run from then on; undefined = never. */
  expiresAt?: number;
}

export interface Emulator {
  origin: string;
  baseUrl: string;
  legacyBaseUrl: string;
  apiKey: string;
  port: number;
  /** A second listener on another port: a different origin serving the same routes and state. */
  otherOrigin: string;
  requests: RecordedRequest[];
  otherOriginRequests: RecordedRequest[];
  stats: EmulatorStats;
  resetStats(): void;
  addFault(f: Fault): void;
  clearFaults(): void;
  setNextTask(o: TaskOverride): void;
  setRateLimit(r: RateLimit | undefined): void;
  /** Sets the plan of the user the key belongs to. */
  setPlan(key: string, plan: Plan): void;
  /** Puts a key in a state the auth layer answers for (disabled account, auth backend down, ...). */
  setKeyState(key: string, state: KeyState): void;
  /** Sets the storage quota (and optionally the used bytes) of the user the key belongs to. */
  setStorage(key: string, s: { quotaBytes?: number; usedBytes?: number }): void;
  /** Moves the emulator's clock forward (tasks, windows and lifetimes follow); returns the total offset. */
  advanceClock(ms: number): number;
  /** The emulator's current time (wall time plus advances). */
  now(): number;
  setStreamEnabled(on: boolean): void;
  setTaskDuration(ms: number): void;
  /** Change any live/kinder option at run time (same fields as the start options that are not about listening). */
  configure(options: Partial<EmulatorConfig>): EmulatorConfig;
  /** What the web console's approve does: a paused task goes back to processing and completes. */
  approve(taskId: string): EmulatedTask | undefined;
  /** Lets a held task (`setNextTask({ hold: true })`) finish now; without an id, every held task. Returns how many. */
  release(taskId?: string): number;
  task(id: string): EmulatedTask | undefined;
  tasks(): EmulatedTask[];
  files(): StoredFile[];
  attachments(): StoredAttachment[];
  /** Close both listeners but keep all state. */
  stop(): Promise<void>;
  /** Listen again on the same ports. */
  start(): Promise<void>;
  /** Stop for good. */
  close(): Promise<void>;
}

/** Run-time configuration: the start options that can change while the emulator runs. */
export interface EmulatorConfig {
  taskDurationMs: number;
  progressSteps: number;
  streamEnabled: boolean;
  strictRunRequest: boolean;
  streamFormat: StreamFormat;
  pulseIntervalMs: number;
  progressModel: ProgressModel;
  autoApproveMs: number | undefined;
  approvalResumeMs: number | undefined;
  rateLimitHeaders: boolean;
  usageAcceptsKey: boolean;
  threadPaging: boolean;
  bodyLimitBytes: number;
  downloadLimitBytes: number;
  sniffUploads: boolean;
  taskTtlMs: number;
  utf8DownloadNames: boolean;
  keepAliveIntervalMs: number;
  streamCutMs: number;
  attachmentTtlMs: number;
  attachmentUploadsPerMinute: number;
  storageQuotaBytes: number;
  conversationDelayMs: number;
  blobRandomSuffix: boolean;
  agentStatusForm: AgentStatusForm;
  resultsLimitBytes: number;
  traceReport: TraceReport;
  defaultPlan: Plan;
}
