/**
 * Composition root: builds the services in order, then the views and the commands, and owns their
 * disposal. It only wires. Activation does no network and loads no HTTP client; the first request
 * loads it (see apiService.ts).
 */
import * as vscode from 'vscode';
import { WorkspaceAddressGuard } from './addressGuard';
import { ApiService, loadApi } from './apiService';
import { demoKey } from './auth/demoKey';
import { KeyStore } from './auth/keyStore';
import { registerChat } from './chat/index';
import { registerCommands } from './commands/onFirstUse';
import { showDescribed } from './commands/run';
import { Config, ScriptableTrust } from './config';
import { FILE_SCHEME, PROMPT_SCHEME, PROPOSAL_SCHEME, RESULT_SCHEME, REVIEW_SCHEME, THREAD_SCHEME } from './constants';
import { FileDocumentProvider } from './documents/files';
import { PromptDocumentProvider } from './documents/prompts';
import { ProposalDocuments } from './documents/proposals';
import { ReviewDocuments } from './documents/reviews';
import { SourceRangeTracker } from './documents/sourceRanges';
import { ResultDocumentProvider } from './documents/results';
import { ThreadTranscriptProvider } from './documents/transcripts';
import { createLog } from './log';
import { McpServerProvider } from './mcp/index';
import type { Services } from './services';
import { FileStore } from './stores/fileStore';
import { ModelCatalog } from './stores/modelCatalog';
import { ThreadStore } from './stores/threadStore';
import { TraceStore } from './stores/traceStore';
import { UsageStore } from './stores/usageStore';
import { AttachmentBasket } from './tasks/sending/attachments';
import { TaskCanceller } from './tasks/tracking/canceller';
import { CodeEditors } from './tasks/sending/codeEditors';
import { TaskDetails } from './tasks/tracking/details';
import { recoverFromThread } from './tasks/tracking/threadAnswer';
import { type PollerSettings, TaskPoller, pollerSettings } from './tasks/tracking/poller';
import { PollerStatus } from './tasks/tracking/pollerStatus';
import { RecentInstructions } from './tasks/store/recentInstructions';
import { EffortCheck } from './tasks/sending/effortCheck';
import { SubmissionPipeline } from './tasks/sending/submission';
import { TaskStore } from './tasks/store/taskStore';
import { SwappableUserInterface } from './ui';
import { ApprovalNotifier } from './views/notifiers/approvalNotifier';
import { CompletionNotifier } from './views/notifiers/completionNotifier';
import { ResultPanelsOnFirstUse, TranscriptPanelsOnFirstUse, UsagePanelOnFirstUse } from './views/pages/onFirstUse';
import { type Sidebar, createSidebar } from './views/trees/sidebar';
import { TaskStatusBar } from './views/notifiers/statusBar';

/** What requiring the activation bundle cost, measured by the entry (main.ts) around it. */
export interface LoadCost {
  ms: number;
  cpu: NodeJS.CpuUsage;
}

/** What activate() returns in the extension's test mode only: the live services and views, for integration tests. */
export type TestApi = Services & {
  loadApi: typeof loadApi;
  /** The workspace trust the settings follow; tests act out Restricted Mode and a grant with it. */
  trust: ScriptableTrust;
  /** What the poller reads as its settings (the function it was given). */
  pollerSettings: () => PollerSettings;
  sidebar: Sidebar;
  statusBar: TaskStatusBar;
  usagePanel: UsagePanelOnFirstUse;
  notifier: CompletionNotifier;
  resultPanels: ResultPanelsOnFirstUse;
  transcriptPanels: TranscriptPanelsOnFirstUse;
  editors: CodeEditors;
  tracker: SourceRangeTracker;
  proposals: ProposalDocuments;
  traces: TraceStore;
  details: TaskDetails;
  reviews: ReviewDocuments;
  mcp: McpServerProvider;
  effortCheck: EffortCheck;
};

