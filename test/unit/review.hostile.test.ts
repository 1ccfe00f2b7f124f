/**
 * Issue 16, the pure core against server text built to hurt: every input here would take minutes (or run out
 * of memory) with a quadratic step, and takes milliseconds with linear ones. No time is asserted (speed is
 * `npm run bench`'s job): a regression shows as mocha's 20 s timeout. The work counters are asserted.
 */
import * as assert from 'node:assert/strict';
import { fencedBlocks, parseAnswer } from '../../src/review/answer';
import { diffLines } from '../../src/review/diff';
import { type DiffLine, parseUnifiedDiff } from '../../src/review/patch';
import { placeHunks } from '../../src/review/placement';
import * as path from 'node:path';
import { PlanCancelled, planOffThread, workerScript } from '../../src/review/offThread';
import { type FileState, type ReviewFiles, buildPlan } from '../../src/review/plan';
import { plain, tooComplexReason } from '../../src/review/words';

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
    // Only the places of the hunk's rarest line are tried (none here): no walk over 20,000 near-matches.
    assert.ok(1_000_000 - budget.left < 50_000, `charged ${1_000_000 - budget.left} steps`);
  });

  it('a hunk whose every line is everywhere is listed as ambiguous after a few candidates, within its budget', () => {
    const target = Array.from({ length: 20_000 }, () => 'same');
    const lines: DiffLine[] = Array.from({ length: 5_000 }, () => ({ op: ' ', text: 'same', noEol: false }));
    lines.push({ op: '-', text: 'same', noEol: false });
    const budget = { left: 1_000_000 };
    const r = placeHunks(target, [{ header: '@@', lines }], false, { budget });
    assert.deepEqual(r.failed, [0]);
    assert.deepEqual(r.ambiguous.get(0), [1, 2, 3, 4, 5]);
    assert.ok(1_000_000 - budget.left < 100_000, `charged ${1_000_000 - budget.left} steps`);
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

  // Issue 25 ------------------------------------------------------------------------------------------

  const numbered = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
  const small = `${numbered(10, i => `line ${i}`).join('\n')}\n`;
  const same = (text: string): ReviewFiles => ({ current: () => ({ kind: 'file', text }), sent: () => text });

  it('20,000 one-line insertions at one place become one hunk with every line in order (the merge joins them in one pass)', () => {
    const answer = fence('diff path=a.txt', ['--- a/a.txt', '+++ b/a.txt', ...numbered(20_000, i => `@@ -5,0 +6 @@\n+x${i}`)].join('\n'));
    const plan = buildPlan(answer, same(small));
    assert.equal(plan.tooComplex, undefined);
    assert.equal(plan.hunkCount, 1);
    const lines = plan.files[0].hunks[0].newText.split('\n');
    assert.equal(lines.length, 20_001);
    assert.deepEqual([lines[0], lines[19_999]], ['x0', 'x19999']);
  });

  it('20 hunks whose headers claim line 999,999,999 are placed by their context for a few steps each, not a walk to that line', () => {
    const text = `${numbered(1000, i => `row ${i}`).join('\n')}\n`;
    const hunks = numbered(20, h => `@@ -999999999,3 +999999999,3 @@\n row ${h * 40}\n-row ${h * 40 + 1}\n+ROW ${h * 40 + 1}\n row ${h * 40 + 2}`);
    const [diff] = parseUnifiedDiff(hunks.join('\n'));
    const budget = { left: 4_000_000 };
    const r = placeHunks(text.split('\n').slice(0, 1000), diff.hunks, false, { budget });
    assert.deepEqual(r.failed, []);
    assert.deepEqual(r.placed.map(p => p.at), Array.from({ length: 20 }, (_, h) => h * 40));
    assert.ok(4_000_000 - budget.left < 10_000, `charged ${4_000_000 - budget.left} steps`);
    const plan = buildPlan(fence('diff path=b.txt', hunks.join('\n')), same(text));
    assert.equal(plan.hunkCount, 20);
  });

  it('1,000,000 hunk headers: counted, not read, and the plan is too complex with the numbers', () => {
    const answer = fence('diff path=a.txt', numbered(1_000_000, i => `@@ -1,0 +1 @@\n+${i % 10}`).join('\n'));
    const plan = buildPlan(answer, same(small));
    assert.equal(plan.files.length, 0);
    assert.equal(plan.tooComplex?.hunkHeaders, 1_000_000);
    const said = tooComplexReason(plain, plan.tooComplex!);
    assert.match(said, /too complex to review here/);
    assert.match(said, /1000000 hunk headers in 1 blocks, over the limit of 50000/);
  });

  it('past the cap a diff is scanned for its headers, not split: the count is the parser\'s, what comes before is read as before', () => {
    const hunks = (n: number) => numbered(n, i => `@@ -${i + 1} +${i + 1} @@\n-a${i}\n+b${i}`).join('\n');
    const text = `--- a/x.ts\n+++ b/x.ts\n${hunks(5)}\n@@ -90 +90 @@\n\\ the note of an empty header\n--- a/y.ts\n+++ b/y.ts\n${hunks(2)}\n`;
    const [capped] = parseUnifiedDiff(text, 3);
    assert.equal(capped.hunks.length, 3);
    assert.deepEqual(capped.hunks.map(h => h.lines.map(l => l.op + l.text)), [['-a0', '+b0'], ['-a1', '+b1'], ['-a2', '+b2']]);
    // Two of x.ts, then an empty header (not a hunk: no diff line follows it, as the parser reads it), then y.ts's two.
    assert.equal(capped.headersPastCap, 4);
    const whole = parseUnifiedDiff(text);
    assert.deepEqual(whole.map(f => [f.newPath, f.hunks.length, f.headersPastCap]), [['x.ts', 5, 0], ['y.ts', 2, 0]]);
  });

  it('a plan that spends its work budget is too complex, not a partial preview', () => {
    const a = numbered(20_000, i => (i % 2 ? '}' : '')).join('\n');
    const b = numbered(20_000, i => (i % 3 ? '}' : '')).join('\n');
    const answer = numbered(20, i => fence(`txt path=f${i}.txt`, b)).join('');
    const plan = buildPlan(answer, { current: () => ({ kind: 'file', text: a }), sent: () => undefined }, { workBudget: 2_000_000 });
    assert.ok(plan.tooComplex, 'too complex');
    assert.equal(plan.tooComplex.workBudget, 2_000_000);
    assert.ok(plan.tooComplex.work >= 2_000_000);
    assert.match(tooComplexReason(plain, plan.tooComplex), /more than 2\.0 million steps/);
    // Within its budget the same kind of answer plans.
    assert.equal(buildPlan(fence('txt path=f.txt', b), { current: () => ({ kind: 'file', text: a }), sent: () => undefined }).tooComplex, undefined);
  });

  describe('the planner\'s thread (what Review Changes runs)', () => {
    const script = workerScript(path.join(__dirname, '../../src/review'));
    const states = (text: string) => new Map<string, FileState>([['a.txt', { kind: 'file', text }]]);

    it('plans as buildPlan does, asking for the paths the answer names, translated through the bundle given', async () => {
      const answer = fence('diff path=a.txt', '@@ -2 +2 @@\n-line 1\n+LINE 1');
      let asked: string[] = [];
      const plan = await planOffThread(script, { answer, caseless: false, bundle: { 'Hunk {0} of {1} · {2}': 'Stück {0} von {1} · {2}' } }, async paths => {
        asked = paths;
        return { states: states(small), sent: new Map() };
      });
      assert.deepEqual(asked, ['a.txt']);
      assert.equal(plan.hunkCount, 1);
      assert.equal(plan.files[0].hunks[0].newText, 'LINE 1\n');
      assert.match(plan.files[0].hunks[0].label, /^Stück 1 von 1/);
    });

    it('cancelling stops the thread wherever it is', async () => {
      const answer = fence('diff path=a.txt', numbered(1_000_000, i => `@@ -1,0 +1 @@\n+${i % 10}`).join('\n'));
      const abort = new AbortController();
      const planned = planOffThread(script, { answer, caseless: false }, async () => ({ states: states(small), sent: new Map() }), abort.signal);
      setTimeout(() => abort.abort(), 5);
      await assert.rejects(planned, PlanCancelled);
    });
  });
});
