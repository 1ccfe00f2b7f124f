/**
 * The loop that follows every running task: it applies the policy (`pollPolicy.ts`: when to ask next, how
 * long to pause) to the service and the store with one chained timer (never setInterval) and a few requests
 * in flight, pauses everything on a 429 or a rejected key, and hands the tasks the service pushes to the
 * stream follower (`streamFollower.ts`), which gives them back on any error. No vscode: tests use a fake clock.
 */
import { setMaxListeners } from 'node:events';
import type { EndReason } from '../../vocabulary';
import { type TrackedTask, isFinished } from '../model';
import { LASTING_ERROR_LIMIT, NOT_FOUND_LIMIT, RateLimitPause, errorBackoff, firstSchedule, nextInterval, rateLimitScope, workingStretch } from './pollPolicy';
import { completeTask, readState } from './pollReads';
import { type Clock, EarliestTimer, type PollStats, type PollerApi, type PollerDeps, type PollerSettings, type TaskSchedule, kindOf, systemClock } from './pollTypes';
import { messageOf } from '../../format';
import { StreamFollower } from './streamFollower';

export type { Clock, PollCall, PollerApi, PollerDeps, PollerEvent, PollerSettings, PollerStore, RateLimitScope } from './pollTypes';
export { pollerSettings } from './pollTypes';
export { APPROVAL_POLL_MS, MONTHLY_QUOTA_PAUSE_MS, rateLimitScope } from './pollPolicy';

/** Listeners one abort signal may have: every poll and every open stream listens (up to maxInFlight + maxStreams). */
const MAX_SIGNAL_LISTENERS = 200;

/** What restarts the poller from outside: a new key or settings (a trust grant too), and the window's focus. */
export interface PollerInputs {
  keys: { onDidChange(listener: (which: 'apiKey' | 'gatewayKey') => unknown): { dispose(): void } };
  config: { onDidChange(listener: () => unknown): { dispose(): void } };
  focus: { onDidChange(listener: (focused: boolean) => unknown): { dispose(): void } };
  /** Told first, so that what it shows is cleared before polling starts again (pollerStatus.ts). */
  status: { reset(options?: { keyChanged?: boolean }): void };
}

export class TaskPoller {
  private readonly schedules = new Map<string, TaskSchedule>();
  private readonly clock: Clock;
  private readonly aborter = new AbortController();
  private readonly pause = new RateLimitPause();
  private readonly streams: StreamFollower;
  private readonly timer: EarliestTimer;
  private inFlight = 0;
  /** Tasks whose thread is being read after the service forgot them: not polled meanwhile. */
  private readonly recovering = new Set<string>();
  private focused = true;
  private pausedForKey = false;
  private troubled = false;
  private disposed = false;
  /** Requests this poller sent, for benchmarks and tests. */
  readonly stats: PollStats = { statusRequests: 0, resultRequests: 0, streamsOpened: 0, peakInFlight: 0 };

  constructor(private readonly deps: PollerDeps) {
    this.clock = deps.clock ?? systemClock;
    setMaxListeners(MAX_SIGNAL_LISTENERS, this.aborter.signal);
    this.timer = new EarliestTimer(this.clock, () => {
      try {
        this.tick();
      } catch (e) {
        this.deps.log?.warn(`poller: ${messageOf(e)}`);
        this.schedule(this.deps.settings().minIntervalMs);
      }
    });
    this.streams = new StreamFollower({
      deps,
      clock: this.clock,
      stats: this.stats,
      signal: this.aborter.signal,
      focused: () => this.focused,
      finished: taskId => {
        this.schedules.delete(taskId);
        this.recovered();
      },
      wake: () => this.wake(),
    });
  }

  /**
   * Follows its inputs, as the stores follow theirs (stores/follow.ts): a new key resumes polling and ends a
   * rate-limit pause (the limit is per key); new settings or a trust grant resume polling paused by a bad
   * setting, with the new values; the window's focus sets the pace.
   */
  follow(inputs: PollerInputs): { dispose(): void } {
    const subscriptions = [
      inputs.keys.onDidChange(which => {
        if (which !== 'apiKey') return;
        inputs.status.reset({ keyChanged: true });
        this.resume({ keyChanged: true });
      }),
      inputs.config.onDidChange(() => {
        inputs.status.reset();
        this.resume();
      }),
      inputs.focus.onDidChange(focused => this.setFocused(focused)),
    ];
    return { dispose: () => subscriptions.forEach(s => s.dispose()) };
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
    this.streams.reset();
    if (options.keyChanged) this.pause.reset();
    const now = this.clock.now();
    for (const s of this.schedules.values()) {
      s.lasting = 0;
      if (!this.pause.isPaused(now)) s.nextAt = Math.min(s.nextAt, now);
    }
    this.schedule(0);
  }

  /** Stops following a task (stop tracking, remove); an open stream is closed. */
  forget(taskId: string): void {
    this.schedules.get(taskId)?.streaming?.abort();
    this.schedules.delete(taskId);
  }

  get isIdle(): boolean {
    return !this.timer.armed && this.inFlight === 0 && ![...this.schedules.values()].some(s => s.streaming);
  }

  dispose(): void {
    this.disposed = true;
    this.aborter.abort();
    for (const s of this.schedules.values()) s.streaming?.abort();
    this.timer.clear();
  }

  // ---------------------------------------------------------------------------------------------

