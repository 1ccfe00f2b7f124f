import * as assert from 'node:assert/strict';
import { rangeAfterChange } from '../../src/documents/rangeMath';
import { readAnswer } from '../../src/review';
import { displayLines } from '../../src/tasks/model';
import { blockPreview, lineCount } from '../../src/tasks/resultText';
import { escapeHtml, highlightLine, plainFirstLine, renderInline, renderMarkdown } from '../../src/views/pages/markdown';
import { offer, offersOf } from '../../src/tasks/offers';
import { FOLLOW_UP_MAX_CHARS, validMessage } from '../../src/views/pages/resultMessages';

describe('review: markdown rendering of server text', () => {
  it('renders headings, lists, emphasis, inline code and fenced code', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and *em* with `a<b>`.\n\n- one\n- two\n\n1. first\n\n```ts\nconst x = "s"; // c\n```\n');
    assert.ok(html.includes('<h1>Title</h1>'), html);
    assert.ok(html.includes('<strong>bold</strong>') && html.includes('<em>em</em>'), html);
    assert.ok(html.includes('<code>a&lt;b&gt;</code>'), html);
    assert.ok(html.includes('<ul>\n<li>one</li>\n<li>two</li>\n</ul>'), html);
    assert.ok(html.includes('<ol>\n<li>first</li>'), html);
    assert.ok(html.includes('<span class="tok-keyword">const</span>'), html);
    assert.ok(html.includes('<span class="tok-string">&quot;s&quot;</span>'), html);
    assert.ok(html.includes('<span class="tok-comment">// c</span>'), html);
  });

  it('renders hostile text inert: no tags, no links, no images, no command URIs', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src="https://evil.example/x.png" onerror="alert(1)">',
      '[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
      '![tracker](https://evil.example/pixel.gif)',
      '<a href="javascript:alert(1)">x</a>',
      '```html\n<script>alert(2)</script>\n```',
    ].join('\n\n');
    const html = renderMarkdown(hostile);
    assert.ok(!/<(script|img|a|iframe)\b/i.test(html), html);
    assert.ok(!/<[a-z]+\s[^>]*(href|src|on\w+)=/i.test(html), 'no element carries a link, a source or a handler');
    assert.ok(html.includes('click (command:workbench'), 'the link is shown as text');
    assert.ok(html.includes('&lt;script&gt;'), html);
  });

  it('numbers code blocks as the reader numbers them', () => {
    const text = 'a\n```js\n1\n```\n~~~\n2\n~~~\n```\nunclosed';
    const html = renderMarkdown(text, { blockHeader: b => `[B${b.index}]` });
    assert.equal(readAnswer(text).blocks.length, 2);
    assert.ok(html.includes('[B0]') && html.includes('[B1]') && !html.includes('[B2]'), html);
  });

  it('is linear on pathological input', () => {
    const nasty = ['`'.repeat(50_000), '*'.repeat(50_000), '_a'.repeat(50_000), '['.repeat(50_000), '```\n'.repeat(20_000)].join('\n');
    const started = Date.now();
    renderMarkdown(nasty);
    renderInline('**x'.repeat(100_000));
    highlightLine('"'.repeat(100_000), false);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  it('keeps snake_case and lone markers as text', () => {
    assert.equal(renderInline('a_b_c and 2 * 3'), 'a_b_c and 2 * 3');
    assert.equal(escapeHtml(`<"'&>`), '&lt;&quot;&#39;&amp;&gt;');
  });

  it('caps what it renders', () => {
    const html = renderMarkdown('x'.repeat(100), { maxChars: 10 });
    assert.ok(html.includes('90 more characters'), html);
  });
});

