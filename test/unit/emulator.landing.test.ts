// The emulator's landable answers (issue 16 item 5, /work/team/LANDING-FORMAT.md): prompts built by the
// extension's own prompt builder, answers read over HTTP, the diff applied with a small applier to the text that
// was sent and compared with the expected file.
import * as assert from 'assert';
import { buildPrompt, inlineFiles } from '../../src/tasks/sending/prompt';
import { parseAnswer } from '../../src/review/answer';
import { applyHunks, buildPlan } from '../../src/review/plan';
import { readAnswer } from '../../src/review/reader';
import { ATTACHMENT_FORMS, codeSections, unifiedDiff } from '../emulator/landing';
import { call, submit, useLiveEmulator, waitForStatus, type Json } from './emulatorHttp';

/** The instruction of the contract, one paragraph. */
const INSTRUCTION =
  'When you change files, give each changed file as its own fenced code block whose info string names its workspace-relative path, like ```ts path=src/a.ts: either the whole new file, or a unified diff (```diff path=src/a.ts). Do not rename or delete files.';

const withInstruction = (prompt: string) => `${prompt}\n${INSTRUCTION}\n`;

interface Block {
  info: string;
  path?: string;
  language: string;
  /** The lines that land (a naming comment left out); for a diff, its lines. */
  body: string[];
  kind: string;
  naming?: string;
  problems: string[];
}

/** Fenced blocks of an answer as the extension reads them (the one reader, issue 24); every one closed. */
function blocksOf(text: string): Block[] {
  const read = readAnswer(text);
  assert.equal(read.unclosed, undefined, 'every block is closed');
  return read.blocks.map(b => ({
    info: b.info,
    path: b.path,
    language: b.language,
    body: b.code.replace(/\n$/, '').split('\n'),
    kind: b.kind,
    naming: b.targets[0]?.naming,
    problems: b.problems.map(p => `${p.code}:${p.raw}`),
  }));
}

/** Applies a unified diff to a file's lines; every context and removed line must match. */
function applyDiff(file: string[], diff: string[]): string[] {
  const out = [...file];
  let offset = 0;
  for (let i = 0; i < diff.length; i++) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(diff[i]);
    if (!header) continue;
    const oldStart = Number(header[1]);
    const oldCount = Number(header[2]);
    const newCount = Number(header[4]);
    const body: string[] = [];
    for (i++; i < diff.length && !diff[i].startsWith('@@'); i++) body.push(diff[i]);
    i--;
    const removed = body.filter(l => l.startsWith(' ') || l.startsWith('-')).map(l => l.slice(1));
    const added = body.filter(l => l.startsWith(' ') || l.startsWith('+')).map(l => l.slice(1));
    assert.equal(removed.length, oldCount, `old count of ${diff[i - body.length]}`);
    assert.equal(added.length, newCount, 'new count');
    const at = oldStart - 1 + offset;
    assert.deepEqual(out.slice(at, at + oldCount), removed, 'the hunk’s context matches the file');
    out.splice(at, oldCount, ...added);
    offset += newCount - oldCount;
  }
  return out;
}

const TS_FILE = Array.from({ length: 20 }, (_, i) => (i === 0 ? "import { sum } from './sum';" : i === 19 ? '' : `  const v${i} = sum(${i}, ${i + 1});`));

