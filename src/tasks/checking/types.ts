/**
 * Checking a proposal (issue 37): the user's own check command run on the team's proposal in a scratch copy,
 * never in the user's files. The shapes every part of it shares; no vscode anywhere in `tasks/checking/`
 * (the command in `commands/check.ts` is the only part that speaks to the editor).
 */

/** A check command the workspace declares, offered (and confirmed once) where `multiAgent.check.command` is unset. */
export interface DetectedCheck {
  /** The command line, run by the platform's shell in the scratch copy's folder. */
  command: string;
  /** Where it was found, for the confirmation ("the test script of package.json", "the Test task \"unit\""). */
  from: 'packageJson' | 'testTask' | 'pytest' | 'goTest' | 'cargoTest';
  /** The file that declares it, relative to the folder (`package.json`, `go.mod`, …). */
  file: string;
}

/** How one run of the command ended. */
export type RunEnd = 'passed' | 'failed' | 'timedOut' | 'canceled' | 'notStarted';

/** One run of the command (the proposal's, or the unchanged copy's for "before"). */
export interface CheckRun {
  end: RunEnd;
  /** The exit code; undefined when the process was ended by a signal or never started. */
  exitCode?: number;
  durationMs: number;
  /** One line: a runner's closing line ("12 passed, 1 failed") or the output's last non-blank line. */
  summary: string;
  /** Names of the failing tests, as the runner printed them (bounded; empty when none could be read). */
  failing: string[];
  /** The last lines of the output, ANSI codes removed (bounded). */
  tail: string;
  /** Bytes the process wrote (stdout and stderr), of which only a bounded head and tail are kept. */
  outputBytes: number;
  /** How each failing test failed (its message's first lines, normalized), by name; bounded (`failures.ts`). */
  failures?: Record<string, string>;
  /** Why it did not start (the shell or the folder was missing), in the runner's words. */
  error?: string;
  /** The shell did not find the command (exit 127; 9009 from cmd.exe): the check never ran. */
  commandNotFound?: boolean;
}

/** Which of the proposal's changes went into the copy, and which were left out and why. */
export interface CheckedChanges {
  /** Plan paths of the files changed in the copy. */
  files: string[];
  /** Files (or hunks) of the proposal left out: a file that can run code, a conflict, another folder. */
  leftOut: { path: string; why: 'runsCode' | 'conflict' | 'otherFolder' }[];
}

/** A check of a task's proposal, kept with the task (newest last, a few). */
export interface CheckRecord {
  /** Unique per check; names the stored full output (`<taskId>/check-<id>.log`). */
  id: string;
  command: string;
  startedAt: number;
  /** The proposal's run. */
  after: CheckRun;
  /** The same command on the unchanged copy (`multiAgent.check.compareWithBefore`). */
  before?: CheckRun;
  changes: CheckedChanges;
  /** Failing after and not before (by name where the runner names tests, else by outcome), and failing again when run once more. */
  newlyFailing: string[];
  /** Failed with the proposal, then passed when run once more: flaky, not counted against the proposal. */
  flaky?: string[];
  /** Failing before and after, but with another failure now (its message changed): counted as newly failing too. */
  failsDifferently?: string[];
  /** The proposal's run once more, when tests failed only with the proposal (to tell a flaky test from a broken one). */
  rerun?: CheckRun;
  /** The verdict shown everywhere (`policy.ts` says what it means). */
  verdict: CheckVerdict;
  /** Where the scratch copy was kept, when the user asked to keep it. */
  keptAt?: string;
  /** The OS sandbox its runs went into (issue 44), and whether it let them reach the network; undefined: none (the user chose). */
  sandbox?: { kind: 'bubblewrap' | 'seatbelt'; network: boolean };
}

/**
 * What a check found. `flaky`: every test failing only with the proposal passed when run once more. What each
 * verdict means (failed? can the team fix it? called what?) is decided in one place: `policy.ts`.
 */
export type CheckVerdict = 'passed' | 'failing' | 'failingAsBefore' | 'flaky' | 'timedOut' | 'canceled' | 'notStarted';

/** A fix asked of the team: the task it continues and which round it is. */
export interface FixRound {
  /** The checked task whose failures were sent. */
  of: string;
  /** 1 for the first fix asked of a task, 2 for a fix of that fix, … */
  round: number;
}

/**
 * The words a fix request ("Ask the Team to Fix") opens with: the emulator recognises a fix request by them, and
 * the team reads them first. `feedback.ts` builds the request.
 */
export const FIX_REQUEST_OPENING = 'I checked your proposal on my machine and it fails.';

/**
 * In the temp folder of a kept scratch copy (Open Scratch Copy), beside the copy and so outside its files: what
 * it is a copy of. The window opened on the copy reads it and says so
 * (scratchWindow.ts); the sweep of stale copies leaves a kept one alone.
 */
export const KEPT_SCRATCH_MARKER = 'kept-scratch-copy.json';

/** Every scratch copy's temp folder is named so (`multi-agent-check-XXXXXX`): only those are ever removed. */
export const SCRATCH_PREFIX = 'multi-agent-check-';

/** What the marker holds. */
export interface KeptScratch {
  /** The user's folder it copies (its path, and its name as the window showed it). */
  original: string;
  folderName: string;
  /** The task whose proposal is in it. */
  taskTitle: string;
  keptAt: number;
}
