/**
 * Composition root: builds the services in order and owns their disposal. Activation does no network
 * and loads no HTTP client; the first request loads it (see apiService.ts).
 */
import * as vscode from 'vscode';
import { ApiService, loadApi } from './apiService';
import { KeyStore } from './auth/keyStore';
import { registerCommands } from './commands/index';
import { reportError } from './commands/run';
import { WORKSPACE_SETTINGS_GLOB, affects, readSettings, workspaceAddressOverrides } from './config';
import { RESULT_SCHEME, StateKeys } from './constants';
import { createLog } from './log';
import type { Services } from './services';
import { AttachmentBasket } from './tasks/attachments';
import { type PollerApi, type PollerEvent, TaskPoller } from './tasks/poller';
import { TaskSubmitter } from './tasks/submitter';
import { TaskStore } from './tasks/taskStore';
import { SwappableUserInterface } from './ui';
import { CompletionNotifier } from './views/completionNotifier';
import { ResultDocumentProvider } from './views/resultDocuments';
import { registerSidebar } from './views/sidebar';
import { TaskStatusBar } from './views/statusBar';

/** Set by the bundle's first and last lines (esbuild banner and footer): the cost of loading it. */
declare const __matLoadStart: number | undefined;
declare const __matLoadEnd: number | undefined;

/** What activate() returns in the extension's test mode only: the live services, for integration tests. */
export type TestApi = Services & { loadApi: typeof loadApi };

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const activateStart = performance.now();
  const log = createLog();
  context.subscriptions.push(log);
  const ui = new SwappableUserInterface();
  const keys = new KeyStore(context.secrets, ui);
  const api = new ApiService(keys, log, context.extension);
  const store = new TaskStore(context.globalState, context.globalStorageUri);
  const attachments = new AttachmentBasket(api, ui);

  let pausedReason: string | undefined;
  const poller = new TaskPoller({
    api: () => api.client() as PollerApi,
    store,
    log,
    settings: () => {
      const { settings } = readSettings();
      return {
        minIntervalMs: settings.pollIntervalMs,
        firstPollMs: settings.firstPollDelayMs,
        maxIntervalMs: settings.maxPollIntervalMs,
        unfocusedIntervalMs: settings.unfocusedPollIntervalMs,
        maxInFlight: 4,
        useStream: settings.useStream,
        maxStreams: 16,
      };
    },
    onEvent: event => onPollerEvent(event),
  });
  const submitter = new TaskSubmitter(api, keys, store, poller);
  const statusBar = new TaskStatusBar(store, { attachedCount: () => attachments.count, pausedReason: () => pausedReason });
  const notifier = new CompletionNotifier(store, ui, log);
  const services: Services = { context, log, ui, keys, api, store, poller, submitter, attachments, statusBar };

  let warnedKey = false;
  // Each distinct problem is shown once, not at every poll or every keystroke in the settings.
  const shownProblems = new Set<string>();
  let pauseTimer: NodeJS.Timeout | undefined;
  context.subscriptions.push({ dispose: () => clearTimeout(pauseTimer) });
  function onPollerEvent(event: PollerEvent): void {
    switch (event.kind) {
      case 'rateLimited':
        pausedReason = vscode.l10n.t('Rate limited: polling resumes at {0}.', new Date(event.untilMs).toLocaleTimeString());
        clearTimeout(pauseTimer);
        pauseTimer = setTimeout(() => {
          pausedReason = undefined;
          statusBar.refresh();
        }, Math.min(Math.max(0, event.untilMs - Date.now()), 2 ** 31 - 1));
        break;
      case 'authenticationFailed':
        pausedReason = vscode.l10n.t('Paused: the service rejected the API key.');
        if (!warnedKey) {
          warnedKey = true;
          reportError({ ui, log }, Object.assign(new Error(event.message), { kind: 'authentication' }), 'poller');
        }
        break;
      case 'configurationError':
      case 'permissionDenied':
        pausedReason =
          event.kind === 'configurationError'
            ? vscode.l10n.t('Paused: {0}', event.message)
            : vscode.l10n.t('The service refused access ({0}); retrying slowly.', event.message);
        if (!shownProblems.has(event.message)) {
          shownProblems.add(event.message);
          const kind = event.kind === 'configurationError' ? 'configuration' : 'permission';
          reportError({ ui, log }, Object.assign(new Error(event.message), { kind }), 'poller');
        }
        break;
      case 'connectionTrouble':
        pausedReason = vscode.l10n.t('Cannot reach the service ({0}); retrying. Nothing is lost.', event.message);
        break;
      case 'recovered':
        pausedReason = undefined;
        break;
      case 'streamUnavailable':
        break;
    }
    statusBar.refresh();
  }

  context.subscriptions.push(
    keys,
    store,
    attachments,
    statusBar,
    notifier,
    { dispose: () => poller.dispose() },
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, new ResultDocumentProvider(store)),
    registerCommands(services),
    registerSidebar(services),
    keys.onDidChange(which => {
      if (which !== 'apiKey') return;
      warnedKey = false;
      shownProblems.clear();
      pausedReason = undefined;
      poller.resume({ keyChanged: true });
      statusBar.refresh();
    }),
    attachments.onDidChange(() => statusBar.refresh()),
    vscode.window.onDidChangeWindowState(state => poller.setFocused(state.focused)),
    watchWorkspaceSettings(() => checkWorkspaceAddresses(services)),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (!affects(e)) return;
      checkWorkspaceAddresses(services);
      pausedReason = undefined; // a problem that is still there is reported again by the next poll
      poller.resume();
      statusBar.refresh();
    }),
  );

  // Everything that waits on another process (secret storage lives in the window, not the extension
  // host) happens after activate() returns, so activation costs only what it builds.
  void (async () => {
    await keys.initialize(demoKey());
    checkWorkspaceAddresses(services);
    poller.setFocused(vscode.window.state.focused);
    if (store.running().length) poller.wake();
    await notifier.catchUp();
  })().catch(e => log.warn(`start-up: ${(e as Error).message}`));

  if (typeof __matLoadStart === 'number' && typeof __matLoadEnd === 'number') {
    const load = __matLoadEnd - __matLoadStart;
    const run = performance.now() - activateStart;
    log.info(`activated in ${(load + run).toFixed(1)} ms (bundle load ${load.toFixed(1)} ms + activate ${run.toFixed(1)} ms)`);
  }
  return context.extensionMode === vscode.ExtensionMode.Test ? { ...services, loadApi } : undefined;
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}

