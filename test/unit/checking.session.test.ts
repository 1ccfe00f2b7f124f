/**
 * One check, from plan to record (issue 42): the checks store the views follow, the scratch plan from what
 * Review Changes… lands by default, and a whole session on a real folder with real processes: the copy outside
 * every workspace folder, a file that can run code left out, the run without the proposal in a fresh copy, a
 * flaky test told apart, every copy removed. tasks/checking/store.ts, session.ts; review/defaults.ts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkedByDefault, landedByDefault } from '../../src/review/defaults';
import type { PlanFile, PlanHunk } from '../../src/review/planTypes';
import { checkEnvironment } from '../../src/tasks/checking/runner';
import { sandboxSupport, secretPlaces } from '../../src/tasks/checking/sandbox';
import { SCRATCH_PREFIX } from '../../src/tasks/checking/scratch';
import { CheckRefused, type CheckSessionInput, type ProposedFile, folderHolding, runCheckSession, scratchPlan } from '../../src/tasks/checking/session';
import { type CheckStep, CheckStore } from '../../src/tasks/checking/store';

describe('checking: the checks store the views follow', () => {
  it('a check starts, moves through its steps and ends, each with an event; its state is running, then the newest verdict', () => {
    const store = new CheckStore();
    const events: string[] = [];
    store.onDidChange(id => events.push(`${id}:${store.runningOf(id)?.step ?? 'ended'}`));
    const task = { id: 't1', checks: [{ verdict: 'failing' as const }] };
    assert.deepEqual(store.stateOf(task), { verdict: 'failing' });
    const handle = store.start('t1');
    handle.step('copying');
    handle.step('proposal', 'npm test');
    assert.deepEqual(store.stateOf(task)?.running && { step: store.stateOf(task)!.running!.step, command: store.stateOf(task)!.running!.command }, { step: 'proposal', command: 'npm test' });
    assert.deepEqual(store.tasks(), ['t1']);
    handle.done();
    handle.step('rerun');
    assert.deepEqual(events, ['t1:preparing', 't1:copying', 't1:proposal', 't1:ended']);
    assert.deepEqual(store.stateOf(task), { verdict: 'failing' });
    assert.equal(store.stateOf({ id: 'never' }), undefined);
  });

  it('Cancel aborts the task\'s check only; disposal aborts them all', () => {
    const store = new CheckStore();
    const a = store.start('a');
    const b = store.start('b');
    assert.equal(store.cancel('a'), 1);
    assert.equal(a.signal.aborted, true);
    assert.equal(b.signal.aborted, false);
    store.dispose();
    assert.equal(b.signal.aborted, true);
  });
});

const hunk = (conflict: boolean, newText: string, startOffset: number, endOffset: number): PlanHunk =>
  ({ conflict, newText, startOffset, endOffset }) as PlanHunk;
const planFile = (over: Partial<PlanFile>): PlanFile => ({ path: 'src/a.js', kind: 'modify', from: 'diff', blocks: [0], line: 0, twoWay: false, eol: '\n', sensitive: false, alreadyApplied: 0, coarse: false, hunks: [], skippedHunks: [], ...over }) as PlanFile;

describe('checking: what Review Changes… lands by default is what a check copies', () => {
  it('a hunk starts checked unless it conflicts or its file can run code', () => {
    assert.equal(checkedByDefault({ sensitive: false }, { conflict: false }), true);
    assert.equal(checkedByDefault({ sensitive: false }, { conflict: true }), false);
    assert.equal(checkedByDefault({ sensitive: true }, { conflict: false }), false);
  });

  it('a file lands its checked hunks; a conflict is left out of it; a file that can run code lands nothing; a new file its text', () => {
    const now = 'one\ntwo\nthree\n';
    const file = planFile({ hunks: [hunk(false, 'ONE\n', 0, 4), hunk(true, 'THREE\n', 8, 14)] });
    assert.deepEqual(landedByDefault(file, now), { text: 'ONE\ntwo\nthree\n', leftOut: 'conflict' });
    assert.deepEqual(landedByDefault(planFile({ hunks: [hunk(false, 'ONE\n', 0, 4)] }), now), { text: 'ONE\ntwo\nthree\n' });
    assert.deepEqual(landedByDefault(planFile({ sensitive: true, hunks: [hunk(false, '{}', 0, 4)] }), now), { text: null, leftOut: 'runsCode' });
    assert.deepEqual(landedByDefault(planFile({ kind: 'create', hunks: [hunk(false, 'new\n', 0, 0)] }), ''), { text: 'new\n' });
    assert.deepEqual(landedByDefault(planFile({ hunks: [hunk(true, 'x', 0, 4)] }), now), { text: null, leftOut: 'conflict' });
  });

  it('the scratch plan: the unsaved texts first (not under dependency or build folders), then each file; what is left out says why', () => {
    const files: ProposedFile[] = [
      { path: 'src/a.js', rel: 'src/a.js', text: 'A2', now: 'A1', created: false },
      { path: 'src/new.js', rel: 'src/new.js', text: 'N', now: '', created: true },
      { path: 'package.json', rel: 'package.json', text: null, leftOut: 'runsCode', now: '{}', created: false },
      { path: 'src/b.js', rel: 'src/b.js', text: 'B2', leftOut: 'conflict', now: 'B1', created: false },
      { path: 'server/c.js', rel: undefined, text: 'C2', now: 'C1', created: false },
    ];
    const unsaved = new Map([
      ['src/a.js', 'A1 unsaved'],
      ['README.md', 'typing'],
      ['node_modules/x/index.js', 'edited'],
      ['target/out.txt', 'built'],
    ]);
    const plan = scratchPlan(files, unsaved);
    assert.deepEqual([...plan.base], [['src/a.js', 'A1 unsaved'], ['README.md', 'typing'], ['src/new.js', null], ['src/b.js', 'B1']]);
    assert.deepEqual([...plan.proposal], [['src/a.js', 'A2'], ['src/new.js', 'N'], ['src/b.js', 'B2']]);
    assert.deepEqual(plan.changes, {
      files: ['src/a.js', 'src/new.js', 'src/b.js'],
      leftOut: [
        { path: 'package.json', why: 'runsCode' },
        { path: 'src/b.js', why: 'conflict' },
        { path: 'server/c.js', why: 'otherFolder' },
      ],
    });
  });

  it('the copy is made outside every workspace folder, not only the task\'s', () => {
    const tmp = path.join(path.sep, 'work', 'other', 'tmp');
    assert.equal(folderHolding(tmp, [path.join(path.sep, 'work', 'app'), path.join(path.sep, 'work', 'other')]), path.join(path.sep, 'work', 'other'));
    assert.equal(folderHolding(tmp, [path.join(path.sep, 'work', 'app'), path.join(path.sep, 'work', 'oth')]), undefined);
    assert.equal(folderHolding(tmp, [tmp]), tmp);
  });
});

describe('checking: a whole session on a real folder', function () {
  this.timeout(60_000);
  let root: string;
  const copiesNow = () => fs.readdirSync(os.tmpdir()).filter(n => n.startsWith(SCRATCH_PREFIX)).sort();
  let copiesBefore: string[];

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-session-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'text.js'), "exports.version = 'v1';\n");
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "user-package" }\n');
    // The check: prints what it sees of the copy, then fails the test "timing" where the module says so.
    fs.writeFileSync(
      path.join(root, 'check.js'),
      [
        "const fs = require('fs');",
        "const text = require('./src/text.js');",
        "console.log('version ' + text.version + '; planted ' + fs.existsSync('planted.txt') + '; package ' + fs.readFileSync('package.json', 'utf8').trim());",
        "if (text.fails && text.fails()) { console.log('not ok 1 - timing'); process.exit(1); }",
        "console.log('ok 1 - timing');",
      ].join('\n'),
    );
    copiesBefore = copiesNow();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const session = (proposed: string, extra: Partial<CheckSessionInput> = {}) => {
    const steps: CheckStep[] = [];
    const files: ProposedFile[] = [
      { path: 'src/text.js', rel: 'src/text.js', text: proposed, now: "exports.version = 'v1';\n", created: false },
      { path: 'package.json', rel: 'package.json', text: null, leftOut: 'runsCode', now: '', created: false },
    ];
    const input: CheckSessionInput = {
      command: 'node check.js',
      root,
      workspaceFolders: [root],
      exclude: [],
      plan: scratchPlan(files, new Map()),
      env: checkEnvironment(process.env, []),
      timeoutMs: 30_000,
      compareWithBefore: true,
      redact: t => t,
      signal: new AbortController().signal,
      step: step => steps.push(step),
      ...extra,
    };
    return { steps, run: () => runCheckSession(input) };
  };

  it('a proposal that plants a file and fails: the run without it is a fresh copy (sees nothing planted), the second run fails too: newly failing', async () => {
    const proposal = "require('fs').writeFileSync('planted.txt', 'x');\nexports.version = 'v2';\nexports.fails = () => true;\n";
    const { steps, run } = session(proposal);
    const outcome = await run();
    assert.ok(outcome);
    const { record, output } = outcome;
    assert.equal(record.verdict, 'failing');
    assert.deepEqual(record.newlyFailing, ['timing']);
    assert.deepEqual(steps, ['copying', 'proposal', 'before', 'rerun']);
    assert.match(output.all, /## node check\.js on the proposal \(failed, exit 1[^\n]*\n\nversion v2; planted true; package \{ "name": "user-package" \}/);
    // Planted by the proposal's run, but not in the run without it: a fresh copy.
    assert.match(output.all, /## node check\.js without the proposal \(passed[^\n]*\n\nversion v1; planted false/);
    assert.match(output.all, /## node check\.js on the proposal, once more \(failed[^\n]*\n\nversion v2; planted true/);
    assert.equal(output.proposal.includes('without the proposal'), false, 'the proposal\'s run alone');
    assert.deepEqual(copiesNow(), copiesBefore, 'every copy removed');
    assert.equal(fs.existsSync(path.join(root, 'planted.txt')), false, 'nothing written in the user\'s folder');
  });

  it('a test that fails once and passes when run again is flaky', async () => {
    const proposal = "exports.version = 'v2';\nexports.fails = () => { const fs = require('fs'); if (fs.existsSync('.ran')) return false; fs.writeFileSync('.ran', ''); return true; };\n";
    const outcome = await session(proposal).run();
    assert.equal(outcome?.record.verdict, 'flaky');
    assert.deepEqual(outcome?.record.flaky, ['timing']);
    assert.equal(outcome?.record.rerun?.end, 'passed');
  });

  it('a passing proposal runs once; a file that can run code is not in the copy', async () => {
    const { steps, run } = session("exports.version = 'v2';\n");
    const outcome = await run();
    assert.equal(outcome?.record.verdict, 'passed');
    assert.deepEqual(steps, ['copying', 'proposal']);
    assert.deepEqual(outcome?.record.changes.leftOut, [{ path: 'package.json', why: 'runsCode' }]);
    assert.match(outcome!.output.all, /package \{ "name": "user-package" \}/);
  });

  it('in the sandbox (issue 44): the same check runs and passes, and its record says which sandbox and that it had no network', async function () {
    if (process.platform !== 'linux') this.skip();
    const support = await sandboxSupport();
    assert.equal(support.kind, 'bubblewrap', support.why);
    const sandbox = { kind: 'bubblewrap' as const, binary: support.binary!, hidden: secretPlaces(os.homedir()), allowNetwork: false };
    const outcome = await session("exports.version = 'v2';\n", { sandbox }).run();
    assert.equal(outcome?.record.verdict, 'passed', outcome?.output.all);
    assert.deepEqual(outcome?.record.sandbox, { kind: 'bubblewrap', network: false });
    assert.deepEqual(copiesNow(), copiesBefore, 'every copy removed');
  });

  it('a temp folder inside any workspace folder is refused before anything is copied', async () => {
    await assert.rejects(session("exports.version = 'v2';\n", { workspaceFolders: [root, path.dirname(os.tmpdir())] }).run(), (e: unknown) => e instanceof CheckRefused && e.why.kind === 'tempInFolder');
    assert.deepEqual(copiesNow(), copiesBefore);
  });
});
