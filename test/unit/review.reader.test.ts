/**
 * Issue 24: the one reader of answers — fences and their spans, kinds, namings, paths, multi-root folders.
 * Plain Node, no vscode.
 */
import * as assert from 'node:assert/strict';
import { isElisionLine } from '../../src/review/elisions';
import { fenceMask } from '../../src/review/fences';
import { commentNaming, isPathLike, namingLine, readInfo } from '../../src/review/namings';
import { readAnswer } from '../../src/review/reader';

describe('review: the reader of answers', () => {
  it('gives every block its fence lines, info, language and body; an unclosed last block with its span', () => {
    const text = ['intro', '```ts src/a.ts', 'a', '```', '', '````md', '```js', 'inner', '```', '````', '~~~', 'tilde', '~~~', '``` not `a fence`', '  ```py', '  x = 1', '  ```', '```ts', 'cut'].join('\n');
    const r = readAnswer(text);
    assert.deepEqual(
      r.blocks.map(b => [b.index, b.startLine, b.endLine, b.fence, b.info, b.language, b.body]),
      [
        [0, 1, 3, '```', 'ts src/a.ts', 'ts', 'a\n'],
        [1, 5, 9, '````', 'md', 'md', '```js\ninner\n```\n'],
        [2, 10, 12, '~~~', '', '', 'tilde\n'],
        [3, 14, 16, '```', 'py', 'py', 'x = 1\n'],
      ],
    );
    assert.equal(r.blocks[3].indent, 2, 'the fence indentation is taken off the body');
    assert.deepEqual([r.unclosed?.index, r.unclosed?.startLine, r.unclosed?.endLine, r.unclosed?.closed, r.unclosed?.body], [4, 17, 18, false, 'cut\n']);
    assert.equal(r.lineCount, 19);
    assert.deepEqual([...fenceMask(text)], [0, 1, 2, 1, 0, 1, 2, 2, 2, 1, 1, 2, 1, 0, 1, 2, 1, 1, 2]);
  });

  it('reads CRLF like LF, spans included', () => {
    const lf = 'x\n```ts src/a.ts\nconst a = 1;\n\n```\n';
    const a = readAnswer(lf);
    const b = readAnswer(lf.replace(/\n/g, '\r\n'));
    assert.deepEqual(b.blocks, a.blocks);
  });

  it('tells the kinds apart: file, partial, diff, patch, range, snippet, output', () => {
    const text = [
      '```ts src/a.ts', 'export const a = 1;', '```',
      '```ts src/b.ts', 'import x;', '// ... existing code ...', '```',
      '```diff', '--- a/c.ts', '+++ b/c.ts', '@@ -1 +1 @@', '-a', '+b', '```',
      '```', '*** Begin Patch', '*** Update File: d.ts', '@@', '-a', '+b', '*** End Patch', '```',
      '```ts', 'const range = 1;', '```',
      '```console', '$ npm test', 'ok', '```',
      '```bash', 'npm install left-pad', '```',
      '```log', 'ERROR x', '```',
    ].join('\n');
    const r = readAnswer(text, { sourcePath: 'src/s.ts' });
    assert.deepEqual(r.blocks.map(b => b.kind), ['file', 'partial', 'diff', 'patch', 'snippet', 'output', 'snippet', 'output']);
    assert.equal(r.rangeBlock, undefined, 'two unnamed code blocks: none is the range');
    const one = readAnswer(['```ts', 'const range = 1;', '```', '```text', 'output', '```'].join('\n'), { sourcePath: 'src/s.ts' });
    assert.deepEqual(one.blocks.map(b => b.kind), ['range', 'output']);
    assert.equal(one.rangeBlock, one.blocks[0]);
    assert.equal(readAnswer(['```ts', 'x', '```', '```diff', '@@ -1 +1 @@', '-a', '+b', '```'].join('\n'), { sourcePath: 's.ts' }).rangeBlock, undefined, 'an unnamed diff may be for the source');
    assert.equal(readAnswer(['```ts', 'x', '```', '```ts s.ts', 'y', '```'].join('\n'), { sourcePath: 's.ts' }).rangeBlock, undefined, 'the source is named');
  });

  it('names files every way models write, and says how', () => {
    const naming = (text: string) => {
      const b = readAnswer(text).blocks[0];
      return [b.path, b.targets[0]?.naming, b.targets[0]?.attribute];
    };
    assert.deepEqual(naming('```ts src/b.ts\nx\n```'), ['src/b.ts', 'afterLanguage', undefined]);
    assert.deepEqual(naming('```ts:src/b.ts\nx\n```'), ['src/b.ts', 'colon', undefined]);
    assert.deepEqual(naming('```ts path=src/b.ts\nx\n```'), ['src/b.ts', 'attribute', 'path']);
    assert.deepEqual(naming('```ts file=src/b.ts\nx\n```'), ['src/b.ts', 'attribute', 'file']);
    assert.deepEqual(naming('```ts filename="src/my b.ts"\nx\n```'), ['src/my b.ts', 'attribute', 'filename']);
    assert.deepEqual(naming('```ts title="src/b.ts"\nx\n```'), ['src/b.ts', 'attribute', 'title']);
    assert.deepEqual(naming('```ts path=Makefile\nx\n```'), ['Makefile', 'attribute', 'path'], 'an explicit path= needs no dot');
    assert.deepEqual(naming('```src/b.ts\nx\n```'), ['src/b.ts', 'infoAlone', undefined]);
    assert.deepEqual(naming('**src/b.ts**\n```ts\nx\n```'), ['src/b.ts', 'lineBefore', undefined]);
    assert.deepEqual(naming('```ts\n// src/b.ts\nx\n```'), ['src/b.ts', 'comment', undefined]);
    assert.deepEqual(naming('```diff\n--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-a\n+b\n```'), ['src/b.ts', 'diffHeader', undefined]);
    assert.deepEqual(naming('```\n*** Begin Patch\n*** Add File: src/b.ts\n+x\n*** End Patch\n```'), ['src/b.ts', 'patchHeader', undefined]);
    const comment = readAnswer('```ts\n// src/b.ts\nx\n```').blocks[0];
    assert.deepEqual([comment.body, comment.code], ['// src/b.ts\nx\n', 'x\n'], 'the naming comment is not part of the code');
    const lang = readAnswer('```src/b.py\nx\n```').blocks[0];
    assert.equal(lang.language, 'py', 'the language from the extension');
  });

  it('a naming line must be the whole line; a sentence that mentions a file is not one', () => {
    for (const yes of ['**src/b.ts**', '`src/b.ts`', '`src/b.ts`:', '### src/b.ts', '#### `src/b.ts`', 'File: src/b.ts', '**File:** `src/b.ts`', 'In `src/b.ts`:', '1. **`src/b.ts`**', '- `src/b.ts` (new file)', 'src/b.ts', 'Here is the updated `src/b.ts`:', '**utils.py**', 'Updated `app/__init__.py`:']) {
      assert.ok(namingLine(yes), yes);
    }
    for (const no of ['This changes `src/b.ts` so that it works:', 'We also use src/b.ts for this.', 'utils.py', '**Node.js**', '**Python**', 'Output:', 'Run it with `npm test`:', 'See https://x.dev/a.ts', '**Step 1:**', 'e.g.']) {
      assert.equal(namingLine(no), undefined, no);
    }
    assert.equal(namingLine('Updated `app/__init__.py`:'), 'app/__init__.py');
  });

  it('reads first comment lines, path-like tokens and elision markers conservatively', () => {
    assert.equal(commentNaming('// src/b.ts'), 'src/b.ts');
    assert.equal(commentNaming('# app/util.py'), 'app/util.py');
    assert.equal(commentNaming('<!-- web/index.html -->'), 'web/index.html');
    assert.equal(commentNaming('/* web/style.css */'), 'web/style.css');
    assert.equal(commentNaming('-- db/schema.sql'), 'db/schema.sql');
    assert.equal(commentNaming('// File: src/b.ts'), 'src/b.ts');
    assert.equal(commentNaming('#include <stdio.h>'), undefined);
    assert.equal(commentNaming('#!/usr/bin/env python'), undefined);
    assert.equal(commentNaming('// Fix the bug in src/b.ts'), undefined);
    assert.equal(commentNaming('# v1.2'), undefined);
    for (const p of ['src/b.ts', 'b.ts', '.env', 'app/[id]/page.tsx', 'src\\b.ts', '/etc/x', 'C:\\x\\y.ts']) assert.ok(isPathLike(p), p);
    for (const p of ['ts', 'c++', 'v1.2', '{1,3}', 'a=b', 'http://x.dev/a.ts', 'Node.js', 'two words.ts', '']) assert.ok(!isPathLike(p), p);
    for (const e of ['// ... existing code ...', '# rest unchanged', '/* ... */', '...', '// ...', '<!-- ... -->', '(rest of file unchanged)', '    // ... rest of the function', '# ... rest of the file unchanged', '…']) {
      assert.ok(isElisionLine(e), e);
    }
    for (const e of ['const rest = [...xs];', '// the rest of this is tricky, see below', 'print("...")', '']) assert.ok(!isElisionLine(e), e);
    assert.ok(!isElisionLine('    ...', 'python'), "Python's indented ... is code");
    assert.deepEqual(readInfo('js {1,3} showLineNumbers'), { language: 'js', names: [] });
  });

  it('lists refused and ambiguous namings with their reasons, never a guess', () => {
    const problems = (text: string, folders?: string[]) => readAnswer(text, { folders }).blocks.map(b => [b.path, b.problems.map(p => [p.code, p.raw, p.detail ?? p.problem ?? ''])]);
    assert.deepEqual(problems('```ts ../x.ts\na\n```'), [[undefined, [['outside', '../x.ts', '']]]]);
    assert.deepEqual(problems('```ts path=.git/config\na\n```'), [[undefined, [['invalidPath', '.git/config', 'gitDir']]]]);
    assert.deepEqual(problems('**src/a.ts**\n```ts src/b.ts\na\n```'), [[undefined, [['ambiguousName', 'src/b.ts', 'src/a.ts']]]]);
    assert.deepEqual(problems('```ts src/a.ts title="src/b.ts"\na\n```'), [[undefined, [['ambiguousName', 'src/a.ts', 'src/b.ts']]]]);
    assert.deepEqual(problems('```diff path=src/a.ts\n--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-a\n+b\n```'), [[undefined, [['conflictingHeader', 'src/a.ts', 'src/b.ts']]]]);
    assert.deepEqual(problems('```ts app/x.ts\na\n```', ['app', 'app']), [[undefined, [['ambiguousFolder', 'app/x.ts', 'app']]]]);
    // The same name twice is one naming; a comment naming another file than the info string is content.
    assert.deepEqual(problems('**src/a.ts**\n```ts path=./src/a.ts\na\n```'), [['src/a.ts', []]]);
    const content = readAnswer('```ts src/a.ts\n// src/other.ts\na\n```').blocks[0];
    assert.deepEqual([content.path, content.code], ['src/a.ts', '// src/other.ts\na\n']);
  });

  it('multi-root: a first segment naming a workspace folder targets that folder', () => {
    const text = ['```ts server/src/app.ts', 'a', '```', '```ts src/lib.ts', 'b', '```', '```diff', '--- a/client/src/ui.ts', '+++ b/client/src/ui.ts', '@@ -1 +1 @@', '-a', '+b', '```'].join('\n');
    const r = readAnswer(text, { folders: ['client', 'server'] });
    assert.deepEqual(r.blocks.map(b => b.targets.map(t => [t.folder, t.path])), [[['server', 'src/app.ts']], [[undefined, 'src/lib.ts']], [['client', 'src/ui.ts']]]);
    // One folder: its name as a leading segment is dropped, unless the folder holds an entry of that name.
    assert.deepEqual(readAnswer('```ts demo/src/a.ts\nx\n```', { folders: ['demo'] }).blocks[0].targets.map(t => [t.folder, t.path]), [[undefined, 'src/a.ts']]);
    assert.deepEqual(readAnswer('```py requests/api.py\nx\n```', { folders: [{ name: 'requests', hasSelfNamedChild: true }] }).blocks[0].path, 'requests/api.py');
  });

  it('reads hostile shapes whole: fences that never close, a megabyte line, thousands of naming lines', () => {
    // Speed is measured in the bench (npm run bench -- review); this only has to finish within mocha's timeout.
    const hostile = `${'**a/b.ts**\n```ts\nx\n```\n'.repeat(20_000)}${'x'.repeat(1_000_000)}\n${'```ts a.ts\n'.repeat(50_000)}`;
    const r = readAnswer(hostile);
    assert.equal(r.blocks.length, 20_000);
    assert.ok(r.blocks.every(b => b.path === 'a/b.ts'));
    assert.equal(r.unclosed?.startLine, 80_001);
  });
});

describe('review: proposals per workspace folder (multi-root)', () => {
  it('splits proposals by the folder their path named; the rest stays with the home folder', async () => {
    const { byFolder, parseAnswer } = await import('../../src/review/answer');
    const text = ['```ts server/src/app.ts', 'a', '```', '```ts src/lib.ts', 'b', '```', '```ts', 'c', '```', '```ts ../x.ts', 'd', '```'].join('\n');
    const split = byFolder(parseAnswer(text, { folders: ['client', 'server'] }), 'client');
    assert.deepEqual([...split.keys()], ['client', 'server']);
    assert.deepEqual(split.get('client')!.proposals.map(p => p.path), ['src/lib.ts']);
    assert.deepEqual(split.get('client')!.unnamed.length, 1);
    assert.deepEqual(split.get('client')!.rejected.map(r => r.code), ['outside']);
    assert.deepEqual(split.get('server')!.proposals.map(p => [p.folder, p.path]), [['server', 'src/app.ts']]);
    assert.deepEqual(split.get('server')!.rejected, []);
  });
});
