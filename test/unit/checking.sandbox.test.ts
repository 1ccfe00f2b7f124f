/**
 * The check's sandbox (issue 44), with real processes under the real bubblewrap: from inside a run, the proposed
 * code tries what a prompt injection would make it try — read a planted SSH key and AWS credentials, read a secret
 * environment variable, connect to a server on the host's loopback, write to the workspace, the home folder and a
 * linked node_modules, leave a daemon behind — and each is refused; the same probe without the sandbox succeeds
 * (so the probe itself can tell). On Linux the sandbox is required: a missing bubblewrap fails here, it does not
 * skip (`npm test` installs it). tasks/checking/sandbox.ts, runner.ts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkEnvironment, runCommand } from '../../src/tasks/checking/runner';
import { type SandboxPolicy, bubblewrapArgs, probeSandbox, sandboxEnvironment, sandboxSupport, sandboxed, seatbeltProfile, secretPlaces } from '../../src/tasks/checking/sandbox';

const LINUX = process.platform === 'linux';

/** Processes of this machine whose command line is exactly `argv`. */
function processesRunning(argv: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter(p => /^\d+$/.test(p))
    .filter(p => {
      try {
        // A zombie (ended, not yet reaped) has ended.
        if (/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${p}/stat`, 'utf8'))) return false;
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === argv;
      } catch {
        return false;
      }
    })
    .map(Number);
}

(LINUX ? describe : describe.skip)('checking: the sandbox (bubblewrap)', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let workspace: string;
  let base: string;
  let copy: string;
  let server: net.Server;
  let port: number;
  let binary: string;

  before(async () => {
    const support = await sandboxSupport();
    assert.equal(support.kind, 'bubblewrap', `a check needs bubblewrap here; npm test installs it (apt-get install bubblewrap): ${support.why ?? ''}`);
    binary = support.binary!;
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-sandbox-'));
    home = path.join(root, 'home');
    workspace = path.join(root, 'workspace');
    base = path.join(root, 'multi-agent-check-x');
    copy = path.join(base, 'workspace');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.mkdirSync(path.join(home, '.aws'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-PLANTED');
    fs.writeFileSync(path.join(home, '.aws', 'credentials'), 'aws_secret_access_key = AWS-PLANTED');
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x password NETRC-PLANTED');
    fs.mkdirSync(path.join(workspace, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;');
    fs.mkdirSync(path.join(base, 'tmp'), { recursive: true });
    fs.mkdirSync(copy);
    fs.symlinkSync(path.join(workspace, 'node_modules'), path.join(copy, 'node_modules'));
    server = net.createServer(socket => socket.end('HOST-SERVER'));
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => {
    server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
    cwd: copy,
    writable: base,
    tmp: path.join(base, 'tmp'),
    hidden: secretPlaces(home),
    // The home folder and the workspace are under /tmp only in this test: re-bound, as real ones are seen.
    readable: [workspace, home],
    allowNetwork: false,
    ...over,
  });

  /** Runs `command` in the copy, sandboxed or not; its output and exit code. */
  async function run(command: string, sandbox: boolean, over: Partial<SandboxPolicy> = {}, env: NodeJS.ProcessEnv = process.env): Promise<{ out: string; code?: number }> {
    let out = '';
    const p = policy(over);
    const ran = await runCommand({
      command,
      cwd: copy,
      env: sandbox ? sandboxEnvironment({ ...env, HOME: home }, p.tmp) : { ...env, HOME: home, TMPDIR: p.tmp },
      timeoutMs: 30_000,
      onOutput: chunk => (out += chunk.toString()),
      spawnAs: sandbox ? sandboxed('bubblewrap', binary, p, command) : undefined,
    });
    return { out, code: ran.exitCode };
  }

  it('the secret places of the home folder read as empty: a planted SSH key, AWS credentials, .netrc', async () => {
    const probe = 'cat "$HOME/.ssh/id_ed25519" "$HOME/.aws/credentials" "$HOME/.netrc" 2>&1; true';
    const open = await run(probe, false);
    assert.match(open.out, /PRIVATE-KEY-PLANTED[\s\S]*AWS-PLANTED[\s\S]*NETRC-PLANTED/, 'without the sandbox the probe reads them');
    const boxed = await run(probe, true);
    assert.doesNotMatch(boxed.out, /PLANTED/, boxed.out);
  });

  it('no network: a server on the host\'s loopback cannot be reached (a setting allows it)', async () => {
    const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => { console.log('got ' + d); process.exit(0); }).on('error', e => { console.log('refused ' + e.code); process.exit(3); })"`;
    assert.match((await run(probe, false)).out, /got HOST-SERVER/, 'without the sandbox it connects');
    const boxed = await run(probe, true);
    assert.match(boxed.out, /refused E/, boxed.out);
    assert.equal(boxed.code, 3);
    assert.match((await run(probe, true, { allowNetwork: true })).out, /got HOST-SERVER/, 'check.allowNetwork lets it');
  });

  it('no host socket through the file system: a server on a Unix socket in /var/tmp, /dev/shm or /run (an agent, a bus, Docker) is out of reach', async () => {
    const places = ['/var/tmp', '/dev/shm', '/run'].filter(d => fs.existsSync(d) && (() => { try { fs.accessSync(d, fs.constants.W_OK); return true; } catch { return false; } })());
    assert.ok(places.length >= 2, `places to plant a socket: ${places.join(', ')}`);
    for (const place of places) {
      const dir = fs.mkdtempSync(path.join(place, 'mat-sock-'));
      const sock = path.join(dir, 'agent.sock');
      const agent = net.createServer(c => c.end('AGENT-ANSWER'));
      await new Promise<void>(resolve => agent.listen(sock, resolve));
      try {
        const probe = `node -e "require('net').connect(${JSON.stringify(sock).replace(/"/g, "'")}).on('data', d => { console.log('got ' + d); process.exit(0); }).on('error', e => { console.log('refused ' + e.code); process.exit(3); })"`;
        assert.match((await run(probe, false)).out, /got AGENT-ANSWER/, `${place}: without the sandbox it connects`);
        const boxed = await run(probe, true);
        assert.match(boxed.out, /refused E/, `${place}: ${boxed.out}`);
      } finally {
        agent.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    assert.deepEqual(Object.keys(sandboxEnvironment({ SSH_AUTH_SOCK: '/run/user/1000/ssh', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', PATH: '/bin' }, '/t/tmp')).filter(k => /SOCK|DBUS/.test(k)), []);
  });

  it('writes only in the copy and its private temp folder: not the workspace, the home folder or the linked node_modules', async () => {
    const probe = [
      'for f in "$WS/planted" "$HOME/planted" node_modules/dep/planted; do (echo x > "$f") 2>/dev/null && echo "wrote $f" || echo "refused $f"; done',
      'echo x > in-copy && echo "wrote in-copy"',
      'echo x > "$TMPDIR/t" && echo "wrote tmp"',
    ].join('; ');
    const env = { ...process.env, WS: workspace };
    const open = await run(probe, false, {}, env);
    assert.equal((open.out.match(/wrote /g) ?? []).length, 5, open.out);
    for (const f of [path.join(workspace, 'planted'), path.join(home, 'planted'), path.join(workspace, 'node_modules', 'dep', 'planted')]) fs.rmSync(f, { force: true });
    const boxed = await run(probe, true, {}, env);
    assert.equal((boxed.out.match(/refused /g) ?? []).length, 3, boxed.out);
    assert.match(boxed.out, /wrote in-copy[\s\S]*wrote tmp/, boxed.out);
    assert.ok(!fs.existsSync(path.join(workspace, 'planted')) && !fs.existsSync(path.join(home, 'planted')) && !fs.existsSync(path.join(workspace, 'node_modules', 'dep', 'planted')));
    // The linked dependencies are still read.
    assert.match((await run('node -e "console.log(require(\'dep\'))"', true)).out, /^1$/m);
  });

  it('nothing it started outlives the run: a setsid daemon ends with it', async () => {
    const marker = `sleep ${300 + Math.floor(Math.random() * 1000)}.5`;
    // The shell ends only once the daemon has its own session (it wrote daemon.ready after setsid): ended sooner, on a
    // loaded machine the run's process group could take the daemon with it before setsid, and the control failed.
    const probe = `rm -f daemon.ready; setsid sh -c 'echo up > daemon.ready; exec ${marker}' </dev/null >/dev/null 2>&1 & n=0; while [ ! -s daemon.ready ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n+1)); done; echo started`;
    await run(probe, false);
    for (const until = Date.now() + 10_000; !processesRunning(marker).length && Date.now() < until; ) await new Promise(r => setTimeout(r, 50));
    const left = processesRunning(marker);
    assert.ok(left.length >= 1, 'without the sandbox the daemon survives (the process group ended, not it)');
    for (const pid of left) process.kill(pid, 'SIGKILL');
    const boxed = await run(probe, true);
    assert.match(boxed.out, /started/);
    // The kernel ends the namespace's processes as its last one exits: a moment, whatever the load (bounded at 10 s).
    for (const until = Date.now() + 10_000; processesRunning(marker).length && Date.now() < until; ) await new Promise(r => setTimeout(r, 50));
    assert.deepEqual(processesRunning(marker), [], 'the PID namespace ended with the run');
  });

  it('a secret environment variable does not reach the check unless the user lets it', async () => {
    const env = checkEnvironment({ PATH: process.env.PATH, GITHUB_TOKEN: 'ghp_planted', DATABASE_URL: 'postgres://app:pw@db/x', AWS_SECRET_ACCESS_KEY: 'k', LANG: 'C' }, []);
    assert.deepEqual(Object.keys(env).sort(), ['LANG', 'PATH']);
    const boxed = await run('echo "token=$GITHUB_TOKEN"', true, {}, env);
    assert.match(boxed.out, /^token=$/m);
    assert.deepEqual(Object.keys(checkEnvironment({ GITHUB_TOKEN: 'ghp' }, [], ['GITHUB_TOKEN'])), ['GITHUB_TOKEN'], 'passEnvironment names it');
  });

  it('where bubblewrap cannot make its namespaces (user namespaces off), there is no sandbox, and why is said', async () => {
    // A bubblewrap that refuses, as Debian's does where unprivileged user namespaces are turned off.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-nobwrap-'));
    fs.writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${saved}`;
    try {
      const none = await probeSandbox();
      assert.equal(none.kind, 'none');
      assert.match(none.why ?? '', /could not make its namespaces \(bwrap: No permissions to create new namespace\); user namespaces may be turned off/);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(bin, { recursive: true, force: true });
    }
    assert.equal((await probeSandbox()).kind, 'bubblewrap');
  });

  it('bubblewrap\'s arguments: read-only root, no network, a fresh /tmp, the secret places covered, the copy writable, in that order', () => {
    const args = bubblewrapArgs(policy(), 'npm test');
    const at = (a: string, b?: string) => args.findIndex((x, i) => x === a && (b === undefined || args[i + 1] === b));
    assert.ok(at('--unshare-net') >= 0 && at('--unshare-pid') >= 0 && at('--die-with-parent') >= 0);
    assert.ok(at('--ro-bind', '/') < at('--tmpfs', '/tmp'));
    assert.ok(at('--tmpfs', fs.realpathSync(path.join(home, '.ssh'))) > at('--tmpfs', '/tmp'));
    assert.ok(at('--ro-bind', '/dev/null') > 0, 'a secret file is covered by /dev/null');
    assert.ok(at('--bind', fs.realpathSync(base)) > at('--tmpfs', fs.realpathSync(path.join(home, '.ssh'))));
    assert.deepEqual(args.slice(-4), ['--', '/bin/sh', '-c', 'npm test']);
    assert.equal(bubblewrapArgs(policy({ allowNetwork: true }), 'x').includes('--unshare-net'), false);
  });
});

describe('checking: the sandbox on macOS (a Seatbelt profile, written here, run there)', () => {
  it('denies writes but to the copy, reads of the secret places, and the network unless allowed', () => {
    const profile = seatbeltProfile({ cwd: '/t/c/w', writable: '/t/c', tmp: '/t/c/tmp', hidden: ['/Users/u/.ssh'], readable: [], allowNetwork: false });
    assert.match(profile, /\(deny file-write\*\)/);
    assert.match(profile, /\(allow file-write\* \(subpath "\/t\/c"\)/);
    assert.match(profile, /\(deny file-read\* \(subpath "\/Users\/u\/\.ssh"\)\)/);
    assert.match(profile, /\(deny network\*\)/);
    assert.doesNotMatch(seatbeltProfile({ cwd: '/t', writable: '/t', tmp: '/t/tmp', hidden: [], readable: [], allowNetwork: true }), /deny network/);
  });
});
