/**
 * What a check is called, in the user's language (issue 37, issue 42): each verdict (by the policy's table, so
 * a new verdict has its words or does not compile), each step of a running check, a refused check, what was left
 * out. Every surface says a check with these: the Tasks view, the result view, notifications, Review Changes…,
 * chat, the MCP tools. They live here rather than in vocabulary.ts because they name the check's own shapes
 * (tasks/checking/types.ts), a floor above the vocabulary.
 */
import * as vscode from 'vscode';
import { formatRunTime, inert } from '../format';
import { verdictRules } from './checking/policy';
import type { CheckStep, RunningCheck } from './checking/store';
import type { CheckRecord, CheckRun, CheckedChanges } from './checking/types';

type Shown = Pick<CheckRecord, 'command' | 'verdict' | 'newlyFailing' | 'flaky' | 'failsDifferently' | 'before' | 'changes'> & {
  after: Pick<CheckRun, 'failing' | 'summary' | 'durationMs' | 'error' | 'exitCode' | 'commandNotFound'>;
};

/** A check's verdict in a few words: the Tasks view row ("checked: 1 failing"), the result view's heading. */
export function checkVerdictWords(check: Pick<Shown, 'verdict' | 'newlyFailing' | 'after'>): string {
  const rules = verdictRules(check.verdict);
  const n = check.newlyFailing.length || check.after.failing.length;
  if (rules.counted && n) return n === 1 ? vscode.l10n.t(rules.counted.one) : vscode.l10n.t(rules.counted.many, n);
  return vscode.l10n.t(rules.words);
}

/** A running check in a few words ("checking: running npm test on the proposal…"). */
export function checkingWords(running: Pick<RunningCheck, 'step' | 'command'>): string {
  return vscode.l10n.t('checking: {0}', checkStepWords(running.step, running.command ?? ''));
}

/** Where a running check is, for its progress and the views. */
export function checkStepWords(step: CheckStep, command: string): string {
  switch (step) {
    case 'preparing':
      return vscode.l10n.t('reading the proposal…');
    case 'copying':
      return vscode.l10n.t('copying the folder…');
    case 'proposal':
      return vscode.l10n.t('running {0} on the proposal…', command);
    case 'before':
      return vscode.l10n.t('running {0} without the proposal…', command);
    case 'rerun':
      return vscode.l10n.t('running {0} on the proposal once more…', command);
  }
}

/** One sentence on a check: what ran, on what, what it found (notifications, Review Changes…, chat, MCP). */
export function checkSentence(shown: Shown): string {
  const check = { ...shown, command: shown.command.length > 120 ? `${shown.command.slice(0, 119)}…` : shown.command };
  // The command may come from the workspace's files, the test names and summaries from the proposal's own output:
  // the whole sentence is made inert, so that none of it becomes a link in a notification.
  const flaky = check.flaky?.length ? ' ' + vscode.l10n.t('Flaky (failed once, passed when run again): {0}.', names(check.flaky)) : '';
  return inert(sentenceOf(check) + flaky);
}

function names(list: readonly string[]): string {
  return list.slice(0, 3).join(', ') + (list.length > 3 ? ', …' : '');
}

function sentenceOf(check: Shown): string {
  const took = formatRunTime(check.after.durationMs);
  const summary = check.after.summary ? ` (${check.after.summary})` : '';
  const leftOut = check.changes.leftOut.length ? ' ' + vscode.l10n.t('{0} changes were left out of the check (see the result view).', check.changes.leftOut.length) : '';
  switch (check.verdict) {
    case 'passed':
      return vscode.l10n.t('The proposal passes "{0}"{1} in {2}.', check.command, summary, took) + leftOut;
    case 'failing': {
      const failing = check.newlyFailing.length ? check.newlyFailing : check.after.failing;
      const named = failing.length ? ': ' + names(failing) : '';
      const before = check.before ? ' ' + vscode.l10n.t('Without the proposal: {0}.', check.before.summary || check.before.end) : '';
      const differently = check.failsDifferently?.length ? ' ' + vscode.l10n.t('Failing before too, but differently now: {0}.', names(check.failsDifferently)) : '';
      return vscode.l10n.t('The proposal fails "{0}"{1} in {2}{3}.', check.command, summary, took, named) + differently + before + leftOut;
    }
    case 'failingAsBefore':
      return vscode.l10n.t('"{0}" fails with the proposal{1}, and failed the same way without it: the proposal breaks nothing new.', check.command, summary) + leftOut;
    case 'flaky':
      return vscode.l10n.t('"{0}" failed once with the proposal and passed when run again: the failing tests are flaky, not the proposal\'s doing.', check.command) + leftOut;
    case 'timedOut':
      return vscode.l10n.t('"{0}" did not finish within {1} on the proposal and was stopped with everything it started.', check.command, took);
    case 'canceled':
      return vscode.l10n.t('The check of the proposal was canceled; "{0}" and everything it started were stopped.', check.command);
    case 'notStarted':
      return vscode.l10n.t('"{0}" could not start: {1}', check.command, notStartedWhy(check.after));
  }
}

function notStartedWhy(run: Shown['after']): string {
  if (run.commandNotFound) return vscode.l10n.t('the shell did not find the command (exit {0}); is it installed and on the PATH VS Code was started with?', run.exitCode ?? '');
  return run.error ?? '';
}

/** Why a change of the proposal was left out of a check's copy. */
export function checkLeftOutWhy(why: CheckedChanges['leftOut'][number]['why']): string {
  switch (why) {
    case 'runsCode':
      return vscode.l10n.t('a file that can run code: look at it yourself first');
    case 'conflict':
      return vscode.l10n.t('lines you changed since the task was sent stayed as you have them');
    case 'otherFolder':
      return vscode.l10n.t('in another workspace folder');
  }
}

/** Why a check's copy could not be made (nothing was checked). */
export function checkRefusedWords(why: { kind: 'tempInFolder'; tmp: string; folder: string } | { kind: 'copy'; detail: string }, folderName: string): string {
  return why.kind === 'tempInFolder'
    ? vscode.l10n.t('The temp folder ({0}) is inside the workspace folder {1}: a check never makes its copy in a workspace folder. Set TMPDIR elsewhere and restart VS Code.', why.tmp, why.folder)
    : vscode.l10n.t('The scratch copy of "{0}" could not be made, so nothing was checked: {1}', folderName, why.detail);
}
