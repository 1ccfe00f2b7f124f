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
  progressSteps?: number;
  streamEnabled?: boolean;
  /** Refuse unknown top-level run fields with 422, like the real RunRequest (additionalProperties: false). */
  strictRunRequest?: boolean;
  quiet?: boolean;
}

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
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; retryAfter?: string }
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
  inFlight: number;
  peakInFlight: number;
  total: number;
  /** SSE streams currently open (they also count in inFlight). */
  streamsOpen: number;
}

export interface RateLimit {
  limit: number;
  windowMs: number;
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
