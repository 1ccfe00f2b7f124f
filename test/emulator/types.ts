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
}

export type StreamFormat = 'typed' | 'taskState';
export type ProgressModel = 'live' | 'linear';
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

export interface RateLimit {
  limit: number;
  windowMs: number;
  /** Which 429 detail the live service would give. Default 'hourly'. */
  reason?: RateLimitReason;
}

/** Snapshot of a task, with its status derived from the clock at the time of the call. */
export interface EmulatedTask {
  id: string;
  userId: number;
  apiKey: string;
  /** Which route created it. */
  source: 'run' | 'legacyRun' | 'threadRun';
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
  /** When a paused task was approved (control API or autoApproveMs). */
  approvedAt?: number;
  /** When the task state expires (/status then answers 404); undefined = never. */
  expiresAt?: number;
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
}

export interface StoredAttachment {
  id: string;
  userId: number;
  filename: string;
  size: number;
  mime_type: string;
  bytes: Buffer;
  createdAt: number;
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
  setStreamEnabled(on: boolean): void;
  setTaskDuration(ms: number): void;
  /** Change any live/kinder option at run time (same fields as the start options that are not about listening). */
  configure(options: Partial<EmulatorConfig>): EmulatorConfig;
  /** What the web console's approve does: a paused task goes back to processing and completes. */
  approve(taskId: string): EmulatedTask | undefined;
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
}
