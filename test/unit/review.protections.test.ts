/**
 * Issue 45, item 5: protections a mutation audit removed one at a time and no test caught. Each test here fails
 * without its protection:
 * - the lost-line guard in `finish()` (review/planHunks.ts), reached directly: a change that removes a line the
 *   answer does not show removed is held back;
 * - `proof.ts`'s definition found once by its name: a block redefining `render()` where two classes declare it
 *   has no proven place;
 * - the review's read budget as a step before each read: a file past it is never read.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { toLines } from '../../src/review/lines';
import { changesBetween } from '../../src/review/merge';
import { ReadBudget } from '../../src/review/offThread';
import { applyHunks, buildPlan, type ReviewFiles } from '../../src/review/plan';
import { finish } from '../../src/review/planHunks';
import { placeUnnamed } from '../../src/review/proof';
import { plain } from '../../src/review/words';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('issue 45: each protection has a test that fails without it', () => {
  const file = lines('const a = 1;', 'const b = 2;', 'const c = 3;', 'const d = 4;');
  const next = lines('const a = 1;', 'const c = 30;', 'const d = 4;');
  const run = (shown: Set<string> | 'all') => {
    const ours = toLines(file).keys;
    const { changes } = changesBetween(ours, toLines(next).keys);
    return finish({ path: 'x.ts', from: 'diff', blocks: [0], line: 0, current: file, ours, base: undefined, changes, t: plain, budget: { left: 1e6 }, shown });
  };

  it('finish(): a hunk removing a line the answer does not show removed is held back, with its reason', () => {
    // The answer showed only "const c = 3;" removed; the change would also lose "const b = 2;".
    const held = run(new Set(['const c = 3;']));
    assert.equal(held.kind, 'skip');
    assert.deepEqual(held.skippedHunks.map(h => h.code), ['unproven']);
    assert.match(held.skippedHunks[0].reason, /would remove lines that the answer does not show removed/);
    // Both shown removed: offered, and it lands exactly.
    const offered = run(new Set(['const b = 2;', 'const c = 3;']));
    assert.equal(offered.hunks.length, 1);
    assert.equal(applyHunks(file, offered.hunks), next);
  });

  it('proof.ts: a block redefining render() where two classes declare it has no proven place; where one does, it goes there', () => {
    const two = lines('class Header {', '  render() {', "    return '<h1>';", '  }', '}', '', 'class Footer {', '  render() {', "    return '<footer>';", '  }', '}', '', 'function main() {', '  return 1;', '}');
    const block = lines('render() {', "  return '<h2>';", '}');
    // main() was selected (lines 13–15): the block keeps nothing of it, and render() is not found once.
    assert.deepEqual(placeUnnamed(block, two, 12, 15), { kind: 'none' });
    const one = two.replace(/class Footer[^]*?\n}\n\n/, '');
    const placed = placeUnnamed(block, one, 6, 9);
    assert.equal(placed.kind, 'definition');
    assert.deepEqual(placed.kind === 'definition' && [placed.name, placed.startLine], ['render', 1]);
    // And through the whole plan: nothing lands in either class.
    const files: ReviewFiles = { current: () => ({ kind: 'file', text: two }), sent: () => two };
    const plan = buildPlan(parseAnswer(`\`\`\`ts\n${block}\`\`\``, { sourcePath: 'a.ts' }), files, { source: { path: 'a.ts', range: { startLine: 12, startCharacter: 0, endLine: 15, endCharacter: 0 } } });
    assert.deepEqual(plan.files.map(f => [f.kind, f.reasonCode]), [['skip', 'noPath']]);
  });

  it('the read budget is a step before each read: a file past it is never read, one that fits is', async () => {
    const budget = new ReadBudget(10);
    let reads = 0;
    const read = async () => {
      reads++;
      return 'text';
    };
    assert.equal(await budget.read(6, read), 'text');
    assert.equal(await budget.read(6, read), undefined, 'past the budget: not read');
    assert.equal(reads, 1);
    assert.equal(await budget.read(4, read), 'text', 'what is left still fits');
    assert.equal(reads, 2);
  });
});
