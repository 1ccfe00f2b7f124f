/**
 * One scheduler for every running task. Chained timers (never setInterval), at most a few requests in
 * flight, a schedule read from which agents have finished (not from progress values, which do not tell
 * time), slower in the background and while a task waits for approval, paused as a whole by a 429 or a
 * rejected key. Where the service pushes states over Server-Sent Events the task follows the stream
 * instead and falls back to polling on any error. No vscode here: tests drive it with a fake clock.
 */
import { setMaxListeners } from 'node:events';
import { type ObservedState, type TrackedTask, agentsOf, isAwaitingApproval, isFinished } from './model';

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

/** Which limit a 429 hit, read from its text (the service's 429s carry no headers that say). */
export type RateLimitScope = 'hourly' | 'monthly' | 'capacity' | 'unknown';

export type PollerEvent =
  /**
   * Nothing is sent until `untilMs` (ms since epoch). `scope` says which limit: 'monthly' pauses for a long
   * time (until a new key or a reload), 'hourly' and 'capacity' retry with a growing backoff from about a
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
  log?: { info(m: string): void; warn(m: string): void; debug?(m: string): void };
  onEvent?: (event: PollerEvent) => void;
  /** 0..1, for backoff jitter (tests pass a fixed one). */
  random?: () => number;
}

