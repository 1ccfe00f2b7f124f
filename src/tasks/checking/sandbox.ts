/**
 * The OS sandbox every check run goes into (issue 44): code the team proposed runs here before the user has read
 * it, so it gets no network, writes only to its scratch copy and a private temp folder, reads nothing of the
 * user's secret places, and nothing it starts outlives the run.
 *
 * Linux: bubblewrap (Debian's `bubblewrap`, user namespaces): the whole file system bound read-only, the copy's
 * temp folder bound writable, a fresh /tmp, the secret places covered (an empty folder over a folder, /dev/null
 * over a file), a PID namespace whose end kills every process of the run (a `setsid` daemon too), a network
 * namespace with nothing but its own loopback. macOS: Seatbelt (`sandbox-exec`) with a generated profile (written,
 * not run on this project's machines). Windows: none yet. Where none can be had the caller asks the user, never
 * silently runs without one. `@anthropic-ai/sandbox-runtime` was not taken: it declares Node >= 22.12 (VS Code
 * 1.100's extension host is Node 20) and brings zod 3, node-forge and a SOCKS server; bubblewrap is one binary.
 * Pure Node, no vscode.
 */
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { secretPlaces } from '../sending/sensitiveFiles';

export { secretPlaces };

export type SandboxKind = 'bubblewrap' | 'seatbelt' | 'none';

/** Whether a sandbox can be had on this machine, and why not. */
export interface SandboxSupport {
  kind: SandboxKind;
  /** Why there is none (in the probe's words), for the confirmation. */
  why?: string;
  /** The bubblewrap binary found. */
  binary?: string;
}

/** What one run may do. */
export interface SandboxPolicy {
  /** The run's folder (the scratch copy), inside `writable`. */
  cwd: string;
  /** The only folder written: the copy's temp folder (the copy, its private temp folder). */
  writable: string;
  /** The private temp folder (TMPDIR and the runners' caches), inside `writable`. */
  tmp: string;
  /** Paths that must read as empty: the secret places, the editor's storage. Those that do not exist are skipped. */
  hidden: readonly string[];
  /** Paths read (never written) under the fresh /tmp: the user's folder, which the copy's dependency links lead to. */
  readable: readonly string[];
  allowNetwork: boolean;
}

let probed: Promise<SandboxSupport> | undefined;

/** The sandbox this machine can give (probed once: bubblewrap must actually make its namespaces). */
export function sandboxSupport(): Promise<SandboxSupport> {
  return (probed ??= probeSandbox());
}

