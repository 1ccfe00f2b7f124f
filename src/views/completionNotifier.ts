/**
 * Tells the user when a task ends, exactly once per task: opens a completed result beside the code and
 * offers Open / Copy / Apply to Source… (a diff to accept, never a silent edit); a failed task opens nothing but says why.
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { Disposable } from '../disposable';
import type { Config } from '../config';
import { showResult } from '../documents/results';
import { inert } from '../errors';
import { Actions, noReasonGiven } from '../vocabulary';
import type { Logger } from '../log';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';

export class CompletionNotifier extends Disposable {
  constructor(
    private readonly store: TaskStore,
    private readonly ui: UserInterface,
    private readonly log: Logger,
    private readonly config: Pick<Config, 'settings'>,
    /** The rendered result view; without it (or with resultView "markdown") results open as markdown. */
    private readonly resultView?: { show(task: TrackedTask, options?: { preserveFocus?: boolean }): Promise<unknown> },
  ) {
    super();
    this._register(store.onDidChange(e => e.kind === 'finished' && void this.announce(e.task)));
  }

  /** Announces tasks that finished while no window was listening (e.g. completed during a reload). */
  async catchUp(): Promise<void> {
    for (const task of this.store.all()) {
      // Not awaited: a toast left unanswered must not hold back the others.
      if (task.finishedAt && !task.notified && task.status !== 'processing') void this.announce(task);
    }
  }

  private async announce(task: TrackedTask): Promise<void> {
    try {
      if (!(await this.store.markNotified(task.id))) return;
      this.log.info(`task ${task.id} ${task.status}${task.error ? `: ${task.error}` : ''}`);
      if (task.status === 'completed' && !task.error) {
        const { openResultOnCompletion, resultView } = this.config.settings;
        if (openResultOnCompletion) {
          if (this.resultView && resultView === 'rendered') await this.resultView.show(task, { preserveFocus: true });
          else await showResult(task, { preserveFocus: true, stillWanted: () => this.store.get(task.id) !== undefined });
        }
        // No button changes a file without a preview: "Apply to Source…" opens a diff to accept or discard.
        const open = vscode.l10n.t('Open');
        const copy = vscode.l10n.t('Copy');
        const apply = vscode.l10n.t('Apply to Source…');
        // An answer that names files is reviewed hunk by hunk in the Refactor Preview (nothing written before Apply).
        const review = vscode.l10n.t('Review Changes…');
        const buttons = task.namedFiles ? [open, copy, review] : task.source ? [open, copy, apply] : [open, copy];
        const action = await this.ui.info(vscode.l10n.t('Multi-Agent task done: {0}', inert(task.title)), ...buttons);
        if (action === open) await vscode.commands.executeCommand(Commands.openResult, task.id);
        if (action === copy) await vscode.commands.executeCommand(Commands.copyResult, task.id);
        if (action === apply) await vscode.commands.executeCommand(Commands.applyToSource, task.id);
        if (action === review) await vscode.commands.executeCommand(Commands.reviewChanges, task.id);
      } else {
        // The reason is server text: shown inert, never as a link or a command.
        const reason = task.error ? inert(task.error) : noReasonGiven();
        const showLog = Actions.showLog();
        const action = await this.ui.error(
          task.status === 'completed'
            ? vscode.l10n.t('Multi-Agent task "{0}" has no result: {1}', inert(task.title), reason)
            : vscode.l10n.t('Multi-Agent task "{0}" {1}: {2}', inert(task.title), inert(task.status), reason),
          showLog,
        );
        if (action === showLog) await vscode.commands.executeCommand(Commands.showLog);
      }
    } catch (e) {
      this.log.warn(`could not announce ${task.id}: ${(e as Error).message}`);
    }
  }
}
