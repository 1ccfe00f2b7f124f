/**
 * Issue 37: running the user's check command (tasks/checking/runner.ts). How a run ends (passed, failed with its
 * code, timed out, canceled, not started), that a timeout, a cancel or the command's end leaves no process of its
 * tree alive, and the environment a check gets (the user's, without the key or the editor's own variables).
 * No test races a clock: the processes sleep for 1,000 s and are killed; nothing asserts how fast anything was.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CommandInput, checkEnvironment, runCommand } from '../../src/tasks/checking/runner';

const POSIX = process.platform !== 'win32';
const NODE = JSON.stringify(process.execPath);

/** Runs `command` in a temp folder; resolves with how it ended and its output. */
async function run(command: string, more: Partial<CommandInput> = {}) {
  const chunks: Buffer[] = [];
  const ended = await runCommand({ command, cwd: os.tmpdir(), env: process.env, timeoutMs: 600_000, onOutput: c => chunks.push(c), ...more });
  return { ...ended, output: Buffer.concat(chunks).toString('utf8') };
}

/** Is the process running? A zombie (ended, not reaped: this machine's init may not reap) is not. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

/**
 * A tree: the shell starts `sleep 1000` in the background, then a Node child that starts a grandchild and
 * sleeps (ignoring SIGTERM when `stubborn`, so that only SIGKILL ends it). Each prints its pid.
 */
function tree(stubborn = false): string {
  const grandchild = `require('child_process').spawn(process.execPath, ['-e', 'console.log("grandchild:" + process.pid); setTimeout(() => {}, 1e6)'], { stdio: 'inherit' });`;
  const child = `${stubborn ? "process.on('SIGTERM', () => console.log('ignoring SIGTERM'));" : ''} console.log('child:' + process.pid); ${grandchild} setTimeout(() => {}, 1e6);`;
  return `sleep 1000 & echo "sleep:$!"; ${NODE} -e ${JSON.stringify(child)}`;
}

const pidsIn = (output: string) => [...output.matchAll(/(sleep|child|grandchild):(\d+)/g)].map(m => ({ who: m[1], pid: Number(m[2]) }));

