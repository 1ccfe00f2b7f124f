/**
 * Running the user's check command (issue 37), pure Node (no vscode): through the platform's shell, stdin closed,
 * stdout and stderr handed on as they come, in a process group of its own on POSIX so that a timeout, a cancel,
 * or the end of the command ends every process it started (`taskkill /T` on Windows). `runCommand` settles only
 * once the process has exited and its group is gone. `checkEnvironment` is the environment it runs with: the
 * user's, without the key and without the editor's own variables.
 */
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import { hasUrlPassword, isSecretName } from './secrets';
import type { RunEnd } from './types';

/** After SIGTERM, a process group has this long to end before SIGKILL, ms. */
export const KILL_GRACE_MS = 2_000;
/** How often a group being ended is looked at, ms. */
const GROUP_POLL_MS = 50;
/** After SIGKILL, how long to wait for the group to be gone before settling anyway (a process stuck in the kernel), ms. */
const AFTER_KILL_MS = 2_000;
/** Once the process has exited and its group is gone, how long its output pipes may stay open (held by a process that left the group), ms. */
const PIPE_GRACE_MS = 1_000;
/** A secret shorter than this is not looked for in the environment (it would match ordinary values). */
const MIN_SECRET_LENGTH = 8;
const WINDOWS = process.platform === 'win32';
/** setTimeout's longest delay (a longer one fires at once), ms. */
const MAX_TIMER_MS = 2_147_483_647;

export interface CommandInput {
  /** A command line, run by the platform's shell (`/bin/sh -c`, `cmd.exe /d /s /c`). */
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The process tree is ended this long after the start (end `timedOut`). */
  timeoutMs: number;
  /** Aborting ends the process tree (end `canceled`). */
  signal?: AbortSignal;
  /** Each chunk of stdout and stderr, as it comes. */
  onOutput: (chunk: Buffer) => void;
  /** The command as a sandbox starts it (sandbox.ts `sandboxed`): that program, not the shell, is spawned. */
  spawnAs?: { file: string; args: string[] };
}

export interface CommandEnd {
  end: RunEnd;
  /** The exit code; undefined when a signal ended the process or it never started. */
  exitCode?: number;
  /** The signal that ended the process, when one did (`SIGTERM` after a timeout or a cancel). */
  exitSignal?: NodeJS.Signals;
  /** From the start to the process's exit. */
  durationMs: number;
  /** Why it did not start, in the runner's words. */
  error?: string;
}

/**
 * Runs `command` in `cwd` and settles with how it ended: `passed` (exit 0), `failed` (any other exit, 127 where
 * the shell did not find the command), `timedOut`, `canceled` or `notStarted` (the folder is missing, the shell
 * could not start). Whatever the command left running in its process group is ended before it settles.
 */
export async function runCommand(input: CommandInput): Promise<CommandEnd> {
  if (input.signal?.aborted) return { end: 'canceled', durationMs: 0 };
  const isFolder = await fs.promises.stat(input.cwd).then(s => s.isDirectory(), () => false);
  if (!isFolder) return { end: 'notStarted', durationMs: 0, error: `The folder ${input.cwd} does not exist.` };
  const started = performance.now();
  let child: cp.ChildProcess;
  try {
    const options: cp.SpawnOptions = { cwd: input.cwd, env: input.env, stdio: ['ignore', 'pipe', 'pipe'], detached: !WINDOWS, windowsHide: true };
    child = input.spawnAs ? cp.spawn(input.spawnAs.file, input.spawnAs.args, options) : cp.spawn(input.command, { ...options, shell: true });
  } catch (e) {
    return { end: 'notStarted', durationMs: 0, error: e instanceof Error ? e.message : String(e) };
  }
  return new Promise<CommandEnd>(resolve => followProcess(child, input, started, resolve));
}

