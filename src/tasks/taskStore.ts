/**
 * The tasks the user sent, persisted in globalState, and their results cached as files under
 * globalStorageUri, so a result still opens after a reload or offline. Fires `onDidChange` only on real
 * transitions; views and the status bar render from it.
 */
import * as vscode from 'vscode';
import { StateKeys } from '../constants';
import { Disposable } from '../disposable';
import { type ObservedState, type TrackedTask, agentsOf, describeTerminal, isFinished, meanProgress } from './model';
import type { PollerStore } from './poller';

export type TaskChangeKind = 'added' | 'progress' | 'finished' | 'removed' | 'updated';

export interface TaskChange {
  kind: TaskChangeKind;
  task: TrackedTask;
}

export class TaskStore extends Disposable implements PollerStore {
  private readonly tasks = new Map<string, TrackedTask>();
  private readonly changed = this._register(new vscode.EventEmitter<TaskChange>());
  readonly onDidChange = this.changed.event;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly storageUri: vscode.Uri,
  ) {
    super();
    for (const task of memento.get<TrackedTask[]>(StateKeys.tasks, [])) {
      if (task && typeof task.id === 'string') this.tasks.set(task.id, task);
    }
  }

  /** Newest first. */
  all(): TrackedTask[] {
    return [...this.tasks.values()].sort((a, b) => b.submittedAt - a.submittedAt);
  }

  running(): TrackedTask[] {
    return this.all().filter(t => !isFinished(t));
  }

  get(taskId: string): TrackedTask | undefined {
    return this.tasks.get(taskId);
  }

  async add(task: TrackedTask): Promise<void> {
    this.tasks.set(task.id, task);
    this.changed.fire({ kind: 'added', task });
    await this.save();
  }

  observe(taskId: string, state: ObservedState): void {
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return;
    const agents = agentsOf(state);
    const progress = meanProgress(agents);
    if (task.status === state.status && task.progress === progress && sameAgents(task.agents, agents)) return;
    const next: TrackedTask = { ...task, status: state.status, progress, agents, updatedAt: Date.now() };
    this.tasks.set(taskId, next);
    this.changed.fire({ kind: 'progress', task: next });
    void this.save();
  }

  async finish(taskId: string, state: ObservedState): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return;
    const result = typeof state.result === 'string' ? state.result : undefined;
    // The result file is written before the status flips, so "completed" always has its result on disk.
    if (result !== undefined) await this.writeResult(taskId, result);
    const next: TrackedTask = {
      ...task,
      status: state.status,
      progress: state.status === 'completed' ? 1 : task.progress,
      agents: agentsOf(state) ?? task.agents,
      error: state.error?.trim() || describeTerminal(state) || undefined,
      resultChars: result?.length,
      finishedAt: Date.now(),
      updatedAt: Date.now(),
    };
    if (state.status === 'completed' && result !== undefined) delete next.error;
    if (state.status === 'completed' && result === undefined) next.error = state.error ?? vscode.l10n.t('No result was returned.');
    this.tasks.set(taskId, next);
    this.changed.fire({ kind: 'finished', task: next });
    await this.save();
  }

  /** Marks the completion as shown; returns false when it already was (another window, an earlier run). */
  async markNotified(taskId: string): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task || task.notified) return false;
    this.tasks.set(taskId, { ...task, notified: true });
    await this.save();
    return true;
  }

  async remove(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    this.tasks.delete(taskId);
    this.changed.fire({ kind: 'removed', task });
    await vscode.workspace.fs.delete(this.resultUri(taskId)).then(undefined, () => undefined);
    await this.save();
  }

  /** The cached result text, or undefined when there is none. */
  async readResult(taskId: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.resultUri(taskId)));
    } catch {
      return undefined;
    }
  }

  resultUri(taskId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.storageUri, 'results', `${taskId.replace(/[^A-Za-z0-9_-]/g, '_')}.md`);
  }

  private async writeResult(taskId: string, text: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageUri, 'results'));
    await vscode.workspace.fs.writeFile(this.resultUri(taskId), new TextEncoder().encode(text));
  }

  /** Writes are chained so an older snapshot never lands after a newer one. */
  private save(): Promise<void> {
    this.saving = this.saving
      .catch(() => undefined)
      .then(() => this.memento.update(StateKeys.tasks, [...this.tasks.values()]));
    return this.saving;
  }
}

function sameAgents(a: TrackedTask['agents'], b: TrackedTask['agents']): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x.id === b[i].id && x.status === b[i].status && x.progress === b[i].progress);
}