describe('review: one-line labels of markdown', () => {
  it('plainFirstLine: the first line in words, markup off (a thread message row: "Agents: Proposal")', () => {
    assert.equal(plainFirstLine('# Proposal\n\nReturn NaN.'), 'Proposal');
    assert.equal(plainFirstLine('\n\n**Plan**\nmore'), 'Plan');
    assert.equal(plainFirstLine('```ts\nconst a = 1;\n```'), 'const a = 1;', 'a fence line is not words');
    assert.equal(plainFirstLine('> quoted\n'), 'quoted');
    assert.equal(plainFirstLine('- first item'), 'first item');
    assert.equal(plainFirstLine('`mean()` returns NaN'), '`mean()` returns NaN', 'marks inside the line stay');
    assert.equal(plainFirstLine('Make mean() total\n\nsrc/math.ts (lines 1-10):'), 'Make mean() total');
    assert.equal(plainFirstLine(`## ${'x'.repeat(100)}`, 10), `${'x'.repeat(9)}…`);
    assert.equal(plainFirstLine(undefined), '');
    assert.equal(plainFirstLine('\n\n   \n'), '');
    // A heading that names only the kind of text is not what the message says (issue 35 item 9).
    assert.equal(plainFirstLine('# Synthesized answer\n\n3 agents collaborated on this task.'), '3 agents collaborated on this task.');
    assert.equal(plainFirstLine('**Final answer:**\n- Return NaN for an empty list'), 'Return NaN for an empty list');
    assert.equal(plainFirstLine('## Summary'), 'Summary', 'alone, it is still the words there are');
    assert.equal(plainFirstLine('# Answer to the question\nmore'), 'Answer to the question', 'a heading with its own words stays');
  });
});

describe('review: block previews and messages', () => {
  it('previews a block by its first non-empty lines', () => {
    assert.equal(blockPreview({ code: '\n\nfunction a() {\n  return 1;\n}\n' }), 'function a() { ⏎ return 1;');
    assert.equal(blockPreview({ code: '' }), '(empty)');
    assert.equal(lineCount('a\nb\n'), 2);
    assert.equal(lineCount('a'), 1);
  });

  it('accepts only a block in range, or what the task offers in the view now (tasks/offers.ts), for this task', () => {
    const base = { id: 't1', title: 'T', instruction: 'T', promptChars: 1, submittedAt: 1, updatedAt: 1 };
    const done = offersOf({ ...base, status: 'completed' }, 'view');
    const running = offersOf({ ...base, status: 'processing' }, 'view');
    assert.deepEqual(validMessage({ type: 'apply', taskId: 't1', block: 1 }, 't1', 2, done), { type: 'apply', block: 1 });
    assert.deepEqual(validMessage({ type: 'insert', taskId: 't1', block: 0 }, 't1', 2, done), { type: 'insert', block: 0 }, 'Insert… on a block that shows no place');
    assert.equal(validMessage({ type: 'insert', taskId: 't1', block: 2 }, 't1', 2, done), undefined);
    assert.deepEqual(validMessage({ type: 'offer', offer: 'raw', taskId: 't1' }, 't1', 0, done), { type: 'offer', offer: offer('raw') });
    assert.deepEqual(validMessage({ type: 'offer', offer: 'cancel', taskId: 't1' }, 't1', 0, running), { type: 'offer', offer: offer('cancel') });
    assert.equal(validMessage({ type: 'offer', offer: 'cancel', taskId: 't1' }, 't1', 0, done), undefined, 'Cancel Task from a page drawn before the task ended');
    assert.equal(validMessage({ type: 'offer', offer: 'raw', taskId: 't1' }, 't1', 0, running), undefined, 'no raw answer before there is one');
    assert.equal(validMessage({ type: 'offer', offer: 'remove', taskId: 't1' }, 't1', 0, done), undefined, 'an offer of another surface');
    assert.equal(validMessage({ type: 'offer', offer: 'cancel', taskId: 't2' }, 't1', 0, running), undefined, 'never another task');
    assert.equal(validMessage({ type: 'raw', taskId: 't1' }, 't1', 0, done), undefined, 'an offer goes as an offer');
    assert.equal(validMessage({ type: 'apply', taskId: 't2', block: 0 }, 't1', 2, done), undefined);
    assert.equal(validMessage({ type: 'apply', taskId: 't1', block: 2 }, 't1', 2, done), undefined);
    assert.equal(validMessage({ type: 'apply', taskId: 't1', block: 0.5 }, 't1', 2, done), undefined);
    assert.equal(validMessage({ type: 'runCommand', taskId: 't1' }, 't1', 2, done), undefined);
    assert.equal(validMessage('apply', 't1', 2, done), undefined);
    // The follow-up box's text goes with Continue in Thread only, bounded, never empty.
    assert.deepEqual(validMessage({ type: 'offer', offer: 'continue', taskId: 't1', text: ' Go on ' }, 't1', 0, done), { type: 'offer', offer: offer('continue'), text: 'Go on' });
    assert.deepEqual(validMessage({ type: 'offer', offer: 'continue', taskId: 't1' }, 't1', 0, done), { type: 'offer', offer: offer('continue') });
    assert.equal(validMessage({ type: 'offer', offer: 'continue', taskId: 't1', text: '  ' }, 't1', 0, done), undefined);
    assert.equal(validMessage({ type: 'offer', offer: 'continue', taskId: 't1', text: 'x'.repeat(FOLLOW_UP_MAX_CHARS + 1) }, 't1', 0, done), undefined);
    assert.equal(validMessage({ type: 'offer', offer: 'continue', taskId: 't1', text: 42 }, 't1', 0, done), undefined);
    assert.deepEqual(validMessage({ type: 'offer', offer: 'raw', taskId: 't1', text: 'ignored' }, 't1', 0, done), { type: 'offer', offer: offer('raw') }, 'no text for another offer');
    assert.equal(validMessage({ type: 'offer', offer: 'continue', taskId: 't1', text: 'Go on' }, 't1', 0, running), undefined, 'no follow-up before the task is done');
  });
});

