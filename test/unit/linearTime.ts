/** Timing helpers of the linear-time checks of tasks/checking (issue 37): bounds relative to a linear baseline, not a clock. */

/** The least time of a few runs of `work` (less noise than one run), in ms. */
export function fastest(work: () => unknown, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    work();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

/** A linear baseline over a text (ms): split it into lines, trim each, look at every character. */
export function linearBaseline(text: string): number {
  return fastest(() => {
    let sum = 0;
    for (const line of text.split('\n')) sum += line.trim().length;
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
    return sum;
  });
}

/**
 * Asserts `work` over `text` took a bounded multiple of the linear baseline. Generous: a linear scanner is a small
 * multiple of it; a quadratic one over 5 MB takes minutes. The floor keeps a tiny baseline's noise out.
 */
export function assertLinear(text: string, work: (text: string) => unknown, factor = 50, floorMs = 250): number {
  const baseline = linearBaseline(text);
  const took = fastest(() => work(text), 1);
  const bound = Math.max(floorMs, factor * baseline);
  if (!(took < bound)) throw new Error(`${took.toFixed(0)} ms, over the bound ${bound.toFixed(0)} ms (${factor} × the linear baseline ${baseline.toFixed(1)} ms)`);
  return took;
}

export const FIVE_MB = 5 * 1024 * 1024;

/** `unit` repeated to 5 MB. */
export const fiveMegabytesOf = (unit: string) => unit.repeat(Math.ceil(FIVE_MB / unit.length)).slice(0, FIVE_MB);
