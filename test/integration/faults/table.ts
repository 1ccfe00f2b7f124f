/**
 * The fault matrix's recorder: every case reports here, and a root `after` prints one markdown table
 * `case | outcome` when the run included any fault case. Use `kase()` instead of `it()` so a failure's
 * first line becomes the row's reason.
 */
interface Row {
  name: string;
  outcome: string;
}

const rows: Row[] = [];
const reasons = new Map<string, string>();

function firstLine(text: string): string {
  return text.split('\n')[0].replace(/\|/g, '\\|').slice(0, 200);
}

/** An `it()` whose result becomes a row of the table. */
export function kase(name: string, fn: (this: Mocha.Context) => Promise<void>): Mocha.Test {
  return it(name, async function () {
    try {
      await fn.call(this);
    } catch (e) {
      reasons.set(name, firstLine(e instanceof Error ? e.message : String(e)));
      throw e;
    }
  });
}

/** A row for something checked outside a mocha test (e.g. a sub-check inside a loop). */
export function record(name: string, outcome: string): void {
  rows.push({ name, outcome });
}

// Root hooks (registered once, when the first fault suite imports this module).
afterEach(function () {
  const test = this.currentTest;
  if (!test || !test.fullTitle().startsWith('faults')) return;
  const outcome =
    test.state === 'passed' ? 'pass' : test.state === 'failed' ? `FAIL: ${reasons.get(test.title) ?? (test.timedOut ? 'timed out' : 'failed')}` : 'skipped';
  rows.push({ name: test.title, outcome });
});

after(function () {
  if (!rows.length) return;
  const failed = rows.filter(r => r.outcome !== 'pass').length;
  const lines = ['', '| case | outcome |', '| --- | --- |', ...rows.map(r => `| ${r.name.replace(/\|/g, '\\|')} | ${r.outcome} |`)];
  lines.push('', `fault matrix: ${rows.length - failed} of ${rows.length} cases pass`);
  console.log(lines.join('\n'));
});
