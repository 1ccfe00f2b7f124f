/**
 * A task's 'progress' events, coalesced (TaskStore): at most one per PROGRESS_EVENT_MS per task, the held-back one
 * reading the latest state when it fires; any other change of the task drops it (that change is newer).
 */
/**
 * A task's 'progress' change events come at most this often (the latest state wins): the status bar and the
 * trees redraw on each one, and a server may push thousands a second. Other changes are never held back.
 */
export const PROGRESS_EVENT_MS = 200;

export class ProgressEvents {
  /** Per task: when its last event fired, and the timer of the one held back since. */
  private readonly events = new Map<string, { firedAt: number; timer?: NodeJS.Timeout }>();

  /** `fire(taskId)` fires the event, or returns false when the task no longer takes progress (finished or gone). */
  constructor(private readonly fire: (taskId: string) => boolean) {}

  /** Fires the task's event now, or once PROGRESS_EVENT_MS after the last one. */
  soon(taskId: string): void {
    const last = this.events.get(taskId);
    if (last?.timer) return; // the held-back event reads the latest state when it fires
    const wait = last ? last.firedAt + PROGRESS_EVENT_MS - Date.now() : 0;
    if (wait <= 0) return this.now(taskId);
    this.events.set(taskId, { firedAt: last!.firedAt, timer: setTimeout(() => this.now(taskId), wait) });
  }

  now(taskId: string): void {
    clearTimeout(this.events.get(taskId)?.timer);
    if (!this.fire(taskId)) return void this.events.delete(taskId);
    this.events.set(taskId, { firedAt: Date.now() });
  }

  /** Another change of the task fired: its held-back progress is dropped. */
  drop(taskId: string): void {
    clearTimeout(this.events.get(taskId)?.timer);
    this.events.delete(taskId);
  }

  dispose(): void {
    this.events.forEach(e => clearTimeout(e.timer));
    this.events.clear();
  }
}
