/**
 * Issue 16, the pure core against server text built to hurt: every input here would take minutes (or run out
 * of memory) with a quadratic step, and takes milliseconds with linear ones. No time is asserted (speed is
 * `npm run bench`'s job): a regression shows as mocha's 20 s timeout. The work counters are asserted.
 */
import * as assert from 'node:assert/strict';
import { fencedBlocks, parseAnswer } from '../../src/review/answer';
import { diffLines } from '../../src/review/diff';
import { placeHunks, parseUnifiedDiff } from '../../src/review/patch';
import { type ReviewFiles, buildPlan } from '../../src/review/plan';

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\`\n`;

describe('review: hostile answers stay linear and bounded', () => {
  it('a 100,000-line answer of 10,000 small named blocks: parsed in one pass, proposals capped', () => {
    const parts: string[] = [];
    for (let i = 0; i < 10_000; i++) parts.push(`Block ${i}:`, '```ts path=src/f' + i + '.ts', `export const v${i} = ${i};`, 'const x = 1;', '```', '', 'text', 'more text', 'and more', '');
    const answer = parts.join('\n');
    assert.equal(answer.split('\n').length, 100_000);
    const parsed = parseAnswer(answer);
    assert.equal(parsed.blockCount, 10_000);
    assert.equal(parsed.proposals.length, 1000, 'capped');
    assert.equal(parsed.rejected.filter(r => r.code === 'tooMany').length, 9000);
    const files: ReviewFiles = { current: () => ({ kind: 'missing' }), sent: () => undefined };
    const plan = buildPlan(parsed, files, { maxHunks: 500 });
    assert.equal(plan.hunkCount, 500);
    assert.equal(plan.files.filter(f => f.reasonCode === 'tooMany').length, 9500);
  });

  it('10,000 unclosed fences: one block swallows the rest, nothing is quadratic', () => {
    const answer = Array.from({ length: 10_000 }, (_, i) => `\`\`\`ts path=a${i}.ts\ncode ${i}`).join('\n');
    const { blocks, unclosed } = fencedBlocks(answer);
    assert.equal(blocks.length, 0);
    assert.deepEqual(unclosed, { line: 0, info: 'ts path=a0.ts' });
    const parsed = parseAnswer(answer);
    assert.deepEqual(parsed.rejected.map(r => r.code), ['unclosed']);
    // Fences of growing length, never closing each other: still one pass.
    const growing = Array.from({ length: 10_000 }, (_, i) => '`'.repeat(3 + (i % 50)) + 'x').join('\n');
    assert.equal(fencedBlocks(growing).blocks.length, 0);
  });

  it('one enormous line (an info string, a path, a diff header) is read once and refused by its size', () => {
    const huge = 'a'.repeat(5_000_000);
    const parsed = parseAnswer(fence(`ts path=${huge}`, 'x') + fence('diff', `--- a/${huge}\n+++ b/${huge}\n@@ -1 +1 @@\n-a\n+b`) + `${huge}\n`);
    assert.equal(parsed.proposals.length, 0);
    assert.ok(parsed.rejected.every(r => r.path.length <= 121), 'shown bounded');
    assert.equal(parsed.unnamed.length, 1, 'a diff whose header is no usable name has no path');
  });

  it('100,000 empty hunk headers and a hunk of 50,000 lines parse in one pass', () => {
    const headers = Array.from({ length: 100_000 }, () => '@@ -1 +1 @@').join('\n');
    assert.equal(parseUnifiedDiff(headers).length, 0);
    const big = ['@@ -1,50000 +1,50000 @@', ...Array.from({ length: 50_000 }, (_, i) => (i % 2 ? ` c${i}` : `-r${i}\n+a${i}`))].join('\n');
    const [f] = parseUnifiedDiff(big);
    assert.equal(f.hunks[0].lines.length, 75_000);
  });

  it('searching for a hunk that almost matches everywhere stops at its budget', () => {
    const target = Array.from({ length: 20_000 }, () => 'same');
    const lines = [...Array.from({ length: 5_000 }, () => ({ op: ' ' as const, text: 'same', noEol: false })), { op: '-' as const, text: 'other', noEol: false }];
    const budget = { left: 1_000_000 };
    const r = placeHunks(target, [{ oldStart: 1, oldCount: 5001, newStart: 1, newCount: 5000, header: '@@', lines }], false, { budget });
    assert.deepEqual(r.failed, [0]);
    assert.ok(budget.left <= 0, 'the budget was the limit');
  });

  it('a plan over many hostile files shares one work budget: later files get coarse diffs, not quadratic ones', () => {
    const n = 20_000;
    const a = Array.from({ length: n }, (_, i) => (i % 2 ? '}' : '')).join('\n');
    const b = Array.from({ length: n }, (_, i) => (i % 3 ? '}' : '')).join('\n');
    const answer = Array.from({ length: 20 }, (_, i) => fence(`txt path=f${i}.txt`, b)).join('');
    const files: ReviewFiles = { current: () => ({ kind: 'file', text: a }), sent: () => undefined };
    const plan = buildPlan(answer, files, { workBudget: 2_000_000 });
    assert.equal(plan.files.length, 20);
    assert.ok(plan.files.filter(f => f.coarse).length >= 10, 'coarse once the budget is spent');
    for (const f of plan.files) assert.ok(f.hunks.length >= 1);
  });

  it('the line diff of two unrelated 100,000-line texts is one edit, found within the budget', () => {
    const a = Array.from({ length: 100_000 }, (_, i) => `a ${i % 1000}`);
    const b = Array.from({ length: 100_000 }, (_, i) => `b ${i % 1000}`);
    const r = diffLines(a, b);
    assert.equal(r.edits.length, 1);
  });
});