describe('review: following a source range through edits', () => {
  const r = { startLine: 5, startCharacter: 0, endLine: 10, endCharacter: 0 };
  const at = (l1: number, c1: number, l2: number, c2: number) => ({ startLine: l1, startCharacter: c1, endLine: l2, endCharacter: c2 });

  it('moves down when lines are added above and up when removed', () => {
    assert.deepEqual(rangeAfterChange(r, { range: at(0, 0, 0, 0), text: 'a\nb\n' }), { range: at(7, 0, 12, 0), overlapped: false });
    assert.deepEqual(rangeAfterChange(r, { range: at(1, 0, 3, 0), text: '' }), { range: at(3, 0, 8, 0), overlapped: false });
  });

  it('stays when text is added below or right at its end', () => {
    assert.deepEqual(rangeAfterChange(r, { range: at(12, 0, 12, 0), text: 'x\n' }).range, r);
    assert.deepEqual(rangeAfterChange(r, { range: at(10, 0, 10, 0), text: 'x\n' }).range, r);
  });

  it('grows and reports an overlap when the code itself is edited', () => {
    const out = rangeAfterChange(r, { range: at(6, 2, 6, 2), text: 'new\nline' });
    assert.deepEqual(out, { range: at(5, 0, 11, 0), overlapped: true });
  });

  it('keeps its lines when a change swallows it (a revert), reporting the overlap', () => {
    assert.deepEqual(rangeAfterChange(r, { range: at(0, 0, 40, 0), text: 'whole\nnew\ntext' }), { range: r, overlapped: true });
    assert.deepEqual(displayLines(r), { start: 6, end: 10 });
    assert.deepEqual(displayLines(at(1, 0, 1, 4)), { start: 2, end: 2 });
  });

  it('moves the end along the same line', () => {
    const one = { startLine: 2, startCharacter: 4, endLine: 2, endCharacter: 10 };
    assert.deepEqual(rangeAfterChange(one, { range: at(2, 0, 2, 0), text: 'abc' }).range, at(2, 7, 2, 13));
  });
});
