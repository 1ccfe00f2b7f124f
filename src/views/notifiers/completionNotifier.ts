/**
 * Tells the user when a task ends, exactly once per task: opens a completed result beside the code (the Open
 * offer's command, which knows how a result opens) and offers what the task offers on this surface
 * (tasks/offers.ts: Open Result, Copy Result, Review Changes… or Apply to Source…; a preview to accept, never a
 * silent edit); a failed task opens nothing but says why, and offers Run Again where it can.
 */
import * as vscode from 'vscode';
import { type CheckStart, runsOnCompletion } from '../../tasks/checking/policy';
import { Commands } from '../../constants';
import { Disposable } from '../../disposable';
import type { Config } from '../../config';
import { inert } from '../../errors';
import { Actions, noReasonGiven, taskStatusText } from '../../vocabulary';
import type { Logger } from '../../log';
import type { TrackedTask } from '../../tasks/model';
import { type TaskOffer, offer, offersOf } from '../../tasks/offers';
import type { ResultView } from '../../tasks/resultView';
import type { TaskStore } from '../../tasks/store/taskStore';
import type { UserInterface } from '../../ui';

export class CompletionNotifier extends Disposable {
  constructor(
    private readonly store: TaskStore,
    private readonly ui: UserInterface,
    private readonly log: Logger,
    private readonly config: Pick<Config, 'settings' | 'trusted'>,
    /** The rendered result view: a result open there is not offered Open again. */
    private readonly resultView?: Pick<ResultView, 'panelOf'>,
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
      // `check.onComplete` (the user's own settings): the proposal is checked at once, with a command already set or
      // confirmed (a chat answer runs its own check and reports it there).
      if (runsOnCompletion(task, this.config.settings.check, this.config.trusted)) {
        void vscode.commands.executeCommand(offer('check').command, task.id, { unasked: true } satisfies CheckStart);
      }
      // A button pressed after the task was removed (Clear Finished) does nothing: a toast cannot be closed.
      const run = async (chosen: TaskOffer | undefined, ...args: unknown[]) => {
        if (chosen && this.store.get(task.id)) await vscode.commands.executeCommand(chosen.command, task.id, ...args);
      };
      if (task.status === 'completed' && !task.error) {
        let opened = !!this.resultView?.panelOf?.(task.id);
        if (this.config.settings.openResultOnCompletion) {
          // Opened as Open Result opens it (rendered or raw markdown), keeping the focus where it is.
          await run(offer('open'), { preserveFocus: true });
          opened = true;
        }
        // Only what this task offers here (tasks/offers.ts): no Apply for an answer without code, no Open when it is open.
        const offers = offersOf(task, 'notification').filter(o => !(opened && o.id === 'open'));
        // Issue 43: code that lands nowhere is said, never left to a silent Open and Copy.
        const unlanded = task.unlandedCode
          ? ' ' + vscode.l10n.t('Its code lands nowhere by itself: it names no file of this workspace in a form Review Changes… reads, and is not for code you sent. Open it to copy what you need, or ask again naming the file.')
          : '';
        const action = await this.ui.info(vscode.l10n.t('Multi-Agent task done: {0}', inert(task.title)) + unlanded, ...offers.map(o => vscode.l10n.t(o.label)));
        await run(offers.find(o => vscode.l10n.t(o.label) === action));
      } else {
        // The reason is server text: shown inert, never as a link or a command.
        const reason = task.error ? inert(task.error) : noReasonGiven();
        const showLog = Actions.showLog();
        // A task sent from code can go again (Run Again asks first and shows what goes).
        const offers = offersOf(task, 'failureNotification');
        const action = await this.ui.error(
          task.status === 'completed'
            ? vscode.l10n.t('Multi-Agent task "{0}" has no result: {1}', inert(task.title), reason)
            : vscode.l10n.t('Multi-Agent task "{0}" {1}: {2}', inert(task.title), taskStatusText(task), reason),
          ...offers.map(o => vscode.l10n.t(o.label)),
          showLog,
        );
        await run(offers.find(o => vscode.l10n.t(o.label) === action));
        if (action === showLog) await vscode.commands.executeCommand(Commands.showLog);
      }
    } catch (e) {
      this.log.warn(`could not announce ${task.id}: ${(e as Error).message}`);
    }
  }
}
