/**
 * A verdict you can trust (issue 42): the policy answers every question about a verdict from one table; a test
 * failing only with the proposal must fail twice; a test failing before and after is compared by its failure.
 * tasks/checking/policy.ts, verdict.ts, failures.ts.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { failureMessages } from '../../src/tasks/checking/failures';
import { stripAnsi } from '../../src/tasks/checking/output';
import { CHECK_VERDICTS, checkFailed, checkStartOf, fixesItself, runsOnCompletion, teamCanFix, verdictRules } from '../../src/tasks/checking/policy';
import { readRun } from '../../src/tasks/checking/summary';
import type { CheckRun, CheckVerdict } from '../../src/tasks/checking/types';
import { judge, needsRerun } from '../../src/tasks/checking/verdict';
import { assertLinear, fiveMegabytesOf } from './linearTime';

const run = (end: CheckRun['end'], failing: string[] = [], failures?: Record<string, string>, more: Partial<CheckRun> = {}): CheckRun => ({
  end,
  durationMs: 1,
  summary: '',
  failing,
  tail: '',
  outputBytes: 0,
  ...(failures ? { failures } : {}),
  ...more,
});

describe('checking: one policy for what a verdict means', () => {
  it('every verdict has its rules, and they agree with each other', () => {
    assert.deepEqual(CHECK_VERDICTS, ['passed', 'failing', 'failingAsBefore', 'flaky', 'timedOut', 'canceled', 'notStarted']);
    for (const verdict of CHECK_VERDICTS) {
      const rules = verdictRules(verdict);
      assert.ok(rules.words.length, verdict);
      // A verdict the team may fix by itself is one it can fix at all, and one that failed.
      if (rules.fixesItself) assert.ok(rules.teamCanFix && rules.failed, verdict);
      if (rules.teamCanFix) assert.ok(rules.failed, verdict);
      assert.equal(rules.tone === 'failed', rules.failed && rules.fixesItself, verdict);
    }
  });

  it('did it fail: failing, as before, timed out; not a check that never started, was canceled, or is flaky (the result view and the toast agreed on nothing else before)', () => {
    const failed = (verdict: CheckVerdict) => checkFailed({ checks: [{ verdict: 'passed' }, { verdict }] });
    assert.deepEqual(CHECK_VERDICTS.filter(failed), ['failing', 'failingAsBefore', 'timedOut']);
    assert.equal(checkFailed({ checks: [{ verdict: 'failing' }, { verdict: 'passed' }] }), false, 'the newest check counts');
    assert.equal(checkFailed({}), false);
  });

  it('the team can fix what failed; it fixes itself only what the proposal broke, within the rounds the user allows, when the check started by itself', () => {
    assert.deepEqual(CHECK_VERDICTS.filter(v => teamCanFix({ checks: [{ verdict: v }] })), ['failing', 'failingAsBefore', 'timedOut']);
    const unasked = { unasked: true };
    assert.equal(fixesItself(unasked, { verdict: 'failing' }, 0, { autoFixRounds: 1 }), true);
    assert.equal(fixesItself(unasked, { verdict: 'failing' }, 1, { autoFixRounds: 1 }), false, 'rounds used up');
    assert.equal(fixesItself(unasked, { verdict: 'failingAsBefore' }, 0, { autoFixRounds: 3 }), false, 'failing before is not the team\'s to fix by itself');
    assert.equal(fixesItself(unasked, { verdict: 'flaky' }, 0, { autoFixRounds: 3 }), false);
    assert.equal(fixesItself({ unasked: false }, { verdict: 'failing' }, 0, { autoFixRounds: 3 }), false, 'a click asks');
  });

  it('a check starts by itself on completion only when the user turned it on, the workspace is trusted and the answer names files; the request is typed', () => {
    const done = { status: 'completed', namedFiles: 1 };
    assert.equal(runsOnCompletion(done, { onComplete: true }, true), true);
    assert.equal(runsOnCompletion(done, { onComplete: false }, true), false);
    assert.equal(runsOnCompletion(done, { onComplete: true }, false), false);
    assert.equal(runsOnCompletion({ status: 'completed', namedFiles: 0 }, { onComplete: true }, true), false);
    assert.equal(runsOnCompletion({ status: 'failed', namedFiles: 2 }, { onComplete: true }, true), false);
    assert.deepEqual(checkStartOf({ unasked: true }), { unasked: true });
    for (const arg of [undefined, null, 'unasked', { unasked: 'true' }, { unasked: 1 }, []]) assert.deepEqual(checkStartOf(arg), { unasked: false }, JSON.stringify(arg));
  });
});

describe('checking: a verdict you can trust', () => {
  it('a test failing only with the proposal and again when run once more is newly failing', () => {
    const before = run('passed');
    const after = run('failed', ['truncates']);
    assert.equal(needsRerun(before, after), true);
    assert.deepEqual(judge(before, after, run('failed', ['truncates'])), { newlyFailing: ['truncates'], verdict: 'failing' });
  });

  it('one that passes when run once more is flaky, not the proposal\'s doing; the proposal\'s real failures stay', () => {
    assert.deepEqual(judge(run('passed'), run('failed', ['timing']), run('passed')), { newlyFailing: [], verdict: 'flaky', flaky: ['timing'] });
    assert.deepEqual(judge(run('passed'), run('failed', ['timing', 'truncates']), run('failed', ['truncates'])), {
      newlyFailing: ['truncates'],
      verdict: 'failing',
      flaky: ['timing'],
    });
    // Flaky beside failures that were there before: failing as before, and the flaky one said.
    assert.deepEqual(judge(run('failed', ['old']), run('failed', ['old', 'timing']), run('failed', ['old'])), {
      newlyFailing: [],
      verdict: 'failingAsBefore',
      flaky: ['timing'],
    });
    // Names unknown, and the second run passed: flaky.
    assert.deepEqual(judge(undefined, run('failed'), run('passed')), { newlyFailing: [], verdict: 'flaky' });
    // Names unknown, and the second run failed too: failing.
    assert.deepEqual(judge(undefined, run('failed'), run('failed')), { newlyFailing: [], verdict: 'failing' });
  });

  it('a test failing before and after, with another failure now, fails differently: counted against the proposal', () => {
    const before = run('failed', ['parses'], { parses: "error: 'expected 2, got 3'" });
    const same = run('failed', ['parses'], { parses: "error: 'expected 2, got 3'" });
    const other = run('failed', ['parses'], { parses: 'TypeError: cannot read properties of undefined' });
    assert.equal(needsRerun(before, same), false, 'failing as before needs no second run');
    assert.deepEqual(judge(before, same), { newlyFailing: [], verdict: 'failingAsBefore' });
    assert.deepEqual(judge(before, other), { newlyFailing: ['parses'], verdict: 'failing', failsDifferently: ['parses'] });
    // A failure not read on one side is compared by name only, as before.
    assert.deepEqual(judge(before, run('failed', ['parses'])), { newlyFailing: [], verdict: 'failingAsBefore' });
  });

  it('passed, timed out, canceled, not started: what the run says, with no second run', () => {
    for (const end of ['passed', 'timedOut', 'canceled', 'notStarted'] as const) {
      assert.equal(needsRerun(run('passed'), run(end)), false, end);
      assert.deepEqual(judge(run('passed'), run(end)), { newlyFailing: [], verdict: end });
    }
  });
});

describe('checking: how each test failed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-failures-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A real node --test run of a file whose one failing test fails with `assertion`; its output as a check reads it. */
  const nodeTest = (reporter: string, assertion: string, extra = ''): string => {
    fs.writeFileSync(
      path.join(dir, 'text.test.js'),
      [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        extra,
        "test('adds', () => assert.equal(1 + 1, 2));",
        `test('truncates at a word', () => { ${assertion} });`,
      ].join('\n'),
    );
    const ran = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(ran.status, 1, ran.stderr);
    return stripAnsi(ran.stdout + ran.stderr);
  };

  for (const reporter of ['tap', 'spec']) {
    it(`node --test (${reporter}): the same failure reads the same in two runs, moved lines and durations aside; another failure reads otherwise`, function () {
      this.timeout(30_000);
      const first = nodeTest(reporter, "assert.equal('hello wor', 'hello');");
      const names = readRun(first).failing;
      assert.deepEqual(names, ['truncates at a word']);
      const a = failureMessages(first, names);
      assert.match(a['truncates at a word'], /'hello wor' == 'hello'/);
      // The same failure three lines lower (the proposal added code above it): the same.
      const moved = nodeTest(reporter, "assert.equal('hello wor', 'hello');", '// one\n// two\n// three');
      assert.deepEqual(failureMessages(moved, names), a);
      const other = nodeTest(reporter, "throw new TypeError('text.split is not a function');");
      const b = failureMessages(other, names);
      assert.match(b['truncates at a word'], /text\.split is not a function/);
      assert.notEqual(b['truncates at a word'], a['truncates at a word']);
    });
  }

  it('pytest, go, cargo, jest: the failure after each report; a name with no report has none', () => {
    const out = [
      'FAILED tests/test_text.py::test_truncate - AssertionError: assert 9 == 5',
      '--- FAIL: TestParse (0.00s)',
      '    parse_test.go:12: want 3, got 4',
      '---- tests::splits stdout ----',
      "thread 'tests::splits' panicked at src/lib.rs:10:5:",
      'assertion `left == right` failed',
      '  ● text › pads a short text',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
    ].join('\n');
    const found = failureMessages(out, ['tests/test_text.py::test_truncate', 'TestParse', 'tests::splits', 'text › pads a short text', 'never reported']);
    assert.equal(found['tests/test_text.py::test_truncate'], 'AssertionError: assert 9 == 5');
    assert.equal(found.TestParse, 'want 3, got 4');
    assert.equal(found['tests::splits'], 'assertion `left == right` failed');
    assert.equal(found['text › pads a short text'], 'expect(received).toBe(expected) // Object.is equality');
    assert.equal(found['never reported'], undefined);
  });

  it('is linear on 5 MB of hostile output (reports without end, long lines, many names)', () => {
    const names = Array.from({ length: 50 }, (_, i) => `test ${i}`);
    // Each name reported once: the rest of the reports are looked at and passed over.
    assertLinear(fiveMegabytesOf('not ok 1 - test 1\n  error: x\n'), text => failureMessages(text, names));
    assertLinear(fiveMegabytesOf('✖ ' + 'a'.repeat(5000) + '\n'), text => failureMessages(text, names));
    assertLinear(fiveMegabytesOf(' '), text => failureMessages(text, names));
  });
});
