/**
 * Which check a workspace folder declares (issue 37), offered where `multiAgent.check.command` is unset and
 * confirmed by the user once before it first runs: the `test` script of package.json, pytest, `go test`,
 * `cargo test`; and a VS Code task of the Test group as one command line. Pure: no vscode (the command reads
 * the tasks and hands their definitions here). Every file is read bounded; a file too large, unreadable or
 * invalid is skipped, never thrown.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DetectedCheck } from './types';

/** A declaring file larger than this is not read (a real package.json or pyproject.toml is a few KB). */
export const DETECT_MAX_BYTES = 256 * 1024;

/** npm init's placeholder test script: it declares no test. */
const NPM_PLACEHOLDER = 'echo "Error: no test specified" && exit 1';

/** A regular file's text, or undefined when it is missing, not a file, larger than `max` or unreadable. */
async function readBounded(file: string, max = DETECT_MAX_BYTES): Promise<string | undefined> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    // A regular file only, looked at before it is opened: opening a FIFO named package.json would wait for a writer
    // forever (and hold one of libuv's few threads); non-blocking, in case one appears between the two.
    if (!(await fs.promises.lstat(file)).isFile()) return undefined;
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (process.platform === 'win32' ? 0 : fs.constants.O_NONBLOCK));
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > max) return undefined;
    const buffer = Buffer.alloc(Math.min(stat.size, max) + 1);
    let length = 0;
    // Read until the end (or past `max`: a file that grew since the stat is skipped too).
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (!bytesRead) break;
      length += bytesRead;
      if (length >= buffer.length) return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The package manager that runs the test script: package.json's `packageManager`, else the lock file beside it. */
async function packageManager(folder: string, declared: unknown): Promise<'npm' | 'pnpm' | 'yarn' | 'bun'> {
  const named = typeof declared === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(declared)?.[1] : undefined;
  if (named === 'npm' || named === 'pnpm' || named === 'yarn' || named === 'bun') return named;
  const has = (name: string) => exists(path.join(folder, name));
  if (await has('pnpm-lock.yaml')) return 'pnpm';
  if (await has('yarn.lock')) return 'yarn';
  if ((await has('bun.lockb')) || (await has('bun.lock'))) {
    if (!(await has('package-lock.json')) && !(await has('npm-shrinkwrap.json'))) return 'bun';
  }
  return 'npm';
}

async function fromPackageJson(folder: string): Promise<DetectedCheck | undefined> {
  const text = await readBounded(path.join(folder, 'package.json'));
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object') return undefined;
  const { scripts, packageManager: declared } = json as { scripts?: unknown; packageManager?: unknown };
  const test = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>).test : undefined;
  if (typeof test !== 'string' || !test.trim() || test.trim() === NPM_PLACEHOLDER) return undefined;
  const manager = await packageManager(folder, declared);
  // `bun test` would run bun's own test runner, not the script: `bun run test` runs the script.
  const command = manager === 'bun' ? 'bun run test' : `${manager} test`;
  return { command, from: 'packageJson', file: 'package.json' };
}

/** pytest's configuration: pytest.ini, a `[tool.pytest…]` table, a `[tool:pytest]` / `[pytest]` section, or conftest.py. */
async function fromPytest(folder: string): Promise<DetectedCheck | undefined> {
  const sections: [file: string, declares: (text: string) => boolean][] = [
    ['pytest.ini', () => true],
    ['pyproject.toml', text => hasSection(text, ['[tool.pytest'])],
    ['setup.cfg', text => hasSection(text, ['[tool:pytest]'])],
    ['tox.ini', text => hasSection(text, ['[pytest]', '[tool:pytest]'])],
    ['conftest.py', () => true],
  ];
  for (const [file, declares] of sections) {
    const text = await readBounded(path.join(folder, file));
    if (text !== undefined && declares(text)) return { command: 'python -m pytest', from: 'pytest', file };
  }
  return undefined;
}

/** Whether a line of the text starts (after blanks) with one of the headers. Line by line: linear. */
function hasSection(text: string, headers: string[]): boolean {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (headers.some(header => trimmed.startsWith(header))) return true;
  }
  return false;
}

async function fromGoMod(folder: string): Promise<DetectedCheck | undefined> {
  const text = await readBounded(path.join(folder, 'go.mod'));
  if (text === undefined || !hasSection(text, ['module ', 'module\t'])) return undefined;
  return { command: 'go test ./...', from: 'goTest', file: 'go.mod' };
}

