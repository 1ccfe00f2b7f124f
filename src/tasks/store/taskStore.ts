/**
 * The tasks the user sent, persisted in globalState, and their results cached as files under
 * globalStorageUri (`TaskFiles`, taskFiles.ts), so a result still opens after a reload or offline. Fires
 * `onDidChange` only on real transitions; views and the status bar render from it.
 */
import * as vscode from 'vscode';
import { StateKeys } from '../../constants';
import { Disposable } from '../../disposable';
import { notFollowed } from '../../vocabulary';
import { answerShapeOf } from '../offers';
import { sameDetails, withDetails } from '../tracking/activity';
import { finishedTask, modelSaid } from './finishedTask';
import type { CheckRecord, FixRound } from '../checking/types';
import { MAX_KEPT_CHECKS, type ObservedState, type TrackedTask, agentsOf, approvalOf, isFinished, meanProgress, sameAgents } from '../model';
import type { PollerStore } from '../tracking/poller';
import { type SentCandidate, type SentFile, boundSent } from './sentTexts';
import { ProgressEvents } from './progressEvents';
import { TaskFiles } from './taskFiles';

const PROGRESS_SAVE_MS = 1000;

export type TaskChangeKind = 'added' | 'progress' | 'finished' | 'removed' | 'updated';

export interface TaskChange {
  kind: TaskChangeKind;
  task: TrackedTask;
}

export class TaskStore extends Disposable implements PollerStore {
  private readonly tasks = new Map<string, TrackedTask>();
  /** Removed here: another window's older copy must not bring them back. */
  private readonly removed = new Set<string>();
  private readonly changed = this._register(new vscode.EventEmitter<TaskChange>());
  readonly onDidChange = this.changed.event;
  private saving: Promise<void> = Promise.resolve();
  /** Progress is written at most once per PROGRESS_SAVE_MS: a flood of events must not flood the disk. */
  private progressTimer: NodeJS.Timeout | undefined;
  /** Tasks whose outcome a waiting caller shows itself (see `claim`). */
  private readonly claimed = new Set<string>();
  private readonly progressEvents = new ProgressEvents(taskId => {
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return false;
    this.fire({ kind: 'progress', task });
    return true;
  });
  /** State writes sent to the memento and change events fired, for tests and benchmarks. */
  readonly stats = { writes: 0, events: 0 };
  private readonly files: TaskFiles;

  /**
   * `redact` cuts secrets out of server text (a failure reason, a result) before it is stored: a server
   * that echoes the key must not get it persisted.
   */
  constructor(
    private readonly memento: vscode.Memento,
    storageUri: vscode.Uri,
    private readonly redact: (text: string) => string = text => text,
  ) {
    super();
    this.files = new TaskFiles(storageUri);
    this._register({ dispose: () => this.flushProgress() });
    this._register(this.progressEvents);
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
    this.fire({ kind: 'added', task });
    await this.save();
  }

  observe(taskId: string, state: ObservedState): void {
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return;
    // A state that lists no agents (`agent_statuses: []`, a stream's `start`, a /status over 3 MiB) says
    // nothing about them: keep the ones known.
    const agents = agentsOf(state) ?? task.agents;
    const progress = meanProgress(agents);
    // A pause for approval in the web console: the same task resumes afterwards (kind 'progress', status
    // 'awaiting_approval', `approval` set; back to 'processing' clears it).
    const approval = state.status === 'awaiting_approval' ? approvalOf(state) : undefined;
    const sameApproval = task.approval?.agentName === approval?.agentName && task.approval?.permission === approval?.permission;
    // Tool activity, files, sources, budget and thread come with the state too (tasks/tracking/activity.ts).
    const detailed = withDetails(task, state);
    const modelUsed = modelSaid(state, this.redact) ?? task.modelUsed;
    if (task.status === state.status && task.progress === progress && sameAgents(task.agents, agents) && sameApproval && sameDetails(task, detailed) && task.modelUsed === modelUsed) return;
    const next: TrackedTask = { ...detailed, status: state.status, progress, agents, updatedAt: Date.now() };
    if (modelUsed) next.modelUsed = modelUsed;
    if (approval) next.approval = approval;
    else delete next.approval;
    // A record from an earlier version that took the pause for an end: it is running again.
    if (task.finishedAt !== undefined) {
      delete next.finishedAt;
      delete next.error;
    }
    this.tasks.set(taskId, next);
    // A new status (a pause for approval, running again) is told at once; progress within one is coalesced.
    if (task.status !== next.status || !sameApproval) this.progressEvents.now(taskId);
    else this.progressEvents.soon(taskId);
    this.progressTimer ??= setTimeout(() => this.flushProgress(), PROGRESS_SAVE_MS);
  }

