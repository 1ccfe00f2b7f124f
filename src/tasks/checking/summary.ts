/**
 * What a check's output says (issue 37): the closing lines of common test runners read into one summary line
 * ("12 passed, 1 failed") and the names of the failing tests; and what a run means beside the run before the
 * proposal (newly failing, or failing as before). Pure: no vscode. Linear time: the output is read line by line,
 * each line capped, with anchored regexes that cannot backtrack over a line more than once.
 */
import { shownText } from '../../api/filenames';
import type { CheckRun, CheckVerdict } from './types';

/** A line is read up to this many characters; the failing list holds at most MAX_FAILING names of MAX_NAME characters. */
export const SUMMARY_LINE_CHARS = 2000;
export const MAX_FAILING = 50;
export const MAX_NAME = 200;
const MAX_SUMMARY = 200;

/** Counts in the runner's closing lines, under normalized words (passed, failed) or the runner's own (skipped, todo, …). */
type Counts = Map<string, number>;

const WORDS: Record<string, string | null> = {
  pass: 'passed', passed: 'passed', passing: 'passed',
  fail: 'failed', failed: 'failed', failing: 'failed', failures: 'failed',
  pending: 'pending', skipped: 'skipped', skip: 'skipped', todo: 'todo', cancelled: 'cancelled',
  ignored: 'ignored', error: 'errors', errors: 'errors', xfailed: 'xfailed', xpassed: 'xpassed',
  deselected: 'deselected', measured: null, total: null, tests: null, suites: null, warning: null, warnings: null,
  duration_ms: null, 'filtered out': null, rerun: 'rerun',
};

function formatCounts(counts: Counts): string {
  const parts: string[] = [];
  if (counts.has('passed')) parts.push(`${counts.get('passed')} passed`);
  if (counts.get('failed')) parts.push(`${counts.get('failed')} failed`);
  for (const [word, n] of counts) if (word !== 'passed' && word !== 'failed' && n) parts.push(`${n} ${word}`);
  if (!parts.length && counts.has('failed')) parts.push('0 failed');
  return parts.join(', ');
}

/** "1 failed, 12 passed, 13 total" / "1 failed | 12 passed (13)" / "12 passed; 1 failed; 0 ignored" → counts. */
function countsOf(list: string): Counts {
  const counts: Counts = new Map();
  for (const item of list.split(/[,;|]/)) {
    const m = /^\s*(\d{1,9}) ([a-z_]+(?: out)?)/i.exec(item);
    if (!m) continue;
    const word = WORDS[m[2].toLowerCase()];
    if (word) counts.set(word, (counts.get(word) ?? 0) + Number(m[1]));
  }
  return counts;
}

/** A name as kept: without the characters that hide or reorder text (bidi controls, issue 44), at most MAX_NAME characters. */
function nameOf(text: string): string {
  const name = shownText(text);
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}

/** " (1.2ms)" / " (0.00s)" at the end of a line, as runners print a duration. */
function withoutDuration(text: string): string {
  const open = text.lastIndexOf(' (');
  if (open >= 0 && /^ \(\d+(?:\.\d+)?(?:ms|s)\)\s*$/.test(text.slice(open))) return text.slice(0, open);
  return text;
}

/** Failing tests by indentation: a failure whose deeper lines just before it failed is their parent (a suite), not a test. */
class Nesting {
  private readonly pending: number[] = [];
  /** Whether a failure at `indent` is a leaf (no failure nested under it since its siblings). */
  fail(indent: number): boolean {
    let child = false;
    while (this.pending.length && this.pending[this.pending.length - 1] > indent) {
      this.pending.pop();
      child = true;
    }
    this.pending.push(indent);
    return !child;
  }
  pass(indent: number): void {
    while (this.pending.length && this.pending[this.pending.length - 1] > indent) this.pending.pop();
  }
}

class Reader {
  readonly failing: string[] = [];
  private readonly seen = new Set<string>();
  /** The summary of the last closing lines seen (runners print theirs last), formatted once at the end. */
  closing: string | (() => string) | undefined;
  lastLine = '';
  private counts: Counts | undefined;
  private tap = new Nesting();
  private spec = new Nesting();
  private mochaFailures = false;
  private mochaName: string[] | undefined;
  private readonly cargo: Counts = new Map();
  private goPackages = { ok: 0, failed: 0 };
  private goTests = { passed: 0, failed: 0 };

  addFailing(text: string): void {
    const name = nameOf(text);
    if (!name || this.seen.has(name) || this.failing.length >= MAX_FAILING) return;
    this.seen.add(name);
    this.failing.push(name);
  }

