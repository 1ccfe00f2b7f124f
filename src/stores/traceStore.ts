/**
 * Execution traces ("how the team worked"): read on demand from `{engine}/api/v1/tasks/{id}/trace`, read into
 * a bounded view (api/trace.ts), and cached with the task as a file under globalStorageUri (`traces/`), so a
 * trace still opens after a reload, offline, or after the task's hour. A trace of a finished task does not
 * change and is kept; one read while the task ran is read again once it finished. Removed with the task,
 * together with the task's produced files that were downloaded to be attached.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { type TraceView, isTraceView, readTrace } from '../api/trace';
import type { ApiService } from '../apiService';
import { Disposable } from '../disposable';
import { describeForView, errorKind, inert, messageOf } from '../errors';
import { isFinished } from '../tasks/model';
import type { TaskStore } from '../tasks/store/taskStore';
import { type TraceProblem, traceUnavailable } from '../vocabulary';

export type TraceReading =
  | { kind: 'loaded'; trace: TraceView; /** Read while the task ran: the service adds steps as agents end. */ partial: boolean }
  | { kind: 'unavailable'; problem: TraceProblem; message: string };

interface Cached {
  trace: TraceView;
  finished: boolean;
}

/**
 * The cache's form: 2 since traces are read through the transport's redaction (issue 35). A cache without it
 * may hold a key a server echoed: it is deleted and the trace read again.
 */
const CACHE_FORM = 2;

export class TraceStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<string>());
  /** Fires the task id whose trace was read (or failed to be). */
  readonly onDidChange = this.changed.event;
  private readonly loading = new Map<string, Promise<TraceReading>>();
  /** The last failure per task, so a view shows it again without asking the service again. */
  private readonly failures = new Map<string, TraceReading>();

  constructor(
    private readonly api: ApiService,
    private readonly tasks: TaskStore,
    private readonly storageUri: vscode.Uri,
  ) {
    super();
    this._register(
      tasks.onDidChange(e => {
        if (e.kind === 'removed') void this.forget(e.task.id);
      }),
    );
  }

  /** The cached trace, if there is one (no request). */
  async cached(taskId: string): Promise<TraceReading | undefined> {
    const known = await this.readCache(taskId);
    if (known) return { kind: 'loaded', trace: known.trace, partial: !known.finished };
    return this.failures.get(taskId);
  }

  /**
   * The trace: from the cache when the task had finished when it was read, else from the service (one read at
   * a time per task). Never throws: a failure is a reading with its words.
   */
  load(taskId: string, options: { refresh?: boolean } = {}): Promise<TraceReading> {
    let pending = this.loading.get(taskId);
    if (!pending) {
      pending = this.fetch(taskId, options.refresh ?? false).finally(() => this.loading.delete(taskId));
      this.loading.set(taskId, pending);
    }
    return pending;
  }

  private async fetch(taskId: string, refresh: boolean): Promise<TraceReading> {
    const known = refresh ? undefined : await this.readCache(taskId);
    if (known?.finished) return { kind: 'loaded', trace: known.trace, partial: false };
    const finished = isFinished(this.tasks.get(taskId) ?? { status: 'processing' });
    let reading: TraceReading;
    try {
      const raw = await this.api.client().getTaskTrace(taskId);
      const trace = readTrace(raw.trace);
      await this.writeCache(taskId, { trace, finished });
      this.failures.delete(taskId);
      reading = { kind: 'loaded', trace, partial: !finished };
    } catch (e) {
      const problem = problemOf(e);
      const detail = problem === 'other' ? describeForView(e) : inert(messageOf(e)).replace(/\.$/, '');
      reading = { kind: 'unavailable', problem, message: traceUnavailable(problem, detail) };
      // A cached partial trace is still better than nothing.
      if (known) reading = { kind: 'loaded', trace: known.trace, partial: true };
      else this.failures.set(taskId, reading);
    }
    this.changed.fire(taskId);
    return reading;
  }

  /** One file per task id: safe ids name it as they are, any other by its SHA-256 (as results are). */
  uriOf(taskId: string): vscode.Uri {
    const name = /^[A-Za-z0-9_-]{1,200}$/.test(taskId) ? taskId : `~${createHash('sha256').update(taskId, 'utf8').digest('hex')}`;
    return vscode.Uri.joinPath(this.storageUri, 'traces', `${name}.json`);
  }

  private async readCache(taskId: string): Promise<Cached | undefined> {
    try {
      const value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.uriOf(taskId)))) as Partial<Cached> & { form?: unknown };
      if (value.form !== CACHE_FORM) {
        await vscode.workspace.fs.delete(this.uriOf(taskId)).then(undefined, () => undefined);
        return undefined;
      }
      return isTraceView(value.trace) ? { trace: value.trace, finished: value.finished === true } : undefined;
    } catch {
      return undefined;
    }
  }

  private async writeCache(taskId: string, cached: Cached): Promise<void> {
    // A task removed meanwhile keeps no trace behind.
    if (!this.tasks.get(taskId)) return;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageUri, 'traces'));
    await vscode.workspace.fs.writeFile(this.uriOf(taskId), new TextEncoder().encode(JSON.stringify({ form: CACHE_FORM, ...cached })));
  }

  /** The task is gone: its trace goes, and so do its produced files downloaded to be attached (commands/team.ts). */
  private async forget(taskId: string): Promise<void> {
    this.failures.delete(taskId);
    await vscode.workspace.fs.delete(this.uriOf(taskId)).then(undefined, () => undefined);
    if (/^[A-Za-z0-9_-]{1,200}$/.test(taskId)) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.storageUri, 'produced', taskId), { recursive: true }).then(undefined, () => undefined);
    }
  }
}

function problemOf(error: unknown): TraceProblem {
  switch (errorKind(error)) {
    case 'authentication':
      return 'authentication';
    case 'permission':
      return 'permission';
    case 'notFound':
      return 'notFound';
    case 'tooLarge':
      return 'tooLarge';
    case 'unsupported':
      return 'earlierForm';
    default:
      return 'other';
  }
}
