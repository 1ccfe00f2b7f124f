/** What an answer offers (tasks/offers.ts): the one rule the buttons of every surface follow (issue 24). */
import * as assert from 'node:assert/strict';
import { readAnswer } from '../../src/review';
import { applyWayOf, isInsertable, offersOf, shapeOf } from '../../src/tasks/offers';

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

  it('per task: Review Changes… for named files, Apply… only with code to apply, Insert only with code to insert', () => {
    const shape = (text: string, task: { source?: unknown }) => shapeOf(readAnswer(text).blocks, task);
    const done = (text: string, task: { source?: unknown } = fromFile) => {
      const s = shape(text, task);
      return offersOf({ status: 'completed', ...task, namedFiles: s.namedFiles || undefined, applicableBlocks: s.applicable, insertableBlocks: s.insertable });
    };
    assert.deepEqual(done(answer), { review: true, apply: false, insert: true, copy: true });
    assert.deepEqual(done('Just prose: nothing to change.'), { review: false, apply: false, insert: false, copy: true }, 'no Apply without a code block');
    assert.deepEqual(done(fence('text', 'output\n')), { review: false, apply: false, insert: false, copy: true });
    assert.deepEqual(done(fence('ts', 'x\n')), { review: false, apply: true, insert: true, copy: true });
    assert.deepEqual(done(fence('ts', 'x\n'), fromChat), { review: false, apply: false, insert: true, copy: true });
    assert.deepEqual(done(fence('diff', '--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n')), { review: true, apply: false, insert: false, copy: true });
    // A task kept by an earlier version (no counts): Apply and Insert as before.
    assert.deepEqual(offersOf({ status: 'completed', ...fromFile }), { review: false, apply: true, insert: true, copy: true });
    assert.deepEqual(offersOf({ status: 'failed', ...fromFile }), { review: false, apply: false, insert: false, copy: false });
  });
});
