/**
 * The extension's side of the landing contract (issue 16): the instruction it appends, what the emulator and the
 * review core make of it, and the bounds on the texts a task keeps for the three-way merge.
 */
import * as assert from 'node:assert/strict';
import { SENT_TEXT_LIMITS } from '../../src/constants';
import { parseAnswer } from '../../src/review';
import { LANDING_INSTRUCTION, buildPrompt, withLandingInstruction } from '../../src/tasks/prompt';
import { boundSent, sha256 } from '../../src/tasks/sentTexts';
import { LANDING_MARKER, landingBlocks } from '../emulator/landing';

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

describe('texts kept of the files sent', () => {
  const limits = { fileMaxBytes: 10, taskMaxBytes: 16 };

  it('keeps each text under the bounds, by hash, the source first', () => {
    const { files, texts } = boundSent(
      [
        { uri: 'file:///w/a.ts', label: 'a.ts', text: 'source!' },
        { uri: 'file:///w/b.ts', label: 'b.ts', text: 'eleven byte' },
        { uri: 'file:///w/c.ts', label: 'c.ts', text: '1234567890' },
        { uri: 'file:///w/d.ts', label: 'd.ts', text: 'ok' },
        { uri: 'file:///w/e.bin', label: 'e.bin', bytes: 99, notText: true },
        { uri: 'file:///w/f.ts', label: 'f.ts', bytes: 5000 },
        { uri: 'file:///w/a.ts', label: 'a.ts', text: 'again' },
      ],
      limits,
    );
    assert.deepEqual(
      files.map(f => [f.label, f.bytes, f.notRecorded ?? f.sha256]),
      [
        ['a.ts', 7, sha256('source!')],
        ['b.ts', 11, 'fileBound'],
        ['c.ts', 10, 'taskBound'],
        ['d.ts', 2, sha256('ok')],
        ['e.bin', 99, 'notText'],
        ['f.ts', 5000, 'fileBound'],
      ],
    );
    assert.deepEqual([...texts.values()], ['source!', 'ok']);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const { files } = boundSent([{ uri: 'u', label: 'x', text: 'ééééé€' }], limits);
    assert.equal(files[0].bytes, 13);
    assert.equal(files[0].notRecorded, 'fileBound');
  });

  it('defaults to 1 MB per file and 4 MB per task', () => {
    assert.deepEqual(SENT_TEXT_LIMITS, { fileMaxBytes: 1024 * 1024, taskMaxBytes: 4 * 1024 * 1024 });
    const big = 'x'.repeat(1024 * 1024);
    const { files } = boundSent(['a', 'b', 'c', 'd', 'e'].map(n => ({ uri: n, label: n, text: big })));
    assert.deepEqual(files.map(f => f.notRecorded), [undefined, undefined, undefined, undefined, 'taskBound']);
    assert.equal(boundSent([{ uri: 'z', label: 'z', text: `${big}x` }]).files[0].notRecorded, 'fileBound');
  });
});
