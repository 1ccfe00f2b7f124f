/**
 * How each failing test failed (issue 42): a test failing before and after the proposal is compared by its
 * failure, not only its name, so that "fails differently now" is told apart from "failing as before". A
 * failure is the first few meaningful lines after the line that reports the test failing (node --test's TAP and
 * spec reporters, mocha, jest, vitest, pytest, go test, cargo), without what changes from run to run (durations,
 * locations, stack frames). Pure and linear: each line is looked at once, against a bounded set of names.
 */
import { MAX_FAILING, SUMMARY_LINE_CHARS } from './summary';

/** Meaningful lines kept of one failure, and characters at most. */
const FAILURE_LINES = 4;
const FAILURE_CHARS = 400;
/** How far after its report a failure's lines are looked for. */
const FAILURE_WINDOW = 40;

/** A line that reports a failing test in some runner's words (the name follows or precedes it on the line). */
const REPORT = /^(?:not ok \d|✖ |× |FAIL(?:ED)? |● |--- FAIL: |---- .* stdout ----|test .* \.\.\. FAILED|\d+\) |_{3,} )/;
/** Lines that say where or how long, not what: they differ between two runs of one failure. */
const NOISE = /^(?:---|\.\.\.|duration_ms:|location:|failureType:|stack:|code:|operator:|type:|name:|generatedMessage:|at |Error: *$|\|-?$|[\w./\\-]+:\d+(?::\d+)?$|note: run with|thread '.*' panicked at [^:]*:\d+:\d+:?$|test at |=+$|-+$|_+$|[{}]$)/;
/** A stack frame as TAP writes it, without "at": `fn (/path/file.js:4:42)`. */
const FRAME = /\(\S*:\d+:\d+\)$/;

/** A line as it is compared: trimmed, durations and line:column positions made alike. */
function normalized(line: string): string {
  return line
    .trim()
    .replace(/^[\w./\\-]+:\d+: /, '')
    .replace(/\(\d+(?:\.\d+)?\s*m?s\)/g, '(…)')
    .replace(/:\d+:\d+\b/g, ':…')
    .replace(/\b0x[0-9a-f]+\b/gi, '0x…');
}

/**
 * The failure of each of `names` in `output`, as its first meaningful lines joined (bounded). A name whose report
 * cannot be found has no entry: it is then compared by name only.
 */
export function failureMessages(output: string, names: readonly string[]): Record<string, string> {
  const wanted = new Set(names.slice(0, MAX_FAILING));
  const found: Record<string, string> = {};
  let current: { name: string; lines: string[]; left: number } | undefined;
  const close = () => {
    if (current?.lines.length) found[current.name] = current.lines.join(' / ').slice(0, FAILURE_CHARS);
    current = undefined;
  };
  let start = 0;
  while (start <= output.length && (wanted.size || current)) {
    let end = output.indexOf('\n', start);
    if (end < 0) end = output.length;
    const line = output.slice(start, Math.min(end, start + SUMMARY_LINE_CHARS)).trim();
    start = end + 1;
    if (!line) continue;
    if (REPORT.test(line)) {
      const name = [...wanted].find(n => line.includes(n));
      if (name !== undefined) {
        close();
        wanted.delete(name);
        current = { name, lines: [], left: FAILURE_WINDOW };
        // pytest's short summary and go's "--- FAIL" say the failure on the report line itself.
        const said = /^FAILED \S+ - (.+)$/.exec(line);
        if (said) current.lines.push(normalized(said[1]));
        continue;
      }
      if (current) close();
      continue;
    }
    if (!current) continue;
    if (--current.left <= 0) close();
    else if (!NOISE.test(line) && !FRAME.test(line)) {
      current.lines.push(normalized(line));
      if (current.lines.length >= FAILURE_LINES) close();
    }
  }
  close();
  return found;
}
