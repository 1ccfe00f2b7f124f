/** What an answer offers (tasks/offers.ts): the one rule the buttons of every surface follow (issue 24). */
import * as assert from 'node:assert/strict';
import { HOST_READ_CHARS } from '../../src/constants';
import { readAnswer } from '../../src/review';
import type { TrackedTask } from '../../src/tasks/model';
import { type Surface, TASK_OFFERS, allCapabilityWords, answerOffersOf, answerShapeOf, applyWayOf, capabilityWords, isInsertable, offer, offersOf, openingOf, shapeOf } from '../../src/tasks/offers';

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\`\`\``;
const fromFile = { source: { uri: 'file:///w/src/math.ts', label: 'src/math.ts' } };
const fromChat = {};

describe('offers: what an answer offers', () => {
  const answer = [
    'Here is the plan.',
    fence('diff', '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n'),
    fence('ts src/b.ts', 'export const b = 1;\n'),
    fence('text', 'PASS 3 tests\n'),
    fence('ts', 'export function mean() {}\n'),
  ].join('\n\n');

  it('per block: a diff or a named file is reviewed, the range block is proposed for the range, output is Copy only', () => {
    const { blocks } = readAnswer(answer, { sourcePath: 'src/math.ts' });
    assert.deepEqual(
      blocks.map(b => [b.kind, applyWayOf(b, fromFile), isInsertable(b)]),
      [
        ['diff', 'review', false],
        ['file', 'review', true],
        ['output', undefined, false],
        ['range', 'range', true],
      ],
    );
    // Sent from no file: a snippet has nowhere to go; a named block still goes to its file.
    assert.deepEqual(
      readAnswer(answer).blocks.map(b => applyWayOf(b, fromChat)),
      ['review', 'review', undefined, undefined],
    );
  });

  it('a partial file is never pasted over a range; an unnamed diff goes to the source file or nowhere', () => {
    const partial = readAnswer(fence('ts', 'function a() {}\n// ... existing code ...\nfunction z() {}\n')).blocks[0];
    assert.equal(partial.kind, 'partial');
    assert.equal(applyWayOf(partial, fromFile), 'review');
    assert.equal(applyWayOf(partial, fromChat), undefined);
    const diff = readAnswer(fence('diff', '@@ -1 +1 @@\n-a\n+b\n')).blocks[0];
    assert.equal(applyWayOf(diff, fromFile), 'review');
    assert.equal(applyWayOf(diff, fromChat), undefined);
  });

  it('no Apply… on a block whose every naming was refused: nothing to land there or in the source (issue 35 item 9)', () => {
    for (const answer of [fence('ts .git/config', 'x\n'), fence('ts ../../etc/passwd', 'x\n'), fence('text .git/hooks/pre-commit', 'x\n')]) {
      const [block] = readAnswer(answer, { sourcePath: 'src/math.ts' }).blocks;
      assert.ok(block.problems.length && !block.targets.length, `${answer}: refused`);
      assert.equal(applyWayOf(block, fromFile), undefined, answer);
      assert.equal(applyWayOf(block, fromChat), undefined, answer);
      assert.equal(answerShapeOf(fromFile, answer).applicableBlocks, 0, 'the view counts no block to apply');
      assert.equal(answerShapeOf(fromFile, answer).namedFiles, 1, 'Review Changes… still lists it, with why not');
    }
  });

  it('per task: Review Changes… for named files, Apply… only with code to apply, Insert only with code to insert', () => {
    const done = (text: string, task: { source?: unknown } = fromFile) => answerOffersOf({ status: 'completed', ...task, ...answerShapeOf(task, text) });
    assert.deepEqual(done(answer), { review: true, apply: false, insert: true, copy: true });
    assert.deepEqual(done('Just prose: nothing to change.'), { review: false, apply: false, insert: false, copy: true }, 'no Apply without a code block');
    assert.deepEqual(done(fence('text', 'output\n')), { review: false, apply: false, insert: false, copy: true });
    assert.deepEqual(done(fence('ts', 'x\n')), { review: false, apply: true, insert: true, copy: true });
    assert.deepEqual(done(fence('ts', 'x\n'), fromChat), { review: false, apply: false, insert: true, copy: true });
    assert.deepEqual(done(fence('diff', '--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n')), { review: true, apply: false, insert: false, copy: true });
    // Past HOST_READ_CHARS the host counts the named files of the first part only; Apply and Insert as for an
    // answer not counted (the review reads the whole answer).
    const long = `${fence('diff', '--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n')}\n${'prose '.repeat(HOST_READ_CHARS / 6)}\n${fence('ts src/y.ts', 'y\n')}`;
    assert.deepEqual(answerShapeOf(fromFile, long), { namedFiles: 1, applicableBlocks: undefined, insertableBlocks: undefined, unlandedCode: undefined });
    assert.deepEqual(done(long), { review: true, apply: false, insert: true, copy: true });
    assert.equal(shapeOf(readAnswer(long).blocks, fromFile).namedFiles, 2, 'the whole answer names two files');
    // A task kept by an earlier version (no counts): Apply and Insert as before.
    assert.deepEqual(answerOffersOf({ status: 'completed', ...fromFile }), { review: false, apply: true, insert: true, copy: true });
    assert.deepEqual(answerOffersOf({ status: 'failed', ...fromFile }), { review: false, apply: false, insert: false, copy: false });
  });
});

