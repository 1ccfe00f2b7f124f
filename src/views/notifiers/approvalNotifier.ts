/**
 * Tells the user once per task that it waits for their approval in the web console, with a button that
 * opens it. The task stays tracked (slowly) and its result opens when it completes: never "run it again".
 */
import * as vscode from 'vscode';
import { Disposable } from '../../disposable';
import { inert } from '../../errors';
import type { Logger } from '../../log';
import { type TrackedTask, isAwaitingApproval } from '../../tasks/model';
import type { TaskStore } from '../../tasks/store/taskStore';
import type { UserInterface } from '../../ui';

export class ApprovalNotifier extends Disposable {
  constructor(
    private readonly store: TaskStore,
    private readonly ui: UserInterface,
    private readonly log: Logger,
    /** The web console's address (from the user's settings, never from the server). */
    private readonly consoleUrl: () => string,
  ) {
    super();
    this._register(store.onDidChange(e => isAwaitingApproval(e.task) && void this.tell(e.task)));
  }

  /** Tasks that paused while no window was listening. */
  catchUp(): void {
    for (const task of this.store.all()) if (isAwaitingApproval(task)) void this.tell(task);
  }

  private async tell(task: TrackedTask): Promise<void> {
    try {
      if (!(await this.store.markApprovalNotified(task.id))) return;
      this.log.info(`task ${task.id} waits for approval${task.approval?.agentName ? ` (${task.approval.agentName})` : ''}`);
      const open = vscode.l10n.t('Open Web Console');
      const who = task.approval?.agentName ? ` (${inert(task.approval.agentName)})` : '';
      const action = await this.ui.warn(
        vscode.l10n.t(
          'Multi-Agent task "{0}" waits for your approval{1}. Approve it in the web console: the same task then goes on, and its result opens here.',
          inert(task.title),
          who,
        ),
        open,
      );
      if (action === open) await vscode.env.openExternal(vscode.Uri.parse(this.consoleUrl()));
    } catch (e) {
      this.log.warn(`could not tell about the approval of ${task.id}: ${(e as Error).message}`);
    }
  }
}
