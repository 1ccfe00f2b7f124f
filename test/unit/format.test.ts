import * as assert from 'node:assert/strict';
import { plainFirstLine } from '../../src/format';

describe('format: one-line labels of markdown', () => {
  it('plainFirstLine: the first line in words, markup off (a thread message row: "Agents: Proposal")', () => {
    assert.equal(plainFirstLine('# Proposal\n\nReturn NaN.'), 'Proposal');
    assert.equal(plainFirstLine('\n\n**Summary**\nmore'), 'Summary');
    assert.equal(plainFirstLine('```ts\nconst a = 1;\n```'), 'const a = 1;', 'a fence line is not words');
    assert.equal(plainFirstLine('> quoted\n'), 'quoted');
    assert.equal(plainFirstLine('- first item'), 'first item');
    assert.equal(plainFirstLine('`mean()` returns NaN'), '`mean()` returns NaN', 'marks inside the line stay');
    assert.equal(plainFirstLine('Make mean() total\n\nsrc/math.ts (lines 1-10):'), 'Make mean() total');
    assert.equal(plainFirstLine(`## ${'x'.repeat(100)}`, 10), `${'x'.repeat(9)}…`);
    assert.equal(plainFirstLine(undefined), '');
    assert.equal(plainFirstLine('\n\n   \n'), '');
  });
});
