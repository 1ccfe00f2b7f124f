/**
 * What the poller's parts share: the service and the store they talk to, the settings, the clock, the
 * events, and one task's place in the schedule. No vscode here: tests drive the poller in plain Node.
 */
import type { RateLimitScope } from '../../api/conditions';
import type { Logger } from '../../api/transport';
import type { Settings } from '../../config';
import type { ObservedState, TrackedTask } from '../model';

/**
 * `retry: false`: the poller is the retry mechanism for reads it sends (per-task backoff, one pause for
 * the whole scheduler on a 429). A transport that retried underneath would hold a slot through the
 * server's Retry-After while the other tasks kept polling.
 */
export interface PollCall {
  signal: AbortSignal;
  retry: false;
}

export interface PollerApi {
  getTaskStatus(taskId: string, call: PollCall): Promise<ObservedState>;
  getTaskResult(taskId: string, call: PollCall): Promise<{ status?: string; result?: string | null; error?: string | null }>;
  streamTask?(taskId: string, options: { signal: AbortSignal; onState: (state: ObservedState) => void }): Promise<ObservedState>;
}

export interface PollerStore {
  running(): readonly TrackedTask[];
  get(taskId: string): TrackedTask | undefined;
  /** Records a non-terminal state (progress). */
  observe(taskId: string, state: ObservedState): void;
  /** Records a terminal state with its result or reason; resolves once the result is cached. */
  finish(taskId: string, state: ObservedState): Promise<void>;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: handle => clearTimeout(handle as NodeJS.Timeout),
};

export interface PollerSettings {
  /** Shortest interval, ms. */
  minIntervalMs: number;
  /** Delay before the first status check of a new task, ms (default: minIntervalMs). */
  firstPollMs?: number;
  /** Longest interval while focused, ms. */
  maxIntervalMs: number;
  /** Interval while the window is in the background, ms. */
  unfocusedIntervalMs: number;
  /** Requests in flight at once. */
  maxInFlight: number;
  useStream: boolean;
  /** Streams open at once; other tasks poll. */
  maxStreams: number;
}

/** The poller's settings from the extension's (the poller asks several times per poll: read live, never kept). */
export function pollerSettings(config: { readonly settings: Settings }): PollerSettings {
  const settings = config.settings;
  return {
    minIntervalMs: settings.pollIntervalMs,
    firstPollMs: settings.firstPollDelayMs,
    maxIntervalMs: settings.maxPollIntervalMs,
    unfocusedIntervalMs: settings.unfocusedPollIntervalMs,
    maxInFlight: 4,
    useStream: settings.useStream,
    maxStreams: 16,
  };
}

export type { RateLimitScope } from '../../api/conditions';

export type PollerEvent =
  /**
   * Nothing is sent until `untilMs` (ms since epoch). `scope` says which limit: 'monthly' (and 'plan') pause
   * for a long time (until a new key or a reload), the others retry with a growing backoff from half a
   * second. `retryAfter` is true when the service said when (a `Retry-After` header). `message` is the
   * service's text.
   */
  | { kind: 'rateLimited'; untilMs: number; scope: RateLimitScope; retryAfter: boolean; message: string }
  | { kind: 'authenticationFailed'; message: string }
  | { kind: 'configurationError'; message: string }
  | { kind: 'permissionDenied'; message: string }
  | { kind: 'connectionTrouble'; message: string }
  | { kind: 'recovered' }
  | { kind: 'streamUnavailable'; message: string };

export interface PollerDeps {
  api: () => PollerApi;
  store: PollerStore;
  settings: () => PollerSettings;
  clock?: Clock;
  log?: Logger;
  onEvent?: (event: PollerEvent) => void;
  /** 0..1, for backoff jitter (tests pass a fixed one). */
  random?: () => number;
  /**
   * A task the service no longer knows (its one-hour state expired) may have completed meanwhile: its answer
   * is in its thread. Resolves with that completed state, or undefined (then the task is given up).
   */
  recover?: (task: TrackedTask, signal: AbortSignal) => Promise<ObservedState | undefined>;
}

/** Requests a poller sent, for benchmarks and tests. */
export interface PollStats {
  statusRequests: number;
  resultRequests: number;
  streamsOpened: number;
  peakInFlight: number;
}

/** One running task's place in the schedule. */
export interface TaskSchedule {
  nextAt: number;
  intervalMs: number;
  /** Start of the task's current working stretch (submission, or the moment it resumed after approval), ms. */
  originAt: number;
  /** A lower bound on the stretch's length read from the agents that have (not) finished, ms. */
  lowRunMs: number;
  /** The last status seen was `awaiting_approval`. */
  awaiting: boolean;
  failures: number;
  notFound: number;
  /** Consecutive errors that will not go away by waiting (see LASTING_ERROR_LIMIT). */
  lasting: number;
  inFlight: boolean;
  streaming?: AbortController;
  streamFailures: number;
  /** Don't try the stream for this task before this time (reconnect backoff). */
  streamRetryAt: number;
}

/** One timer that keeps the earliest of the times it is asked for; `run` is called once per arming. */
export class EarliestTimer {
  private handle: unknown;
  private at = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly run: () => void,
  ) {}

  get armed(): boolean {
    return this.handle !== undefined;
  }

  /** Calls `run` in `delayMs` unless it is due sooner already. */
  arm(delayMs: number): void {
    // Timers clamp anything over ~24.8 days to 1 ms; a far Retry-After date must not spin the loop.
    delayMs = Math.min(Math.max(0, delayMs), 2 ** 31 - 1);
    const at = this.clock.now() + delayMs;
    if (this.handle !== undefined && this.at <= at) return;
    this.clear();
    this.at = at;
    this.handle = this.clock.setTimeout(() => {
      this.handle = undefined;
      this.at = Infinity;
      this.run();
    }, delayMs);
  }

  clear(): void {
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
    this.at = Infinity;
  }
}

/** Errors are told apart by the api layer's `kind`; the poller never imports that bundle. */
export function kindOf(error: unknown): string | undefined {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}
