// The demo's check loop (issue 37, item 6) is real: over HTTP, the emulator's answer to the sample request lands on
// a copy of the sample workspace (with the extension's own reader and planner) and `node --test` there fails exactly
// one test; the fix request in the task's thread, naming that test, gets an answer that lands and passes them all.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAnswer } from '../../src/review/answer';
import { applyHunks, buildPlan, type ReviewFiles } from '../../src/review/plan';
import { FIX_REQUEST_OPENING } from '../../src/tasks/checking/types';
import { buildPrompt, withLandingInstruction } from '../../src/tasks/sending/prompt';
import {
  DEMO_CHECK_FILES,
  DEMO_FILE_PATH,
  DEMO_FILE_TEXT,
  FAILING_TEST_NAME,
  FIXED_TEXT,
  PROPOSAL_TEXT,
  SAMPLE_INSTRUCTION,
  checkLoopAnswer,
} from '../emulator/checkLoop';
import { call, submit, useLiveEmulator, waitForStatus, type Json } from './emulatorHttp';

const REPO = path.resolve(__dirname, '..', '..', '..');
const SAMPLE_WORKSPACE = path.join(REPO, 'test', 'workspace');

const scratch: string[] = [];
/** A fresh copy of the sample workspace (the demo's, as `npm run demo` copies it). */
function copyOfSample(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-checkloop-'));
  scratch.push(dir);
  fs.cpSync(SAMPLE_WORKSPACE, dir, { recursive: true });
  return dir;
}

/** `node --test` in `dir` with the TAP reporter (the same on every Node): exit code and the top-level failures' names. */
function nodeTest(dir: string): { status: number | null; passed: number; failing: string[]; output: string } {
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  const output = `${r.stdout}${r.stderr}`;
  const failing = [...output.matchAll(/^not ok \d+ - (.*)$/gm)].map(m => m[1]);
  const passed = [...output.matchAll(/^ok \d+ - /gm)].length;
  return { status: r.status, passed, failing, output };
}

/** Lands an answer on the files in `dir` as Review Changes… would (every offered hunk), writes them; returns the paths. */
function land(answer: string, dir: string): string[] {
  const read = (p: string) => (fs.existsSync(path.join(dir, p)) ? fs.readFileSync(path.join(dir, p), 'utf8') : undefined);
  const files: ReviewFiles = {
    current: p => {
      const text = read(p);
      return text === undefined ? { kind: 'missing' } : { kind: 'file', text };
    },
    sent: p => read(p),
  };
  const plan = buildPlan(parseAnswer(answer), files);
  const skipped = plan.files.filter(f => f.kind === 'skip').map(f => `${f.path}: ${f.reasonCode}`);
  assert.deepEqual(skipped, [], 'nothing of the answer is left out');
  for (const f of plan.files) fs.writeFileSync(path.join(dir, f.path), applyHunks(read(f.path) ?? '', f.hunks));
  return plan.files.map(f => f.path);
}

/** What "Ask the Team to Fix" sends, in outline: the opening words, what was checked, the failing names and output. */
const fixRequest = (failing: string[], output: string) =>
  withLandingInstruction(
    [FIX_REQUEST_OPENING, '', `Checked: ${DEMO_FILE_PATH} with \`npm test\`.`, '', 'Failing:', ...failing.map(n => `- ${n}`), '', 'Output (the end):', '', '```text', output.trim(), '```'].join('\n'),
  );