interface Schedule {
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

/** Errors are told apart by the api layer's `kind`; the poller never imports that bundle. */
function kindOf(error: unknown): string | undefined {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Stream failures that will not go away by reconnecting. */
const STREAM_OFF_KINDS: ReadonlySet<string> = new Set([
  'authentication',
  'notFound',
  'unsupported',
  'permission',
  'redirect',
  'configuration',
  'responseFormat',
  'tooLarge',
]);

/** Consecutive 404s before a task is given up: one may be a glitch, three over time are not. */
const NOT_FOUND_LIMIT = 3;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Consecutive answers of the same lasting kind (403, 400/422, a malformed body) before a task is given up. */
const LASTING_ERROR_LIMIT = 5;
/** A task waiting for a human to approve in the web console is asked about this often (focused), ms. */
export const APPROVAL_POLL_MS = 30_000;
/** A 429 without Retry-After: back off from about a second (the official SDK waits 0.5-8 s), doubling, with jitter. */
const RATE_LIMIT_FIRST_MS = 1000;
/** Backoff ceilings: capacity clears in seconds; an hourly limit may need minutes. */
const RATE_LIMIT_MAX_MS: Record<RateLimitScope, number> = { hourly: 10 * 60_000, capacity: 60_000, unknown: 60_000, monthly: 0 };
/** A monthly quota does not come back by waiting minutes: stop asking for an hour (a new key resumes at once). */
export const MONTHLY_QUOTA_PAUSE_MS = 60 * 60_000;
/**
 * The live service's agents finish one by one over the last part of a run, and the last agent's finish is
 * the completion: with k of n agents done, the run is at least FINISH_PHASE_START + (1 - it) * k / n through.
 * Only a lower bound on the run's length is taken from this, so a service whose agents finish earlier costs
 * a few extra polls, never a late result.
 */
const FINISH_PHASE_START = 0.7;
/** Before any agent has finished, the next poll comes this share of the elapsed time later (geometric). */
const WORKING_GROWTH = 0.5;
/** With nothing to read (one agent, or no agent statuses), the interval grows more slowly and stops at 3 x the shortest. */
const BLIND_GROWTH = 0.5;
const BLIND_CEILING_FACTOR = 3;

/** 'hourly' | 'monthly' | 'capacity' from the 429's text ("hourly request limit", "Monthly quota", "capacity reached"). */
export function rateLimitScope(message: string): RateLimitScope {
  if (/month|quota/i.test(message)) return 'monthly';
  if (/hour/i.test(message)) return 'hourly';
  if (/capacity|retry later|overloaded/i.test(message)) return 'capacity';
  return 'unknown';
}

/** The share of a run after which `done` of `agents` have finished (1 once all have). */
function finishedShare(done: number, agents: number): number {
  return done >= agents ? 1 : FINISH_PHASE_START + ((1 - FINISH_PHASE_START) * done) / agents;
}

export class TaskPoller {
  private readonly schedules = new Map<string, Schedule>();
  private readonly clock: Clock;
  private readonly aborter = new AbortController();
  private timer: unknown;
  private timerAt = Infinity;
  private inFlight = 0;
  private focused = true;
  private pausedUntil = 0;
  /** Consecutive 429s without a success between them, for the backoff. */
  private rateLimitStreak = 0;
  /** After a pause, tasks come back one slot at a time from here. */
  private nextResumeSlot = 0;
  private pausedForKey = false;
  private streamUnsupported = false;
  private troubled = false;
  private disposed = false;
  /** Requests this poller sent, for benchmarks and tests. */
  readonly stats = { statusRequests: 0, resultRequests: 0, streamsOpened: 0, peakInFlight: 0 };

  constructor(private readonly deps: PollerDeps) {
    this.clock = deps.clock ?? systemClock;
    // Every poll and every open stream listens to this one signal (up to maxInFlight + maxStreams at once).
    setMaxListeners(200, this.aborter.signal);
  }

  /** Looks at the store again: new tasks get scheduled, and a due poll runs now. */
  wake(): void {
    if (this.disposed) return;
    this.schedule(0);
  }

  /** The window gained or lost focus; regaining it polls stale tasks at once. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    if (focused) {
      const now = this.clock.now();
      const stale = now - this.deps.settings().minIntervalMs;
      for (const s of this.schedules.values()) {
        if (!s.inFlight && !s.streaming && s.nextAt - s.intervalMs < stale) s.nextAt = now;
      }
      this.schedule(0);
    }
  }

  /**
   * Settings or the key changed: polling paused by a 401, a 403 or a bad address starts again. Only a new
   * key ends a rate-limit pause early (the limit is per key); otherwise the pause is kept.
   */
  resume(options: { keyChanged?: boolean } = {}): void {
    this.pausedForKey = false;
    this.streamUnsupported = false;
    if (options.keyChanged) {
      this.pausedUntil = 0;
      this.rateLimitStreak = 0;
    }
    const now = this.clock.now();
    for (const s of this.schedules.values()) {
      s.lasting = 0;
      if (this.pausedUntil <= now) s.nextAt = Math.min(s.nextAt, now);
    }
    this.schedule(0);
  }

  /** Stops following a task (stop tracking, remove); an open stream is closed. */
  forget(taskId: string): void {
    this.schedules.get(taskId)?.streaming?.abort();
    this.schedules.delete(taskId);
  }

  get isIdle(): boolean {
    return this.timer === undefined && this.inFlight === 0 && ![...this.schedules.values()].some(s => s.streaming);
  }

  dispose(): void {
    this.disposed = true;
    this.aborter.abort();
    for (const s of this.schedules.values()) s.streaming?.abort();
    this.clearTimer();
  }

  // ---------------------------------------------------------------------------------------------

  private schedule(delayMs: number): void {
    if (this.disposed) return;
    // Timers clamp anything over ~24.8 days to 1 ms; a far Retry-After date must not spin the loop.
    delayMs = Math.min(Math.max(0, delayMs), MAX_TIMER_MS);
    const at = this.clock.now() + delayMs;
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      try {
        this.tick();
      } catch (e) {
        this.deps.log?.warn(`poller: ${messageOf(e)}`);
        this.schedule(this.deps.settings().minIntervalMs);
      }
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private tick(): void {
    if (this.disposed) return;
    const settings = this.deps.settings();
    const now = this.clock.now();
    const running = this.deps.store.running();
    const live = new Set(running.map(t => t.id));
    for (const [id, s] of this.schedules) {
      if (!live.has(id) && !s.inFlight) this.forget(id);
    }
    for (const task of running) {
      if (!this.schedules.has(task.id)) {
        const first = Math.max(settings.minIntervalMs, settings.firstPollMs ?? 0);
        this.schedules.set(task.id, {
          nextAt: isAwaitingApproval(task) ? now : Math.max(now, task.submittedAt + first),
          intervalMs: first,
          originAt: task.submittedAt,
          lowRunMs: 0,
          awaiting: isAwaitingApproval(task),
          failures: 0,
          notFound: 0,
          lasting: 0,
          inFlight: false,
          streamFailures: 0,
          streamRetryAt: 0,
        });
      }
    }
    if (this.pausedForKey) return; // resume() restarts us
    if (this.pausedUntil > now) return this.schedule(this.pausedUntil - now);

    if (settings.useStream && !this.streamUnsupported) this.openStreams(running, settings, now);

    const due = running
      .map(t => ({ task: t, s: this.schedules.get(t.id)! }))
      .filter(({ s }) => !s.inFlight && !s.streaming && s.nextAt <= now)
      .sort((a, b) => a.s.nextAt - b.s.nextAt);
    for (const { task, s } of due) {
      if (this.inFlight >= settings.maxInFlight) break;
      void this.poll(task, s);
    }
    this.scheduleNext();
  }

  /** Arms the timer for the earliest due task; with none (all streaming, or nothing running) the poller rests. */
  private scheduleNext(): void {
    let next = Infinity;
    for (const s of this.schedules.values()) {
      if (!s.inFlight && !s.streaming) next = Math.min(next, s.nextAt);
      if (s.streaming === undefined && s.streamRetryAt > this.clock.now()) next = Math.min(next, s.streamRetryAt);
    }
    if (this.inFlight >= this.deps.settings().maxInFlight) return; // a finishing request re-arms us
    if (next < Infinity) this.schedule(next - this.clock.now());
  }

  private openStreams(running: readonly TrackedTask[], settings: PollerSettings, now: number): void {
    const api = this.deps.api();
    if (!api.streamTask) return;
    let open = [...this.schedules.values()].filter(s => s.streaming).length;
    for (const task of running) {
      if (open >= settings.maxStreams) return;
      const s = this.schedules.get(task.id)!;
      if (s.streaming || s.inFlight || s.streamRetryAt > now) continue;
      open++;
      void this.follow(task.id, s, api);
    }
  }

  private async follow(taskId: string, s: Schedule, api: PollerApi): Promise<void> {
    const controller = new AbortController();
    const onDispose = () => controller.abort();
    this.aborter.signal.addEventListener('abort', onDispose, { once: true });
    s.streaming = controller;
    this.stats.streamsOpened++;
    try {
      const final = await api.streamTask!(taskId, {
        signal: controller.signal,
        onState: state => {
          s.streamFailures = 0;
          if (!isFinished(state)) this.deps.store.observe(taskId, state);
        },
      });
      if (!isFinished(final)) {
        // The stream ended at a pause (awaiting approval): the task resumes later; ask about it slowly.
        this.deps.store.observe(taskId, final);
        this.noteStatus(s, final);
        s.intervalMs = this.approvalInterval(this.deps.settings());
        s.nextAt = this.clock.now() + s.intervalMs;
        s.streamRetryAt = s.nextAt;
      } else if (await this.complete(taskId, final, controller.signal)) {
        this.schedules.delete(taskId);
        this.recovered();
      } else {
        // The stream said done but /results does not have it yet: poll on, and do not reopen the stream at once.
        s.streamRetryAt = this.clock.now() + Math.max(s.intervalMs, this.deps.settings().minIntervalMs) * 4;
        s.nextAt = this.clock.now() + s.intervalMs;
      }
    } catch (e) {
      if (controller.signal.aborted || this.disposed) return;
      const kind = kindOf(e);
      if (kind === 'streamEnded') {
        // The stream's `error` event: the task failed, was canceled, or is unknown. /status says which, now.
        s.streamRetryAt = this.clock.now() + this.deps.settings().minIntervalMs * 4;
        this.deps.log?.info(`stream for ${taskId} ended (${messageOf(e)}); reading its status`);
      } else if (STREAM_OFF_KINDS.has(kind ?? '')) {
        // The service does not offer the stream to this key, or sends what we cannot read: poll every task
        // from now on (until the settings or the key change), instead of reconnecting in a loop.
        this.streamUnsupported = true;
        this.deps.log?.info(`stream unavailable (${messageOf(e)}); following tasks by polling`);
        this.deps.onEvent?.({ kind: 'streamUnavailable', message: messageOf(e) });
      } else {
        // Dropped mid-task: poll meanwhile, and reconnect with backoff.
        s.streamFailures++;
        const backoff = Math.min(60_000, 1000 * 2 ** (s.streamFailures - 1));
        s.streamRetryAt = this.clock.now() + backoff;
        this.deps.log?.info(`stream for ${taskId} dropped (${messageOf(e)}); polling, reconnect in ${backoff} ms`);
      }
      s.nextAt = this.clock.now();
    } finally {
      this.aborter.signal.removeEventListener('abort', onDispose);
      if (s.streaming === controller) s.streaming = undefined;
      if (!this.disposed) this.schedule(0);
    }
  }

  private async poll(task: TrackedTask, s: Schedule): Promise<void> {
    const settings = this.deps.settings();
    s.inFlight = true;
    this.inFlight++;
    this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.inFlight);
    const signal = this.aborter.signal;
    try {
      let api: PollerApi;
      try {
        api = this.deps.api();
      } catch (e) {
        this.pausedForKey = true;
        this.deps.onEvent?.({ kind: 'configurationError', message: messageOf(e) });
        return;
      }
      this.stats.statusRequests++;
      let state: ObservedState;
      try {
        state = await api.getTaskStatus(task.id, { signal, retry: false });
      } catch (e) {
        if (kindOf(e) !== 'tooLarge') throw e;
        // The state is too large to inline: /results says whether the task is done (and has the result).
        this.stats.resultRequests++;
        const read = await api.getTaskResult(task.id, { signal, retry: false });
        state = { status: read.status ?? 'processing', result: read.result, error: read.error };
      }
      s.failures = 0;
      s.notFound = 0;
      s.lasting = 0;
      this.rateLimitStreak = 0;
      this.recovered();
      if (isFinished(state)) {
        if (await this.complete(task.id, state, signal)) {
          this.schedules.delete(task.id);
          return;
        }
      } else this.deps.store.observe(task.id, state);
      this.noteStatus(s, state);
      s.intervalMs = this.nextInterval(s, state, settings);
      s.nextAt = this.notDuringPause(this.clock.now() + s.intervalMs, settings);
    } catch (e) {
      if (this.disposed || signal.aborted) return;
      this.onPollError(task, s, e, settings);
    } finally {
      s.inFlight = false;
      this.inFlight--;
      if (!this.disposed) this.schedule(0);
    }
  }

  /**
   * Completed without the result inline: read /results. Other terminal states carry their reason.
   * Returns false when /results says the task is not finished after all: it stays tracked and is polled again.
   */
  private async complete(taskId: string, state: ObservedState, signal: AbortSignal): Promise<boolean> {
    let final = state;
    if (state.status === 'completed' && (state.result === undefined || state.result === null)) {
      this.stats.resultRequests++;
      try {
        const result = await this.deps.api().getTaskResult(taskId, { signal, retry: false });
        // A replica that has not seen the completion yet answers {status: processing}: not a result-less completion.
        if (result.status !== undefined && !isFinished({ status: result.status })) return false;
        final = { ...state, result: result.result ?? undefined, error: result.result ? undefined : 'The service reported the task completed but sent no result.' };
      } catch (e) {
        if (kindOf(e) !== 'tooLarge') throw e;
        final = { ...state, error: 'The result is too large to download inline; open it in the web console.' };
      }
    }
    await this.deps.store.finish(taskId, final);
    return true;
  }

  private onPollError(task: TrackedTask, s: Schedule, error: unknown, settings: PollerSettings): void {
    const now = this.clock.now();
    const kind = kindOf(error);
    const message = messageOf(error);
    switch (kind) {
      case 'rateLimit': {
        const scope = rateLimitScope(message);
        const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
        const wait = retryAfterMs ?? this.rateLimitBackoff(scope);
        this.rateLimitStreak++;
        this.pauseAll(now + Math.max(wait, 250), settings);
        s.nextAt = this.notDuringPause(now, settings);
        this.deps.log?.warn(`rate limited (${scope}: ${message}): polling paused for ${(wait / 1000).toFixed(1)} s`);
        this.deps.onEvent?.({ kind: 'rateLimited', untilMs: this.pausedUntil, scope, retryAfter: retryAfterMs !== undefined, message });
        return;
      }
      case 'authentication':
        this.pausedForKey = true;
        s.nextAt = now;
        this.deps.onEvent?.({ kind: 'authenticationFailed', message });
        return;
      case 'configuration':
        this.pausedForKey = true;
        s.nextAt = now;
        this.deps.onEvent?.({ kind: 'configurationError', message });
        return;
      case 'permission':
        // A disabled account or an exhausted quota: the user is told (once, by the listener), and the
        // task is kept and asked about slowly, so it completes when the account is fixed in the console.
        this.deps.onEvent?.({ kind: 'permissionDenied', message });
        break;
      case 'validation':
      case 'responseFormat':
      case 'http':
        if (++s.lasting >= LASTING_ERROR_LIMIT) {
          void this.deps.store
            .finish(task.id, { status: 'failed', error: `The service keeps answering the status check with an error: ${message}` })
            .catch(e => this.deps.log?.warn(`could not record ${task.id}: ${messageOf(e)}`));
          this.schedules.delete(task.id);
          return;
        }
        break;
      case 'notFound':
        if (++s.notFound >= NOT_FOUND_LIMIT) {
          void this.deps.store
            .finish(task.id, { status: 'failed', error: `The service no longer knows this task (${message}).` })
            .catch(e => this.deps.log?.warn(`could not record ${task.id}: ${messageOf(e)}`));
          this.schedules.delete(task.id);
          return;
        }
        break;
      default:
        break;
    }
    // Connection trouble, 5xx, timeouts, malformed bodies: keep the task and back off.
    s.failures++;
    s.intervalMs = Math.min(Math.max(settings.maxIntervalMs, settings.minIntervalMs * 4), settings.minIntervalMs * 2 ** s.failures);
    s.nextAt = this.notDuringPause(now + s.intervalMs, settings);
    this.deps.log?.warn(`status of ${task.id} failed (${message}); next try in ${s.intervalMs} ms`);
    if ((kind === 'connection' || kind === 'timeout') && !this.troubled) {
      this.troubled = true;
      this.deps.onEvent?.({ kind: 'connectionTrouble', message });
    }
  }

  private recovered(): void {
    if (!this.troubled) return;
    this.troubled = false;
    this.deps.onEvent?.({ kind: 'recovered' });
  }

  /** After a 429 nothing is sent until the pause ends, and then the tasks come back spread out, not in a burst. */
  private pauseAll(until: number, settings: PollerSettings): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.nextResumeSlot = this.pausedUntil;
    const waiting = [...this.schedules.values()].filter(s => !s.streaming && !s.inFlight).sort((a, b) => a.nextAt - b.nextAt);
    for (const s of waiting) s.nextAt = this.notDuringPause(s.nextAt, settings);
  }

  /** A time inside the pause becomes the next free slot after it, spaced so the in-flight limit is never hit at once. */
  private notDuringPause(at: number, settings: PollerSettings): number {
    if (at >= this.nextResumeSlot || this.pausedUntil <= this.clock.now()) return at;
    const slot = Math.max(this.nextResumeSlot, this.pausedUntil);
    this.nextResumeSlot = slot + settings.minIntervalMs / Math.max(1, settings.maxInFlight);
    return slot;
  }

  /** A task that was paused for approval and runs again starts a new working stretch: normal pace again. */
  private noteStatus(s: Schedule, state: ObservedState): void {
    const awaiting = isAwaitingApproval(state);
    if (s.awaiting && !awaiting) {
      s.originAt = this.clock.now();
      s.lowRunMs = 0;
    }
    s.awaiting = awaiting;
  }

  private approvalInterval(settings: PollerSettings): number {
    return Math.max(APPROVAL_POLL_MS, settings.minIntervalMs, this.focused ? 0 : settings.unfocusedIntervalMs);
  }

  /** About a second, doubling per 429 in a row, with +-25 % jitter so windows do not come back in step. */
  private rateLimitBackoff(scope: RateLimitScope): number {
    if (scope === 'monthly') return MONTHLY_QUOTA_PAUSE_MS;
    const base = Math.min(RATE_LIMIT_MAX_MS[scope], RATE_LIMIT_FIRST_MS * 2 ** this.rateLimitStreak);
    const random = this.deps.random ?? Math.random;
    return Math.round(base * (0.75 + 0.5 * random()));
  }

  /**
   * The next poll after a processing answer. Progress values do not tell time (0.5 while working), but
   * agents finishing do: before the first agent is done the interval grows with the elapsed time; once
   * agents finish, each answer bounds the run's length from below (see FINISH_PHASE_START) and the next
   * poll comes at the earliest moment the task can be complete, then at the shortest interval.
   * Every poll counts against the user's hourly rate limit.
   */
  private nextInterval(s: Schedule, state: ObservedState, settings: PollerSettings): number {
    const { minIntervalMs: min, maxIntervalMs: max } = settings;
    if (isAwaitingApproval(state)) return this.approvalInterval(settings);
    if (!this.focused) return Math.max(min, settings.unfocusedIntervalMs);
    const now = this.clock.now();
    const elapsed = Math.max(0, now - s.originAt);
    const clamp = (ms: number, ceiling = max) => Math.round(Math.max(min, Math.min(ceiling, ms)));
    const agents = agentsOf(state) ?? [];
    if (agents.length < 2) {
      // One agent's finish is the completion itself: nothing to read, so stay closer.
      return clamp(elapsed * BLIND_GROWTH, Math.max(min, Math.min(max, min * BLIND_CEILING_FACTOR)));
    }
    const done = agents.filter(a => a.status === 'completed' || (a.progress !== undefined && a.progress >= 1)).length;
    // The next agent has not finished yet, so the run is longer than this.
    s.lowRunMs = Math.max(s.lowRunMs, elapsed / finishedShare(done + 1, agents.length));
    if (done === 0) return clamp(elapsed * WORKING_GROWTH);
    return clamp(s.originAt + s.lowRunMs - now);
  }
}
