/**
 * Issue 16, the pure core: an answer's text → proposals (the landing format), unified diffs, path checks.
 * Plain Node, no vscode.
 */
import * as assert from 'node:assert/strict';
import { type DiffProposal, fencedBlocks, parseAnswer, parseInfo, type WholeFileProposal } from '../../src/review/answer';
import { hunkNumbers, parseUnifiedDiff } from '../../src/review/patch';
import { readAnswer } from '../../src/review/reader';
import { type EntryKind, RUNS_CODE, checkPath, confinePath, isSensitive, runsCode } from '../../src/review/paths';
import { plain, runsCodeReason } from '../../src/review/words';

const fence = (info: string, body: string, f = '```') => `${f}${info}\n${body}${body.endsWith('\n') || !body ? '' : '\n'}${f}\n`;

describe('review: parsing an answer into proposals', () => {
  it('reads path= from the info string: bare, quoted with spaces, without a language, with ./', () => {
    assert.deepEqual(parseInfo('ts path=src/a.ts'), { language: 'ts', path: 'src/a.ts' });
    assert.deepEqual(parseInfo('TS  path="src/my file.ts" title=x'), { language: 'ts', path: 'src/my file.ts' });
    assert.deepEqual(parseInfo('path=src/a.ts'), { language: '', path: 'src/a.ts' });
    assert.deepEqual(parseInfo('ts mypath=src/a.ts'), { language: 'ts' }, 'path= must start a word');
    assert.deepEqual(parseInfo('ts path="unterminated'), { language: 'ts', path: '' });
    const a = parseAnswer(fence('ts path=./src/./a.ts', 'export const a = 1;'));
    assert.equal(a.proposals.length, 1);
    const p = a.proposals[0] as WholeFileProposal;
    assert.equal(p.kind, 'whole');
    assert.equal(p.path, 'src/a.ts');
    assert.equal(p.text, 'export const a = 1;\n');
    assert.equal(p.language, 'ts');
  });

  it('numbers blocks exactly as codeBlocks() does (tildes, longer fences, backtick info, an unclosed tail)', () => {
    const text = [
      'intro',
      fence('ts path=a.ts', 'a'),
      fence('md', '```js\nnested\n```', '````'),
      '``` not `a fence`',
      fence('py path=b.py', 'b', '~~~'),
      '   ```',
      'indented block',
      '   ```',
      '```ts path=cut.ts',
      'never closed',
    ].join('\n');
    const ours = fencedBlocks(text);
    const theirs = readAnswer(text).blocks;
    assert.deepEqual(ours.blocks.map(b => [b.info, b.code, b.line]), theirs.map(b => [b.info, b.body, b.startLine]));
    assert.deepEqual(ours.unclosed, { line: text.split('\n').indexOf('```ts path=cut.ts'), info: 'ts path=cut.ts' });
    const parsed = parseAnswer(text);
    assert.deepEqual(parsed.rejected.map(r => [r.code, r.path]), [['unclosed', 'cut.ts']]);
  });

  it('takes a diff by its language (diff, patch) or by a body that starts like one', () => {
    const hunk = '@@ -1 +1 @@\n-a\n+b\n';
    const kinds = (info: string, body: string) => parseAnswer(fence(info, body)).proposals.map(p => p.kind);
    assert.deepEqual(kinds('diff path=x.ts', hunk), ['diff']);
    assert.deepEqual(kinds('patch path=x.ts', hunk), ['diff']);
    assert.deepEqual(kinds('ts path=x.ts', hunk), ['diff'], 'a body starting with @@');
    assert.deepEqual(kinds('ts path=x.ts', `--- a/x.ts\n+++ b/x.ts\n${hunk}`), ['diff']);
    assert.deepEqual(kinds('path=x.ts', `diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n${hunk}`), ['diff']);
    assert.deepEqual(kinds('ts path=x.ts', `const a = 1;\n${hunk}`), ['whole'], 'a diff-looking line later in a file is content');
  });

  it('names a diff without path= by its +++ header, one proposal per file of a multi-file diff', () => {
    const body = [
      'diff --git a/src/one.ts b/src/one.ts',
      'index 83db48f..bf269f4 100644',
      '--- a/src/one.ts',
      '+++ b/src/one.ts',
      '@@ -1,2 +1,2 @@',
      ' keep',
      '-old',
      '+new',
      'diff --git a/src/two.ts b/src/two.ts',
      '--- a/src/two.ts',
      '+++ b/src/two.ts',
      '@@ -3 +3,2 @@',
      ' three',
      '+four',
    ].join('\n');
    const a = parseAnswer(fence('diff', body));
    assert.deepEqual(a.proposals.map(p => p.path), ['src/one.ts', 'src/two.ts']);
    const two = (a.proposals[1] as DiffProposal).diff;
    assert.deepEqual(two.hunks[0].lines, [
      { op: ' ', text: 'three', noEol: false },
      { op: '+', text: 'four', noEol: false },
    ]);
    assert.equal(a.unnamed.length, 0);
  });

  it('a /dev/null old side is a new file; a /dev/null new side is a deletion, listed and never proposed', () => {
    const created = parseAnswer(fence('diff', '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n'));
    assert.equal(created.proposals.length, 1);
    assert.equal((created.proposals[0] as DiffProposal).diff.created, true);
    assert.equal(created.proposals[0].path, 'src/new.ts');
    const deleted = parseAnswer(fence('diff', '--- a/src/old.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n'));
    assert.equal(deleted.proposals.length, 0);
    assert.deepEqual(deleted.rejected.map(r => [r.code, r.path]), [['deletion', 'src/old.ts']]);
    const gitDeleted = parseAnswer(fence('diff', 'diff --git a/x.ts b/x.ts\ndeleted file mode 100644\n--- a/x.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n'));
    assert.deepEqual(gitDeleted.rejected.map(r => r.code), ['deletion']);
  });

  it('renames and binary patches are listed, never proposed', () => {
    const renamed = parseAnswer(fence('diff', 'diff --git a/a.ts b/b.ts\nsimilarity index 90%\nrename from a.ts\nrename to b.ts\n--- a/a.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-x\n+y\n'));
    assert.deepEqual(renamed.rejected.map(r => r.code), ['rename']);
    const binary = parseAnswer(fence('diff', 'diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n'));
    assert.deepEqual(binary.rejected.map(r => [r.code, r.path]), [['binary', 'i.png']]);
  });

  it('lists paths outside the workspace and unusable paths with their reason', () => {
    const text = [
      fence('text path=../outside-notes.txt', 'x'),
      fence('text path=/etc/passwd', 'x'),
      fence('text path=C:\\Windows\\win.ini', 'x'),
      fence('text path=src/../../up.txt', 'x'),
      fence('text path=.git/hooks/pre-commit', 'x'),
      fence('text path=nul.txt', 'x'),
      fence('text path="a\u202Etxt.exe"', 'x'),
      fence('text path=src\\win\\style.ts', 'ok'),
    ].join('\n');
    const a = parseAnswer(text);
    assert.deepEqual(
      a.rejected.map(r => [r.code, r.problem ?? '']),
      [
        ['outside', ''],
        ['outside', ''],
        ['outside', ''],
        ['outside', ''],
        ['invalidPath', 'gitDir'],
        ['invalidPath', 'reserved'],
        ['invalidPath', 'control'],
      ],
    );
    assert.equal(a.rejected[6].path, 'a�txt.exe', 'shown without the direction mark');
    assert.deepEqual(a.proposals.map(p => p.path), ['src/win/style.ts'], 'backslashes are separators');
  });

  it('one unnamed block is the range proposal only when no block names the source file and it is not a diff', () => {
    const unnamed = fence('ts', 'const x = 1;');
    assert.equal(parseAnswer(unnamed, { sourcePath: 'src/a.ts' }).rangeBlock?.block, 0);
    assert.equal(parseAnswer(unnamed).rangeBlock, undefined, 'no source file');
    assert.equal(parseAnswer(unnamed + fence('ts path=src/b.ts', 'b'), { sourcePath: 'src/a.ts' }).rangeBlock?.block, 0, 'another file named');
    assert.equal(parseAnswer(unnamed + fence('ts path=./src/a.ts', 'a'), { sourcePath: 'src/a.ts' }).rangeBlock, undefined, 'the source named');
    assert.equal(parseAnswer(unnamed + unnamed, { sourcePath: 'src/a.ts' }).rangeBlock, undefined, 'two unnamed blocks');
    assert.equal(parseAnswer(fence('diff', '@@ -1 +1 @@\n-a\n+b\n'), { sourcePath: 'src/a.ts' }).rangeBlock, undefined, 'a headerless diff');
    assert.equal(parseAnswer(fence('diff', '@@ -1 +1 @@\n-a\n+b\n'), { sourcePath: 'src/a.ts' }).unnamed.length, 1);
    const deletion = fence('diff', '--- a/src/a.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n');
    assert.equal(parseAnswer(unnamed + deletion, { sourcePath: 'src/a.ts' }).rangeBlock, undefined, 'a deletion names it too');
  });

  it('refuses a diff whose header names another file than path=', () => {
    const a = parseAnswer(fence('diff path=src/a.ts', '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-a\n+b\n'));
    assert.deepEqual(a.rejected.map(r => [r.code, r.detail]), [['conflictingHeader', 'src/b.ts']]);
    const same = parseAnswer(fence('diff path=src/a.ts', '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n'));
    assert.equal(same.proposals.length, 1);
  });

  it('reads an answer with CRLF line breaks like one with LF', () => {
    const lf = `Here:\n\n${fence('diff path=a.ts', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n')}\n${fence('ts path=b.ts', 'x\ny')}`;
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.deepEqual(parseAnswer(crlf), parseAnswer(lf));
  });
});