export function activate(context: vscode.ExtensionContext, loaded?: LoadCost): TestApi | undefined {
  const activateStart = performance.now();
  const activateCpu = process.cpuUsage();
  const ui = new SwappableUserInterface();
  const keys = new KeyStore(context.secrets, ui);
  const redact = (text: string) => keys.redact(text);
  ui.redact = redact;
  const log = createLog(redact);
  const trust = new ScriptableTrust();
  const config = new Config(trust);
  const api = new ApiService(keys, log, context.extension, config);
  const store = new TaskStore(context.globalState, context.globalStorageUri, redact);
  const attachments = new AttachmentBasket(ui);
  const pollerStatus = new PollerStatus();
  const poller = new TaskPoller({
    api: () => api.client(),
    store,
    log,
    settings: () => pollerSettings(config),
    onEvent: event => pollerStatus.handle(event),
    // A task whose state expired meanwhile is read from its thread (issue 18 item 4).
    recover: (task, signal) => recoverFromThread(api.client(), task, signal),
  });
  const models = new ModelCatalog(api, config);
  const pipeline = new SubmissionPipeline({ api, config, keys, store, poller, basket: attachments, log, models, notify: message => void ui.info(message) });
  const threads = new ThreadStore(api, keys, store, config, context.globalState);
  const files = new FileStore(api, keys, config, store);
  const services: Services = {
    context,
    log,
    ui,
    config,
    keys,
    api,
    store,
    poller,
    pollerStatus,
    pipeline,
    canceller: new TaskCanceller(api, store, poller),
    attachments,
    recent: new RecentInstructions(context.globalState),
    threads,
    files,
    fileDocuments: new FileDocumentProvider(files),
    models,
    usage: new UsageStore(api, keys),
  };

  const tracker = new SourceRangeTracker(store, context.workspaceState);
  const editors = new CodeEditors();
  const proposals = new ProposalDocuments();
  const traces = new TraceStore(api, store, context.globalStorageUri);
  const details = new TaskDetails(store, () => api.client(), log);
  const reviews = new ReviewDocuments(store);
  const resultPanels = new ResultPanelsOnFirstUse(store, traces, pollerStatus);
  const transcriptPanels = new TranscriptPanelsOnFirstUse(threads);
  const statusBar = new TaskStatusBar(store, attachments, pollerStatus);
  const notifier = new CompletionNotifier(store, ui, log, config, resultPanels);
  const approvals = new ApprovalNotifier(store, ui, log, () => api.client().addresses.platformUrl);
  const usagePanel = new UsagePanelOnFirstUse(services.usage, store);
  const sidebar = createSidebar({ store, threads, files, basket: attachments, config, models: services.models, polling: pollerStatus });
  const guard = new WorkspaceAddressGuard(context.workspaceState, ui, log, config);
  const effortCheck = new EffortCheck({ config, models, ui, log, run: vscode.commands.executeCommand });
  const mcp = new McpServerProvider({ log, ui, keys, store, pipeline, canceller: services.canceller, threads, traces, config, version: String(context.extension.packageJSON.version ?? '0') });

  context.subscriptions.push(
    log,
    trust,
    config,
    keys,
    store,
    attachments,
    pollerStatus,
    poller,
    threads,
    files,
    models,
    services.fileDocuments,
    statusBar,
    notifier,
    approvals,
    usagePanel,
    sidebar,
    guard,
    effortCheck,
    tracker,
    proposals,
    reviews,
    resultPanels,
    traces,
    details,
    transcriptPanels,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, reviews),
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, new PromptDocumentProvider(store)),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, new ResultDocumentProvider(store)),
    vscode.workspace.registerTextDocumentContentProvider(FILE_SCHEME, services.fileDocuments),
    registerTranscripts(threads),
    editors,
    registerCommands({ ...services, basket: attachments, usage: usagePanel, resultView: resultPanels, transcripts: transcriptPanels, tracker, proposals, reviews, editors }),
    registerChat({ log, ui, keys, store, pipeline, threads, editors, extensionUri: context.extensionUri }),
    mcp,
    pollerStatus.onDidFindProblem(problem => showDescribed(ui, problem)),
    keys.onDidChange(which => {
      if (which !== 'apiKey') return;
      pollerStatus.reset({ keyChanged: true });
      poller.resume({ keyChanged: true });
    }),
    vscode.window.onDidChangeWindowState(state => poller.setFocused(state.focused)),
    // A settings change or a trust grant: polling paused by a bad setting starts again, with the new values.
    config.onDidChange(() => {
      pollerStatus.reset();
      poller.resume();
    }),
  );

  // Everything that waits on another process (secret storage lives in the window, not the extension
  // host) happens after activate() returns, so activation costs only what it builds.
  void (async () => {
    await keys.initialize(demoKey(config.settings.baseUrl));
    guard.start();
    poller.setFocused(vscode.window.state.focused);
    if (store.running().length) poller.wake();
    await notifier.catchUp();
    approvals.catchUp();
  })().catch(e => log.warn(`start-up: ${(e as Error).message}`));

  if (loaded) {
    const run = performance.now() - activateStart;
    // The CPU the host spent in the same two spans says the same on a busy machine, where the time also counts
    // waiting for a core.
    const runCpu = process.cpuUsage(activateCpu);
    const cpuMs = (loaded.cpu.user + loaded.cpu.system + runCpu.user + runCpu.system) / 1000;
    log.info(`activated in ${(loaded.ms + run).toFixed(1)} ms (bundle load ${loaded.ms.toFixed(1)} ms + activate ${run.toFixed(1)} ms; ${cpuMs.toFixed(1)} ms of CPU)`);
  }
  return context.extensionMode === vscode.ExtensionMode.Test
    ? { ...services, loadApi, trust, pollerSettings: () => pollerSettings(config), sidebar, statusBar, usagePanel, notifier, resultPanels, transcriptPanels, editors, tracker, proposals, reviews, traces, details, mcp, effortCheck }
    : undefined;
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}

function registerTranscripts(threads: ThreadStore): vscode.Disposable {
  const transcripts = new ThreadTranscriptProvider(threads);
  return vscode.Disposable.from(transcripts, vscode.workspace.registerTextDocumentContentProvider(THREAD_SCHEME, transcripts));
}
