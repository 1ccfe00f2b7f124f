/**
 * What a task produced, read once it finishes: the stream's compacted events drop the generated files, and
 * the first `complete` may come before the service saved the task to its thread, so /status is read once at
 * completion (and again, twice at most, until it names the thread). A completed task whose result was too
 * large to read inline is then read from that thread, or told plainly why it cannot be.
 */
import { Disposable } from '../../disposable';
import type { Logger } from '../../log';
import { resultBeyondInlineLimit } from '../../vocabulary';
import type { ObservedState, TrackedTask } from '../model';
import type { TaskStore } from '../store/taskStore';
import { type ThreadReader, answerInThread } from './threadAnswer';

export interface DetailsApi extends ThreadReader {
  getTaskStatus(taskId: string, call?: { signal?: AbortSignal; retry?: false }): Promise<ObservedState>;
  readonly form: 'current' | 'earlier';
}

/** When /status is read again for the thread's id, after the first read, ms. */
export const THREAD_RECHECK_MS = [1500, 5000] as const;

export class TaskDetails extends Disposable {
  private readonly aborter = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Reads under way, for tests. */
  readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: TaskStore,
    private readonly api: () => DetailsApi,
    private readonly log: Logger,
  ) {
    super();
    this._register(store.onDidChange(e => e.kind === 'finished' && this.track(this.read(e.task))));
    this._register({ dispose: () => (this.aborter.abort(), this.timers.forEach(clearTimeout)) });
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch(e => this.log.warn(`details of a finished task: ${(e as Error).message}`));
    this.pending.add(guarded);
    void guarded.finally(() => this.pending.delete(guarded));
  }

  private async read(task: TrackedTask): Promise<void> {
    // Stopped here, not by the service: there is nothing new to read.
    if (task.trackingStopped || task.status === 'canceled') return;
    let api: DetailsApi;
    try {
      api = this.api();
    } catch {
      return; // no usable settings: the poller already says so
    }
    if (api.form === 'earlier') return;
    for (let attempt = 0; attempt <= THREAD_RECHECK_MS.length; attempt++) {
      if (attempt > 0) await this.sleep(THREAD_RECHECK_MS[attempt - 1]);
      if (this.aborter.signal.aborted || !this.store.get(task.id)) return;
      let state: ObservedState;
      try {
        state = await api.getTaskStatus(task.id, { signal: this.aborter.signal, retry: false });
      } catch (e) {
        // Expired, too large, or unreachable: what the task has is what it keeps.
        this.log.info(`details of ${task.id}: /status not read (${(e as Error).message})`);
        break;
      }
      await this.store.enrich(task.id, state);
      if (this.store.get(task.id)?.conversationId || task.status !== 'completed') break;
    }
    const now = this.store.get(task.id);
    if (now?.status === 'completed' && now.resultChars === undefined) await this.resultFromThread(api, now);
  }

  /** A completed task without its result (too large inline): its thread's copy, or words saying why not. */
  private async resultFromThread(api: DetailsApi, task: TrackedTask): Promise<void> {
    if (!task.conversationId) return;
    try {
      const { state } = await answerInThread(api, task, task.conversationId, this.aborter.signal);
      if (typeof state?.result === 'string') {
        await this.store.recordResult(task.id, state.result);
        this.log.info(`task ${task.id}: the result was read from thread ${task.conversationId}`);
        return;
      }
    } catch (e) {
      this.log.info(`task ${task.id}: thread ${task.conversationId} not read (${(e as Error).message})`);
    }
    await this.store.explainMissingResult(task.id, resultBeyondInlineLimit(true));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise(resolve => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}
