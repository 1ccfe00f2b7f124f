/**
 * Issue 37: the scratch copy a check runs in (tasks/checking/scratch.ts). What a check copies (git's files, or a
 * walk that honours files.exclude), the copy itself (outside the folder, the proposal written over it, dependency
 * folders linked), refusals, and removal that never follows a link into the user's folders.
 */
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { globMatches } from '../../src/tasks/checking/globs';
import { DEPENDENCY_FOLDERS, buildScratch, listFiles, removeScratch } from '../../src/tasks/checking/scratch';

const HAS_GIT = cp.spawnSync('git', ['--version']).status === 0;

/** Writes `files` (relative path → text) under `root`. */
function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

function git(root: string, ...args: string[]): void {
  const r = cp.spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** Every file, link and folder under `dir` with its bytes (links as `-> target`, not followed). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const full = path.join(dir, r);
      if (e.isSymbolicLink()) out.set(r, `-> ${fs.readlinkSync(full)}`);
      else if (e.isDirectory()) {
        out.set(`${r}/`, `mtime ${fs.statSync(full).mtimeMs}`);
        visit(r);
      } else out.set(r, `${fs.readFileSync(full, 'latin1')} mtime ${fs.statSync(full).mtimeMs}`);
    }
  };
  visit('');
  return out;
}