/** Follows a spawned command to its end (see runCommand); calls `resolve` once. */
function followProcess(child: cp.ChildProcess, input: CommandInput, started: number, resolve: (end: CommandEnd) => void): void {
  let ending: 'timedOut' | 'canceled' | undefined;
  let exited = false;
  let treeEnded: Promise<void> | undefined;
  const endTree = () => (treeEnded ??= child.pid === undefined ? Promise.resolve() : killTree(child.pid));
  const stop = (why: 'timedOut' | 'canceled') => {
    if (exited) return;
    ending ??= why;
    // SIGTERM at once, in this very call: an abort from the window closing gets no later turn of the event loop.
    if (!WINDOWS && child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
    void endTree();
  };
  const timer = setTimeout(() => stop('timedOut'), Math.min(Math.max(0, input.timeoutMs), MAX_TIMER_MS));
  const onAbort = () => stop('canceled');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) onAbort();
  const pipesClosed = Promise.all([child.stdout!, child.stderr!].map(s => new Promise<void>(done => s.once('close', () => done()))));
  child.stdout!.on('data', (chunk: Buffer) => input.onOutput(chunk));
  child.stderr!.on('data', (chunk: Buffer) => input.onOutput(chunk));
  const finish = (end: CommandEnd) => {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
    resolve(end);
  };
  child.once('error', e => {
    if (child.pid === undefined && !exited) {
      exited = true;
      finish({ end: 'notStarted', durationMs: performance.now() - started, error: e.message });
    }
  });
  child.once('exit', (code, signal) => {
    if (exited) return;
    exited = true;
    clearTimeout(timer);
    const durationMs = performance.now() - started;
    const end: CommandEnd = { end: ending ?? (code === 0 ? 'passed' : 'failed'), durationMs };
    if (code !== null) end.exitCode = code;
    if (signal !== null) end.exitSignal = signal;
    // What the command left behind in its group ends too; then its pipes close (bounded: a process that left
    // the group may hold them).
    void endTree()
      .then(() => Promise.race([pipesClosed, new Promise(r => setTimeout(r, PIPE_GRACE_MS))]))
      .then(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(end);
      });
  });
}

/** Ends a process tree: POSIX, its group (SIGTERM, SIGKILL after KILL_GRACE_MS); Windows, `taskkill /T /F`. */
async function killTree(pid: number): Promise<void> {
  if (WINDOWS) {
    await new Promise<void>(done => {
      const killer = cp.spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      killer.once('error', () => done());
      killer.once('exit', () => done());
    });
    return;
  }
  if (!(await groupAlive(pid))) return;
  signalGroup(pid, 'SIGTERM');
  if (await groupGone(pid, KILL_GRACE_MS)) return;
  signalGroup(pid, 'SIGKILL');
  await groupGone(pid, AFTER_KILL_MS);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Gone already.
  }
}

/** Waits until the group is gone, at most `ms`; true when it is. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += GROUP_POLL_MS) {
    await new Promise(r => setTimeout(r, GROUP_POLL_MS));
    if (!(await groupAlive(pgid))) return true;
  }
  return !(await groupAlive(pgid));
}

/**
 * Is any process of the group still running? `kill(-pgid, 0)` also counts zombies (a process that ended and that
 * nobody reaped yet, as under an init that does not reap): on Linux, /proc says whether a live one remains.
 */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const pids = await fs.promises.readdir('/proc').catch(() => undefined);
  if (pids === undefined) return true;
  const states = await Promise.all(pids.filter(p => /^\d+$/.test(p)).map(p => fs.promises.readFile(`/proc/${p}/stat`, 'utf8').catch(() => '')));
  return states.some(stat => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
  });
}

/**
 * The variables a check never gets, as VS Code's own `sanitizeProcessEnvironment` drops them for terminals and
 * tasks: Electron's (`ELECTRON_RUN_AS_NODE` would turn the editor's binary into Node), the editor's own
 * (`VSCODE_IPC_HOOK*`, `VSCODE_PID`, `VSCODE_HANDLES_*`, `VSCODE_NLS_CONFIG`, `VSCODE_ESM_ENTRYPOINT`,
 * `VSCODE_CODE_CACHE_PATH`, `VSCODE_CRASH_REPORTER_*`, `VSCODE_GIT_*`, …, except the user's `VSCODE_PORTABLE`,
 * `VSCODE_SHELL_LOGIN`, `VSCODE_ENV_*`), a Snap's and GDK's.
 */
const EDITOR_VARIABLES = [/^ELECTRON_.+$/i, /^VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)$).+$/i, /^SNAP(|_.*)$/i, /^GDK_PIXBUF_.+$/i];

/**
 * The environment a check runs with: `base` (the user's) without any variable whose value holds one of `secrets`
 * (the API key; those of 8 characters or more), without a variable named like a secret or whose value holds a
 * URL's password (unless `allowed` names it), without the editor's own variables, and without `GIT_ASKPASS`
 * where it is the editor's (it needs `VSCODE_GIT_*`). PATH, HOME and the rest are kept.
 */
export function checkEnvironment(base: NodeJS.ProcessEnv, secrets: readonly string[], allowed: readonly string[] = []): NodeJS.ProcessEnv {
  const hidden = secrets.filter(s => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
  const editorAskPass = Object.keys(base).some(k => /^VSCODE_GIT_ASKPASS/i.test(k));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (EDITOR_VARIABLES.some(r => r.test(key))) continue;
    if (editorAskPass && /^GIT_ASKPASS$/i.test(key)) continue;
    if (hidden.some(s => value.includes(s))) continue;
    if (!allowed.includes(key) && (isSecretName(key) || hasUrlPassword(value))) continue;
    env[key] = value;
  }
  return env;
}
