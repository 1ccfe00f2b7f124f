/**
 * Ask the Team to Fix (issue 37): the newest failing check goes back to the task's thread, redacted and bounded
 * (tasks/checking/feedback.ts); the answer is a task of its own, listed under the task first checked.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { folderOf } from '../documents/reviewPlan';
import { UserFacingError, inert } from '../errors';
import { teamCanFix } from '../tasks/checking/policy';
import { type TrackedTask, latestCheck } from '../tasks/model';
import { sendOrOfferAttachment } from './ask';
import type { CheckDeps } from './checkDeps';
import { checkingPart } from './checkingPart';
import { secretsOf } from './checkSandbox';
import { resolveTask } from './resolve';
import { threadIdOf } from './team';

/**
 * Ask the Team to Fix: sends the newest failing check to the task's thread — what ran, what newly fails, the
 * output's end (bounded; the keys, the home folder and absolute paths redacted). The answer is a task of its own,
 * listed under the task first checked. Asked from chat (`shownBy: 'chat'`), its answer is the chat's own: no result tab
 * opens beside it (commands/index.ts).
 */
export async function askTeamToFix(d: CheckDeps, arg?: unknown): Promise<TrackedTask | undefined> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'askToFix', vscode.l10n.t('Ask the team to fix which answer?'));
  if (!task) return undefined;
  const check = latestCheck(task);
  if (!check || !teamCanFix(task)) throw new UserFacingError(vscode.l10n.t('"{0}" has no failing check to send: run Check Proposal… first.', inert(task.title)));
  if (!(await d.keys.ensureApiKey())) return undefined;
  const output = (await d.store.readCheckOutput(task.id, check.id, 'proposal')) ?? check.after.tail;
  const folder = folderOf(task);
  const instruction = checkingPart().fixRequest({
    command: check.command,
    record: check,
    output,
    secrets: await secretsOf(d.keys, folder),
    home: os.homedir(),
    // The output names the user's folder (the copy's paths were turned into it): its paths go as relative ones.
    roots: [folder?.uri.fsPath].filter((r): r is string => !!r),
  });
  const threadId = await threadIdOf(d.team, task);
  const sent = await sendOrOfferAttachment(d.ui, d.team.pipeline, { instruction, threadId }, d.team.pipeline.settings());
  if (!sent) return undefined;
  const round = (task.fixOf?.round ?? 0) + 1;
  const title = vscode.l10n.t('Fix {0}: {1}', round, task.fixOf ? task.title.replace(/^[^:]*: /, '') : task.title);
  // Every round is listed under the task first checked, not under the round before it.
  await d.store.markFix(sent.id, { of: task.fixOf?.of ?? task.id, round }, task, title);
  d.log.info(`check ${task.id}: asked the team to fix (round ${round}) as task ${sent.id}`);
  return d.store.get(sent.id) ?? sent;
}