/** Probes this machine now (`sandboxSupport` keeps the first answer): the platform's sandbox, and on Linux whether bubblewrap works. */
export async function probeSandbox(): Promise<SandboxSupport> {
  if (process.platform === 'darwin') {
    return fs.existsSync('/usr/bin/sandbox-exec') ? { kind: 'seatbelt', binary: '/usr/bin/sandbox-exec' } : { kind: 'none', why: 'sandbox-exec was not found' };
  }
  if (process.platform !== 'linux') return { kind: 'none', why: `no sandbox is known for ${process.platform} yet` };
  const binary = findOnPath('bwrap');
  if (!binary) return { kind: 'none', why: 'bubblewrap (bwrap) is not installed' };
  const tried = await new Promise<{ code: number | null; err: string }>(resolve => {
    const p = cp.spawn(binary, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', '--', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(0, 2000)));
    const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.once('error', e => (clearTimeout(timer), resolve({ code: -1, err: e.message })));
    p.once('exit', code => (clearTimeout(timer), resolve({ code, err })));
  });
  if (tried.code !== 0) return { kind: 'none', why: `bubblewrap could not make its namespaces (${tried.err.trim().split('\n')[0] || `exit ${tried.code}`}); user namespaces may be turned off` };
  return { kind: 'bubblewrap', binary };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/bin', '/bin'])) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** A path as it is on disk (a link resolved), or undefined when it does not exist. */
function existing(p: string): { real: string; folder: boolean } | undefined {
  try {
    const real = fs.realpathSync(p);
    return { real, folder: fs.statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

/** bubblewrap's arguments for `command` (run by /bin/sh) under `policy`. */
export function bubblewrapArgs(policy: SandboxPolicy, command: string): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!policy.allowNetwork) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  // Fresh, empty folders over the places the host shares through the file system: its temp folders, and the
  // sockets in them and in /run (an ssh or gpg agent, the desktop's message bus, Docker's socket). A read-only
  // mount does not stop a connect() to a socket file, and no network namespace does either.
  const emptied = emptiedPlaces(policy.allowNetwork);
  for (const place of emptied) args.push('--tmpfs', place);
  const writable = existing(policy.writable)?.real ?? policy.writable;
  for (const read of policy.readable) {
    const found = existing(read);
    if (found && emptied.some(place => found.real.startsWith(place + path.sep))) args.push('--ro-bind', found.real, found.real);
  }
  // Over the read-only root, in order: what the fresh /tmp would hide, the secret places emptied, the one writable folder.
  for (const hidden of policy.hidden) {
    const found = existing(hidden);
    // A secret place that holds the copy would hide the copy: it is left (the caller's temp folder is elsewhere).
    if (!found || writable.startsWith(found.real + path.sep) || found.real === writable) continue;
    if (found.folder) args.push('--tmpfs', found.real);
    else args.push('--ro-bind', '/dev/null', found.real);
  }
  args.push('--bind', writable, writable);
  if (writable !== policy.writable) args.push('--bind', writable, policy.writable);
  args.push('--chdir', policy.cwd, '--', '/bin/sh', '-c', command);
  return args;
}

/**
 * The places a run sees empty: the temp folders (/tmp, /var/tmp, /dev/shm) and, without network, all of /run (its
 * sockets; with network, /etc/resolv.conf may lead there, so only the user's runtime folder and Docker's socket).
 */
function emptiedPlaces(allowNetwork: boolean): string[] {
  const places = ['/tmp', '/var/tmp', '/dev/shm'];
  if (!allowNetwork) places.push('/run');
  else {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid !== undefined) places.push(`/run/user/${uid}`);
  }
  return places.filter(p => existing(p)?.folder && existing(p)?.real === p);
}

/** Sockets of the host's agents and daemons a run is never told of (the paths are emptied too). */
const SOCKET_VARIABLES = ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST', 'CONTAINER_HOST', 'WAYLAND_DISPLAY', 'DISPLAY'];

/** A Seatbelt profile for `policy` (macOS `sandbox-exec -p`): deny by default what the policy does not allow. */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const quote = (p: string) => JSON.stringify(p);
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* (subpath ${quote(policy.writable)}) (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
  ];
  for (const hidden of policy.hidden) lines.push(`(deny file-read* (subpath ${quote(hidden)}))`);
  if (!policy.allowNetwork) lines.push('(deny network*)', '(allow network* (local unix))');
  return lines.join('\n');
}

/** How the runner starts `command` in `kind`'s sandbox: the program and its arguments (no shell of ours around it). */
export function sandboxed(kind: Exclude<SandboxKind, 'none'>, binary: string, policy: SandboxPolicy, command: string): { file: string; args: string[] } {
  if (kind === 'bubblewrap') return { file: binary, args: bubblewrapArgs(policy, command) };
  return { file: binary, args: ['-p', seatbeltProfile(policy), '/bin/sh', '-c', command] };
}

/**
 * The environment of a sandboxed run: the caches runners write (npm, pip, Go, XDG) and TMPDIR in the private
 * temp folder, since the home folder is read-only there.
 */
export function sandboxEnvironment(env: NodeJS.ProcessEnv, tmp: string): NodeJS.ProcessEnv {
  const cache = path.join(tmp, 'cache');
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !SOCKET_VARIABLES.includes(name)));
  return {
    ...kept,
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    XDG_CACHE_HOME: cache,
    npm_config_cache: path.join(cache, 'npm'),
    YARN_CACHE_FOLDER: path.join(cache, 'yarn'),
    PIP_CACHE_DIR: path.join(cache, 'pip'),
    GOCACHE: path.join(cache, 'go-build'),
    GOTMPDIR: tmp,
    PYTHONPYCACHEPREFIX: path.join(cache, 'pycache'),
  };
}
