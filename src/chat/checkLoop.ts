/**
 * The check loop where the user started it (issue 45): after an `@team` answer that proposes files, the chat
 * offers "Check Proposal…" as a follow-up (`/check`); the verdict is the participant's answer, and when the team
 * can fix what failed, "Ask the Team to Fix" follows (`/fix`), whose request goes in the same service thread and
 * whose answer streams here like any other, with "Check Proposal…" again. The check and the fix are the
 * commands' own (commands/check.ts), asked with `shownBy: 'chat'`: no toast and no result tab beside the chat.
 */
import * as vscode from 'vscode';
import { inert } from '../errors';
import { checkSentence } from '../tasks/checkWords';
import { type CheckStart, teamCanFix } from '../tasks/checking/policy';
import type { CheckRecord } from '../tasks/checking/types';
import { type TrackedTask, latestCheck } from '../tasks/model';
import { isOffered, offer } from '../tasks/offers';
import { type ChatDeps, agentsMilestone, followTask } from './delegation';
import { Chat } from './ids';

/** What a `@team` answer remembers for the next request of the same chat. */
export interface AgentsResultMetadata {
  threadId?: string;
  taskId?: string;
}

/** What the latest `@team` answer of this chat that names one remembers: its task, or its service thread. */
export function latestOfHistory(history: vscode.ChatContext['history'], field: keyof AgentsResultMetadata): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === Chat.participant) {
      const value = (turn.result.metadata as AgentsResultMetadata | undefined)?.[field];
      if (typeof value === 'string' && value) return value;
    }
  }
  return undefined;
}

const inChat: CheckStart = { unasked: false, shownBy: 'chat' };

/** `/check`: checks the proposal of the chat's latest answer and says what the check found. */
export async function checkInChat(deps: ChatDeps, taskId: string | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const task = taskId ? deps.store.get(taskId) : undefined;
  if (!task || !isOffered(task, 'check', 'picker')) {
    stream.markdown(vscode.l10n.t('There is no proposal in this chat to check: ask `@team` for a change to your files first.'));
    return { metadata: { taskId } satisfies AgentsResultMetadata };
  }
  stream.progress(vscode.l10n.t('Checking the proposal of "{0}" on this machine…', task.title));
  // Stopping the chat answer stops the check, with everything it started.
  const stop = token.onCancellationRequested(() => void vscode.commands.executeCommand(offer('cancelCheck').command, task.id));
  let record: CheckRecord | undefined;
  try {
    record = await vscode.commands.executeCommand<CheckRecord | undefined>(offer('check').command, task.id, inChat);
  } finally {
    stop.dispose();
  }
  const metadata: AgentsResultMetadata = { taskId: task.id, threadId: task.threadId };
  if (!record) {
    stream.markdown(vscode.l10n.t('Nothing was checked (the question was declined, or the check could not start: see the notification).'));
    return { metadata };
  }
  stream.markdown(inert(checkSentence(record)));
  if (record.verdict !== 'canceled') stream.button({ command: offer('checkOutput').command, title: vscode.l10n.t(offer('checkOutput').label), arguments: [task.id] });
  return { metadata };
}

/** `/fix`: asks the team to fix the chat's latest failing check, in its thread, and answers with the fix. */
export async function fixInChat(deps: ChatDeps, taskId: string | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const task = taskId ? deps.store.get(taskId) : undefined;
  if (!task || !teamCanFix(task)) {
    stream.markdown(vscode.l10n.t('There is no failing check in this chat to send: check the proposal first (`/check`).'));
    return { metadata: { taskId } satisfies AgentsResultMetadata };
  }
  stream.progress(vscode.l10n.t('Sending the failing check to the team…'));
  const fix = await vscode.commands.executeCommand<TrackedTask | undefined>(offer('askToFix').command, task.id, inChat);
  if (!fix) {
    stream.markdown(vscode.l10n.t('Nothing was sent.'));
    return { metadata: { taskId: task.id, threadId: task.threadId } };
  }
  stream.progress(vscode.l10n.t('The team is working on "{0}" (see the Tasks view)…', fix.title));
  let lastLine = '';
  const { task: ended, result } = await followTask(deps, fix, token, {
    onProgress: agents => {
      const line = agentsMilestone(agents);
      if (line && line !== lastLine) stream.progress(line);
      lastLine = line || lastLine;
    },
  });
  const metadata: AgentsResultMetadata = { taskId: ended.id, threadId: ended.threadId ?? task.threadId };
  if (ended.status !== 'completed' || result === undefined) {
    return { metadata, errorDetails: { message: inert(ended.error ?? vscode.l10n.t('The task ended as "{0}".', ended.status)) } };
  }
  stream.markdown(inert(result));
  return { metadata };
}

/**
 * What the chat offers after an answer (VS Code shows follow-ups under the latest one): Check Proposal… for a
 * proposal not checked yet or checked before a change, Ask the Team to Fix after a check the team can fix.
 */
export function chatFollowups(deps: Pick<ChatDeps, 'store'>, result: vscode.ChatResult): vscode.ChatFollowup[] {
  const taskId = (result.metadata as AgentsResultMetadata | undefined)?.taskId;
  const task = taskId ? deps.store.get(taskId) : undefined;
  if (!task || task.status !== 'completed') return [];
  const check = latestCheck(task);
  if (check && teamCanFix(task)) return [{ prompt: vscode.l10n.t('fix what the check found'), command: Chat.commands.fix, label: vscode.l10n.t(offer('askToFix').label) }];
  if (!check && isOffered(task, 'check', 'picker')) return [{ prompt: vscode.l10n.t('check the proposal on this machine'), command: Chat.commands.check, label: vscode.l10n.t(offer('check').label) }];
  return [];
}
