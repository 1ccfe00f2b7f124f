/**
 * Check Proposal… (issue 37, issue 42): asks what it must (which task, which command, confirmed once), hands the
 * check to its session (tasks/checking/session.ts, loaded with the checking part on the first check), keeps the
 * verdict with the task and says it. The checks store shows the check running everywhere, with Cancel. What a
 * verdict means (failed? fixable? fixes itself?) is the policy's (tasks/checking/policy.ts). Nothing runs unasked:
 * a trusted workspace only, the command from the user's own settings or confirmed once per workspace, and
 * `check.onComplete` (the user's settings) is the one way a check starts by itself.
 *
 * Ask the Team to Fix sends what was checked and the failing output (bounded, redacted) to the task's thread;
 * its answer is a task like any other (`fixOf` lists it under the checked task).
 */
import * as vscode from 'vscode';
import { filesExcluded } from '../config';
import { proposedFiles, unsavedTexts } from '../documents/checkInputs';
import { folderOf, prepareReview } from '../documents/reviewPlan';
import { UserFacingError, inert, messageOf } from '../errors';
import { reviewPart } from '../parts';
import { type CheckStart, fixesItself, teamCanFix, verdictRules } from '../tasks/checking/policy';
import type { CheckStep } from '../tasks/checking/store';
import type { CheckRecord } from '../tasks/checking/types';
import type { CheckSandbox } from '../tasks/checking/session';
import { type TrackedTask, latestCheck } from '../tasks/model';
import { offer } from '../tasks/offers';
import { checkLeftOutWhy, checkRefusedWords, checkSentence, checkStepWords } from '../tasks/checkWords';
import { chooseCommand } from './checkChoice';
import type { CheckDeps } from './checkDeps';
import { checkingPart } from './checkingPart';
import { askTeamToFix } from './checkFix';

import { sandboxFor, secretsOf } from './checkSandbox';
import { resolveTask } from './resolve';


/** Check Proposal…: returns the check as recorded (undefined when nothing ran: refused, declined, canceled). */
export async function checkProposal(d: CheckDeps, arg: unknown, start: CheckStart): Promise<CheckRecord | undefined> {
  // Unasked is the user's own opt-in only: nothing starts a check by itself otherwise.
  if (start.unasked && !d.config.settings.check.onComplete) return undefined;
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'check', vscode.l10n.t('Check the proposal of which answer?'));
  if (!task) return undefined;
  if (task.status !== 'completed') throw new UserFacingError(vscode.l10n.t('"{0}" has no result yet.', inert(task.title)));
  const folder = folderOf(task) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') {
    throw new UserFacingError(vscode.l10n.t('Check Proposal needs the folder "{0}" was sent from, on this machine: open it and try again.', inert(task.title)));
  }
  if (!d.config.trusted) {
    if (start.unasked) return undefined;
    throw new UserFacingError(vscode.l10n.t('Check Proposal runs code on this machine, so it runs only in a trusted workspace. Trust this folder (Manage Workspace Trust) and try again.'));
  }
  if (d.checks.runningOf(task.id)) {
    if (!start.unasked) d.ui.note(vscode.l10n.t('"{0}" is being checked already.', inert(task.title)));
    return undefined;
  }
  const sandbox = await sandboxFor(d, start);
  if (sandbox === 'declined') return undefined;
  const chosen = await chooseCommand(d, folder, start, sandbox);
  if (!chosen) return undefined;
  const answer = await d.store.readResult(task.id);
  if (answer === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
  const record = await withCheckProgress(d, task, (signal, step) => runSession(d, { task, answer, folder, command: chosen.command, sandbox }, signal, step));
  if (!record) return undefined;
  // A failing check started by itself asks for a fix by itself (`check.autoFixRounds`), a few rounds at most;
  // every round is a task the user sees, and none lands without a review.
  if (record.verdict !== 'canceled' && fixesItself(start, record, task.fixOf?.round ?? 0, d.config.settings.check)) {
    d.log.info(`check ${task.id}: asking the team to fix by itself (check.autoFixRounds ${d.config.settings.check.autoFixRounds})`);
    void askTeamToFix(d, task.id).catch(e => d.log.warn(`check ${task.id}: could not ask for a fix: ${String(e)}`));
    return record;
  }
  // A chat that asked shows the verdict in its answer (issue 45): no toast beside it.
  if (!start.shownBy) void tellOutcome(d, task, record);
  return record;
}

/** A running check's step, shown in the checks store (every view) and the progress notification. */
type Stepper = (step: CheckStep, command?: string) => void;

/** Runs `work` as the task's running check: in the checks store (every view shows it) and a progress notification, both with Cancel. */
async function withCheckProgress<T>(d: CheckDeps, task: TrackedTask, work: (signal: AbortSignal, step: Stepper) => Promise<T>): Promise<T> {
  const handle = d.checks.start(task.id);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the proposal of "{0}"', inert(task.title)), cancellable: true },
      async (progress, token) => {
        const sub = token.onCancellationRequested(() => handle.abort());
        try {
          return await work(handle.signal, (step, command) => {
            handle.step(step, command);
            progress.report({ message: checkStepWords(step, command ?? '') });
          });
        } finally {
          sub.dispose();
        }
      },
    );
  } finally {
    handle.done();
  }
}