describe('checking: running the check command (issue 37)', () => {
  it('passed: exit 0, stdout and stderr handed on', async () => {
    const r = await run(`echo out-line; echo err-line 1>&2; exit 0`);
    assert.equal(r.end, 'passed');
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /out-line/);
    assert.match(r.output, /err-line/);
    assert.ok(r.durationMs >= 0);
  });

  it('failed: any other exit, with its code', async () => {
    const r = await run(`echo "1 failing"; exit 3`);
    assert.equal(r.end, 'failed');
    assert.equal(r.exitCode, 3);
    assert.match(r.output, /1 failing/);
  });

  it('stdin is closed: a command that reads it ends instead of waiting', async () => {
    const r = await run(`${NODE} -e "process.stdin.resume(); process.stdin.on('end', () => { console.log('stdin ended'); process.exit(0); })"`);
    assert.equal(r.end, 'passed');
    assert.match(r.output, /stdin ended/);
  });

  (POSIX ? it : it.skip)('a missing command fails with the shell\'s 127', async () => {
    const r = await run('definitely-not-a-command-mat37');
    assert.equal(r.end, 'failed');
    assert.equal(r.exitCode, 127);
    assert.match(r.output, /not found/);
  });

  it('a missing folder does not start, and says why', async () => {
    const r = await run('echo never', { cwd: path.join(os.tmpdir(), 'mat-no-such-folder-37', 'x') });
    assert.equal(r.end, 'notStarted');
    assert.equal(r.exitCode, undefined);
    assert.match(r.error ?? '', /mat-no-such-folder-37.*does not exist/);
    assert.equal(r.output, '');
  });

  it('a timeout past what a timer can hold does not fire at once', async () => {
    const r = await run(`sleep 1; echo fine`, { timeoutMs: Number.MAX_SAFE_INTEGER });
    assert.equal(r.end, 'passed');
  });

  it('an abort before the start runs nothing', async () => {
    const r = await run(`echo ran`, { signal: AbortSignal.abort() });
    assert.equal(r.end, 'canceled');
    assert.equal(r.output, '');
  });

  (POSIX ? describe : describe.skip)('the whole process tree ends', () => {
    it('on a timeout: the shell, its background sleep, the Node child and its grandchild', async () => {
      const r = await run(tree(), { timeoutMs: 3_000 });
      assert.equal(r.end, 'timedOut');
      const pids = pidsIn(r.output);
      assert.ok(pids.some(p => p.who === 'sleep'), r.output);
      for (const p of pids) assert.equal(running(p.pid), false, `${p.who} ${p.pid} is still running`);
    });

    it('on a cancel, once the tree is up (SIGKILL for a process that ignores SIGTERM)', async () => {
      const abort = new AbortController();
      const chunks: string[] = [];
      const r = await runCommand({
        command: tree(true),
        cwd: os.tmpdir(),
        env: process.env,
        timeoutMs: 600_000,
        signal: abort.signal,
        onOutput: c => {
          chunks.push(c.toString());
          if (/grandchild:\d+/.test(chunks.join(''))) abort.abort();
        },
      });
      const output = chunks.join('');
      assert.equal(r.end, 'canceled');
      const pids = pidsIn(output);
      assert.deepEqual(pids.map(p => p.who).sort(), ['child', 'grandchild', 'sleep'], output);
      for (const p of pids) assert.equal(running(p.pid), false, `${p.who} ${p.pid} is still running`);
      assert.match(output, /ignoring SIGTERM/, 'the child saw SIGTERM first');
    });

    it('when the command ends: what it left running in the background ends too, and the run settles', async () => {
      const r = await run(`sleep 1000 & echo "sleep:$!"; echo done; exit 0`);
      assert.equal(r.end, 'passed');
      assert.equal(r.exitCode, 0);
      const [sleep] = pidsIn(r.output);
      assert.ok(sleep, r.output);
      assert.equal(running(sleep.pid), false, `sleep ${sleep.pid} is still running`);
    });
  });

  describe('the environment a check gets', () => {
    const KEY = 'sk-team-0123456789abcdef';
    const user: NodeJS.ProcessEnv = {
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      NODE_OPTIONS: '--max-old-space-size=4096',
      MULTI_AGENT_KEY: KEY,
      AUTH_HEADER: `Bearer ${KEY}`,
      SHORT: 'abc',
      ELECTRON_RUN_AS_NODE: '1',
      ELECTRON_NO_ATTACH_CONSOLE: '1',
      VSCODE_IPC_HOOK: '/run/user/1000/vscode-ipc.sock',
      VSCODE_IPC_HOOK_CLI: '/run/user/1000/vscode-cli.sock',
      VSCODE_PID: '1234',
      VSCODE_CWD: '/',
      VSCODE_HANDLES_UNCAUGHT_ERRORS: 'true',
      VSCODE_HANDLES_SIGPIPE: 'true',
      VSCODE_NLS_CONFIG: '{}',
      VSCODE_CODE_CACHE_PATH: '/cache',
      VSCODE_CRASH_REPORTER_PROCESS_TYPE: 'extensionHost',
      VSCODE_ESM_ENTRYPOINT: 'vs/workbench/api/node/extensionHostProcess',
      VSCODE_AMD_ENTRYPOINT: 'vs/workbench/api/node/extensionHostProcess',
      VSCODE_GIT_ASKPASS_MAIN: '/app/askpass-main.js',
      VSCODE_GIT_IPC_HANDLE: '/run/git.sock',
      GIT_ASKPASS: '/app/askpass.sh',
      VSCODE_PORTABLE: '/portable',
      SNAP: '/snap/code/1',
      SNAP_NAME: 'code',
      GDK_PIXBUF_MODULE_FILE: '/snap/x',
    };

    it('is the user\'s, without the key (wherever it appears), the editor\'s variables and a Snap\'s', () => {
      const env = checkEnvironment(user, [KEY, 'abc']);
      assert.deepEqual(Object.keys(env).sort(), ['HOME', 'LANG', 'NODE_OPTIONS', 'PATH', 'SHORT', 'VSCODE_PORTABLE']);
      assert.equal(env.PATH, '/usr/bin:/bin');
      assert.equal(user.MULTI_AGENT_KEY, KEY, 'the base is not changed');
    });

    it('keeps the user\'s GIT_ASKPASS when it is not the editor\'s', () => {
      assert.equal(checkEnvironment({ GIT_ASKPASS: '/usr/lib/ssh/askpass' }, []).GIT_ASKPASS, '/usr/lib/ssh/askpass');
    });

    it('a command run with it sees no key', async () => {
      const env = checkEnvironment({ ...process.env, MAT_TEST_KEY: KEY, VSCODE_IPC_HOOK: '/x' }, [KEY]);
      const r = await run(`${NODE} -e "console.log(JSON.stringify(process.env))"`, { env });
      assert.equal(r.end, 'passed');
      const seen = JSON.parse(r.output) as NodeJS.ProcessEnv;
      assert.ok(!r.output.includes(KEY));
      assert.equal(seen.VSCODE_IPC_HOOK, undefined);
      assert.equal(seen.PATH, process.env.PATH);
    });
  });
});
