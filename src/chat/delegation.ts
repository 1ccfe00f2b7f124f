/**
 * What the chat participant and the language model tool share: turning files and selections into the
 * code of a task, sending it through the one submission pipeline, following it in the task store until
 * it finishes, and cancelling it on the service when the chat request is cancelled.
 */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import type { Settings } from '../config';
import { UserFacingError, messageOf } from '../errors';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { ThreadStore } from '../stores/threadStore';
import { type AgentProgress, type SourceRef, type TrackedTask, isFinished } from '../tasks/model';
import { codeFrom } from '../tasks/sending/code';
import { type CodeContext, describeLocation, fencedBlock } from '../tasks/sending/prompt';
import type { SubmissionPipeline, TaskRequest } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import type { CodeEditors } from '../tasks/sending/codeEditors';
import type { UserInterface } from '../ui';
import { promptTooLong } from '../vocabulary';
import { offer } from '../tasks/offers';

/** Shared with the MCP server's tools (tasks/sending/delegate.ts). */
export { describeAgents } from '../tasks/sending/delegate';

export interface ChatDeps {
  log: Logger;
  keys: Pick<KeyStore, 'getApiKey'>;
  store: TaskStore;
  pipeline: Pick<SubmissionPipeline, 'send' | 'settings'>;
  threads: Pick<ThreadStore, 'create' | 'available'>;
  /** Asks before a paid task goes with a default instruction; without it, such a request is not sent. */
  ui?: Pick<UserInterface, 'confirm'>;
  /** The editor `/file` sends (the last one holding code: the Chat view has the focus). */
  editors?: Pick<CodeEditors, 'current'>;
  /** The workspace is trusted (a check runs only then: `runsOnCompletion`). */
  config?: Pick<Config, 'trusted'>;
}

/** The code of a task and where it came from (what Apply to Source writes back to). */
export interface TaskCode {
  context: CodeContext;
  source: SourceRef;
  /** The whole document's text when the code was taken (kept for Review Changes). */
  documentText?: string;
}

/** A whole document or a range of it as task code (an empty or whole-document range sends the whole file). */
export function codeOf(document: vscode.TextDocument, range?: vscode.Range): TaskCode {
  const partial = range && !range.isEmpty && !range.isEqual(document.validateRange(new vscode.Range(0, 0, document.lineCount, 0)));
  return codeFrom(document, partial ? range : undefined);
}

/** More code than the task's one `code` slot: inlined into the instruction, each in its own fence. */
export function withExtraCode(instruction: string, extra: TaskCode[]): string {
  let text = instruction.trim();
  for (const { context } of extra) text += `\n\nAlso consider ${describeLocation(context)}:\n\n${fencedBlock(context.code, context.languageId)}`;
  return text;
}

export type TaskEnd = { task: TrackedTask; result: string | undefined };

/**
 * Sends `request` and resolves when the task finishes (any terminal status) or is removed from the store.
 * `onProgress` hears each change of the agents. Cancelling `token` cancels the task on the service and
 * rejects with a CancellationError.
 */
export async function runTask(
  deps: ChatDeps,
  request: TaskRequest,
  token: vscode.CancellationToken,
  options: { settings?: Partial<Settings>; onSent?: (task: TrackedTask) => void; onProgress?: (agents: AgentProgress[], task: TrackedTask) => void } = {},
): Promise<TaskEnd> {
  const settings = { ...deps.pipeline.settings(), ...definedOnly(options.settings ?? {}) };
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  const outcome = await deps.pipeline.send(request, settings);
  if (outcome.kind === 'tooLong') throw new UserFacingError(promptTooLong(outcome.length, 'chat'));
  options.onSent?.(outcome.task);
  return followTask(deps, outcome.task, token, options);
}

/**
 * Follows a task already sent (by `runTask`, or Ask the Team to Fix from chat) and resolves when it finishes or
 * is removed; the chat shows its outcome itself. Cancelling `token` cancels it on the service.
 */
export async function followTask(
  deps: Pick<ChatDeps, 'store' | 'log'>,
  sent: TrackedTask,
  token: vscode.CancellationToken,
  options: { onProgress?: (agents: AgentProgress[], task: TrackedTask) => void } = {},
): Promise<TaskEnd> {
  // The chat shows the outcome itself: no result tab, no toast for it (it would appear twice).
  const disposables: vscode.Disposable[] = [deps.store.claim(sent.id)];
  try {
    const finished = new Promise<TrackedTask | undefined>(resolve => {
      disposables.push(
        deps.store.onDidChange(({ kind, task }) => {
          if (task.id !== sent.id) return;
          if (kind === 'removed') resolve(undefined);
          else if (kind === 'progress' && task.agents) options.onProgress?.(task.agents, task);
          else if (isFinished(task)) resolve(task);
        }),
      );
      // It may have finished, or made progress, between the send and the subscription.
      const now = deps.store.get(sent.id);
      if (now && isFinished(now)) resolve(now);
      else if (now?.agents) options.onProgress?.(now.agents, now);
    });
    const cancelled = new Promise<'cancelled'>(resolve => {
      disposables.push(token.onCancellationRequested(() => resolve('cancelled')));
      if (token.isCancellationRequested) resolve('cancelled');
    });
    const end = await Promise.race([finished, cancelled]);
    if (end === 'cancelled') {
      await cancelOnService(deps.log, sent.id);
      throw new vscode.CancellationError();
    }
    if (!end) throw new UserFacingError(vscode.l10n.t('The task "{0}" was removed from the Tasks view before it finished.', sent.title));
    return { task: end, result: end.status === 'completed' ? await deps.store.readResult(end.id) : undefined };
  } finally {
    for (const d of disposables) d.dispose();
  }
}

/**
 * Cancels the task on the service (`multiAgent.cancelTask`, which offers Stop Tracking where the service
 * cannot cancel). Never throws.
 */
export async function cancelOnService(log: Logger, taskId: string): Promise<void> {
  try {
    log.info(`chat: request cancelled, cancelling task ${taskId} on the service`);
    await vscode.commands.executeCommand(offer('cancel').command, taskId);
  } catch (e) {
    log.warn(`chat: cancelling task ${taskId} failed: ${messageOf(e)}`);
  }
}

/**
 * What a chat answer says while the agents work, only when it changes meaningfully: a quarter of the work
 * passed, an agent finished or stopped ("The agents are working: about 50%, 1 of 4 done…"), never a line of
 * percentages per tick (issue 26). Empty before the first quarter (the "working on" line stands).
 */
export function agentsMilestone(agents: readonly Pick<AgentProgress, 'status' | 'progress'>[]): string {
  if (!agents.length) return '';
  const done = agents.filter(a => a.status === 'completed').length;
  const stopped = agents.filter(a => a.status === 'failed' || a.status === 'timeout').length;
  const mean = agents.reduce((sum, a) => sum + (a.status === 'completed' ? 1 : Math.min(1, Math.max(0, a.progress ?? 0))), 0) / agents.length;
  const quarter = Math.min(75, Math.floor(mean * 4) * 25);
  if (!done && !stopped && !quarter) return '';
  const parts = [quarter ? vscode.l10n.t('about {0}%', quarter) : '', done ? vscode.l10n.t('{0} of {1} done', done, agents.length) : '', stopped ? vscode.l10n.t('{0} stopped', stopped) : ''];
  return vscode.l10n.t('The agents are working: {0}…', parts.filter(Boolean).join(', '));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
