/** What a check's output says: runners' closing lines and failing tests (tasks/checking/summary.ts, issue 37). */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stripAnsi } from '../../src/tasks/checking/output';
import { MAX_FAILING, MAX_NAME, compareRuns, readRun } from '../../src/tasks/checking/summary';
import type { CheckRun } from '../../src/tasks/checking/types';
import { assertLinear, fiveMegabytesOf } from './linearTime';

const MOCHA = `
> demo@1.0.0 test
> mocha


  math
    mean
      ✔ averages numbers
      1) handles an empty list
    median
      ✔ picks the middle
  2) parses input

  2 passing (12ms)
  2 failing

  1) math
       mean
         handles an empty list:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

NaN !== 0

      + expected - actual

      -NaN
      +0

      at Context.<anonymous> (test/math.test.js:9:14)
      at process.processImmediate (node:internal/timers:478:21)

  2) parses input:
     TypeError: Cannot read properties of undefined (reading 'trim')
      at parse (src/parse.js:3:15)

npm ERR! Test failed.  See above for more details.
`;

const JEST = `
> demo@1.0.0 test
> jest

 PASS  src/median.test.js
 FAIL  src/mean.test.js
  ● mean › handles an empty list

    expect(received).toBe(expected) // Object.is equality

    Expected: 0
    Received: NaN

       7 |   test('handles an empty list', () => {
    >  8 |     expect(mean([])).toBe(0);
         |                      ^
       9 |   });

      at Object.toBe (src/mean.test.js:8:22)

  ● mean › rounds

    expect(received).toBeCloseTo(expected)

Summary of all failing tests
 FAIL  src/mean.test.js
  ● mean › handles an empty list

    expect(received).toBe(expected) // Object.is equality

  ● mean › rounds

Test Suites: 1 failed, 1 passed, 2 total
Tests:       2 failed, 12 passed, 14 total
Snapshots:   0 total
Time:        0.842 s, estimated 1 s
Ran all test suites.
`;

const VITEST = `
 RUN  v1.6.0 /home/dev/demo

 ❯ test/mean.test.ts (3 tests | 1 failed) 6ms
   × mean > handles an empty list 4ms
     → expected NaN to be +0 // Object.is equality
 ✓ test/median.test.ts (12 tests) 3ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/mean.test.ts > mean > handles an empty list
AssertionError: expected NaN to be +0 // Object.is equality

- Expected
+ Received

- 0
+ NaN

 ❯ test/mean.test.ts:8:22
      6|   it('handles an empty list', () => {
      7|     expect(mean([])).toBe(0)
       |                      ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 14 passed (15)
   Start at  10:12:01
   Duration  412ms (transform 40ms, setup 0ms, collect 52ms, tests 9ms, environment 0ms, prepare 150ms)
`;

const PYTEST = `
============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/dev/demo
configfile: pyproject.toml
collected 13 items

tests/test_stats.py ..F.........                                         [ 92%]
tests/test_parse.py E                                                    [100%]

==================================== ERRORS ====================================
____________________ ERROR at setup of test_parse_file _________________________
file /home/dev/demo/tests/test_parse.py, line 4
=================================== FAILURES ===================================
_______________________________ test_mean_empty ________________________________

    def test_mean_empty():
>       assert mean([]) == 0
E       assert nan == 0

tests/test_stats.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_mean_empty - assert nan == 0
ERROR tests/test_parse.py::test_parse_file - fixture 'tmp_file' not found
=================== 1 failed, 11 passed, 1 error in 0.12s ====================
`;

const GO = `
=== RUN   TestMean
--- PASS: TestMean (0.00s)
=== RUN   TestMeanEmpty
    stats_test.go:14: mean([]) = NaN, want 0
--- FAIL: TestMeanEmpty (0.00s)
=== RUN   TestParse
=== RUN   TestParse/empty
    parse_test.go:20: got error
=== RUN   TestParse/spaces
--- FAIL: TestParse (0.00s)
    --- FAIL: TestParse/empty (0.00s)
    --- PASS: TestParse/spaces (0.00s)
FAIL
FAIL\texample.com/demo/stats\t0.004s
ok  \texample.com/demo/util\t(cached)
?   \texample.com/demo/cmd\t[no test files]
FAIL
`;

