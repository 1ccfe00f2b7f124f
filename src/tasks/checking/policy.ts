/**
 * What a check's verdict means, decided once (issue 42): did it fail, can the team fix it, may it fix itself,
 * does a check start by itself on completion, and what each verdict is called. Every surface (the Tasks view,
 * the result view, notifications, Review Changes…, chat, the MCP tools, Ask the Team to Fix) asks here. The
 * table is keyed by every verdict, so a new verdict without its rules does not compile. Pure: no vscode; the
 * words are English source strings that the vocabulary passes through `vscode.l10n.t`.
 */
import type { CheckRecord, CheckVerdict } from './types';

/** How a verdict is shown: its colour in the Tasks view's icon and the kind of notification that tells it. */
export type CheckTone = 'passed' | 'failed' | 'warning' | 'neutral';

export interface VerdictRules {
  /** The proposal failed the check (the check itself ran): shown as failing, and Review Changes… warns. */
  failed: boolean;
  /** Ask the Team to Fix is offered: what failed is something the team's code can change. */
  teamCanFix: boolean;
  /** An automatic fix round may ask for it (`check.autoFixRounds`): only what the proposal broke, never what failed before. */
  fixesItself: boolean;
  tone: CheckTone;
  /** The Tasks view row's words; `{0}` is the number of failing tests where `counted`. */
  words: string;
  /** Words with a count: one test, several tests. */
  counted?: { one: string; many: string };
}

const VERDICTS: { readonly [V in CheckVerdict]: VerdictRules } = {
  passed: { failed: false, teamCanFix: false, fixesItself: false, tone: 'passed', words: 'checked: passed' },
  failing: {
    failed: true,
    teamCanFix: true,
    fixesItself: true,
    tone: 'failed',
    words: 'checked: failing',
    counted: { one: 'checked: 1 failing', many: 'checked: {0} failing' },
  },
  failingAsBefore: { failed: true, teamCanFix: true, fixesItself: false, tone: 'warning', words: 'checked: failing as before' },
  flaky: { failed: false, teamCanFix: false, fixesItself: false, tone: 'warning', words: 'checked: flaky' },
  timedOut: { failed: true, teamCanFix: true, fixesItself: true, tone: 'failed', words: 'checked: timed out' },
  canceled: { failed: false, teamCanFix: false, fixesItself: false, tone: 'neutral', words: 'check canceled' },
  notStarted: { failed: false, teamCanFix: false, fixesItself: false, tone: 'warning', words: 'check did not start' },
};

/** Every verdict, in the table's order (tests walk it). */
export const CHECK_VERDICTS = Object.keys(VERDICTS) as CheckVerdict[];

export function verdictRules(verdict: CheckVerdict): VerdictRules {
  return VERDICTS[verdict];
}

type Checked = { checks?: readonly Pick<CheckRecord, 'verdict'>[] };

/** The newest check's verdict, if the task was checked. */
export function latestVerdict(task: Checked): CheckVerdict | undefined {
  return task.checks?.at(-1)?.verdict;
}

/** The proposal failed its newest check. */
export function checkFailed(task: Checked): boolean {
  const verdict = latestVerdict(task);
  return verdict !== undefined && VERDICTS[verdict].failed;
}

/** Ask the Team to Fix is offered: the newest check failed in a way the team's code can change. */
export function teamCanFix(task: Checked): boolean {
  const verdict = latestVerdict(task);
  return verdict !== undefined && VERDICTS[verdict].teamCanFix;
}

/**
 * How a check (or a fix) was asked for: a click (asks what it must), or by itself on completion (asks nothing);
 * `shownBy: 'chat'` when the chat shows its outcome itself (no toast, no result tab: the loop stays in chat).
 */
export interface CheckStart {
  unasked: boolean;
  shownBy?: 'chat';
}

/** A command's second argument as a CheckStart: `{ unasked: true }` and `{ shownBy: 'chat' }` exactly, or a click. */
export function checkStartOf(arg: unknown): CheckStart {
  const given = typeof arg === 'object' && arg !== null ? (arg as { unasked?: unknown; shownBy?: unknown }) : {};
  return { unasked: given.unasked === true, ...(given.shownBy === 'chat' ? { shownBy: 'chat' as const } : {}) };
}

/** The settings the policy reads (the user's own settings only: `MACHINE_SETTINGS` in config.ts). */
export interface CheckPolicySettings {
  onComplete: boolean;
  autoFixRounds: number;
}

/**
 * A completed task's proposal is checked by itself: the user turned on `check.onComplete`, the workspace is
 * trusted, and the answer names files (what Review Changes… and Check Proposal… are offered for).
 */
export function runsOnCompletion(task: { status: string; namedFiles?: number }, settings: Pick<CheckPolicySettings, 'onComplete'>, trusted: boolean): boolean {
  return settings.onComplete && trusted && task.status === 'completed' && !!task.namedFiles;
}

/**
 * A failing check asks the team for a fix by itself: it started by itself (`check.onComplete`), what failed is the
 * proposal's doing, and fewer rounds than `check.autoFixRounds` were asked for this task.
 */
export function fixesItself(start: CheckStart, record: Pick<CheckRecord, 'verdict'>, round: number, settings: Pick<CheckPolicySettings, 'autoFixRounds'>): boolean {
  return start.unasked && VERDICTS[record.verdict].fixesItself && round < settings.autoFixRounds;
}
