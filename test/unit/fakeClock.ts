import type { Clock } from '../../src/tasks/tracking/pollTypes';

/** A manual clock: timers fire only when the test advances time. */
export class FakeClock implements Clock {
  private t = 1_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers = this.timers.filter(t => t.id !== handle);
  }
  get pending() {
    return this.timers.length;
  }
  /** Advances time, firing due timers in order and letting promises settle between them. */
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const next = this.timers.filter(t => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter(t => t !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
    await flush();
  }
}
export const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

