/**
 * Tells the user when a task ends, exactly once per task: opens a completed result beside the code and
 * offers Open / Copy / Review Changes… or Apply to Source… as the answer allows (tasks/offers.ts; a preview to
 * accept, never a silent edit); a failed task opens nothing but says why.
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { Disposable } from '../disposable';
import type { Config } from '../config';
import { showResult } from '../documents/results';
import { inert } from '../errors';
import { Actions, noReasonGiven, taskStatusText } from '../vocabulary';
import type { Logger } from '../log';
import type { TrackedTask } from '../tasks/model';
import { offersOf } from '../tasks/offers';
import type { ResultView } from '../tasks/resultView';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';

export class CompletionNotifier extends Disposable {
  constructor(
    private readonly store: TaskStore,
    private readonly ui: UserInterface,
    private readonly log: Logger,
    private readonly config: Pick<Config, 'settings'>,
    /** The rendered result view; without it (or with resultView "markdown") results open as markdown. */
    private readonly resultView?: Pick<ResultView, 'show' | 'panelOf'>,
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
      // A chat answer or the tool's result shows this outcome already: a tab and a toast would repeat it.
      const shownElsewhere = this.store.isClaimed(task.id);
      if (!(await this.store.markNotified(task.id))) return;
      this.log.info(`task ${task.id} ${task.status}${task.error ? `: ${task.error}` : ''}${shownElsewhere ? ' (shown in chat)' : ''}`);
      if (shownElsewhere) return;
      // A button pressed after the task was removed (Clear Finished) does nothing: a toast cannot be closed.
      const run = async (command: string) => {
        if (this.store.get(task.id)) await vscode.commands.executeCommand(command, task.id);
      };
      if (task.status === 'completed' && !task.error) {
        const { openResultOnCompletion, resultView } = this.config.settings;
        const rendered = !!this.resultView && resultView === 'rendered';
        let opened = rendered && !!this.resultView?.panelOf?.(task.id);
        if (openResultOnCompletion) {
          if (rendered) await this.resultView!.show(task, { preserveFocus: true });
          else await showResult(task, { preserveFocus: true, stillWanted: () => this.store.get(task.id) !== undefined });
          opened = true;
        }
        // No button changes a file without a preview: "Apply to Source…" opens a diff to accept or discard.
        // "Open" only when the result is not open already.
        const open = vscode.l10n.t('Open');
        const copy = vscode.l10n.t('Copy');
        const apply = vscode.l10n.t('Apply to Source…');
        // An answer that names files is reviewed hunk by hunk in the Refactor Preview (nothing written before Apply).
        const review = vscode.l10n.t('Review Changes…');
        // Only what can do something with this answer (tasks/offers.ts): no Apply for an answer without code.
        const offers = offersOf(task);
        const landing = [...(offers.review ? [review] : []), ...(offers.apply ? [apply] : [])];
        const buttons = [...(opened ? [] : [open]), copy, ...landing];
        const action = await this.ui.info(vscode.l10n.t('Multi-Agent task done: {0}', inert(task.title)), ...buttons);
        if (action === open) await run(Commands.openResult);
        if (action === copy) await run(Commands.copyResult);
        if (action === apply) await run(Commands.applyToSource);
        if (action === review) await run(Commands.reviewChanges);
      } else {
        // The reason is server text: shown inert, never as a link or a command.
        const reason = task.error ? inert(task.error) : noReasonGiven();
        const showLog = Actions.showLog();
        // A task sent from code can go again (Run Again asks first and shows what goes).
        const runAgain = vscode.l10n.t('Run Again');
        const action = await this.ui.error(
          task.status === 'completed'
            ? vscode.l10n.t('Multi-Agent task "{0}" has no result: {1}', inert(task.title), reason)
            : vscode.l10n.t('Multi-Agent task "{0}" {1}: {2}', inert(task.title), taskStatusText(task), reason),
          ...(task.source ? [runAgain] : []),
          showLog,
        );
        if (action === runAgain) await run(Commands.runAgain);
        if (action === showLog) await vscode.commands.executeCommand(Commands.showLog);
      }
    } catch (e) {
      this.log.warn(`could not announce ${task.id}: ${(e as Error).message}`);
    }
  }
}
