/**
 * Sends a task and starts tracking it. Settings are checked first: a bad value is a clear error and no
 * request. The task is stored before anything else can fail, so a submission is never lost.
 */
import * as vscode from 'vscode';
import { Actions } from '../actions';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { readSettings } from '../config';
import type { SourceRef, TrackedTask } from './model';
import { titleFrom } from './model';
import type { TaskPoller } from './poller';
import type { TaskStore } from './taskStore';

/** A problem the user can fix, shown as is (no "Show Log"). */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly actions: string[] = [],
  ) {
    super(message);
  }
}

/**
 * A submission that failed after it may have reached the service (a 5xx, a reset or timed-out
 * answer, a garbled body) is never sent again, because a duplicate task costs money. The user must
 * hear that, not "nothing was lost".
 */
function mayHaveArrived(error: unknown): UserFacingError | undefined {
  const e = error as { kind?: unknown; notSent?: unknown; message?: unknown };
  const unsure =
    e?.kind === 'server' || e?.kind === 'timeout' || e?.kind === 'responseFormat' || (e?.kind === 'connection' && e.notSent !== true);
  if (!unsure) return undefined;
  return new UserFacingError(
    vscode.l10n.t(
      'Sending the task failed ({0}). It was not sent again, so there is no duplicate; if it reached the service it is listed in the web console.',
      String(e.message).replace(/\.$/, ''),
    ),
    [Actions.showLog()],
  );
}

export interface Submission {
  instruction: string;
  prompt: string;
  source?: SourceRef;
  attachmentIds?: string[];
  attachmentNames?: string[];
  /** Run inside this thread instead of as a standalone task. */
  threadId?: string;
}

export class TaskSubmitter {
  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
    private readonly store: TaskStore,
    private readonly poller: TaskPoller,
  ) {}

  /**
   * Settings as they must be for a submission; throws a UserFacingError naming each bad value, or the
   * api layer's ConfigurationError for an address that cannot be used, before the user types anything.
   */
  checkedSettings() {
    const { settings, problems } = readSettings();
    if (problems.length) throw new UserFacingError(problems.join(' '), [Actions.openSettings()]);
    this.api.client(settings);
    return settings;
  }

  async submit(submission: Submission): Promise<TrackedTask> {
    const settings = this.checkedSettings();
    const client = this.api.client(settings);
    const gatewayKey = await this.keys.getGatewayKey();
    const sent = await (submission.threadId
      ? client.runInThread(submission.threadId, { prompt: submission.prompt, modelId: settings.modelId })
      : client.submitTask({
          prompt: submission.prompt,
          modelId: settings.modelId,
          agentCount: settings.agentCount,
          silent: settings.silent || undefined,
          mock: settings.mock || undefined,
          budgetUsd: settings.budgetUsd,
          attachmentIds: submission.attachmentIds?.length ? submission.attachmentIds : undefined,
          roleModels: settings.roleModels,
          gatewayKey,
        })
    ).catch(e => {
      throw mayHaveArrived(e) ?? e;
    });
    const now = Date.now();
    const task: TrackedTask = {
      id: sent.taskId,
      title: titleFrom(submission.instruction),
      instruction: submission.instruction,
      promptChars: [...submission.prompt].length,
      source: submission.source,
      workspace: submission.source ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(submission.source.uri))?.uri.toString() : undefined,
      modelId: settings.modelId,
      agentCount: submission.threadId ? undefined : settings.agentCount,
      threadId: submission.threadId ?? (sent.threadId !== undefined ? String(sent.threadId) : undefined),
      attachmentNames: submission.attachmentNames,
      submittedAt: now,
      updatedAt: now,
      status: sent.status || 'processing',
    };
    await this.store.add(task);
    this.poller.wake();
    return task;
  }
}