  private schedule(delayMs: number): void {
    if (!this.disposed) this.timer.arm(delayMs);
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
      if (!this.schedules.has(task.id) && !this.recovering.has(task.id)) this.schedules.set(task.id, firstSchedule(task, settings, now));
    }
    if (this.pausedForKey) return; // resume() restarts us
    if (this.pause.isPaused(now)) return this.schedule(this.pause.pausedUntil - now);

    this.streams.open(running, this.schedules, settings, now);

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

  private async poll(task: TrackedTask, s: TaskSchedule): Promise<void> {
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
      const state = await readState(api, task.id, signal, this.stats);
      Object.assign(s, { failures: 0, notFound: 0, lasting: 0 });
      this.pause.succeeded();
      this.recovered();
      if (isFinished(state)) {
        if (await completeTask(this.deps, task.id, state, signal, this.stats)) {
          this.schedules.delete(task.id);
          return;
        }
      } else this.deps.store.observe(task.id, state);
      const now = this.clock.now();
      Object.assign(s, workingStretch(s, state, now));
      Object.assign(s, nextInterval(s, state, settings, this.focused, now));
      s.nextAt = this.pause.slot(now + s.intervalMs, now, settings);
    } catch (e) {
      if (this.disposed || signal.aborted) return;
      this.onPollError(task, s, e, settings);
    } finally {
      s.inFlight = false;
      this.inFlight--;
      if (!this.disposed) this.schedule(0);
    }
  }

  private onPollError(task: TrackedTask, s: TaskSchedule, error: unknown, settings: PollerSettings): void {
    const now = this.clock.now();
    const kind = kindOf(error);
    const message = messageOf(error);
    switch (kind) {
      case 'rateLimit': {
        const scope = rateLimitScope(message);
        const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
        const { waitMs } = this.pause.limited(scope, retryAfterMs, now, this.deps.random ?? Math.random);
        // Nothing is sent until the pause ends, and then the tasks come back spread out, not in a burst.
        const waiting = [...this.schedules.values()].filter(w => !w.streaming && !w.inFlight).sort((a, b) => a.nextAt - b.nextAt);
        for (const w of waiting) w.nextAt = this.pause.slot(w.nextAt, now, settings);
        s.nextAt = this.pause.slot(now, now, settings);
        this.deps.log?.warn(`429 (${scope}: ${message}): polling paused for ${(waitMs / 1000).toFixed(1)} s`);
        this.deps.onEvent?.({ kind: 'rateLimited', untilMs: this.pause.pausedUntil, scope, retryAfter: retryAfterMs !== undefined, message });
        return;
      }
      case 'authentication':
      case 'configuration':
        this.pausedForKey = true;
        s.nextAt = now;
        this.deps.onEvent?.(kind === 'authentication' ? { kind: 'authenticationFailed', message } : { kind: 'configurationError', message });
        return;
      case 'permission':
        // A disabled account or an exhausted quota: the user is told (once, by the listener), and the
        // task is kept and asked about slowly, so it completes when the account is fixed in the console.
        this.deps.onEvent?.({ kind: 'permissionDenied', message });
        break;
      case 'validation':
      case 'responseFormat':
      case 'http':
        if (++s.lasting >= LASTING_ERROR_LIMIT) return this.giveUp(task.id, { kind: 'statusKeepsFailing', detail: message });
        break;
      case 'notFound':
        if (++s.notFound >= NOT_FOUND_LIMIT) return this.recoverOrGiveUp(task, { kind: 'unknownTask', detail: message });
        break;
    }
    // Connection trouble, 5xx, timeouts, malformed bodies: keep the task and back off.
    s.failures++;
    s.intervalMs = errorBackoff(s.failures, settings);
    s.nextAt = this.pause.slot(now + s.intervalMs, now, settings);
    this.deps.log?.warn(`status of ${task.id} failed (${message}); next try in ${s.intervalMs} ms`);
    if ((kind === 'connection' || kind === 'timeout') && !this.troubled) {
      this.troubled = true;
      this.deps.onEvent?.({ kind: 'connectionTrouble', message });
    }
  }

  /** The service forgot the task: its answer may be in its thread (deps.recover); else it is given up. */
  private recoverOrGiveUp(task: TrackedTask, reason: EndReason): void {
    const recover = this.deps.recover;
    if (!recover) return this.giveUp(task.id, reason);
    this.schedules.delete(task.id);
    this.recovering.add(task.id);
    void recover(task, this.aborter.signal)
      .catch(e => {
        this.deps.log?.warn(`reading the thread of ${task.id} failed: ${messageOf(e)}`);
        return undefined;
      })
      .then(found => {
        if (this.disposed) return;
        if (!found) return this.giveUp(task.id, reason);
        this.deps.log?.info(`task ${task.id}: its state expired; its answer was read from thread ${String(found.conversationId ?? '?')}`);
        return this.deps.store.finish(task.id, found);
      })
      .catch(e => this.deps.log?.warn(`could not record ${task.id}: ${messageOf(e)}`))
      .finally(() => this.recovering.delete(task.id));
  }

  /** Records the task as failed for `reason` and stops asking about it. */
  private giveUp(taskId: string, reason: EndReason): void {
    void this.deps.store.finish(taskId, { status: 'failed', reason }).catch(e => this.deps.log?.warn(`could not record ${taskId}: ${messageOf(e)}`));
    this.schedules.delete(taskId);
  }

  private recovered(): void {
    if (!this.troubled) return;
    this.troubled = false;
    this.deps.onEvent?.({ kind: 'recovered' });
  }
}
