import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review';
import { LANDING_INSTRUCTION, buildAttachmentPrompt, buildPrompt, fenceFor, fencedBlock, inlineFiles, withLandingInstruction } from '../../src/tasks/sending/prompt';
import { titleFrom } from '../../src/tasks/model';
import { LANDING_MARKER, landingBlocks } from '../emulator/landing';

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

// The extension's side of the landing contract (issue 16): the instruction it appends and what the emulator and the review core make of it.
describe('landing instruction', () => {
  it('is the contract\'s one paragraph, which the emulator recognises', () => {
    assert.equal(
      LANDING_INSTRUCTION,
      'When you change files, give each changed file as its own fenced code block whose info string names its workspace-relative path, like ```ts path=src/a.ts: either the whole new file, or a unified diff (```diff path=src/a.ts). Do not rename or delete files.',
    );
    assert.ok(!LANDING_INSTRUCTION.includes('\n'));
    assert.ok(LANDING_INSTRUCTION.includes(LANDING_MARKER));
  });

  it('goes after the prompt body, separated by a blank line, and the prompt still ends with a newline', () => {
    const body = buildPrompt('Fix it', { code: 'a\nb\n', languageId: 'typescript', label: 'src/a.ts', lines: { start: 2, end: 3 } });
    const asked = withLandingInstruction(body);
    assert.equal(asked, `${body.trimEnd()}\n\n${LANDING_INSTRUCTION}\n`);
    assert.ok(asked.startsWith(body.trimEnd()));
    // Several folders (issue 26): the agents are asked to start paths with the folder's name; one folder, nothing more.
    assert.equal(withLandingInstruction(body, ['app']), asked);
    assert.equal(
      withLandingInstruction(body, ['client', 'server']),
      `${body.trimEnd()}\n\n${LANDING_INSTRUCTION} The workspace has several folders (client, server): start each path with its folder's name, like client/src/a.ts.\n`,
    );
  });

  it('with several folders, the emulator\'s answer to a second folder\'s code lands in that folder', () => {
    const code = Array.from({ length: 6 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const prompt = withLandingInstruction(buildPrompt('Review', { code, languageId: 'typescript', label: 'server/src/a.ts', lines: { start: 1, end: 6 } }), ['client', 'server']);
    const parsed = parseAnswer(landingBlocks(prompt)!.join('\n'), { sourcePath: 'src/a.ts', sourceFolder: 'server', folders: ['client', 'server'] });
    assert.deepEqual(parsed.proposals.map(p => [p.kind, p.folder, p.path]), [['diff', 'server', 'src/a.ts']]);
  });

  it('makes the emulator answer with blocks the review core parses into proposals for the sent file', () => {
    const code = Array.from({ length: 14 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const prompt = withLandingInstruction(buildPrompt('Review', { code, languageId: 'typescript', label: 'src/a.ts', lines: { start: 5, end: 18 } }));
    const answer = landingBlocks(prompt)!.join('\n');
    const parsed = parseAnswer(answer, { sourcePath: 'src/a.ts' });
    assert.deepEqual(parsed.proposals.map(p => [p.kind, p.path]), [['diff', 'src/a.ts']]);
    assert.deepEqual(parsed.rejected.map(r => r.code), ['outside']);
    assert.equal(parsed.unnamed.length, 1);
  });
});
