#!/usr/bin/env node
// npm run demo: the product for real, offline. Builds the .vsix, starts the local emulator of the
// Developer API and a real VS Code (code-server on 127.0.0.1) with the extension installed, its settings
// pointing at the emulator, the demo key stored and a small sample workspace open; prints the URL.
// Ctrl+C stops everything it started.
//   npm run demo -- --desktop   use a desktop `code` on PATH instead of code-server
//   npm run demo -- --chat      the newest VS Code (code-server 4.139, which has the Chat view) with the
//                               test-only helper: a stand-in chat model, so `@team` works offline, and
//                               `@try`, which calls `#multiAgent` or an MCP tool as VS Code's agent would
//                               (that agent itself asks for a Copilot sign-in)
//   npm run demo -- --port 8080 code-server on a fixed port (default: a free one)
//   npm run demo -- --task-seconds 20   how long the emulator's agents "work" (default 12)
'use strict';
const { spawnSync, spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const flag = name => args.includes(`--${name}`);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const step = message => console.log(`\x1b[36m›\x1b[0m ${message}`);

function sh(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    if (opts.quiet) process.stderr.write(`${r.stdout || ''}${r.stderr || ''}`);
    throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status})`);
  }
  return r.stdout;
}

const which = bin => spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).stdout.trim() || undefined;

async function main() {
  const desktop = flag('desktop');
  // VS Code 1.100 has no Chat view; the newest code-server ships one, and a chat model must be registered
  // for a participant to run: with no account signed in, the test-only stand-in model answers.
  const chat = flag('chat') || flag('newest');
  if (desktop && chat) throw new Error('--chat starts code-server; a desktop VS Code uses whatever chat model you have signed in');
  const version = chat ? 'newest' : '1.100';
  const taskMs = Number(option('task-seconds', '12')) * 1000;

  step('building the extension package (.vsix) and the emulator');
  sh('npm', ['run', '--silent', 'package'], { quiet: true });
  sh('npm', ['run', '--silent', 'build:tests'], { quiet: true });
  const vsix = path.join(ROOT, 'multi-agent-tasks.vsix');

  step('starting the Developer API emulator');
  const { startEmulator } = require(path.join(ROOT, 'out/test/emulator/server.js'));
  // traceReport 'stored': the trace shows the report generator's output, which the live store drops today.
  const emulator = await startEmulator({ taskDurationMs: taskMs, quiet: true, port: Number(process.env.EMULATOR_PORT || 0), traceReport: 'stored' });

  const sample = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-demo-'));
  const workspace = path.join(sample, 'sample-workspace');
  fs.cpSync(path.join(ROOT, 'test/workspace'), workspace, { recursive: true });
  const settings = {
    'multiAgent.baseUrl': emulator.baseUrl,
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    ...(chat ? { 'chat.disableAIFeatures': false } : {}),
  };
  const env = { MULTI_AGENT_TASKS_DEMO_KEY: emulator.apiKey };

  const stops = [() => emulator.close()];
  let stopping = false;
  const stopAll = async code => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping the demo…');
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
    fs.rmSync(sample, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  // The harness's own signal handler may exit first: the folders still go, synchronously.
  const scratch = [sample];
  process.on('exit', () => scratch.forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));

  if (desktop) {
    const code = which('code');
    if (!code) throw new Error('--desktop needs the `code` command on PATH');
    const userData = path.join(sample, 'user-data');
    const extensions = path.join(sample, 'extensions');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    sh(code, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix], { quiet: true });
    step('starting desktop VS Code');
    const child = spawn(code, ['--wait', '--new-window', '--user-data-dir', userData, '--extensions-dir', extensions, workspace], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    stops.push(() => child.kill('SIGTERM'));
    printBanner({ url: '(desktop window)', emulator });
    child.on('exit', () => stopAll(0));
    return;
  }

  const harness = require(path.join(ROOT, 'test/harness/codeserver.js'));
  try {
    harness.resolveCodeServer(version);
  } catch {
    step(`installing code-server for VS Code ${version} (first run only; one to two minutes)`);
    sh('bash', [path.join(ROOT, 'scripts/install-vscode.sh'), version === 'newest' ? '24' : '20']);
  }
  step(`starting VS Code ${version === 'newest' ? '(newest, with Chat)' : '1.100'} (code-server) with the extension installed`);
  const extensionsDir = path.join(sample, 'extensions');
  harness.installExtension(vsix, extensionsDir, version);
  if (chat) {
    // The stand-in model is packaged from its folder like the e2e suite does; it never ships in our .vsix.
    const fakeModel = path.join(sample, 'fake-chat-model.vsix');
    sh(process.execPath, [path.join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', fakeModel], {
      quiet: true,
      cwd: path.join(ROOT, 'test/fixtures/fake-chat-model'),
    });
    harness.installExtension(fakeModel, extensionsDir, version);
  }
  const port = Number(option('port', process.env.DEMO_PORT || 0)) || undefined;
  const server = await harness.startCodeServer({ settings, extensionsDir, env, port, version });
  scratch.push(server.root);
  stops.push(() => server.cleanup());
  printBanner({ url: harness.workbenchUrl(server, workspace), emulator, chat });
}

function printBanner({ url, emulator, chat = false }) {
  // The emulator answers this one instruction with a proposal that fails one test, and the fix request with one that passes.
  const { SAMPLE_INSTRUCTION } = require(path.join(ROOT, 'out/test/emulator/checkLoop.js'));
  const chatLines = chat
    ? `
  Chat: open the Chat view ("Chat: Open Chat") and ask "@team review this file" with a file
  attached. A stand-in chat model ("Fake Model") is installed so @team runs offline; it is
  ready as soon as the window has started.
  #multiAgent and the MCP tools are what VS Code's own agent calls, and that agent asks for a
  Copilot sign-in. Offline, the demo's @try calls them as the agent would (allow the call):
    @try #multiAgent review add() in src/math.ts
    MCP: run "MCP: List Servers" > Multi-Agent Tasks > Start Server, then
    @try run_task review add() in src/math.ts     (and list_threads, read_task <task id>)`
    : `
  Chat: VS Code 1.100 has no Chat view, no #multiAgent tool and no MCP. \`npm run demo -- --chat\`
  starts the newest VS Code with Chat, where @team works and the demo's @try calls #multiAgent
  and the MCP tools offline.`;
  console.log(`
  Multi-Agent Tasks demo is running.

    Open VS Code:   ${url}
    Emulator:       ${emulator.baseUrl}
    API key:        ${emulator.apiKey}  (already stored in VS Code's secret storage; paste it into
                    "Multi-Agent: Set API Key" if you clear it — it works only with this emulator)

  Try it: open src/math.ts, select the mean() function, press Ctrl+K A (or run
  "Multi-Agent: Orchestrate Selection" from the command palette), type an instruction,
  and watch the status bar; the result opens beside the code when the agents finish.

  Prove a proposal before it lands: open src/text.js, select all (Ctrl+A), press Ctrl+K A and type
    ${SAMPLE_INSTRUCTION}
  When the answer is in, run "Check Proposal…" from the result view: the workspace's own test command
  (npm test, which runs node --test; you confirm it once) runs on the proposal in a scratch copy, and
  one test fails. "Ask the Team to Fix" sends that failure back in the task's thread; check the new
  answer: every test passes. Your files change only when you apply it (Review Changes…).

  See what the team did: expand the task in the Tasks view while it runs (each agent's tool),
  then in the result view open "How the team worked" (goal, plan, each agent's step, the
  report), the files the agents made (Open, Save As, Attach to Next Task) and their sources.
  "Continue in Thread..." runs a follow-up in the task's thread. Set "multiAgent.budgetUsd"
  to 0.03 in the settings to see a budget enforced (two agents stop), or 0 to see it end a task.
${chatLines}

  Press Ctrl+C to stop everything.
`);
}

main().catch(e => {
  console.error(`demo failed: ${e.message}`);
  process.exit(1);
});