/** What a session checks: the task's answer in its folder, with the chosen command, in the sandbox chosen. */
interface SessionOf {
  task: TrackedTask;
  answer: string;
  folder: vscode.WorkspaceFolder;
  command: string;
  sandbox: CheckSandbox | undefined;
}

async function runSession(d: CheckDeps, { task, answer, folder, command, sandbox }: SessionOf, signal: AbortSignal, step: Stepper): Promise<CheckRecord | undefined> {
  let review;
  try {
    review = await prepareReview(d, task, answer, folder, { signal });
  } catch (e) {
    if (e instanceof reviewPart().PlanCancelled) return undefined;
    throw e;
  }
  if (review.plan.tooComplex) throw new UserFacingError(vscode.l10n.t('The answer to "{0}" is too complex to review here, so it cannot be checked either.', inert(task.title)));
  const checking = checkingPart();
  const plan = checking.scratchPlan(proposedFiles(review, folder), unsavedTexts(folder));
  if (!plan.changes.files.length) {
    const first = plan.changes.leftOut[0];
    const applied = review.plan.files.some(f => f.alreadyApplied > 0);
    const why = first
      ? vscode.l10n.t('every change of it was left out ({0}: {1}).', first.path, checkLeftOutWhy(first.why))
      : applied
        ? vscode.l10n.t('its changes are in your files already.')
        : vscode.l10n.t('it names no change that Review Changes… could apply.');
    throw new UserFacingError(vscode.l10n.t('Nothing of the answer to "{0}" can be checked: {1}', inert(task.title), why));
  }
  const secrets = await secretsOf(d.keys, folder);
  const { timeoutMs, compareWithBefore, passEnvironment } = d.config.settings.check;
  let outcome;
  try {
    outcome = await checking.runCheckSession({
      command,
      root: folder.uri.fsPath,
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath),
      exclude: filesExcluded(folder.uri),
      plan,
      env: checking.checkEnvironment(process.env, secrets, passEnvironment),
      sandbox,
      timeoutMs,
      compareWithBefore,
      redact: text => checking.redactText(d.keys.redact(text), secrets),
      signal,
      step,
      log: line => d.log.info(`check ${task.id}: ${line}`),
    });
  } catch (e) {
    if (e instanceof checking.CheckRefused) throw new UserFacingError(checkRefusedWords(e.why, folder.name));
    throw new UserFacingError(vscode.l10n.t('The check of "{0}" failed: {1}', inert(task.title), messageOf(e)));
  }
  if (!outcome) return undefined;
  // The command line is the user's and may hold a secret: kept (and shown, and returned by read_task) redacted.
  outcome.record.command = checking.redactCommand(outcome.record.command, secrets);
  // A canceled check says nothing of the proposal: it is not kept (an earlier verdict and its offers stay).
  if (outcome.record.verdict !== 'canceled') await d.store.recordCheck(task.id, outcome.record, outcome.output);
  return outcome.record;
}

/** Says what the check found, with what to do next: Ask the Team to Fix where the team can, else Review Changes…. */
async function tellOutcome(d: CheckDeps, task: TrackedTask, check: CheckRecord): Promise<void> {
  const message = checkSentence(check);
  if (check.verdict === 'canceled') return d.ui.note(message);
  const review = vscode.l10n.t(offer('review').label);
  const fix = vscode.l10n.t(offer('askToFix').label);
  const output = vscode.l10n.t(offer('checkOutput').label);
  // Two buttons where the team can fix it: three long ones are cut in a toast (VS Code 1.100); Review Changes… is in the result view.
  const fixable = teamCanFix({ checks: [check] });
  const tell = verdictRules(check.verdict).tone === 'passed' ? d.ui.info : d.ui.warn;
  const choice = await tell.call(d.ui, message, ...(fixable ? [fix, output] : [review, output]));
  if (choice === review) await vscode.commands.executeCommand(offer('review').command, task.id);
  else if (choice === fix) await vscode.commands.executeCommand(offer('askToFix').command, task.id);
  else if (choice === output) await vscode.commands.executeCommand(offer('checkOutput').command, task.id);
}

/** Cancel Check: ends the task's running check and everything it started. */
export async function cancelCheck(d: Pick<CheckDeps, 'ui' | 'store' | 'checks' | 'activeResult'>, arg?: unknown): Promise<number> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), t => !!d.checks.runningOf(t.id), vscode.l10n.t('Cancel the check of which task?'), { none: vscode.l10n.t('No check is running.') });
  return task ? d.checks.cancel(task.id) : 0;
}

/** Show Check Output: the newest check's whole kept output, in an editor. */
export async function showCheckOutput(d: Pick<CheckDeps, 'ui' | 'store'>, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const task = await resolveTask(d, arg, 'checkOutput', vscode.l10n.t('The check output of which task?'));
  if (!task) return undefined;
  const check = latestCheck(task);
  if (!check) throw new UserFacingError(vscode.l10n.t('"{0}" has not been checked yet.', inert(task.title)));
  if ((await d.store.readCheckOutput(task.id, check.id)) === undefined) throw new UserFacingError(vscode.l10n.t('The output of that check is no longer kept.'));
  const document = await vscode.workspace.openTextDocument(d.store.checkOutputUri(task.id, check.id));
  return vscode.window.showTextDocument(document, { preview: true });
}
