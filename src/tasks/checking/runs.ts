/**
 * The checks running now (issue 37), one abort per check: the progress notification's Cancel aborts its own, and
 * closing the window (the core's disposal) aborts them all, so that no check command outlives the window (the
 * runner starts each in a process group of its own, which would otherwise survive the extension host).
 */
export class CheckRuns {
  private readonly running = new Map<AbortController, string>();

  /** A new check of `taskId`: its signal aborts on `cancel`, `cancelAll` or disposal; `done` forgets it. */
  start(taskId: string): { signal: AbortSignal; abort(): void; done(): void } {
    const controller = new AbortController();
    this.running.set(controller, taskId);
    return { signal: controller.signal, abort: () => controller.abort(), done: () => this.running.delete(controller) };
  }

  /** Tasks with a check running now. */
  tasks(): string[] {
    return [...new Set(this.running.values())];
  }

  /** Cancels the checks of a task (it was removed), or all of them. */
  cancel(taskId?: string): number {
    let n = 0;
    for (const [controller, id] of this.running) {
      if (taskId === undefined || id === taskId) {
        controller.abort();
        n++;
      }
    }
    return n;
  }

  dispose(): void {
    this.cancel();
  }
}