describe('checking: the scratch copy (issue 37)', () => {
  let tmp: string;
  let scratchTmp: string;
  let savedTmpDir: string | undefined;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mat-scratch-test-')));
    // The copies go to a temp folder of this test's own, so that it can see that nothing is left there.
    scratchTmp = path.join(tmp, 'temp');
    fs.mkdirSync(scratchTmp);
    savedTmpDir = process.env.TMPDIR;
    process.env.TMPDIR = scratchTmp;
  });
  afterEach(() => {
    if (savedTmpDir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpDir;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('files.exclude globs', () => {
    const cases: [string, string, boolean][] = [
      ['**/.git', '.git', true],
      ['**/.git', 'a/b/.git', true],
      ['**/node_modules', 'node_modules', true],
      ['**/node_modules', 'pkg/node_modules', true],
      ['**/node_modules', 'pkg/node_modules_x', false],
      ['out/**', 'out', true],
      ['out/**', 'out/a/b.js', true],
      ['out/**', 'outer/a.js', false],
      ['out/**', 'src/out/a.js', false],
      ['*.log', 'a.log', true],
      ['*.log', 'logs/a.log', false],
      ['**/*.log', 'logs/deep/a.log', true],
      ['**/*.{js,ts}', 'src/a.ts', true],
      ['**/*.{js,ts}', 'src/a.tsx', false],
      ['{dist,build}/**', 'build/x', true],
      ['src/{a,b{1,2}}.ts', 'src/b2.ts', true],
      ['src/{a,b{1,2}}.ts', 'src/b3.ts', false],
      ['fil?.txt', 'file.txt', true],
      ['fil?.txt', 'fil.txt', false],
      ['a/**/b', 'a/b', true],
      ['a/**/b', 'a/x/y/b', true],
      ['a/**/b', 'a/x/y/c', false],
      ['**/.DS_Store', 'deep/er/.DS_Store', true],
      ['{unclosed', '{unclosed', true],
    ];
    for (const [pattern, rel, expected] of cases) {
      it(`${pattern} ${expected ? 'matches' : 'does not match'} ${rel}`, () => assert.equal(globMatches(pattern, rel), expected));
    }

    it('is linear: patterns of many stars against a long path answer at once', () => {
      // A backtracking matcher over all ways of splitting would not come back from these.
      assert.equal(globMatches(`${'*a'.repeat(30)}b`, 'a'.repeat(20_000)), false);
      assert.equal(globMatches(`${'**/a/'.repeat(20)}b`, `${'a/'.repeat(2_000)}c`), false);
    });
  });

  describe('listFiles: a walk where there is no repository', () => {
    it('lists files as relative POSIX paths, skips .git and the dependency folders, honours the excludes, follows no link', async () => {
      const root = path.join(tmp, 'proj');
      const outside = path.join(tmp, 'outside');
      write(outside, { 'secret.txt': 'x' });
      write(root, {
        'package.json': '{}',
        'src/a.js': 'a',
        'src/deep/b.js': 'b',
        'app.log': 'l',
        'logs/keep.log': 'l',
        'out/bundle.js': 'o',
        '.git/config': 'c',
        'node_modules/x/index.js': 'x',
        'sub/.venv/lib/site.py': 'v',
        'sub/target/debug/t': 't',
        'sub/.tox/env': 't',
        'pkg/node_modules/y/index.js': 'y',
        'dist/a.js': 'd',
      });
      fs.symlinkSync(outside, path.join(root, 'linked-dir'));
      const listed = await listFiles(root, { exclude: ['**/.git', 'out/**', '*.log', '{dist,coverage}'] });
      assert.equal(listed.via, 'walk');
      assert.deepEqual(listed.files.sort(), ['linked-dir', 'logs/keep.log', 'package.json', 'src/a.js', 'src/deep/b.js']);
    });

    it('refuses more files than maxFiles, saying how many it copies at most', async () => {
      const root = path.join(tmp, 'many');
      write(root, Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, 'x'])));
      await assert.rejects(listFiles(root, { maxFiles: 5 }), /more than 5 files.*a check copies at most 5 files/);
      assert.equal((await listFiles(root, { maxFiles: 6 })).files.length, 6);
    });
  });

  (HAS_GIT ? describe : describe.skip)('listFiles: git where there is a repository', () => {
    let repo: string;
    beforeEach(() => {
      repo = path.join(tmp, 'repo');
      write(repo, {
        '.gitignore': 'ignored.txt\nbuild/\n',
        'README.md': 'r',
        'app/package.json': '{}',
        'app/src/index.js': 'i',
        'app/src/gone.js': 'g',
        'lib/util.js': 'u',
      });
      git(repo, 'init', '-q');
      git(repo, 'add', '.');
      git(repo, 'commit', '-qm', 'init');
      write(repo, { 'app/src/new.js': 'n', 'app/ignored.txt': 'i', 'app/build/out.js': 'o', 'app/node_modules/dep/index.js': 'd', 'app/.venv/x.py': 'v' });
      fs.rmSync(path.join(repo, 'app/src/gone.js'));
    });

    it('tracked and untracked-not-ignored files, relative to the folder (a sub-folder of the repository), deleted ones dropped', async () => {
      const listed = await listFiles(path.join(repo, 'app'), { exclude: ['**/src/new.js'] });
      assert.equal(listed.via, 'git');
      // git decides (files.exclude is the walk's); untracked dependency folders are left out even when not ignored.
      assert.deepEqual(listed.files.sort(), ['package.json', 'src/index.js', 'src/new.js']);
      assert.deepEqual((await listFiles(repo)).files.sort(), ['.gitignore', 'README.md', 'app/package.json', 'app/src/index.js', 'app/src/new.js', 'lib/util.js']);
    });

    it('walks a nested repository git shows as a folder', async () => {
      const nested = path.join(repo, 'vendored');
      write(nested, { 'a.txt': 'a', 'node_modules/z.js': 'z' });
      git(nested, 'init', '-q');
      const listed = await listFiles(repo);
      assert.ok(listed.files.includes('vendored/a.txt'), listed.files.join(', '));
      assert.ok(!listed.files.some(f => f.startsWith('vendored/node_modules') || f.startsWith('vendored/.git')), listed.files.join(', '));
    });

    it('falls back to the walk when git cannot run', async () => {
      const savedPath = process.env.PATH;
      process.env.PATH = path.join(tmp, 'no-bin');
      try {
        const listed = await listFiles(path.join(repo, 'app'));
        assert.equal(listed.via, 'walk');
        assert.ok(listed.files.includes('ignored.txt'), listed.files.join(', '));
      } finally {
        process.env.PATH = savedPath;
      }
    });

    it('walks a folder of the repository that git ignores (git lists nothing there)', async () => {
      write(repo, { 'app/build/more/x.js': 'x' });
      const listed = await listFiles(path.join(repo, 'app/build'));
      assert.equal(listed.via, 'walk');
      assert.deepEqual(listed.files.sort(), ['more/x.js', 'out.js']);
    });

    it('refuses more files than maxFiles, saying how many there are', async () => {
      await assert.rejects(listFiles(repo, { maxFiles: 3 }), /holds 7 files; a check copies at most 3 files/);
    });
  });

  describe('buildScratch and removeScratch', () => {
    let root: string;
    let realDeps: string;
    beforeEach(() => {
      root = path.join(tmp, 'my-project');
      write(root, {
        'package.json': '{"name":"p"}',
        'src/a.js': 'module.exports = 1;\n',
        'src/b.js': 'old b\n',
        'src/c.js': 'c\n',
        'packages/lib/package.json': '{}',
        'packages/lib/index.js': 'lib\n',
        'docs/guide.md': 'g\n',
        'node_modules/dep/index.js': 'dep\n',
        'packages/lib/node_modules/inner/index.js': 'inner\n',
        'docs/node_modules/stray/index.js': 'stray\n',
      });
      fs.chmodSync(path.join(root, 'src/c.js'), 0o755);
      realDeps = path.join(root, 'node_modules');
    });
    const files = ['package.json', 'src/a.js', 'src/b.js', 'src/c.js', 'packages/lib/package.json', 'packages/lib/index.js', 'docs/guide.md'];

    it('never links a build folder (a proposal\'s build would overwrite the user\'s), nor recreates a link that climbs out of the copy', async () => {
      write(root, { 'Cargo.toml': '[package]\n', 'target/debug/app': 'the user\'s binary\n' });
      // Up to the file system's root from anywhere (more `..` than any depth), then down to the user's src: inside
      // the folder from where it is, and from the copy too it leads to the user's src, not the copy's.
      const climbing = path.join(root, 'src');
      const up = path.join(...Array.from({ length: 40 }, () => '..'), root, 'src');
      fs.symlinkSync(up, path.join(root, 'src', 'climb'));
      const s = await buildScratch({ root, files: [...files, 'Cargo.toml', 'src/climb'], overlay: new Map() });
      try {
        assert.ok(!s.linked.includes('target'), JSON.stringify(s.linked));
        assert.equal(fs.existsSync(path.join(s.dir, 'target')), false, 'no target in the copy: the check builds its own');
        assert.equal(fs.existsSync(path.join(s.dir, 'src', 'climb')), false, `a link that leads back into ${climbing} is left out`);
      } finally {
        await removeScratch(s);
      }
    });

    it('copies the files outside the folder under its name, writes the proposal over them, links the dependency folders beside manifests', async () => {
      const before = snapshot(root);
      const overlay = new Map<string, string | null>([['src/b.js', 'new b\n'], ['src/created/d.js', 'd\n'], ['docs/guide.md', null]]);
      const s = await buildScratch({ root, files, overlay });
      try {
        assert.equal(path.dirname(s.base), scratchTmp);
        assert.match(path.basename(s.base), /^multi-agent-check-/);
        assert.equal(s.dir, path.join(s.base, 'my-project'));
        assert.equal(s.copied, files.length);
        assert.deepEqual(s.linked.sort(), ['node_modules', 'packages/lib/node_modules']);
        assert.ok(s.ms >= 0);
        const copy = (rel: string) => fs.readFileSync(path.join(s.dir, rel), 'utf8');
        assert.equal(copy('src/a.js'), 'module.exports = 1;\n');
        assert.equal(copy('src/b.js'), 'new b\n');
        assert.equal(copy('src/created/d.js'), 'd\n');
        assert.equal(fs.existsSync(path.join(s.dir, 'docs/guide.md')), false);
        assert.equal(fs.statSync(path.join(s.dir, 'src/c.js')).mode & 0o777, 0o755, 'the mode is kept');
        // Linked, not copied; not beside a folder without a manifest.
        assert.ok(fs.lstatSync(path.join(s.dir, 'node_modules')).isSymbolicLink());
        assert.equal(fs.realpathSync(path.join(s.dir, 'node_modules')), fs.realpathSync(realDeps));
        assert.equal(copy('packages/lib/node_modules/inner/index.js'), 'inner\n');
        assert.equal(fs.existsSync(path.join(s.dir, 'docs/node_modules')), false);
        // Never a hard link: the check may write to its files.
        fs.writeFileSync(path.join(s.dir, 'src/a.js'), 'changed by the check');
        assert.equal(fs.statSync(path.join(s.dir, 'src/a.js')).nlink, 1);
        assert.deepEqual(snapshot(root), before, 'the folder is byte-identical, not a time changed');
      } finally {
        await removeScratch(s);
      }
      assert.deepEqual(fs.readdirSync(scratchTmp), []);
      assert.deepEqual(snapshot(root), before);
    });

    it('removeScratch removes the links, never what they point to', async () => {
      const s = await buildScratch({ root, files, overlay: new Map() });
      await removeScratch(s);
      assert.equal(fs.existsSync(s.base), false);
      assert.equal(fs.readFileSync(path.join(realDeps, 'dep/index.js'), 'utf8'), 'dep\n');
      assert.equal(fs.readFileSync(path.join(root, 'packages/lib/node_modules/inner/index.js'), 'utf8'), 'inner\n');
      await assert.rejects(removeScratch({ ...s, base: root, dir: path.join(root, 'src') }), /not a scratch copy/);
      assert.ok(fs.existsSync(path.join(root, 'src/a.js')));
    });

    for (const bad of ['../escape.js', 'src/../../escape.js', '/etc/escape.js', 'C:\\escape.js', 'C:escape.js', '\\\\server\\share\\x', '', 'src/..']) {
      it(`refuses the overlay path ${JSON.stringify(bad)} and leaves nothing behind`, async () => {
        const before = snapshot(tmp);
        await assert.rejects(buildScratch({ root, files, overlay: new Map([['src/a.js', 'fine'], [bad, 'pwned']]) }), /would leave the scratch copy/);
        assert.deepEqual(fs.readdirSync(scratchTmp), []);
        assert.deepEqual(snapshot(tmp), before);
      });
    }

    it('on a failure part way (the proposal writes a file where the copy has a folder) removes the copy and rethrows', async () => {
      await assert.rejects(buildScratch({ root, files, overlay: new Map([['src', 'a file']]) }));
      assert.deepEqual(fs.readdirSync(scratchTmp), []);
    });

    it('on an abort part way through the copy removes the copy and rethrows the abort', async () => {
      let looks = 0;
      const signal = {
        get aborted() {
          return looks > 4;
        },
        throwIfAborted() {
          if (++looks > 4) throw new Error('aborted for the test');
        },
        addEventListener() {},
        removeEventListener() {},
      } as unknown as AbortSignal;
      await assert.rejects(buildScratch({ root, files, overlay: new Map(), signal }), /aborted for the test/);
      assert.ok(looks > 4);
      assert.deepEqual(fs.readdirSync(scratchTmp), []);
      const aborted = AbortSignal.abort();
      await assert.rejects(buildScratch({ root, files, overlay: new Map(), signal: aborted }));
      assert.deepEqual(fs.readdirSync(scratchTmp), []);
    });

    it('refuses to make the copy inside the folder (a temp folder under it)', async () => {
      process.env.TMPDIR = path.join(root, 'tmp');
      fs.mkdirSync(process.env.TMPDIR);
      await assert.rejects(buildScratch({ root, files, overlay: new Map() }), /inside/);
      assert.deepEqual(fs.readdirSync(process.env.TMPDIR), []);
    });

    it('links of the folder: one inside is recreated; one to a file outside (issue 44) and one to a folder outside are left out', async () => {
      const outside = path.join(tmp, 'outside');
      write(outside, { 'shared.json': '{"x":1}', 'dir/f.txt': 'f' });
      fs.symlinkSync('a.js', path.join(root, 'src/alias.js'));
      fs.symlinkSync(path.join(outside, 'shared.json'), path.join(root, 'shared.json'));
      fs.symlinkSync(path.join(outside, 'dir'), path.join(root, 'outdir'));
      // Relative and lexically inside, really outside: `up` is the folder's parent.
      fs.symlinkSync('..', path.join(root, 'src/up'));
      fs.symlinkSync('up/..', path.join(root, 'src/sneaky'));
      const s = await buildScratch({ root, files: [...files, 'src/alias.js', 'shared.json', 'outdir', 'src/up', 'src/sneaky'], overlay: new Map([['src/alias.js', 'replaced']]) });
      try {
        assert.equal(fs.existsSync(path.join(s.dir, 'shared.json')), false, 'a file outside is not the folder\'s to copy');
        assert.equal(fs.existsSync(path.join(s.dir, 'outdir')), false);
        assert.equal(fs.readFileSync(path.join(s.dir, 'src/alias.js'), 'utf8'), 'replaced');
        assert.equal(fs.readFileSync(path.join(root, 'src/a.js'), 'utf8'), 'module.exports = 1;\n');
        // No link in the copy leads out of it, but those to the dependency folders.
        const realDir = fs.realpathSync(s.dir);
        for (const [rel, what] of snapshot(s.dir)) {
          if (!what.startsWith('-> ') || DEPENDENCY_FOLDERS.includes(path.posix.basename(rel))) continue;
          const real = fs.realpathSync(path.join(s.dir, rel));
          assert.ok(real === realDir || real.startsWith(realDir + path.sep), `${rel} leads to ${real}`);
        }
        assert.equal(s.copied, files.length + 2);
      } finally {
        await removeScratch(s);
      }
    });
  });
});