  /** A closing count line of a runner that prints one number per line (node --test, mocha): accumulate. */
  private count(word: string, n: number, starts: boolean): void {
    if (starts || !this.counts) this.counts = new Map();
    const normal = WORDS[word];
    if (normal) this.counts.set(normal, n);
    this.closing = this.countsClosing;
  }

  line(raw: string): void {
    const line = raw.length > SUMMARY_LINE_CHARS ? raw.slice(0, SUMMARY_LINE_CHARS) : raw;
    const text = line.trim();
    if (!text) return;
    this.lastLine = text;
    const indent = line.length - line.trimStart().length;
    if (this.mochaName) return this.mochaContinued(text);
    if (this.nodeTest(text, indent) || this.mocha(text) || this.jestVitest(text) || this.pytest(text)) return;
    this.goCargo(text);
  }

  private nodeTest(text: string, indent: number): boolean {
    // TAP: "# pass 12", "# fail 1"; "not ok 3 - name" (a suite's line follows its tests', deeper).
    let m = /^(?:#|ℹ) (tests|pass|fail|cancelled|skipped|todo|suites|duration_ms) (\d{1,9})/.exec(text);
    if (m) {
      this.count(m[1], Number(m[2]), m[1] === 'tests');
      return true;
    }
    m = /^(not )?ok \d{1,9}(?: - (.*))?$/.exec(text);
    if (m) {
      const name = m[2] ?? '';
      if (!m[1]) this.tap.pass(indent);
      else if (this.tap.fail(indent) && !/# TODO\b/i.test(name)) this.addFailing(name.replace(/ # (?:SKIP|TODO)\b.*$/i, ''));
      return true;
    }
    // Spec reporter: "✖ name (1.2ms)" (repeated under "✖ failing tests:"), "✔ name (0.5ms)".
    if (text.startsWith('✖ ')) {
      if (text === '✖ failing tests:') return true;
      if (this.spec.fail(indent)) this.addFailing(withoutDuration(text.slice(2)));
      return true;
    }
    if (text.startsWith('✔ ')) {
      this.spec.pass(indent);
      return true;
    }
    return false;
  }

  private mocha(text: string): boolean {
    const m = /^(\d{1,9}) (passing|failing|pending)\b/.exec(text);
    if (m) {
      this.count(m[2], Number(m[1]), m[2] === 'passing');
      if (m[2] === 'failing') this.mochaFailures = true;
      return true;
    }
    // After "1 failing": "1) suite" then deeper lines of the title, the last ending in ":".
    if (this.mochaFailures) {
      const f = /^\d{1,4}\) (.*)$/.exec(text);
      if (f) {
        this.mochaName = [];
        this.mochaContinued(f[1]);
        return true;
      }
    }
    return false;
  }

  private mochaContinued(text: string): void {
    const names = this.mochaName!;
    const last = text.endsWith(':');
    names.push(last ? text.slice(0, -1) : text);
    if (last || names.length >= 8) {
      this.mochaName = undefined;
      if (last) this.addFailing(names.join(' '));
    }
  }

  private jestVitest(text: string): boolean {
    // jest "Tests:       1 failed, 12 passed, 13 total"; vitest "Tests  1 failed | 12 passed (13)".
    const m = /^Tests:?\s+(\d.*)$/.exec(text);
    if (m) {
      // vitest's "(13)" total is not a count item; countsOf reads only "<n> <word>" items.
      const counts = countsOf(m[1]);
      if (counts.size) this.closing = formatCounts(counts);
      return true;
    }
    if (text.startsWith('● ')) {
      const name = text.slice(2);
      if (name !== 'Test suite failed to run' && !name.startsWith('Console')) this.addFailing(name);
      return true;
    }
    // vitest: "FAIL  test/a.test.ts > suite > name" (jest's "FAIL  file" names a file, not a test).
    if (text.startsWith('FAIL ') && text.includes(' > ')) {
      this.addFailing(text.slice(5));
      return true;
    }
    return false;
  }

  private pytest(text: string): boolean {
    // "=== 1 failed, 12 passed in 0.12s ===", "FAILED tests/test_x.py::test_name - AssertionError…".
    if (text.startsWith('=') && text.endsWith('=')) {
      const inner = text.replace(/^=+\s*/, '');
      const m = /^(\d{1,9} [a-z]+(?:, \d{1,9} [a-z]+)*)(?: in [\d.]+s)?\b/.exec(inner);
      if (m) {
        const counts = countsOf(m[1]);
        if (counts.has('passed') || counts.has('failed') || counts.has('errors')) {
          this.closing = formatCounts(counts);
          return true;
        }
      }
      if (inner.startsWith('no tests ran')) {
        this.closing = 'no tests ran';
        return true;
      }
      return false;
    }
    const f = /^(FAILED|ERROR) (\S+)/.exec(text);
    if (f && (f[2].includes('::') || f[2].endsWith('.py'))) {
      this.addFailing(f[2]);
      return true;
    }
    return false;
  }

  private goCargo(text: string): void {
    // go: "--- FAIL: TestName (0.00s)", "--- PASS: …", "ok  \tpkg\t0.1s", "FAIL\tpkg\t0.1s".
    let m = /^--- (FAIL|PASS): (\S+)/.exec(text);
    if (m) {
      if (m[1] === 'FAIL') {
        this.goTests.failed++;
        this.addFailing(m[2]);
      } else this.goTests.passed++;
      this.closing = this.goClosing;
      return;
    }
    m = /^(ok|FAIL)\s+(\S+)\s+(?:\(cached\)|[\d.]+s|\[)/.exec(text);
    if (m) {
      if (m[1] === 'ok') this.goPackages.ok++;
      else this.goPackages.failed++;
      this.closing = this.goClosing;
      return;
    }
    // cargo: "test result: FAILED. 12 passed; 1 failed; 0 ignored; …" (one per test binary: summed), "test a::b ... FAILED".
    m = /^test result: (?:ok|FAILED)\. (.*)$/.exec(text);
    if (m) {
      for (const [word, n] of countsOf(m[1])) this.cargo.set(word, (this.cargo.get(word) ?? 0) + n);
      this.closing = this.cargoClosing;
      return;
    }
    m = /^test (\S+) \.\.\. FAILED$/.exec(text);
    if (m) this.addFailing(m[1]);
  }

  private readonly countsClosing = () => (this.counts ? formatCounts(this.counts) : '');
  private readonly cargoClosing = () => formatCounts(this.cargo);

  private readonly goClosing = (): string => {
    const { ok, failed } = this.goPackages;
    const tests = this.goTests;
    const counts: Counts = new Map();
    if (tests.passed) counts.set('passed', tests.passed);
    counts.set('failed', tests.failed);
    const packages = ok + failed ? `${ok} packages ok${failed ? `, ${failed} failed` : ''}` : '';
    const words = tests.passed || tests.failed ? formatCounts(counts) : '';
    return words && packages ? `${words} (${packages})` : words || packages;
  };
}

/**
 * What a run's output says: a one-line summary (the runner's closing counts normalized, "12 passed, 1 failed";
 * else the output's last non-blank line; else "") and the failing tests' names (deduplicated, bounded).
 * The output is already without ANSI codes (`stripAnsi`).
 */
export function readRun(output: string): { summary: string; failing: string[] } {
  const reader = new Reader();
  let start = 0;
  while (start <= output.length) {
    let end = output.indexOf('\n', start);
    if (end < 0) end = output.length;
    // Only the first SUMMARY_LINE_CHARS of a line are sliced (the rest is never copied).
    reader.line(output.slice(start, Math.min(end, start + SUMMARY_LINE_CHARS)));
    start = end + 1;
  }
  const closing = typeof reader.closing === 'function' ? reader.closing() : reader.closing;
  const summary = shownText(closing || reader.lastLine);
  return { summary: summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary, failing: reader.failing };
}

/**
 * The proposal's run beside the run before it: passed; or, when it failed, which tests fail now and did not
 * before (by name where both runs name their failures), and whether it is only failing as it did before.
 */
export function compareRuns(before: CheckRun | undefined, after: CheckRun): { newlyFailing: string[]; verdict: CheckVerdict } {
  if (after.end !== 'failed') return { newlyFailing: [], verdict: after.end };
  if (!before || before.end !== 'failed') return { newlyFailing: [...after.failing], verdict: 'failing' };
  if (after.failing.length && before.failing.length) {
    const old = new Set(before.failing);
    const newlyFailing = after.failing.filter(name => !old.has(name));
    return { newlyFailing, verdict: newlyFailing.length ? 'failing' : 'failingAsBefore' };
  }
  // Names unknown on one side: failing as before only where both runs ended alike (the same exit code and closing
  // line); a proposal that breaks the build of a project with a failing test fails otherwise, and is said to.
  const alike = after.exitCode === before.exitCode && after.summary === before.summary;
  return { newlyFailing: [], verdict: alike ? 'failingAsBefore' : 'failing' };
}
