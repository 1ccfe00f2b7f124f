/**
 * A verdict you can trust (issue 42): the proposal's run beside the run without it (`compareRuns`), then two
 * more questions before a test is called newly failing. Did it fail again when run once more (else it is flaky,
 * not the proposal's doing)? And a test that failed before and fails now: does it fail the same way (else it
 * "fails differently now", which counts against the proposal)? Pure: the runs are data.
 */
import { compareRuns } from './summary';
import type { CheckRecord, CheckRun } from './types';

export type Judged = Pick<CheckRecord, 'newlyFailing' | 'verdict' | 'flaky' | 'failsDifferently'>;

/** Whether the proposal's run must be run once more before its failures are believed: something fails only with it. */
export function needsRerun(before: CheckRun | undefined, after: CheckRun): boolean {
  return compareRuns(before, after).verdict === 'failing';
}

/** Tests failing before and after whose failure changed (both failures read, and unlike). */
function changedFailures(before: CheckRun | undefined, after: CheckRun): string[] {
  if (before?.end !== 'failed' || !before.failures || !after.failures) return [];
  const was = before.failures;
  const now = after.failures;
  return after.failing.filter(name => before.failing.includes(name) && was[name] !== undefined && now[name] !== undefined && was[name] !== now[name]);
}

/**
 * The verdict of a check: `before` is the run without the proposal (when one ran), `rerun` the proposal's run once
 * more (when `needsRerun` asked for it). A test failing only with the proposal counts when it failed again; one
 * that passed the second time is flaky. A test failing before and after counts when its failure changed.
 */
export function judge(before: CheckRun | undefined, after: CheckRun, rerun?: CheckRun): Judged {
  const base = compareRuns(before, after);
  if (after.end !== 'failed') return base;
  const failsDifferently = changedFailures(before, after);
  let candidates = base.newlyFailing;
  let flaky: string[] = [];
  if (rerun && base.verdict === 'failing') {
    if (rerun.end === 'passed') flaky = [...candidates];
    else if (rerun.end === 'failed' && rerun.failing.length) flaky = candidates.filter(name => !rerun.failing.includes(name));
    candidates = candidates.filter(name => !flaky.includes(name));
  }
  const newlyFailing = [...candidates, ...failsDifferently.filter(name => !candidates.includes(name))];
  const extras = { ...(flaky.length ? { flaky } : {}), ...(failsDifferently.length ? { failsDifferently } : {}) };
  if (newlyFailing.length) return { newlyFailing, verdict: 'failing', ...extras };
  if (base.verdict === 'failingAsBefore') return { newlyFailing: [], verdict: 'failingAsBefore', ...extras };
  // Failing only with the proposal, and nothing failed twice: flaky where the second run passed or named none of
  // them; else (names unknown, the second run failed too) it stays failing.
  const secondPassed = rerun?.end === 'passed';
  if (flaky.length || secondPassed) {
    const stillFailing = before?.end === 'failed' && after.failing.some(name => before.failing.includes(name));
    return { newlyFailing: [], verdict: stillFailing ? 'failingAsBefore' : 'flaky', ...extras };
  }
  return { newlyFailing: [], verdict: 'failing', ...extras };
}
