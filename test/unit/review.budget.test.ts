/**
 * Issue 35: what one review reads is bounded (offThread.ts: the read budget, `REVIEW_READ_BYTES`), and the
 * files' texts reach the planner's thread in slices, whole. Past the budget a file is "too large to review here".
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { type PlanFiles, ReadBudget, planOffThread, workerScript } from '../../src/review/offThread';
import type { FileState } from '../../src/review/plan';

const script = workerScript(path.join(__dirname, '../../src/review'));
const MB = 1024 * 1024;

/** A file of about `bytes` whose first lines the answer's diff changes. */
const fileOf = (bytes: number) => `line 0\nline 1\nline 2\n${'filler line of text\n'.repeat(Math.ceil(bytes / 20))}`;
const diffFor = (name: string) => ['```diff', `--- a/${name}`, `+++ b/${name}`, '@@ -1,3 +1,3 @@', ' line 0', '-line 1', '+LINE 1', ' line 2', '```', ''].join('\n');

describe('review: bounded reads', function () {
  this.timeout(20_000);
  const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];
  const answer = names.map(diffFor).join('\n');
  const text = fileOf(0.6 * MB);

  it('the reader is given the budget: files past it are planned as too large to review here, the rest in full', async () => {
    const plan = await planOffThread(
      script,
      { answer, caseless: false },
      async (paths, _targets, budget) => {
        const states = new Map<string, FileState>();
        const overBudget: string[] = [];
        for (const p of paths) {
          if (budget.take(text.length)) states.set(p, { kind: 'file', text });
          else overBudget.push(p);
        }
        return { states, sent: new Map(), overBudget };
      },
      undefined,
      MB + MB / 2,
    );
    const planned = plan.files.filter(f => f.hunks.length === 1).map(f => f.path);
    assert.deepEqual(planned, ['a.txt', 'b.txt'], 'two 0.6 MB files fit 1.5 MB');
    for (const f of plan.files.filter(f => !planned.includes(f.path))) assert.match(f.reason ?? '', /too large to review here \(the files this answer names pass 2 MB together\)/);
    // A text longer than one slice (256 K characters) arrives whole: the hunk's new text is at its place.
    const hunk = plan.files[0].hunks[0];
    assert.equal(hunk.newText, 'LINE 1\n');
  });

  it('whatever the reader read, no more than the budget is handed over (open documents, kept texts)', async () => {
    const greedy = async (paths: string[]): Promise<PlanFiles> => ({
      states: new Map(paths.map(p => [p, { kind: 'file', text } as FileState])),
      sent: new Map(paths.map(p => [p, text])),
    });
    const plan = await planOffThread(script, { answer, caseless: false }, greedy, undefined, 2 * MB + MB / 2);
    // Each file costs its text now and its kept text: 1.2 MB; two fit 2.5 MB.
    assert.equal(plan.files.filter(f => f.hunks.length === 1).length, 2);
    assert.equal(plan.files.filter(f => /too large to review here/.test(f.reason ?? '')).length, 2);
  });

  it('the budget counts what it gives', () => {
    const budget = new ReadBudget(10);
    assert.equal(budget.take(6), true);
    assert.equal(budget.take(5), false);
    assert.equal(budget.take(4), true);
    assert.equal(budget.take(1), false);
  });
});
