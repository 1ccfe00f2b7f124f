// The emulator's clock: wall time plus an offset a test can move forward (`emu.advanceClock`), so hour
// windows, ten-minute attachment ids and one-hour task lifetimes can be tested without waiting.

export class Clock {
  private offsetMs = 0;
  private readonly listeners = new Set<() => void>();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves time forward; open streams and other waiters re-evaluate at once. */
  advance(ms: number): number {
    if (ms > 0) {
      this.offsetMs += ms;
      for (const fn of [...this.listeners]) {
        fn();
      }
    }
    return this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Called after every advance; returns the unsubscribe. */
  onAdvance(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A timer in emulator time: fires once `at` (emulator ms) is reached, also when the clock jumps past it. */
  at(at: number, fn: () => void): () => void {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const check = (): void => {
      if (done) {
        return;
      }
      clearTimeout(timer);
      const left = at - this.now();
      if (left <= 0) {
        done = true;
        unsubscribe();
        fn();
        return;
      }
      // Timers may fire a millisecond early; re-arm instead of firing before `at`.
      timer = setTimeout(check, Math.min(left, 2 ** 31 - 1));
    };
    const unsubscribe = this.onAdvance(check);
    check();
    return () => {
      done = true;
      clearTimeout(timer);
      unsubscribe();
    };
  }
}
