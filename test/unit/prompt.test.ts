import * as assert from 'node:assert/strict';
import { buildAttachmentPrompt, buildPrompt, fenceFor, fencedBlock, inlineFiles } from '../../src/tasks/prompt';
import { titleFrom } from '../../src/tasks/model';

describe('prompt building', () => {
  it('puts the instruction first and the code in a fenced block with language and path', () => {
    const prompt = buildPrompt('Find the bug', { code: 'const a = 1;', languageId: 'typescript', label: 'src/a.ts', lines: { start: 3, end: 7 } });
    assert.equal(prompt, 'Find the bug\n\nsrc/a.ts (lines 3-7):\n\n```typescript\nconst a = 1;\n```\n');
  });

  it('uses a longer fence when the code contains backticks', () => {
    assert.equal(fenceFor('no fences'), '```');
    assert.equal(fenceFor('a\n```\nb'), '````');
    assert.equal(fenceFor('`````'), '``````');
    const prompt = buildPrompt('x', { code: '```js\nfoo\n```', languageId: 'markdown', label: 'README.md' });
    assert.ok(prompt.includes('````markdown\n```js\nfoo\n```\n````'));
  });

  it('names the attachment when the code is sent as one', () => {
    assert.equal(
      buildAttachmentPrompt('Review', { label: 'big.ts', lines: { start: 1, end: 1 } }, 'big.ts'),
      'Review\n\nThe code is attached as big.ts (from big.ts (line 1)).\n',
    );
  });

  it('builds every fenced block one way: mapped language, final newline, a fence the code cannot close', () => {
    assert.equal(fencedBlock('let a', 'typescriptreact'), '```tsx\nlet a\n```');
    assert.equal(fencedBlock('x\n', 'plaintext'), '```\nx\n```');
    assert.equal(fencedBlock('```\n', 'rust'), '````rust\n```\n````');
    const { prompt } = inlineFiles('p', [{ label: 'a.tsx', languageId: 'typescriptreact', text: 'A' }], 100);
    assert.ok(prompt.includes('```tsx\nA\n```'), prompt);
  });

  it('counts inlined files in characters as the service does (code points, not UTF-16 units)', () => {
    // 30 emoji are 60 UTF-16 units but 30 characters: the file fits a 60-character limit.
    const text = '😀'.repeat(30);
    const block = `\nAttached file e.txt:\n\n${fencedBlock(text)}\n`;
    const limit = 1 + [...block].length;
    assert.deepEqual(inlineFiles('p', [{ label: 'e.txt', text }], limit).inlined, ['e.txt']);
    assert.deepEqual(inlineFiles('p', [{ label: 'e.txt', text }], limit - 1).inlined, []);
  });

  it('inlines small files only while the prompt still fits', () => {
    const { prompt, inlined } = inlineFiles('p', [{ label: 'a.txt', text: 'A' }, { label: 'b.txt', text: 'B'.repeat(100) }], 60);
    assert.deepEqual(inlined, ['a.txt']);
    assert.ok(prompt.includes('a.txt') && !prompt.includes('b.txt'));
  });

  it('titles a task from the first line of its instruction', () => {
    assert.equal(titleFrom('  Explain this\nand more'), 'Explain this');
    assert.equal(titleFrom('x'.repeat(100)).length, 60);
  });
});
