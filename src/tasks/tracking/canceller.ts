/**
 * Cancel on the service (`POST {engine}/api/v1/tasks/{id}/cancel`): the task stops running and costing
 * money. The store shows `canceled` only once the service confirms; a task that had finished first keeps
 * its real outcome (the poller reads it).
 */
import * as vscode from 'vscode';
import type { ApiService } from '../../apiService';
import type { TaskStore } from '../store/taskStore';

export type CancelOutcome =
  /** The service confirmed: the task is canceled there and here. */
  | 'canceled'
  /** The service says the task had already ended; its outcome arrives as usual. */
  | 'alreadyFinished'
  /** The earlier API form has no cancel: only Stop Tracking is possible. */
  | 'unsupported';

export class TaskCanceller {
  constructor(
    private readonly api: ApiService,
    private readonly store: TaskStore,
    private readonly poller: { forget(taskId: string): void; wake(): void },
  ) {}

  async cancel(taskId: string): Promise<CancelOutcome> {
    const client = this.api.client();
    if (client.form === 'earlier') return 'unsupported';
    const answer = await client.cancelTask(taskId);
    if (answer.status !== undefined && answer.status !== 'canceled') {
      this.poller.wake();
      return 'alreadyFinished';
    }
    this.poller.forget(taskId);
    await this.store.markNotified(taskId); // the user's own action: no "task canceled" popup
    await this.store.finish(taskId, { status: 'canceled', error: vscode.l10n.t('Canceled on the service at your request.') });
    return 'canceled';
  }
}