/**
 * A repository's .vscode/settings.json must never send the user's key elsewhere. VS Code already ignores
 * application-scoped values there; we say so, once per window, so the user notices the attempt.
 */
function checkWorkspaceAddresses(s: Services): void {
  const overridden = workspaceAddressOverrides();
  if (!overridden.length || s.context.workspaceState.get(StateKeys.warnedWorkspaceAddress) === overridden.join()) return;
  void s.context.workspaceState.update(StateKeys.warnedWorkspaceAddress, overridden.join());
  s.log.warn(`ignored workspace settings: ${overridden.join(', ')}`);
  void s.ui.warn(
    vscode.l10n.t(
      'This workspace sets {0}. Multi-Agent Tasks ignores that: the API address can only be set in your user settings, so a repository cannot send your API key elsewhere.',
      overridden.join(', '),
    ),
  );
}

function watchWorkspaceSettings(onChange: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(WORKSPACE_SETTINGS_GLOB);
  return vscode.Disposable.from(watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange));
}

/**
 * The demo (npm run demo) starts VS Code with MULTI_AGENT_TASKS_DEMO_KEY and the emulator's loopback
 * address. Only then is that key used (stored when no key is set, like the user typing it in).
 */
function demoKey(): string | undefined {
  const key = process.env.MULTI_AGENT_TASKS_DEMO_KEY;
  if (!key) return undefined;
  try {
    const host = new URL(readSettings().settings.baseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? key : undefined;
  } catch {
    return undefined; // not a URL: the demo key is not for this configuration
  }
}
