/**
 * Issue 35.10: the result view renders at most 96 K characters of an answer on the extension host by default
 * (`HOST_READ_CHARS`, constants.ts); the rest is left to the raw markdown, with a note saying how much.
 */
import * as assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/views/pages/markdown';

describe('result view: the render cap at its default (issue 35.10)', () => {
  const CAP = 96 * 1024;

  it('an answer of 96 K characters renders whole; one character more is cut there, with a note', () => {
    const line = 'word '.repeat(19) + 'end\n'; // 99 characters a line: paragraphs, so the cut is in text
    const answer = line.repeat(Math.ceil(CAP / line.length) + 10);
    const whole = renderMarkdown(answer.slice(0, CAP));
    assert.ok(!whole.includes('more characters'), 'nothing left out at the cap');
    const over = renderMarkdown(answer.slice(0, CAP + 1));
    assert.ok(over.includes('… (1 more characters: open the raw markdown to read them)'), over.slice(-200));
    const long = renderMarkdown(answer + 'x'.repeat(3_000_000));
    assert.ok(long.includes(`${(answer.length + 3_000_000 - CAP).toLocaleString('en-US')} more characters`), long.slice(-200));
    assert.ok(long.length < 3 * CAP, `what is rendered is bounded by the cap (${long.length} characters of HTML)`);
  });

  it('the cap is the default only: a caller may ask for less', () => {
    assert.ok(renderMarkdown('x'.repeat(100), { maxChars: 10 }).includes('90 more characters'));
  });
});
