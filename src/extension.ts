/**
 * Composition root, the shell: what must live from the start, and stand-ins for the rest. It holds the key
 * store, the settings and the workspace's address guard, the tracker that follows the tasks' source ranges
 * through the user's edits, and the MCP provider; it registers every command, view, document
 * scheme, webview and chat entry as a stand-in (standIns.ts). The team's core (core.ts: the services, views and
 * handlers) loads on first use, or right after activation when a task must be followed or announced.
 * Activation does no network and loads no HTTP client; the first request loads it (see apiService.ts).
 */
import * as vscode from 'vscode';
import { WorkspaceAddressGuard } from './addressGuard';
import { demoKey } from './auth/demoKey';
import { KeyStore } from './auth/keyStore';
import { Config, ScriptableTrust } from './config';
import type * as CoreModule from './core';
import { SourceRangeTracker } from './documents/sourceRanges';
import { messageOf } from './format';
import { buildOnce, lazy, reportPartLoads } from './lazy';
import { createLog } from './log';
import { McpServerProvider } from './mcp/index';
import { registerStandIns } from './standIns';
import { tasksWantTheTeam } from './tasks/store/waiting';
import { SwappableUserInterface } from './ui';
import { keepWalkthroughTicked, tickKeyStepWhileKnown } from './walkthrough';
import { announceScratchWindow } from './scratchWindow';
import { sweepStaleCopies } from './tasks/checking/sweep';

export type { TestApi } from './core';

/** What requiring the activation bundle cost, measured by the entry (main.ts) around it. */
export interface LoadCost {
  ms: number;
  cpu: NodeJS.CpuUsage;
}

const coreModule = lazy<typeof CoreModule>('core');

export function activate(context: vscode.ExtensionContext, loaded?: LoadCost): CoreModule.TestApi | undefined {
  const activateStart = performance.now();
  const activateCpu = process.cpuUsage();
  const ui = new SwappableUserInterface();
  const keys = new KeyStore(context.secrets, ui);
  const redact = (text: string) => keys.redact(text);
  ui.redact = redact;
  const log = createLog(redact);
  reportPartLoads((part, ms) => log.info(`part ${part} loaded in ${ms.toFixed(1)} ms`));
  const trust = new ScriptableTrust();
  const config = new Config(trust);
  const tracker = new SourceRangeTracker(context.workspaceState);
  const guard = new WorkspaceAddressGuard(context.workspaceState, ui, log, config);

  let core: CoreModule.Core | undefined;
  // A core that failed to build is not built again (half of it would stay behind each time): the error stands.
  const loadCore = buildOnce((): CoreModule.Core => {
    const started = performance.now();
    try {
      core = coreModule().buildCore({ context, ui, log, keys, redact, trust, config, tracker, mcp, views, started: startUp });
    } catch (e) {
      log.error(`the team's core could not load: ${messageOf(e)}`);
      throw e;
    }
    log.info(`the team's core loaded in ${(performance.now() - started).toFixed(1)} ms`);
    return core;
  });
  const mcp = new McpServerProvider({ log, config, version: String(context.extension.packageJSON.version ?? '0'), tools: () => loadCore().mcpTools });
  const { views, disposable: standIns } = registerStandIns({
    log,
    extensionUri: context.extensionUri,
    core: loadCore,
  });

  context.subscriptions.push(
    log,
    trust,
    config,
    keys,
    tracker,
    guard,
    mcp,
    standIns,
    keepWalkthroughTicked(),
    announceScratchWindow(),
    // A reasoning effort that does not fit the model is told when it is set (issue 26), before any other use too.
    // Once built, the core follows the settings itself; the change that builds it is checked here.
    config.onDidChange(change => {
      if (!core && change.affects('reasoningEffort', 'modelId') && config.settings.reasoningEffort) loadCore().checkEffort();
    }),
  );

  // Everything that waits on another process (secret storage lives in the window, not the extension
  // host) happens after activate() returns, so activation costs only what it builds: the first read of the
  // settings too (the address the demo key is for).
  const startUp = (async () => {
    await Promise.resolve();
    await keys.initialize(demoKey(config.settings.baseUrl));
    context.subscriptions.push(tickKeyStepWhileKnown(context.extension.id, keys));
    guard.start();
    // Issue 44: scratch copies a dead extension host left behind go (not a kept one, not a recent one).
    void sweepStaleCopies().then(gone => gone.length && log.info(`removed ${gone.length} stale scratch copies`));
  })();
  void startUp
    .then(() => {
      // A task to follow, or one that finished or waits for approval while the window was closed: the core
      // follows it and says so now. Otherwise it waits for its first use.
      if (tasksWantTheTeam(context.globalState)) loadCore();
    })
    .catch(e => log.warn(`start-up: ${(e as Error).message}`));

  // The tests reach the live services: the core is built at once.
  const testApi = context.extensionMode === vscode.ExtensionMode.Test ? loadCore().testApi : undefined;
  if (loaded) {
    const run = performance.now() - activateStart;
    // The CPU the host spent in the same two spans says the same on a busy machine, where the time also counts
    // waiting for a core.
    const runCpu = process.cpuUsage(activateCpu);
    const cpuMs = (loaded.cpu.user + loaded.cpu.system + runCpu.user + runCpu.system) / 1000;
    log.info(`activated in ${(loaded.ms + run).toFixed(1)} ms (bundle load ${loaded.ms.toFixed(1)} ms + activate ${run.toFixed(1)} ms; ${cpuMs.toFixed(1)} ms of CPU)`);
  }
  return testApi;
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
