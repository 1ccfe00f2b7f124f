/** The linear-time checks of tasks/checking (issue 37): 5 MB of adversarial text, no time asserted (mocha's timeout is the bound). */

/**
 * Runs `work` over `text` once and returns how long it took, asserting no time: a quadratic step over these 5 MB
 * runs for minutes and shows as mocha's 20 s timeout, a linear one takes milliseconds. A bound in ms would race the
 * machine's load (two suites on 2 cores once took 873 ms for 14 ms of baseline); speed is `npm run bench`'s.
 */
export function assertLinear(text: string, work: (text: string) => unknown): number {
  const start = process.hrtime.bigint();
  work(text);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const FIVE_MB = 5 * 1024 * 1024;

/** `unit` repeated to 5 MB. */
export const fiveMegabytesOf = (unit: string) => unit.repeat(Math.ceil(FIVE_MB / unit.length)).slice(0, FIVE_MB);