describe('emulator: landable answers', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  async function answer(prompt: string): Promise<string> {
    const emu = emulator();
    const done = await waitForStatus(emu, await submit(emu, prompt));
    return done.result as string;
  }

  it('lines S-E of 12+ lines: a git diff with two hunks in file coordinates that applies to the sent text', async () => {
    const code = TS_FILE.slice(2, 16).join('\n');
    const prompt = withInstruction(buildPrompt('Review this', { code, languageId: 'typescript', label: 'src/calc.ts', lines: { start: 3, end: 16 } }));
    const result = await answer(prompt);
    assert.ok(result.includes('> Review this'), 'it still quotes the first line');
    const blocks = blocksOf(result);
    const diff = blocks.find(b => b.path === 'src/calc.ts')!;
    assert.equal(diff.language, 'diff');
    assert.equal(diff.body.filter(l => l.startsWith('@@')).length, 2);
    assert.equal(diff.body.find(l => l.startsWith('@@')), '@@ -3,3 +3,4 @@');
    const expected = [...TS_FILE];
    expected[15] = `${expected[15]} // Checked by the agents.`;
    expected.splice(2, 0, '  // Reviewed by the agents.');
    assert.deepEqual(applyDiff(TS_FILE, diff.body), expected);

    const unnamed = blocks.filter(b => b.path === undefined && !b.problems.length);
    assert.equal(unnamed.length, 1, 'exactly one unnamed block');
    assert.equal(unnamed[0].language, 'typescript', 'in the language of the sent code');
    assert.equal(unnamed[0].body.length, 1, 'a one-line usage example');
    assert.ok(blocks.some(b => b.problems.includes('outside:../outside-notes.txt') && b.language === 'text'));
    assert.equal(diff.naming, 'diffHeader', 'a git diff, named by its own headers');
    assert.equal(diff.body[0], 'diff --git a/src/calc.ts b/src/calc.ts');
  });

  it('a short selection in Python: one hunk, # comments', async () => {
    const file = ['def greet(name):', '    return f"hi {name}"', '', 'print(greet("x"))', ''];
    const prompt = withInstruction(buildPrompt('Check greet', { code: file.slice(0, 2).join('\n'), languageId: 'python', label: 'src/greet.py', lines: { start: 1, end: 2 } }));
    const diff = blocksOf(await answer(prompt)).find(b => b.path === 'src/greet.py')!;
    assert.equal(diff.body.filter(l => l.startsWith('@@')).length, 1);
    assert.deepEqual(applyDiff(file, diff.body), ['# Reviewed by the agents.', 'def greet(name):', '    return f"hi {name}" # Checked by the agents.', '', 'print(greet("x"))', '']);
  });

  it('a whole file (no lines): a whole-file block named after the language; inlined attachments: one line on top, named a bold line before and a first comment', async () => {
    const main = 'export const a = 1;\nexport const b = 2;\n';
    const base = buildPrompt('Tidy up', { code: main, languageId: 'typescript', label: 'src/a.ts' });
    const { prompt } = inlineFiles(base, [
      { label: 'src/b.ts', languageId: 'ts', text: 'export const c = 3;\n' },
      { label: 'scripts/run.sh', languageId: 'sh', text: 'echo hi\n' },
    ], 10_000);
    const blocks = blocksOf(await answer(withInstruction(prompt)));
    const whole = blocks.find(b => b.path === 'src/a.ts')!;
    assert.equal(whole.language, 'typescript');
    assert.deepEqual(whole.body, ['// Reviewed by the agents.', 'export const a = 1;', 'export const b = 2; // Checked by the agents.']);
    assert.deepEqual(blocks.find(b => b.path === 'src/b.ts')!.body, ['// Updated by the agents.', 'export const c = 3;']);
    assert.deepEqual(blocks.find(b => b.path === 'scripts/run.sh')!.body, ['# Updated by the agents.', 'echo hi']);
    assert.equal(blocks.filter(b => b.path === undefined && !b.problems.length).length, 1);
    assert.equal(whole.naming, 'afterLanguage', '```typescript src/a.ts');
    assert.deepEqual([blocks.find(b => b.path === 'src/b.ts')!.naming, blocks.find(b => b.path === 'scripts/run.sh')!.naming], ['lineBefore', 'comment']);
  });

  it('fences longer than the code’s own, quoted paths with spaces; deterministic', async () => {
    const code = 'const md = `\n```js\nx\n```\n`;\n';
    const prompt = withInstruction(buildPrompt('Fences', { code, languageId: 'javascript', label: 'docs/my notes.js' }));
    const first = await answer(prompt);
    assert.equal(await answer(prompt), first, 'the same prompt, the same answer');
    const block = blocksOf(first).find(b => b.path === 'docs/my notes.js')!;
    assert.ok(block.info.includes('path="docs/my notes.js"'));
    assert.ok(block.body.includes('```js'), 'the inner fence survived inside a longer one');
  });

  it('without the instruction, or with [emulator answer=plain]: the single-block answer of before', async () => {
    const plain = buildPrompt('Old style', { code: 'x = 1\n', languageId: 'python', label: 'a.py', lines: { start: 1, end: 1 } });
    for (const prompt of [plain, withInstruction(plain).replace('Old style', 'Old style [emulator answer=plain]')]) {
      const blocks = blocksOf(await answer(prompt));
      assert.equal(blocks.length, 1);
      assert.equal(blocks[0].path, undefined);
      assert.deepEqual(blocks[0].body, ['x = 1']);
    }
  });

  it('diff hunks merge when the last line is close to the top; counts stay right', () => {
    const code = ['a', 'b', 'c', 'd', '', '', '', '', '', '', '', '', ''];
    const [section] = codeSections(buildPrompt('x', { code: code.join('\n'), languageId: 'c', label: 'x.c', lines: { start: 10, end: 22 } }));
    assert.deepEqual(section.lines, { start: 10, end: 22 });
    const diff = unifiedDiff(section);
    assert.equal(diff.filter(l => l.startsWith('@@')).length, 1);
    const file = [...Array.from({ length: 9 }, (_, i) => `pre ${i}`), ...code];
    const applied = applyDiff(file, diff);
    assert.equal(applied[9], '// Reviewed by the agents.');
    assert.equal(applied[13], 'd // Checked by the agents.');
  });

  it('attachments come in every naming models write, and each lands the same change through the real review', async () => {
    const fileOf = (name: string) => [`export function ${name}Alpha(): number {`, `  return ${name.length};`, '}', '', `export const ${name}Beta = ${name}Alpha() + 1;`, `export const ${name}Gamma = 'g';`, ''];
    const names = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    const files = names.map(n => ({ label: `src/${n}.ts`, languageId: 'ts', text: fileOf(n).join('\n') }));
    const base = buildPrompt('Touch them all', { code: TS_FILE.join('\n'), languageId: 'typescript', label: 'src/main.ts', lines: { start: 1, end: 20 } });
    const { prompt } = inlineFiles(base, files, 100_000);
    const result = await answer(withInstruction(prompt));
    const read = readAnswer(result);
    const formOf = (path: string) => {
      const b = read.blocks.find(x => x.targets.some(t => t.path === path))!;
      return b.kind === 'patch' ? 'patch' : b.kind === 'partial' ? 'partial' : b.targets[0].naming;
    };
    assert.deepEqual(
      names.map(n => formOf(`src/${n}.ts`)),
      ['lineBefore', 'comment', 'patch', 'partial', 'colon', 'attribute', 'lineBefore'],
      `the forms in turn: ${ATTACHMENT_FORMS.join(', ')}`,
    );
    const now: Record<string, string> = Object.fromEntries(files.map(f => [f.label, f.text]));
    now['src/main.ts'] = TS_FILE.join('\n');
    const plan = buildPlan(parseAnswer(result), { current: p => (now[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: now[p] }), sent: p => now[p] });
    const landed = Object.fromEntries(plan.files.filter(f => f.kind !== 'skip').map(f => [f.path, applyHunks(now[f.path], f.hunks)]));
    for (const n of names) assert.equal(landed[`src/${n}.ts`], `// Updated by the agents.\n${now[`src/${n}.ts`]}`, n);
    assert.ok(landed['src/main.ts'].startsWith("// Reviewed by the agents.\nimport { sum } from './sum';"));
    assert.deepEqual(plan.files.filter(f => f.kind === 'skip').map(f => [f.path, f.reasonCode]), [['', 'noPath'], ['../outside-notes.txt', 'outside']]);
  });

  it('the answer reaches the extension as a normal result over /results', async () => {
    const emu = emulator();
    const taskId = await submit(emu, withInstruction(buildPrompt('Via results', { code: 'let x = 1;\n', languageId: 'typescript', label: 'src/x.ts', lines: { start: 4, end: 4 } })));
    await waitForStatus(emu, taskId);
    const r = await call(emu, 'GET', `/results/${taskId}`);
    const blocks = blocksOf((r.json as Json).result as string);
    assert.ok(blocks.some(b => b.path === 'src/x.ts' && b.language === 'diff'));
  });
});
