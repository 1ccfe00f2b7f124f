/**
 * Follows running tasks over the service's event stream where it offers one: up to `maxStreams` at once,
 * every state to the store, the final one through the poller's completion. A stream the platform cuts after
 * a long life is reopened at once; on any other failure the task goes back to polling and the stream is
 * tried again with backoff; a stream the service does not offer to this key is switched off for every task
 * until the settings or the key change.
 */
import { type TrackedTask, isFinished } from '../model';
import { approvalInterval, streamRetryDelay, workingStretch } from './pollPolicy';
import { completeTask } from './pollReads';
import { type Clock, type PollStats, type PollerApi, type PollerDeps, type PollerSettings, type TaskSchedule, kindOf } from './pollTypes';
import { messageOf } from '../../format';

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

/** What the follower needs of the poller that runs it. */
export interface StreamHost {
  readonly deps: PollerDeps;
  readonly clock: Clock;
  readonly stats: PollStats;
  /** Aborted when the poller is disposed. */
  readonly signal: AbortSignal;
  focused(): boolean;
  /** The task is finished and recorded: stop scheduling it. */
  finished(taskId: string): void;
  /** A stream ended: look at the schedule again. */
  wake(): void;
}

export class StreamFollower {
  /** The service does not offer the stream to this key: every task polls until `reset()`. */
  private unsupported = false;

  constructor(private readonly host: StreamHost) {}

  /** Settings or the key changed: offer the stream another chance. */
  reset(): void {
    this.unsupported = false;
  }

  /** Opens a stream for each running task that has none and may try one now, up to `maxStreams` open. */
  open(running: readonly TrackedTask[], schedules: ReadonlyMap<string, TaskSchedule>, settings: PollerSettings, now: number): void {
    if (!settings.useStream || this.unsupported) return;
    const api = this.host.deps.api();
    if (!api.streamTask) return;
    let open = [...schedules.values()].filter(s => s.streaming).length;
    for (const task of running) {
      if (open >= settings.maxStreams) return;
      const s = schedules.get(task.id)!;
      if (s.streaming || s.inFlight || s.streamRetryAt > now) continue;
      open++;
      void this.follow(task.id, s, api);
    }
  }

  private async follow(taskId: string, s: TaskSchedule, api: PollerApi): Promise<void> {
    const { deps, clock } = this.host;
    const controller = new AbortController();
    const onDispose = () => controller.abort();
    this.host.signal.addEventListener('abort', onDispose, { once: true });
    s.streaming = controller;
    this.host.stats.streamsOpened++;
    const openedAt = clock.now();
    try {
      const final = await api.streamTask!(taskId, {
        signal: controller.signal,
        onState: state => {
          s.streamFailures = 0;
          if (!isFinished(state)) deps.store.observe(taskId, state);
        },
      });
      if (!isFinished(final)) {
        // The stream ended at a pause (awaiting approval): the task resumes later; ask about it slowly.
        deps.store.observe(taskId, final);
        Object.assign(s, workingStretch(s, final, clock.now()));
        s.intervalMs = approvalInterval(deps.settings(), this.host.focused());
        s.nextAt = clock.now() + s.intervalMs;
        s.streamRetryAt = s.nextAt;
      } else if (await completeTask(deps, taskId, final, controller.signal, this.host.stats)) {
        this.host.finished(taskId);
      } else {
        // The stream said done but /results does not have it yet: poll on, and do not reopen the stream at once.
        s.streamRetryAt = clock.now() + Math.max(s.intervalMs, deps.settings().minIntervalMs) * 4;
        s.nextAt = clock.now() + s.intervalMs;
      }
    } catch (e) {
      if (controller.signal.aborted || this.host.signal.aborted) return;
      this.failed(taskId, s, e, clock.now() - openedAt);
    } finally {
      this.host.signal.removeEventListener('abort', onDispose);
      if (s.streaming === controller) s.streaming = undefined;
      this.host.wake();
    }
  }

  /** The stream of a task that is not finished failed after `openMs`. */
  private failed(taskId: string, s: TaskSchedule, error: unknown, openMs: number): void {
    const { deps, clock } = this.host;
    const kind = kindOf(error);
    if (!STREAM_OFF_KINDS.has(kind ?? '') && kind !== 'streamEnded' && openMs >= deps.settings().maxIntervalMs) {
      // Open longer than the longest poll interval, then ended without a terminal event: the platform cuts
      // every stream after a while (800 s). Not a failure: reopen it at once (its first event is the state
      // now), without a status read in between and without backoff.
      s.streamFailures = 0;
      s.streamRetryAt = clock.now();
      s.nextAt = clock.now() + s.intervalMs;
      deps.log?.info(`stream for ${taskId} ended after ${Math.round(openMs / 1000)} s (${messageOf(error)}); reconnecting`);
      return;
    }
    if (kind === 'streamEnded') {
      // The stream's `error` event: the task failed, was canceled, or is unknown. /status says which, now.
      s.streamRetryAt = clock.now() + deps.settings().minIntervalMs * 4;
      deps.log?.info(`stream for ${taskId} ended (${messageOf(error)}); reading its status`);
    } else if (STREAM_OFF_KINDS.has(kind ?? '')) {
      // The service does not offer the stream to this key, or sends what we cannot read: poll every task
      // from now on (until the settings or the key change), instead of reconnecting in a loop.
      this.unsupported = true;
      deps.log?.info(`stream unavailable (${messageOf(error)}); following tasks by polling`);
      deps.onEvent?.({ kind: 'streamUnavailable', message: messageOf(error) });
    } else {
      // Dropped mid-task: poll meanwhile, and reconnect with backoff.
      s.streamFailures++;
      const backoff = streamRetryDelay(s.streamFailures);
      s.streamRetryAt = clock.now() + backoff;
      deps.log?.info(`stream for ${taskId} dropped (${messageOf(error)}); polling, reconnect in ${backoff} ms`);
    }
    s.nextAt = clock.now();
  }
}