const CARGO = `
   Compiling demo v0.1.0 (/home/dev/demo)
    Finished test [unoptimized + debuginfo] target(s) in 0.91s
     Running unittests src/lib.rs (target/debug/deps/demo-1a2b3c)

running 13 tests
test stats::tests::mean_works ... ok
test stats::tests::mean_empty ... FAILED
test parse::tests::parses ... ok

failures:

---- stats::tests::mean_empty stdout ----
thread 'stats::tests::mean_empty' panicked at src/stats.rs:20:9:
assertion \`left == right\` failed
  left: NaN
 right: 0.0

failures:
    stats::tests::mean_empty

test result: FAILED. 12 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--lib\`
`;

const CARGO_TWO_BINARIES = `
running 3 tests
test a ... ok
test b ... ok
test c ... ignored

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests demo

running 1 test
test src/lib.rs - mean (line 3) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s
`;

const NODE_TAP = `TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.8
  ...
# Subtest: math
    # Subtest: mean of nothing
    not ok 1 - mean of nothing
      ---
      duration_ms: 0.4
      failureType: 'testCodeFailure'
      error: 'Expected values to be strictly equal'
      ...
    # Subtest: todo thing
    not ok 2 - todo thing # TODO
      ---
      ...
    1..2
not ok 2 - math
  ---
  type: 'suite'
  failureType: 'subtestsFailed'
  ...
1..2
# tests 3
# suites 1
# pass 1
# fail 1
# cancelled 0
# skipped 0
# todo 1
# duration_ms 61.2
`;

const NODE_SPEC = `▶ math
  ✔ adds (0.6ms)
  ✖ mean of nothing (1.1ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
▶ math (2.3ms)
✖ parses (0.3ms)
  Error: boom
ℹ tests 3
ℹ suites 1
ℹ pass 1
ℹ fail 2
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0
ℹ duration_ms 70.1

✖ failing tests:

test at test/math.test.js:5:3
✖ mean of nothing (1.1ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

test at test/parse.test.js:3:1
✖ parses (0.3ms)
  Error: boom
`;

