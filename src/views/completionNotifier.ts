/**
 * Tells the user when a task ends, exactly once per task: opens a completed result beside the code and
 * offers Open / Copy / Insert at Cursor; a failed task opens nothing but says why.
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { Disposable } from '../disposable';
import { readSettings } from '../config';
import type { Logger } from '../log';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';
import { showResult } from './resultDocuments';

export class CompletionNotifier extends Disposable {
  constructor(
    private readonly store: TaskStore,
    private readonly ui: UserInterface,
    private readonly log: Logger,
  ) {
    super();
    this._register(store.onDidChange(e => e.kind === 'finished' && void this.announce(e.task)));
  }

  /** Announces tasks that finished while no window was listening (e.g. completed during a reload). */
  async catchUp(): Promise<void> {
    for (const task of this.store.all()) {
      if (task.finishedAt && !task.notified && task.status !== 'processing') await this.announce(task);
    }
  }

  private async announce(task: TrackedTask): Promise<void> {
    try {
      if (!(await this.store.markNotified(task.id))) return;
      this.log.info(`task ${task.id} ${task.status}${task.error ? `: ${task.error}` : ''}`);
      if (task.status === 'completed' && !task.error) {
        if (readSettings().settings.openResultOnCompletion) await showResult(task, { preserveFocus: true, stillWanted: () => this.store.get(task.id) !== undefined });
        const action = await this.ui.info(`Multi-Agent task done: ${task.title}`, 'Open', 'Copy', 'Insert at Cursor');
        if (action === 'Open') await vscode.commands.executeCommand(Commands.openResult, task.id);
        if (action === 'Copy') await vscode.commands.executeCommand(Commands.copyResult, task.id);
        if (action === 'Insert at Cursor') await vscode.commands.executeCommand(Commands.insertResult, task.id);
      } else if (task.status === 'awaiting_approval') {
        await this.ui.warn(`Multi-Agent task "${task.title}" needs approval: ${task.error ?? 'approve it in the web console.'}`);
      } else {
        const action = await this.ui.error(`Multi-Agent task "${task.title}" ${task.status === 'completed' ? 'has no result' : task.status}: ${task.error ?? 'no reason given.'}`, 'Show Log');
        if (action === 'Show Log') await vscode.commands.executeCommand(Commands.showLog);
      }
    } catch (e) {
      this.log.warn(`could not announce ${task.id}: ${(e as Error).message}`);
    }
  }
}
