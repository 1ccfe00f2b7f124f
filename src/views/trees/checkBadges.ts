/**
 * A checked task's verdict as a badge at the right edge of its Tasks row (issue 45): the row's words are cut
 * first at the sidebar's width ("checked: 1 fail…"), a decoration never is. The row carries a `resourceUri`
 * of its own scheme; this provider answers for it from the task's newest check, as Git's badges answer for files.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../disposable';
import { latestCheck } from '../../tasks/model';
import type { TaskStore } from '../../tasks/store/taskStore';
import { type CheckTone, verdictRules } from '../../tasks/checking/policy';
import type { CheckStore } from '../../tasks/checking/store';
import type { CheckVerdict } from '../../tasks/checking/types';
import { checkVerdictWords, checkingWords } from '../../tasks/checkWords';

/** The scheme of a Tasks row's own resource: never opened, only decorated. */
export const TASK_ROW_SCHEME = 'multi-agent-task';

/** The resource a task's row carries, so that its check can be decorated. */
export function taskRowUri(taskId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TASK_ROW_SCHEME, path: `/${encodeURIComponent(taskId)}` });
}

/** A check's colour by its verdict's tone (tasks/checking/policy.ts); the row's icon takes it too. */
export const CHECK_TONE_COLORS: Record<CheckTone, string> = {
  passed: 'testing.iconPassed',
  failed: 'testing.iconFailed',
  warning: 'testing.iconQueued',
  neutral: 'disabledForeground',
};

/** At most two characters (VS Code's limit): the count of failing tests where there is one, else a sign. */
export function checkBadge(verdict: CheckVerdict, failing: number): string | undefined {
  const rules = verdictRules(verdict);
  if (rules.counted && failing > 0) return failing > 99 ? '99' : String(failing);
  const signs: Partial<Record<CheckVerdict, string>> = { passed: '✓', failing: '✗', failingAsBefore: '=', flaky: '~', timedOut: '⌛', notStarted: '!' };
  return signs[verdict];
}

export class CheckBadges extends Disposable implements vscode.FileDecorationProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri | vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this.changed.event;

  constructor(
    private readonly store: TaskStore,
    private readonly checks?: CheckStore,
  ) {
    super();
    this._register(store.onDidChange(e => e.kind !== 'progress' && this.changed.fire(taskRowUri(e.task.id))));
    if (checks) this._register(checks.onDidChange(taskId => this.changed.fire(taskRowUri(taskId))));
    this._register(vscode.window.registerFileDecorationProvider(this));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== TASK_ROW_SCHEME) return undefined;
    const task = this.store.get(decodeURIComponent(uri.path.slice(1)));
    if (!task) return undefined;
    const running = this.checks?.runningOf(task.id);
    if (running) return new vscode.FileDecoration('…', checkingWords(running));
    const check = task.status === 'completed' ? latestCheck(task) : undefined;
    if (!check) return undefined;
    const badge = checkBadge(check.verdict, check.newlyFailing.length || check.after.failing.length);
    if (!badge) return undefined;
    const decoration = new vscode.FileDecoration(badge, checkVerdictWords(check), new vscode.ThemeColor(CHECK_TONE_COLORS[verdictRules(check.verdict).tone]));
    decoration.propagate = false;
    return decoration;
  }
}