describe('review: unified diffs', () => {
  it('reads hunk headers; omitted counts are 1; junk is no header', () => {
    assert.deepEqual(hunkNumbers('@@ -12,7 +12,8 @@ function f() {'), { oldStart: 12, oldCount: 7, newStart: 12, newCount: 8 });
    assert.deepEqual(hunkNumbers('@@ -3 +3 @@'), { oldStart: 3, oldCount: 1, newStart: 3, newCount: 1 });
    assert.deepEqual(hunkNumbers('@@ -0,0 +1,4 @@'), { oldStart: 0, oldCount: 0, newStart: 1, newCount: 4 });
    assert.equal(hunkNumbers('@@ -x +1 @@'), undefined);
    assert.equal(hunkNumbers('@@ -99999999999 +1 @@'), undefined, 'numbers are bounded');
    assert.equal(hunkNumbers('@@ -1 +1'), undefined);
  });

  it('honours \\ No newline at end of file on either side', () => {
    const [f] = parseUnifiedDiff('@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
    assert.equal(f.eolMarked, true);
    assert.deepEqual(f.hunks[0].lines, [
      { op: ' ', text: 'a', noEol: false },
      { op: '-', text: 'b', noEol: true },
      { op: '+', text: 'b', noEol: false },
    ]);
  });

  it('takes a blank line inside a hunk as an empty context line, and trailing blank lines as separators', () => {
    const [f] = parseUnifiedDiff('@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n\n\n');
    assert.deepEqual(f.hunks[0].lines.map(l => l.op + l.text), [' a', ' ', '-c', '+C']);
  });

  it('tolerates wrong counts: the lines decide, the next header still starts a new hunk', () => {
    const [f] = parseUnifiedDiff('@@ -1,2 +1,2 @@\n a\n-b\n+B\n c\n d\n@@ -10,1 +10,1 @@\n-x\n+y\n');
    assert.equal(f.hunks.length, 2);
    assert.deepEqual(f.hunks[0].lines.map(l => l.op + l.text), [' a', '-b', '+B', ' c', ' d']);
    const [g] = parseUnifiedDiff('@@ -1,9 +1,9 @@\n a\n-b\n+B\n@@ -20 +20 @@\n-x\n+y\n');
    assert.equal(g.hunks.length, 2, 'counts too large do not swallow the next hunk');
  });

  it('decodes git-quoted names and cuts timestamps', () => {
    const [q] = parseUnifiedDiff('--- "a/caf\\303\\251 menu.txt"\n+++ "b/caf\\303\\251 menu.txt"\n@@ -1 +1 @@\n-a\n+b\n');
    assert.equal(q.newPath, 'café menu.txt');
    const [t] = parseUnifiedDiff('--- src/x.c\t2024-01-01 10:00:00\n+++ src/x.c\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-a\n+b\n');
    assert.equal(t.newPath, 'src/x.c', 'no a/ b/ prefixes: the path as written');
  });

  it('a @@ line without numbers is a hunk placed by its context alone', () => {
    const [f] = parseUnifiedDiff('@@ ... @@\n keep\n-old\n+new\n');
    assert.equal(f.hunks[0].oldStart, undefined);
    assert.equal(f.hunks[0].lines.length, 3);
  });
});

describe('review: paths', () => {
  it('checks paths without a file system', () => {
    const ok = (p: string) => {
      const r = checkPath(p);
      return r.ok ? r.path : `!${r.problem}`;
    };
    assert.equal(ok('src/a.ts'), 'src/a.ts');
    assert.equal(ok('./src//b/../a.ts'), 'src/a.ts');
    assert.equal(ok('src\\a.ts'), 'src/a.ts');
    assert.equal(ok(''), '!empty');
    assert.equal(ok('   '), '!empty');
    assert.equal(ok('/abs'), '!absolute');
    assert.equal(ok('\\\\server\\share\\x'), '!absolute');
    assert.equal(ok('c:x'), '!absolute');
    assert.equal(ok('file:///etc/passwd'), '!absolute');
    assert.equal(ok('~/.bashrc'), '!absolute');
    assert.equal(ok('src/x.ts:stream'), '!absolute');
    assert.equal(ok('..'), '!directory');
    assert.equal(ok('../x'), '!escapes');
    assert.equal(ok('a/../../x'), '!escapes');
    assert.equal(ok('src/'), '!directory');
    assert.equal(ok('a\u0000b'), '!control');
    assert.equal(ok('a\nb'), '!control');
    assert.equal(ok('a\u200Bb'), '!control');
    assert.equal(ok('src/CON'), '!reserved');
    assert.equal(ok('lpt1.txt'), '!reserved');
    assert.equal(ok('.GIT/config'), '!gitDir');
    assert.equal(ok('x'.repeat(2000)), '!tooLong');
    assert.equal(isSensitive('.vscode/tasks.json'), true);
    assert.equal(isSensitive('src/.vscode.ts'), false);
  });

  it('refuses Windows 8.3 short names (GIT~1 can be .git on disk) and every bidi control, U+061C included', () => {
    const problem = (p: string) => {
      const r = checkPath(p);
      return r.ok ? 'ok' : r.problem;
    };
    for (const p of ['GIT~1/hooks/pre-commit', 'VSCODE~1/tasks.json', 'src/PACKAG~1.JSO', 'git~2/config']) assert.equal(problem(p), 'shortName', p);
    assert.equal(problem('src/approx~value.ts'), 'ok', 'a tilde without a digit is a name like any other');
    // Unicode's Bidi_Control characters, each alone in a name.
    for (const code of [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      assert.equal(problem(`invoice${String.fromCharCode(code)}fdp.exe`), 'control', code.toString(16));
    }
    assert.equal(problem('src/\u2060join.ts'), 'control', 'word joiner (invisible)');
    assert.equal(problem('src/Ärger-Ω.ts'), 'ok', 'letters of any script are fine');
  });

  describe('files that can run code start unchecked: one list, each entry with its reason, any case', () => {
    // One path per entry of RUNS_CODE (the test fails when an entry is added without a case here).
    const cases: [string, string][] = [
      ['.vscode/tasks.json', 'editorConfig'],
      ['.github/workflows/ci.yml', 'ci'],
      ['.circleci/config.yml', 'ci'],
      ['.gitlab-ci.yml', 'ci'],
      ['.devcontainer/devcontainer.json', 'devContainer'],
      ['.devcontainer.json', 'devContainer'],
      ['.husky/pre-commit', 'gitHooks'],
      ['.githooks/pre-push', 'gitHooks'],
      ['.pre-commit-config.yaml', 'gitHooks'],
      ['.git/hooks/pre-commit', 'gitDir'],
      ['.gitattributes', 'gitConfig'],
      ['package.json', 'packageScripts'],
      ['.npmrc', 'packageManagerConfig'],
      ['Makefile', 'makefile'],
      ['.cargo/config.toml', 'runnerConfig'],
      ['pytest.ini', 'runnerConfig'],
      ['.envrc', 'envrc'],
      ['eslint.config.js', 'toolConfigCode'],
      ['project.code-workspace', 'workspaceFile'],
      ['scripts/build.sh', 'script'],
      ['GIT~1/hooks/pre-commit', 'shortName'],
    ];
    it('has a case for every entry', () => {
      for (const entry of RUNS_CODE) assert.ok(cases.some(([, reason]) => reason === entry.reason), entry.what);
    });
    for (const [p, reason] of cases) {
      it(`${p}: ${reason}, in lower, upper and mixed case`, () => {
        const upper = p.toUpperCase();
        const mixed = [...p].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch.toLowerCase())).join('');
        for (const variant of [p.toLowerCase(), upper, mixed]) {
          assert.equal(runsCode(variant), reason, variant);
          assert.equal(isSensitive(variant), true, variant);
        }
        assert.ok(runsCodeReason(plain, runsCode(p)!).length > 5);
      });
    }
    it('more of each kind: manifests with scripts, package manager configs, tool configs that are code, scripts', () => {
      for (const p of ['sub/dir/package.json', 'composer.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'Gemfile', 'build.gradle.kts', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'GNUmakefile', 'rules.mk', 'vite.config.ts', 'jest.config.mjs', '.eslintrc.cjs', 'a/.prettierrc.js', 'tools/x.ps1', 'run.bat', 'app/.vscode/settings.json', 'VSCODE~1/tasks.json']) {
        assert.equal(isSensitive(p), true, p);
      }
      for (const p of ['src/index.ts', 'README.md', 'src/package.ts', 'config.json', 'src/.vscode.ts', 'docs/makefile.md', 'data.sh.txt', 'tsconfig.json']) assert.equal(isSensitive(p), false, p);
    });
  });

  it('confines a path with a resolver: symlinks out, dangling links and folders are refused', async () => {
    // A small fake file system: /w is the workspace, /w/out links to /etc, /w/dangling points nowhere.
    const entries: Record<string, EntryKind> = {
      '/w': 'directory',
      '/w/src': 'directory',
      '/w/src/a.ts': 'file',
      '/w/out': 'symlink',
      '/w/dangling': 'symlink',
      '/w/inner': 'symlink',
      '/etc': 'directory',
      '/etc/passwd': 'file',
    };
    const links: Record<string, string> = { '/w/out': '/etc', '/w/inner': '/w/src' };
    const real = (p: string): string | undefined => {
      for (const [from, to] of Object.entries(links)) if (p === from || p.startsWith(`${from}/`)) return real(to + p.slice(from.length));
      return entries[p] && entries[p] !== 'symlink' ? p : undefined;
    };
    const resolver = {
      root: '/w',
      kind: async (p: string) => entries[p] ?? (real(p) && entries[real(p)!]) ?? 'missing',
      realpath: async (p: string) => real(p),
    };
    assert.deepEqual(await confinePath('src/a.ts', resolver), { ok: true, absolute: '/w/src/a.ts', exists: true });
    assert.deepEqual(await confinePath('src/new/deep.ts', resolver), { ok: true, absolute: '/w/src/new/deep.ts', exists: false });
    assert.deepEqual(await confinePath('out/passwd', resolver), { ok: false, problem: 'outside' });
    assert.deepEqual(await confinePath('out/new.txt', resolver), { ok: false, problem: 'outside' });
    assert.deepEqual(await confinePath('dangling', resolver), { ok: false, problem: 'outside' });
    assert.deepEqual(await confinePath('inner/a.ts', resolver), { ok: true, absolute: '/w/inner/a.ts', exists: true }, 'a link inside the workspace is fine');
    assert.deepEqual(await confinePath('src', resolver), { ok: false, problem: 'directory' });
  });

  it('a symlink to a sibling folder whose name starts with the workspace\'s (/w → /w-evil) leads outside, in any case', async () => {
    const entries: Record<string, EntryKind> = { '/w': 'directory', '/w/sib': 'symlink', '/w-evil': 'directory', '/w-evil/x.ts': 'file', '/wx.ts': 'file', '/w/up': 'symlink' };
    const links: Record<string, string> = { '/w/sib': '/w-evil', '/w/up': '/wx.ts' };
    const real = (p: string): string | undefined => {
      for (const [from, to] of Object.entries(links)) if (p === from || p.startsWith(`${from}/`)) return to + p.slice(from.length);
      return entries[p] ? p : undefined;
    };
    const resolver = { root: '/w', kind: async (p: string) => entries[p] ?? 'missing', realpath: async (p: string) => real(p) };
    assert.deepEqual(await confinePath('sib/x.ts', resolver), { ok: false, problem: 'outside' });
    assert.deepEqual(await confinePath('sib/new.ts', resolver), { ok: false, problem: 'outside' });
    assert.deepEqual(await confinePath('up', resolver), { ok: false, problem: 'outside' }, '/wx.ts shares the root\'s name too');
    // On a case-insensitive file system the workspace may be written /W and the link's target /w-EVIL.
    const upper = { ...resolver, root: '/W', realpath: async (p: string) => real(p.replace(/^\/W/, '/w'))?.replace('/w-evil', '/W-EVIL') };
    assert.deepEqual(await confinePath('sib/x.ts', upper, true), { ok: false, problem: 'outside' });
  });
});