describe('checking: reading a run\'s closing lines', () => {
  it('mocha: "2 passing", "2 failing", the numbered failures with their whole titles', () => {
    assert.deepEqual(readRun(MOCHA), { summary: '2 passed, 2 failed', failing: ['math mean handles an empty list', 'parses input'] });
    assert.deepEqual(readRun('  5 passing (3ms)\n  1 pending\n'), { summary: '5 passed, 1 pending', failing: [] });
  });

  it('jest: the Tests: line, each ● failure once (the summary repeats them)', () => {
    assert.deepEqual(readRun(JEST), { summary: '12 passed, 2 failed', failing: ['mean › handles an empty list', 'mean › rounds'] });
  });

  it('vitest: the Tests line, FAIL file > suite > test', () => {
    assert.deepEqual(readRun(VITEST), { summary: '14 passed, 1 failed', failing: ['test/mean.test.ts > mean > handles an empty list'] });
  });

  it('pytest: the closing === line, FAILED and ERROR ids', () => {
    assert.deepEqual(readRun(PYTEST), {
      summary: '11 passed, 1 failed, 1 errors',
      failing: ['tests/test_stats.py::test_mean_empty', 'tests/test_parse.py::test_parse_file'],
    });
    assert.equal(readRun('============================ 12 passed in 0.05s =============================\n').summary, '12 passed');
    assert.equal(readRun('========================== no tests ran in 0.01s ===========================\n').summary, 'no tests ran');
  });

  it('go test: --- FAIL lines (subtests too), packages ok and failed', () => {
    assert.deepEqual(readRun(GO), { summary: '2 passed, 3 failed (1 packages ok, 1 failed)', failing: ['TestMeanEmpty', 'TestParse', 'TestParse/empty'] });
    assert.deepEqual(readRun('ok  \texample.com/a\t0.01s\nok  \texample.com/b\t(cached)\n'), { summary: '2 packages ok', failing: [] });
  });

  it('cargo: test result lines summed over the test binaries, "test x ... FAILED"', () => {
    assert.deepEqual(readRun(CARGO), { summary: '12 passed, 1 failed', failing: ['stats::tests::mean_empty'] });
    assert.deepEqual(readRun(CARGO_TWO_BINARIES), { summary: '3 passed, 1 ignored', failing: [] });
  });

  it('node --test, TAP: the counts, a failing test but not its failing suite, not a TODO', () => {
    assert.deepEqual(readRun(NODE_TAP), { summary: '1 passed, 1 failed, 1 todo', failing: ['mean of nothing'] });
  });

  it('node --test, spec reporter: ✖ failures once each (repeated under "failing tests:"), not the suite', () => {
    assert.deepEqual(readRun(NODE_SPEC), { summary: '1 passed, 2 failed', failing: ['mean of nothing', 'parses'] });
  });

  it('no runner\'s closing line: the last non-blank line (bounded), else ""', () => {
    assert.deepEqual(readRun('building…\nsrc/a.ts(3,1): error TS1005: \';\' expected.\n\n  \n'), { summary: 'src/a.ts(3,1): error TS1005: \';\' expected.', failing: [] });
    assert.equal(readRun(`${'x'.repeat(5000)}\n`).summary.length, 200);
    assert.deepEqual(readRun(''), { summary: '', failing: [] });
    assert.deepEqual(readRun('\n \n'), { summary: '', failing: [] });
  });

  it('the failing list is bounded: at most MAX_FAILING names of at most MAX_NAME characters', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `--- FAIL: Test${i}${'x'.repeat(i === 0 ? 500 : 0)} (0.00s)`).join('\n');
    const { failing } = readRun(lines);
    assert.equal(failing.length, MAX_FAILING);
    assert.equal(failing[0].length, MAX_NAME);
    assert.equal(failing[1], 'Test1');
  });

  it('issue 44: bidi and control characters are cleaned from test names and the summary (they come from the proposal\'s output)', () => {
    const read = readRun(['not ok 1 - pays \u202Eexe.txt\u202C the invoice', '# tests 1', '# pass 0', '# fail 1', 'done \u2066hidden\u2069'].join('\n'));
    assert.deepEqual(read.failing, ['pays exe.txt the invoice']);
    assert.ok(![...read.summary].some(c => /[\u202A-\u202E\u2066-\u2069]/.test(c)), read.summary);
  });

  it('reads the real output of node --test on a failing test (the runner of this machine)', function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-nodetest-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'math.test.js'),
        [
          "const test = require('node:test');",
          "const assert = require('node:assert');",
          "test('adds', () => assert.equal(1 + 1, 2));",
          "test.describe('mean', () => {",
          "  test.it('of two numbers', () => assert.equal((1 + 3) / 2, 2));",
          "  test.it('of nothing is zero', () => assert.equal(NaN, 0));",
          '});',
        ].join('\n'),
      );
      for (const reporter of ['tap', 'spec']) {
        const run = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '1' } });
        assert.equal(run.status, 1, run.stderr);
        const read = readRun(stripAnsi(run.stdout + run.stderr));
        assert.deepEqual(read, { summary: '2 passed, 1 failed', failing: ['of nothing is zero'] }, `${reporter}:\n${run.stdout}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('checking: before and after', () => {
  const run = (end: CheckRun['end'], failing: string[] = []): CheckRun => ({ end, durationMs: 1, summary: '', failing, tail: '', outputBytes: 0 });

  it('passed, timed out, canceled, not started: that, whatever ran before', () => {
    for (const end of ['passed', 'timedOut', 'canceled', 'notStarted'] as const) {
      assert.deepEqual(compareRuns(run('failed', ['a']), run(end)), { newlyFailing: [], verdict: end });
      assert.deepEqual(compareRuns(undefined, run(end)), { newlyFailing: [], verdict: end });
    }
  });

  it('failing: by name when both runs name their failures', () => {
    assert.deepEqual(compareRuns(run('failed', ['a', 'b']), run('failed', ['b', 'c', 'a'])), { newlyFailing: ['c'], verdict: 'failing' });
    assert.deepEqual(compareRuns(run('failed', ['a', 'b']), run('failed', ['b'])), { newlyFailing: [], verdict: 'failingAsBefore' });
  });

  it('failing without a run before, or after a passing one: all of its failures are new', () => {
    assert.deepEqual(compareRuns(undefined, run('failed', ['a'])), { newlyFailing: ['a'], verdict: 'failing' });
    assert.deepEqual(compareRuns(run('passed'), run('failed', ['a'])), { newlyFailing: ['a'], verdict: 'failing' });
    assert.deepEqual(compareRuns(run('passed'), run('failed')), { newlyFailing: [], verdict: 'failing' });
    assert.deepEqual(compareRuns(run('timedOut'), run('failed', ['a'])), { newlyFailing: ['a'], verdict: 'failing' });
  });

  it('names unknown: both failed, so failing as before', () => {
    assert.deepEqual(compareRuns(run('failed'), run('failed')), { newlyFailing: [], verdict: 'failingAsBefore' });
    assert.deepEqual(compareRuns(run('failed', ['a']), run('failed')), { newlyFailing: [], verdict: 'failingAsBefore' });
    assert.deepEqual(compareRuns(run('failed'), run('failed', ['a'])), { newlyFailing: [], verdict: 'failingAsBefore' });
  });

  it('names unknown and the runs ended otherwise (a build the proposal broke): failing, not as before', () => {
    const exit = (code: number, summary: string, failing: string[] = []): CheckRun => ({ ...run('failed', failing), exitCode: code, summary });
    assert.deepEqual(compareRuns(exit(1, '3 passed, 1 failed', ['a']), exit(2, 'error TS2304: Cannot find name')), { newlyFailing: [], verdict: 'failing' });
    assert.deepEqual(compareRuns(exit(1, '1 failed'), exit(1, 'Found 2 errors')), { newlyFailing: [], verdict: 'failing' });
    assert.deepEqual(compareRuns(exit(1, '1 failed'), exit(1, '1 failed')), { newlyFailing: [], verdict: 'failingAsBefore' });
  });
});

/** Inputs made to make a backtracking reader slow: long runs of what its patterns start with and never finish. */
const ADVERSARIAL: Record<string, string> = {
  'one long line of spaces': ' ',
  'lines of spaces': `${' '.repeat(1999)}x\n`,
  'Tests: with blanks': `Tests: 1 ${' '.repeat(1990)}x\n`,
  'unclosed durations': `✖ a${' (1'.repeat(600)}\n`,
  '=== counts': `= 1 a${', 1 a'.repeat(300)} in 1.1.1.1.1 =x\n`,
  'mocha titles': '  1 failing\n  1) a\n  b\n  c\n',
  'digits': `${'1'.repeat(1999)}\n`,
  'go-like': `ok ${'\t'.repeat(1500)}x\n`,
  'failing names': '--- FAIL: T (0.00s)\n',
  'TAP todo': `not ok 1 - a${' # TODO'.repeat(250)} x\n`,
};

describe('checking: reading is linear (5 MB of adversarial output)', function () {
  this.timeout(60_000);
  for (const [name, unit] of Object.entries(ADVERSARIAL)) {
    it(`readRun: ${name}`, () => {
      assertLinear(fiveMegabytesOf(unit), readRun);
    });
  }
});