describe('emulator: the demo check loop (issue 37)', () => {
  const emu = useLiveEmulator({ conversationDelayMs: 0 });
  after(() => scratch.forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));

  it('the sample workspace holds the files the emulator knows, and its tests pass as shipped', () => {
    for (const [rel, text] of Object.entries(DEMO_CHECK_FILES)) assert.equal(fs.readFileSync(path.join(SAMPLE_WORKSPACE, rel), 'utf8'), text, rel);
    const run = nodeTest(copyOfSample());
    assert.equal(run.status, 0, run.output);
    assert.deepEqual([run.passed, run.failing], [4, []], run.output);
    // The package's own test script runs the same (what a detected `npm test` would run).
    const pkg = JSON.parse(DEMO_CHECK_FILES['package.json']) as Json;
    assert.deepEqual(pkg.scripts, { test: 'node --test' });
    assert.equal(pkg.dependencies, undefined, 'nothing to install');
  });

  it('the sample request fails exactly one test; the fix request in its thread, naming it, passes them all', async () => {
    const prompt = withLandingInstruction(buildPrompt(SAMPLE_INSTRUCTION, { code: DEMO_FILE_TEXT, languageId: 'javascript', label: DEMO_FILE_PATH }));
    const taskId = await submit(emu(), prompt);
    const done = await waitForStatus(emu(), taskId, s => s.status !== 'processing' && s.conversationId !== undefined);
    assert.equal(done.status, 'completed');
    const proposal = (await call(emu(), 'GET', `/results/${taskId}`)).json.result as string;

    const proposed = copyOfSample();
    assert.deepEqual(land(proposal, proposed), [DEMO_FILE_PATH], 'the proposal names the demo module, landably');
    assert.equal(fs.readFileSync(path.join(proposed, DEMO_FILE_PATH), 'utf8'), PROPOSAL_TEXT);
    const failed = nodeTest(proposed);
    assert.equal(failed.status, 1, failed.output);
    assert.deepEqual([failed.passed, failed.failing], [3, [FAILING_TEST_NAME]], failed.output);

    const fix = fixRequest(failed.failing, failed.output.split('\n').slice(-40).join('\n'));
    const run = await call(emu(), 'POST', `/threads/${done.conversationId}/runs`, { prompt: fix });
    assert.equal(run.status, 200, run.text);
    const sent = emu().requests.find(r => r.method === 'POST' && r.path.endsWith(`/threads/${done.conversationId}/runs`));
    assert.deepEqual(sent?.body, { prompt: fix }, 'the thread run is recorded with its body');
    const fixed = await waitForStatus(emu(), run.json.taskId as string);
    assert.equal(fixed.status, 'completed');
    const answer = (await call(emu(), 'GET', `/results/${run.json.taskId}`)).json.result as string;

    // Reviewed against the user's files as they are (the proposal never landed there).
    const user = copyOfSample();
    assert.deepEqual(land(answer, user), [DEMO_FILE_PATH]);
    assert.equal(fs.readFileSync(path.join(user, DEMO_FILE_PATH), 'utf8'), FIXED_TEXT);
    const passed = nodeTest(user);
    assert.equal(passed.status, 0, passed.output);
    assert.deepEqual([passed.passed, passed.failing], [4, []], passed.output);
  });

  it('another fix request gets a generic answer without a proposal, and a fix request outside a thread is no fix request', async () => {
    const { json: thread } = await call(emu(), 'POST', '/threads', { title: 'fix' });
    const other = await call(emu(), 'POST', `/threads/${thread.id}/runs`, { prompt: `${FIX_REQUEST_OPENING}\n\nFailing:\n- parses dates` });
    assert.equal(other.status, 200, other.text);
    await waitForStatus(emu(), other.json.taskId as string);
    const generic = (await call(emu(), 'GET', `/results/${other.json.taskId}`)).json.result as string;
    assert.match(generic, /could not tie them to a change of theirs/);
    assert.deepEqual(parseAnswer(generic).proposals, [], 'nothing to land');

    const outside = await submit(emu(), fixRequest([FAILING_TEST_NAME], ''));
    await waitForStatus(emu(), outside);
    const notAFix = (await call(emu(), 'GET', `/results/${outside}`)).json.result as string;
    assert.ok(!notAFix.includes(FIXED_TEXT), 'the fixed file is answered in the task\'s thread only');
  });

  it('only the sample request gets the failing proposal (another task, another file, an edited module: the usual answer); the fix names the file as the thread did', () => {
    const ask = (instruction: string, code: string, label = DEMO_FILE_PATH, lines?: { start: number; end: number }) =>
      checkLoopAnswer(withLandingInstruction(buildPrompt(instruction, { code, languageId: 'javascript', label, lines })))?.join('\n');
    assert.ok(ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT)?.includes(PROPOSAL_TEXT));
    assert.ok(ask('add truncateWords(text, max)', DEMO_FILE_TEXT)?.includes(PROPOSAL_TEXT), 'another wording of the same task');
    assert.ok(ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT.split('\n').slice(9, 15).join('\n'), DEMO_FILE_PATH, { start: 10, end: 15 })?.includes(PROPOSAL_TEXT), 'truncate() selected');
    // As the demo suggests: the whole file selected (Ctrl+A) goes with its lines; the whole-file answer lands exactly.
    const all = ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT, DEMO_FILE_PATH, { start: 1, end: 17 });
    const range = { startLine: 0, startCharacter: 0, endLine: 16, endCharacter: 37 };
    const files: ReviewFiles = { current: p => (p === DEMO_FILE_PATH ? { kind: 'file', text: DEMO_FILE_TEXT } : { kind: 'missing' }), sent: p => (p === DEMO_FILE_PATH ? DEMO_FILE_TEXT : undefined) };
    const plan = buildPlan(parseAnswer(all ?? '', { sourcePath: DEMO_FILE_PATH }), files, { source: { path: DEMO_FILE_PATH, range } });
    assert.deepEqual(plan.files.map(f => [f.path, f.kind, applyHunks(DEMO_FILE_TEXT, f.hunks) === PROPOSAL_TEXT]), [[DEMO_FILE_PATH, 'modify', true]]);
    assert.ok(ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT, 'client/src/text.js')?.includes('```js path=client/src/text.js\n'), 'named as the prompt names it');
    assert.equal(ask('Explain this file', DEMO_FILE_TEXT), undefined, 'another task');
    assert.equal(ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT, 'src/math.ts'), undefined, 'another file');
    assert.equal(ask(SAMPLE_INSTRUCTION, DEMO_FILE_TEXT.replace('<= max', '< max + 1')), undefined, 'the module as edited by the user');

    // The fix names the module as the thread's sample request named it (a workspace of several folders).
    const fix = fixRequest([FAILING_TEST_NAME], 'not ok 3 - truncate keeps a text of exactly max characters');
    const sample = withLandingInstruction(buildPrompt(SAMPLE_INSTRUCTION, { code: DEMO_FILE_TEXT, languageId: 'javascript', label: 'client/src/text.js' }), ['client', 'server']);
    assert.ok(checkLoopAnswer(fix, [sample])?.join('\n').includes(`\`\`\`js path=client/src/text.js\n${FIXED_TEXT}\`\`\``));
    assert.ok(checkLoopAnswer(fix, ['Another thread'])?.join('\n').includes(`\`\`\`js path=src/text.js\n${FIXED_TEXT}\`\`\``));
    assert.equal(checkLoopAnswer(fix), undefined, 'not in a thread: no fix request');
  });
});