  /** A change that is not progress: a held-back progress event of the task is dropped (this one is newer). */
  private fire(change: TaskChange): void {
    if (change.kind !== 'progress') this.progressEvents.drop(change.task.id);
    this.stats.events++;
    this.changed.fire(change);
  }

  /** Writes progress that is waiting for its timer (also on dispose, so a reload keeps the latest). */
  private flushProgress(): void {
    if (!this.progressTimer) return;
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    void this.save();
  }

  async finish(taskId: string, state: ObservedState): Promise<void> {
    if (!this.isOpen(taskId)) return;
    const result = typeof state.result === 'string' ? this.redact(state.result) : undefined;
    // The result file is written before the status flips, so "completed" always has its result on disk.
    if (result !== undefined) await this.files.writeResult(taskId, result);
    // Read again: the task may have been removed, stopped or finished (stream and poll) during the write.
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return;
    const next = finishedTask(task, state, result, this.redact);
    this.tasks.set(taskId, next);
    this.fire({ kind: 'finished', task: next });
    await this.save();
  }

  /**
   * Adds what a later read says about a finished task (a /status read once at completion: the generated files
   * the stream drops, the thread the service saved it to). Nothing else of the task changes.
   */
  async enrich(taskId: string, state: ObservedState): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || !isFinished(task)) return;
    const next = withDetails(task, state);
    if (sameDetails(task, next)) return;
    next.updatedAt = Date.now();
    await this.replace(next);
  }

  /**
   * A completed task's answer found later (in its thread, after the result could not be read inline): cached
   * like any result, and the task's "no result" reason goes.
   */
  async recordResult(taskId: string, text: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || task.status !== 'completed') return;
    const result = this.redact(text);
    await this.files.writeResult(taskId, result);
    const next: TrackedTask = { ...(this.tasks.get(taskId) ?? task), resultChars: result.length, ...answerShapeOf(task, result), updatedAt: Date.now() };
    delete next.error;
    await this.replace(next);
  }

  /** Says why a completed task has no result, once more was tried (its thread): replaces the earlier reason. */
  async explainMissingResult(taskId: string, reason: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || task.status !== 'completed' || task.resultChars !== undefined || task.error === reason) return;
    const next: TrackedTask = { ...task, error: reason, updatedAt: Date.now() };
    await this.replace(next);
  }

  private isOpen(taskId: string): boolean {
    const task = this.tasks.get(taskId);
    return !!task && !isFinished(task);
  }

  /** Marks the completion as shown; returns false when it already was (another window, an earlier run). */
  markNotified(taskId: string): Promise<boolean> {
    return this.markOnce(taskId, 'notified');
  }

  /** Marks the approval pause as told; returns false when it already was. */
  markApprovalNotified(taskId: string): Promise<boolean> {
    return this.markOnce(taskId, 'approvalNotified');
  }

  /** Sets a once-only flag; false when it was set here, in an earlier run or by another window (globalState is shared). */
  private async markOnce(taskId: string, flag: 'notified' | 'approvalNotified'): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task || task[flag]) return false;
    const elsewhere = this.memento.get<TrackedTask[]>(StateKeys.tasks, []).some(t => t?.id === taskId && t[flag]);
    this.tasks.set(taskId, { ...task, [flag]: true });
    if (elsewhere) return false;
    await this.save();
    return true;
  }

  /**
   * Stop Tracking: the task ends here, not on the service, in one transition (the views see it as no longer
   * followed, never as canceled) and without a completion popup: it was the user's own action.
   */
  async stopFollowing(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || isFinished(task)) return;
    const now = Date.now();
    const next: TrackedTask = { ...task, status: 'canceled', trackingStopped: true, notified: true, error: notFollowed('sentence'), finishedAt: now, updatedAt: now };
    delete next.approval;
    this.tasks.set(taskId, next);
    this.fire({ kind: 'finished', task: next });
    await this.save();
  }

  /**
   * A caller that shows this task's outcome itself while it waits (a chat answer, the tool's result): the
   * completion notifier then opens no tab and shows no toast. In memory only: after a reload nobody waits.
   */
  claim(taskId: string): vscode.Disposable {
    this.claimed.add(taskId);
    return { dispose: () => this.claimed.delete(taskId) };
  }

  /** Whether a caller shows this task's outcome itself (see `claim`). */
  isClaimed(taskId: string): boolean {
    return this.claimed.has(taskId);
  }

  /**
   * Follows a task again that Stop Tracking ended here: it is running once more (the poller picks it up)
   * and its outcome is announced as usual. Returns false for any other task.
   */
  async reopen(taskId: string): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task?.trackingStopped) return false;
    const next: TrackedTask = { ...task, status: 'processing', followedAgain: true, updatedAt: Date.now() };
    for (const key of ['trackingStopped', 'finishedAt', 'error', 'notified'] as const) delete next[key];
    this.tasks.set(taskId, next);
    // The shared copy first: merging would otherwise bring back its `notified` mark (marks only ever add up).
    await this.saving.catch(() => undefined);
    await this.memento.update(
      StateKeys.tasks,
      this.memento.get<TrackedTask[]>(StateKeys.tasks, []).map(t => (t?.id === taskId ? next : t)),
    );
    this.fire({ kind: 'updated', task: next });
    await this.save();
    return true;
  }

  async remove(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    this.tasks.delete(taskId);
    this.removed.add(taskId);
    this.fire({ kind: 'removed', task });
    await this.files.deleteAll(taskId);
    await this.save();
  }

  /**
   * Keeps the text of the files a task sent (bounded, see sentTexts.ts) as files under globalStorage, and
   * their hashes in the task's record. A text that cannot be written is listed as not recorded.
   */
  async recordSent(taskId: string, candidates: readonly SentCandidate[]): Promise<SentFile[] | undefined> {
    if (!candidates.length || !this.tasks.has(taskId)) return undefined;
    const { files, texts } = boundSent(candidates);
    await this.files.writeSent(taskId, texts);
    const task = this.tasks.get(taskId);
    if (!task) {
      // Removed while the texts were written: they go too.
      await this.files.deleteSent(taskId);
      return undefined;
    }
    this.tasks.set(taskId, { ...task, sent: files });
    await this.save();
    return files;
  }

  /** The text a task sent of `file`, or undefined when none was kept (or it no longer matches its hash). */
  readSent(taskId: string, file: SentFile): Promise<string | undefined> {
    return this.files.readSent(taskId, file);
  }

  /**
   * Keeps a check of the task's proposal (issue 37) with its output (already bounded and redacted by the
   * caller): the newest MAX_KEPT_CHECKS, an older one's output deleted with it.
   */
  async recordCheck(taskId: string, check: CheckRecord, output: { all: string; proposal: string }): Promise<void> {
    if (!this.tasks.has(taskId)) return;
    await this.files.writeCheckOutput(taskId, check.id, this.redact(output.all));
    // The proposal's run alone: what Ask the Team to Fix sends (the run without it would crowd its end out).
    await this.files.writeCheckOutput(taskId, `${check.id}-proposal`, this.redact(output.proposal));
    const task = this.tasks.get(taskId);
    if (!task) return void (await this.files.deleteCheckOutput(taskId, check.id));
    // The command line is the user's, and may name a secret: kept redacted like everything a check says.
    const checks = [...(task.checks ?? []), { ...check, command: this.redact(check.command) }];
    for (const old of checks.splice(0, Math.max(0, checks.length - MAX_KEPT_CHECKS))) await this.files.deleteCheckOutput(taskId, old.id);
    const next: TrackedTask = { ...task, checks, updatedAt: Date.now() };
    await this.replace(next);
  }

  /** A check's output as kept (both runs), or its proposal's run alone; undefined when it is not kept. */
  readCheckOutput(taskId: string, checkId: string, part: 'all' | 'proposal' = 'all'): Promise<string | undefined> {
    return this.files.readCheckOutput(taskId, part === 'proposal' ? `${checkId}-proposal` : checkId);
  }

  /** The file a check's output is kept in. */
  checkOutputUri(taskId: string, checkId: string): vscode.Uri {
    return this.files.checkUri(taskId, checkId);
  }

  /**
   * Marks a task sent by Ask the Team to Fix: which checked task it continues (each round listed under it), its
   * title ("Fix 1: …", not the request's first line) and that task's folder and source, so that its answer is
   * reviewed where the first one would land.
   */
  async markFix(taskId: string, fixOf: FixRound, from: Pick<TrackedTask, 'workspace' | 'source'>, title: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    const next: TrackedTask = { ...task, title, fixOf, workspace: from.workspace ?? task.workspace, source: task.source ?? from.source, updatedAt: Date.now() };
    await this.replace(next);
  }

  /** The cached result text, or undefined when there is none. */
  readResult(taskId: string): Promise<string | undefined> {
    return this.files.readResult(taskId);
  }

  /** The file a task's result is cached in. */
  resultUri(taskId: string): vscode.Uri {
    return this.files.resultUri(taskId);
  }

  /** A task's record replaced by a newer one: kept, told ('updated') and saved. */
  private async replace(next: TrackedTask): Promise<void> {
    this.tasks.set(next.id, next);
    this.fire({ kind: 'updated', task: next });
    await this.save();
  }

  /**
   * Writes are chained so an older snapshot never lands after a newer one, and merged with what other
   * windows wrote meanwhile (globalState is shared), so one window never drops another's tasks.
   */
  private save(): Promise<void> {
    // Any write carries the latest progress too.
    if (this.progressTimer) {
      clearTimeout(this.progressTimer);
      this.progressTimer = undefined;
    }
    this.stats.writes++;
    this.saving = this.saving
      .catch(() => undefined)
      .then(() => {
        this.mergeOtherWindows();
        return this.memento.update(StateKeys.tasks, [...this.tasks.values()]);
      });
    return this.saving;
  }

  private mergeOtherWindows(): void {
    for (const theirs of this.memento.get<TrackedTask[]>(StateKeys.tasks, [])) {
      if (!theirs || typeof theirs.id !== 'string' || this.removed.has(theirs.id)) continue;
      const mine = this.tasks.get(theirs.id);
      if (!mine) {
        this.tasks.set(theirs.id, theirs);
        this.fire({ kind: 'added', task: theirs });
      } else if (theirs.updatedAt > mine.updatedAt || (theirs.notified && !mine.notified)) {
        const merged = { ...(theirs.updatedAt > mine.updatedAt ? theirs : mine), notified: mine.notified || theirs.notified };
        this.tasks.set(theirs.id, merged);
        this.fire({ kind: 'updated', task: merged });
      }
    }
  }
}