describe('offers: what a task offers, per state and surface (the table, issue 28)', () => {
  const source = { uri: 'file:///w/src/math.ts', label: 'src/math.ts', range: { startLine: 0, startCharacter: 0, endLine: 3, endCharacter: 0 } };
  const diff = fence('diff', '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n');
  const code = fence('ts', 'export function mean() {}\n');
  /** A task record as the store keeps it: a completed one with its answer counted by the one reader (`answerShapeOf`). */
  function record(status: string, extra: Partial<TrackedTask> = {}, answer?: string): TrackedTask {
    const task: TrackedTask = { id: 'task_1', title: 'Mean', instruction: 'Mean', promptChars: 4, submittedAt: 1, updatedAt: 2, status, ...extra };
    if (status !== 'processing' && status !== 'queued' && status !== 'awaiting_approval') task.finishedAt = 2;
    if (answer === undefined) return task;
    return { ...task, resultChars: answer.length, ...answerShapeOf(task, answer) };
  }
  const rendered = openingOf({ resultView: 'rendered' });
  const markdown = openingOf({ resultView: 'markdown' });
  const ids = (task: TrackedTask, surface: Surface, context = rendered) => offersOf(task, surface, context).map(o => o.id);

  it('issue 43: an answer whose code lands nowhere (HTML, a tool\'s XML outside a fence) is marked so, to be said; prose or landable code is not', () => {
    const html = record('completed', {}, 'Here is the fix:<pre><code>export function add(a, b) {\n  return a + b;\n}</code></pre>');
    assert.equal(html.unlandedCode, true);
    const zed = record('completed', {}, 'In money.ts:\n<edits>\n<old_text>\nold\n</old_text>\n<new_text>\nnew\n</new_text>\n</edits>');
    assert.equal(zed.unlandedCode, true);
    // Cline's tool call outside a fence is read as the block it is (issue 43): it names its file, so it lands.
    const cline = record('completed', {}, '<replace_in_file>\n<path>src/money.ts</path>\n<diff>\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>');
    assert.equal(cline.unlandedCode, undefined);
    assert.equal(cline.namedFiles, 1);
    assert.equal(record('completed', {}, 'Nothing to change: the code is right.').unlandedCode, undefined);
    assert.equal(record('completed', { source }, '```ts src/math.ts\nexport const x = 1;\n```').unlandedCode, undefined);
  });

  it('a running task: Cancel Task and Stop Following; Open only where results render', () => {
    const task = record('processing', { source });
    assert.deepEqual(ids(task, 'view'), ['prompt', 'source', 'cancel']);
    assert.deepEqual(ids(task, 'tree'), ['open', 'prompt', 'trace', 'source', 'cancel', 'stopFollowing', 'remove']);
    assert.deepEqual(ids(task, 'tree', markdown), ['prompt', 'trace', 'source', 'cancel', 'stopFollowing', 'remove'], 'raw markdown has nothing to show yet');
    assert.deepEqual(ids(task, 'treeInline'), ['open', 'cancel']);
    assert.deepEqual(ids(task, 'status'), ['cancel']);
    assert.deepEqual(ids(task, 'picker'), ['open', 'prompt', 'trace', 'cancel', 'stopFollowing']);
    // Awaiting approval is a pause, not an end.
    assert.deepEqual(ids(record('awaiting_approval'), 'treeInline'), ['open', 'cancel']);
  });

  it('a completed answer that names files: Review Changes… first, never Apply to Source beside it', () => {
    const task = record('completed', { source }, [diff, code].join('\n\n'));
    assert.deepEqual(ids(task, 'notification'), ['open', 'copy', 'review', 'check']);
    // In chat, Check Proposal… is a follow-up of the participant's (issue 45), not a button.
    assert.deepEqual(ids(task, 'chat'), ['open', 'review']);
    assert.deepEqual(ids(task, 'view'), ['copy', 'review', 'allChanges', 'check', 'raw', 'prompt', 'continue', 'source', 'runAgain']);
    assert.deepEqual(ids(task, 'treeInline'), ['open', 'review']);
    assert.equal(capabilityWords(task, rendered), 'task open copy review allChanges check insert prompt trace continue source runAgain remove');
    assert.deepEqual(offersOf(task, 'view').filter(o => o.primary).map(o => o.id), ['review', 'check']);
  });

  it('issue 37: Check Proposal… wherever Review Changes… is; a failing check offers Ask the Team to Fix, any check its output', () => {
    const task = record('completed', { source }, [diff, code].join('\n\n'));
    for (const surface of ['view', 'notification', 'picker', 'tree'] as const) assert.equal(ids(task, surface).includes('check'), ids(task, surface).includes('review'), surface);
    assert.ok(!ids(task, 'chat').includes('check'), 'chat offers it as its /check follow-up');
    const prose = record('completed', { source }, 'Nothing to change.');
    assert.ok(!ids(prose, 'picker').includes('check'), 'nothing to check without named files');
    const check = (verdict: string) => ({ ...task, checks: [{ verdict }] }) as typeof task;
    assert.ok(!ids(task, 'view').includes('askToFix') && !ids(task, 'view').includes('checkOutput'), 'never checked: nothing to fix or show');
    for (const verdict of ['failing', 'failingAsBefore', 'timedOut']) assert.ok(ids(check(verdict), 'view').includes('askToFix'), verdict);
    for (const verdict of ['passed', 'flaky', 'canceled', 'notStarted']) assert.ok(!ids(check(verdict), 'view').includes('askToFix'), verdict);
    // Issue 42: while a check runs, Cancel Check instead of a second check, and no fix asked meanwhile.
    const checking = { ...check('failing'), checking: true };
    assert.deepEqual(ids(checking, 'view').filter(id => ['check', 'cancelCheck', 'askToFix'].includes(id)), ['cancelCheck']);
    assert.ok(ids(checking, 'status').includes('cancelCheck') && ids(checking, 'tree').includes('cancelCheck'));
    assert.ok(!ids(check('failing'), 'view').includes('cancelCheck'), 'nothing to cancel when nothing runs');
    assert.deepEqual(ids(check('failing'), 'view').filter(id => ['check', 'askToFix', 'checkOutput', 'scratch'].includes(id)), ['check', 'askToFix', 'checkOutput', 'scratch']);
    assert.match(capabilityWords(check('failing'), rendered), /\bcheck askToFix checkOutput\b/);
  });

  it('a completed answer with code for the sent range: Apply to Source… on every surface that lands answers', () => {
    const task = record('completed', { source }, code);
    for (const surface of ['notification', 'chat', 'tree', 'treeInline', 'picker'] as const) assert.ok(ids(task, surface).includes('apply'), surface);
    assert.ok(!ids(task, 'view').includes('apply'), 'the view applies per block (applyWayOf), not the whole answer');
    assert.deepEqual(ids(task, 'notification'), ['open', 'copy', 'apply']);
    // The same answer asked from chat (no source): nowhere to apply it, still something to insert.
    const fromChatTask = record('completed', {}, code);
    assert.deepEqual(ids(fromChatTask, 'notification'), ['open', 'copy']);
    assert.ok(ids(fromChatTask, 'tree').includes('insert'));
  });

  it('prose only: Copy, no Apply, no Insert, no Review', () => {
    const task = record('completed', { source }, 'Nothing to change: the code is right.');
    assert.deepEqual(ids(task, 'notification'), ['open', 'copy']);
    assert.deepEqual(ids(task, 'treeInline'), ['open']);
    assert.ok(!capabilityWords(task, rendered).split(' ').some(w => ['apply', 'insert', 'review', 'allChanges'].includes(w)));
  });

  it('a failed task: Run Again in its toast and its view when it came from code; Open only where results render', () => {
    const task = record('failed', { source, error: 'boom' });
    assert.deepEqual(ids(task, 'failureNotification'), ['runAgain']);
    assert.deepEqual(ids(record('failed', { error: 'boom' }), 'failureNotification'), []);
    assert.deepEqual(ids(task, 'notification'), ['open'], 'the done toast is not shown for it; nothing of an answer is offered');
    assert.deepEqual(ids(task, 'treeInline', markdown), []);
    assert.deepEqual(ids(task, 'view'), ['prompt', 'source', 'runAgain'], 'the view goes on from a failure (issue 35)');
    assert.deepEqual(ids(record('canceled', { source }), 'view'), ['prompt', 'source', 'runAgain']);
  });

  it('a task no longer followed: Follow Again in its menu, its inline buttons and the status bar; no trace', () => {
    const task = record('canceled', { source, trackingStopped: true });
    assert.deepEqual(ids(task, 'treeInline'), ['followAgain']);
    assert.deepEqual(ids(task, 'status'), ['followAgain']);
    assert.equal(capabilityWords(task, rendered), 'task prompt source runAgain followAgain remove');
    assert.deepEqual(ids(record('canceled'), 'tree'), ['prompt', 'remove']);
  });

  it('a task kept by an earlier version (no answer counts): Apply and Insert as before', () => {
    const task = record('completed', { source });
    assert.ok(ids(task, 'notification').includes('apply'));
    assert.ok(ids(task, 'tree').includes('insert'));
  });

  it('the table: one id, one command per row; words the menus can match; labels for people', () => {
    assert.equal(new Set(TASK_OFFERS.map(o => o.id)).size, TASK_OFFERS.length);
    assert.equal(new Set(TASK_OFFERS.map(o => o.command)).size, TASK_OFFERS.length);
    for (const o of TASK_OFFERS) {
      assert.match(o.id, /^[a-z][A-Za-z]*$/, 'a word: \\b…\\b matches it whole');
      assert.equal(offer(o.id), o);
    }
    assert.deepEqual(allCapabilityWords().filter(w => w !== 'task').sort(), TASK_OFFERS.filter(o => o.surfaces.some(s => s.startsWith('tree'))).map(o => o.id).sort());
    // How a result opens: rendered only where there is a view to render in.
    assert.deepEqual(openingOf({ resultView: 'rendered' }, false), { rendered: false });
  });
});