async function fromCargo(folder: string): Promise<DetectedCheck | undefined> {
  const text = await readBounded(path.join(folder, 'Cargo.toml'));
  if (text === undefined || !hasSection(text, ['[package]', '[workspace]'])) return undefined;
  return { command: 'cargo test', from: 'cargoTest', file: 'Cargo.toml' };
}

/**
 * The checks a workspace folder declares, in this order: package.json's test script (run by the package manager
 * its lock file names), pytest, `go test ./...`, `cargo test`. Never throws.
 */
export async function detectChecks(folder: string): Promise<DetectedCheck[]> {
  const found = await Promise.all([fromPackageJson(folder), fromPytest(folder), fromGoMod(folder), fromCargo(folder)]);
  return found.filter((check): check is DetectedCheck => check !== undefined);
}

/** Most characters of what a declared check runs that a confirmation shows: more is refused, not cut (issue 44). */
export const DECLARED_MAX_CHARS = 2_000;

/** package-manager settings of the folder that change what a script runs (a shell, Node's options, scripts off). */
const RUN_SETTINGS = /^\s*(script-shell|shell|node-options|ignore-scripts|scripts-prepend-node-path|npm-path|yarn-path|yarnPath|enableScripts|nodeOptions)\s*[=:]/;

/**
 * What a package.json test script runs, as the confirmation shows it and its hash remembers (issue 44): the
 * `pretest`, `test` and `posttest` scripts whole, and the folder's package-manager settings that change how they
 * run (.npmrc, .yarnrc, .yarnrc.yml). Any change of these asks again. Undefined when the file cannot be read.
 */
export async function declaredRuns(folder: string, file: string): Promise<string | undefined> {
  const text = await readBounded(path.join(folder, file));
  if (text === undefined) return undefined;
  let scripts: Record<string, unknown> | undefined;
  try {
    scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts;
  } catch {
    return undefined;
  }
  const lines: string[] = [];
  for (const name of ['pretest', 'test', 'posttest']) {
    const script = scripts?.[name];
    if (typeof script === 'string') lines.push(`${name}: ${script}`);
  }
  for (const rc of ['.npmrc', '.yarnrc', '.yarnrc.yml']) {
    const settings = (await readBounded(path.join(folder, rc)))?.split('\n').filter(l => RUN_SETTINGS.test(l)) ?? [];
    for (const line of settings) lines.push(`${rc}: ${line.trim()}`);
  }
  return lines.join('\n');
}

/** Characters a POSIX shell reads specially (or splits on). */
const SHELL_SPECIAL = /[\s"'`$\\!*?[\]{}()<>|&;#~]/;

/** An argument as a POSIX shell reads it back: as is when plain, else single-quoted. */
export function shellQuote(arg: string): string {
  if (arg && !SHELL_SPECIAL.test(arg)) return arg;
  return `'${arg.split("'").join("'\\''")}'`;
}

/** A tasks.json argument: a string, or `{ value, quoting }` (its value; the quoting here is ours). */
function argValue(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { value?: unknown }).value === 'string') return (arg as { value: string }).value;
  return undefined;
}

/**
 * A VS Code task (its tasks.json definition) as one command line for a POSIX shell: a `shell` task's command
 * line with its arguments, a `process` task's program and arguments (each quoted where needed), an `npm` task's
 * `npm run <script>`. Undefined for any other task type, or a definition that is not one whole command.
 */
export function testTaskCommand(definition: { type?: string; command?: unknown; args?: unknown; script?: unknown }): string | undefined {
  if (definition.type === 'npm') {
    return typeof definition.script === 'string' && definition.script.trim() ? `npm run ${shellQuote(definition.script)}` : undefined;
  }
  if (definition.type !== 'shell' && definition.type !== 'process') return undefined;
  const command = argValue(definition.command);
  if (!command?.trim()) return undefined;
  const args: string[] = [];
  if (definition.args !== undefined) {
    if (!Array.isArray(definition.args)) return undefined;
    for (const arg of definition.args) {
      const value = argValue(arg);
      if (value === undefined) return undefined;
      args.push(shellQuote(value));
    }
  }
  // A shell task's command is a command line of its own; a process task's is one program.
  const head = definition.type === 'shell' ? command.trim() : shellQuote(command);
  return [head, ...args].join(' ');
}
