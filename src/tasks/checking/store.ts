/**
 * The checks store (issue 42): which proposals are being checked now, at which step, and the one event every
 * view follows. The Tasks view row, the result view's Checks section and the status bar say "checking…" (with
 * Cancel) while a check runs, and redraw when it ends; a finished check's verdict is the task's newest record
 * (`TaskStore`), so `stateOf` answers both. Each running check has its abort: its Cancel, the task's removal and
 * the window's closing (disposal) end it, and with it every process it started. Pure: no vscode.
 */
import type { CheckRecord, CheckVerdict } from './types';

/** Where a running check is: reading the proposal, copying the folder, running the command (on the proposal, without it, once more). */
export type CheckStep = 'preparing' | 'copying' | 'proposal' | 'before' | 'rerun';

export interface RunningCheck {
  taskId: string;
  step: CheckStep;
  /** The command being run (from the step `proposal` on). */
  command?: string;
  startedAt: number;
}

/** A task's check as the views show it: running now, or the newest verdict, or never checked. */
export type CheckState = { running: RunningCheck; verdict?: undefined } | { running?: undefined; verdict: CheckVerdict } | undefined;

/** A running check as its owner holds it: its signal, its steps, its end. */
export interface CheckHandle {
  readonly signal: AbortSignal;
  step(step: CheckStep, command?: string): void;
  abort(): void;
  done(): void;
}

type Listener = (taskId: string) => void;

export class CheckStore {
  private readonly running = new Map<AbortController, RunningCheck>();
  private readonly listeners = new Set<Listener>();

  /** Fires with the task's id when a check of it starts, moves to another step, or ends. */
  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** A new check of `taskId`: its signal aborts on `abort`, `cancel` or disposal; `done` forgets it. */
  start(taskId: string, now = Date.now()): CheckHandle {
    const controller = new AbortController();
    const entry: RunningCheck = { taskId, step: 'preparing', startedAt: now };
    this.running.set(controller, entry);
    this.fire(taskId);
    return {
      signal: controller.signal,
      step: (step, command) => {
        if (!this.running.has(controller)) return;
        entry.step = step;
        if (command !== undefined) entry.command = command;
        this.fire(taskId);
      },
      abort: () => controller.abort(),
      done: () => {
        if (this.running.delete(controller)) this.fire(taskId);
      },
    };
  }

  /** The check of a task running now (the newest, if several), if any. */
  runningOf(taskId: string): RunningCheck | undefined {
    let found: RunningCheck | undefined;
    for (const entry of this.running.values()) if (entry.taskId === taskId) found = entry;
    return found;
  }

  /** Every check running now, oldest first. */
  all(): RunningCheck[] {
    return [...this.running.values()];
  }

  /** Tasks with a check running now. */
  tasks(): string[] {
    return [...new Set([...this.running.values()].map(e => e.taskId))];
  }

  /** A task's check as shown: running, else its newest verdict. */
  stateOf(task: { id: string; checks?: readonly Pick<CheckRecord, 'verdict'>[] }): CheckState {
    const running = this.runningOf(task.id);
    if (running) return { running };
    const verdict = task.checks?.at(-1)?.verdict;
    return verdict ? { verdict } : undefined;
  }

  /** Cancels the checks of a task (Cancel, or it was removed), or all of them; how many were running. */
  cancel(taskId?: string): number {
    let n = 0;
    for (const [controller, entry] of this.running) {
      if (taskId === undefined || entry.taskId === taskId) {
        controller.abort();
        n++;
      }
    }
    return n;
  }

  dispose(): void {
    this.cancel();
    this.listeners.clear();
  }

  private fire(taskId: string): void {
    for (const listener of [...this.listeners]) listener(taskId);
  }
}
