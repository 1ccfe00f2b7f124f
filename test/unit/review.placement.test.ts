/**
 * Issue 35 item 10 and issue 34 item 4: placement proves its place. Each test fails without the protection it
 * names (a mutation audit broke each and no test failed before).
 */
import * as assert from 'node:assert/strict';
import { parseUnifiedDiff } from '../../src/review/patch';
import { placeHunks } from '../../src/review/placement';
import { partialHunks } from '../../src/review/partial';
import { type ReviewFiles, applyHunks, buildPlan } from '../../src/review/plan';

const numbered = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
const same = (text: string): ReviewFiles => ({ current: () => ({ kind: 'file', text }), sent: () => text });

describe('review: placement is unique or refused (issue 34, issue 35 item 10)', () => {
  it("a partial file's part is never placed by a line that occurs twice: its only anchor repeats, so it is listed", () => {
    const file = [
      'export function a() {',
      '  const value = compute();',
      '  return value;',
      '}',
      '',
      'export function b() {',
      '  const value = compute();',
      '  return value;',
      '}',
      '',
      'export function c() {',
      '  return 3;',
      '}',
    ];
    // The part's only anchorable line occurs in a() and in b(): there is no proven place for the line it adds.
    const keys = ['// ... existing code ...', '  const value = compute();', '  log(value);', '// ... existing code ...'];
    assert.equal(partialHunks(keys, file, 'ts'), undefined);
    // With a line that occurs once, the same part is placed there.
    const placed = partialHunks(['// ... existing code ...', 'export function b() {', '  const value = compute();', '  return value * 2;', '}', '// ... existing code ...'], file, 'ts');
    assert.equal(placed?.length, 1);
    assert.equal(placed![0].oldStart, 6);
  });

  it('a hunk whose context changed is placed by fuzz only near where it says, never 100+ lines away', () => {
    const far = [...numbered(300, i => `line ${i}`)];
    // The hunk says line 11; its context ("CHANGED" first line) matches nowhere exactly; with fuzz its inner
    // lines match at 250, 240 lines away: outside the window, so not placed.
    const [diff] = parseUnifiedDiff(['@@ -11,4 +11,4 @@', ' CHANGED', ' line 251', '-line 252', '+LINE 252', ' line 253'].join('\n'));
    const r = placeHunks(far, diff.hunks, false, { fuzz: 2 });
    assert.deepEqual(r.placed, []);
    assert.deepEqual(r.failed, [0]);
    // Said near where it is (line 250), the same hunk is placed there by fuzz.
    const [near] = parseUnifiedDiff(['@@ -245,4 +245,4 @@', ' CHANGED', ' line 251', '-line 252', '+LINE 252', ' line 253'].join('\n'));
    const ok = placeHunks(far, near.hunks, false, { fuzz: 2 });
    assert.equal(ok.placed.length, 1);
    assert.equal(ok.placed[0].fuzz > 0, true);
    assert.equal(ok.placed[0].changes[0].start, 252);
  });

  it('a hunk without line numbers whose lines occur twice is listed with both places, never the first', () => {
    const text = `${['function a() {', '  return null;', '}', 'function b() {', '  return null;', '}'].join('\n')}\n`;
    const answer = ['```diff path=src/x.ts', '@@', '-  return null;', '+  return undefined;', '```'].join('\n');
    const plan = buildPlan(answer, same(text));
    const f = plan.files[0];
    assert.equal(f.kind, 'skip');
    assert.deepEqual(f.skippedHunks.map(h => [h.code, h.reason]), [['ambiguous', 'hunk 1 (@@) is not placed: its lines occur in several places (lines 2, 5), so its place is not guessed']]);
    // Named by its line, the same hunk lands there.
    const numberedAnswer = ['```diff path=src/x.ts', '@@ -5 +5 @@', '-  return null;', '+  return undefined;', '```'].join('\n');
    const landed = buildPlan(numberedAnswer, same(text)).files[0];
    assert.equal(applyHunks(text, landed.hunks), text.replace(/return null;\n\}\n$/, 'return undefined;\n}\n'));
  });

  it('an edit block matched only without its indentation lands re-indented like the file', () => {
    const text = 'class A {\n    run() {\n        go();\n    }\n}\n';
    const answer = ['src/a.ts', '```ts', '<<<<<<< SEARCH', 'run() {', '    go();', '}', '=======', 'run() {', '    go();', '    done();', '}', '>>>>>>> REPLACE', '```'].join('\n');
    const f = buildPlan(answer, same(text)).files[0];
    assert.equal(applyHunks(text, f.hunks), 'class A {\n    run() {\n        go();\n        done();\n    }\n}\n');
  });
});
