/**
 * The team's core, a part loaded on first use (lazy.ts): the services, views and handlers behind the shell's
 * stand-ins (standIns.ts). It is built once, the first time anything needs it: a command, a view or document
 * that asks for its content, a restored webview, chat, the MCP server, or, right after activation, a task
 * that must be followed or announced. It only wires; the shell (extension.ts) owns what lives from the start.
 */
import * as vscode from 'vscode';
import { ApiService } from './apiService';
import type { KeyStore } from './auth/keyStore';
import { chatParts } from './chat/index';
import { commandsOnFirstUse } from './commands/onFirstUse';
import { CheckRuns } from './tasks/checking/runs';
import { guarded, showDescribed } from './commands/run';
import type { Config, ScriptableTrust } from './config';
import { describeError } from './errors';
import { type CommandId, DocumentSchemes, WebviewTypes, VIEW_COMMANDS } from './constants';
import { FileDocumentProvider } from './documents/files';
import { PromptDocumentProvider } from './documents/prompts';
import { ProposalDocuments } from './documents/proposals';
import { ReviewDocuments } from './documents/reviews';
import type { SourceRangeTracker } from './documents/sourceRanges';
import { ResultDocumentProvider } from './documents/results';
import { ThreadTranscriptProvider } from './documents/transcripts';
import type { Log } from './log';
import type { McpServerProvider } from './mcp/index';
import type { McpToolDeps } from './mcp/tools';
import type { Services } from './services';
import type { CoreTargets, SidebarViews } from './standIns';
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
import type { SwappableUserInterface } from './ui';
import { ApprovalNotifier } from './views/notifiers/approvalNotifier';
import { CompletionNotifier } from './views/notifiers/completionNotifier';
import { OnFirstUse, resultViewOf } from './views/pages/onFirstUse';
import type * as Results from './views/pages/resultPanel';
import type * as Transcripts from './views/pages/transcriptPanel';
import type * as Usage from './views/pages/usagePanel';
import { lazy } from './lazy';
import { apiPart } from './parts';
import { type Sidebar, createSidebar } from './views/trees/sidebar';
import { TaskStatusBar } from './views/notifiers/statusBar';

const resultsPart = lazy<typeof Results>('results');
const transcriptsPart = lazy<typeof Transcripts>('transcripts');
const usagePart = lazy<typeof Usage>('usage');

/** What the shell built at activation and hands to the core. */
export interface Shell {
  context: vscode.ExtensionContext;
  ui: SwappableUserInterface;
  log: Log;
  keys: KeyStore;
  trust: ScriptableTrust;
  config: Config;
  /** Cuts the keys out of server text before it is stored or shown. */
  redact: (text: string) => string;
  tracker: SourceRangeTracker;
  mcp: McpServerProvider;
  views: SidebarViews;
  /** Settles once the key is read and the address guard started (activation's asynchronous part). */
  started: Promise<void>;
}

/** What activate() returns in the extension's test mode only: the live services and views, for integration tests. */
export type TestApi = Services & {
  /** The API client's module (parts.ts). */
  loadApi: typeof apiPart;
  /** The workspace trust the settings follow; tests act out Restricted Mode and a grant with it. */
  trust: ScriptableTrust;
  /** What the poller reads as its settings (the function it was given). */
  pollerSettings: () => PollerSettings;
  sidebar: Sidebar;
  statusBar: TaskStatusBar;
  usagePanel: OnFirstUse<Usage.UsagePanel>;
  notifier: CompletionNotifier;
  resultPanels: OnFirstUse<Results.ResultPanels>;
  transcriptPanels: OnFirstUse<Transcripts.TranscriptPanels>;
  editors: CodeEditors;
  tracker: SourceRangeTracker;
  proposals: ProposalDocuments;
  traces: TraceStore;
  details: TaskDetails;
  reviews: ReviewDocuments;
  mcp: McpServerProvider;
  effortCheck: EffortCheck;
  /** The checks running now (tests cancel them as the notification's Cancel would). */
  checks: CheckRuns;
};

/** What the stand-ins hand their calls to, and the live services (the MCP tools', and the tests'). */
export interface Core extends CoreTargets {
  /** Checks the reasoning effort against the model now (a setting changed before the core was built). */
  checkEffort(): void;
  /** What the MCP server's tools use (mcp/index.ts asks for it when VS Code first starts the server). */
  mcpTools: McpToolDeps;
  testApi: TestApi;
}

/** The models and services below the views (services.ts), each following its own inputs. */
function buildServices(shell: Shell): Services {
  const { context, ui, log, keys, config } = shell;
  const store = new TaskStore(context.globalState, context.globalStorageUri, shell.redact);
  shell.tracker.watch(store);
  const api = new ApiService(keys, log, context.extension, config);
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

  context.subscriptions.push(
    store,
    attachments,
    pollerStatus,
    poller,
    threads,
    files,
    models,
    services.fileDocuments,
    poller.follow({ keys, config, status: pollerStatus, focus: { onDidChange: listener => vscode.window.onDidChangeWindowState(state => listener(state.focused)) } }),
  );
  return services;
}

export function buildCore(shell: Shell): Core {
  const services = buildServices(shell);
  const { context, ui, log, keys, config } = shell;
  const { store, api, attachments, pollerStatus, poller, models, pipeline, threads, files } = services;
  const { tracker } = shell;
  const editors = new CodeEditors();
  const proposals = new ProposalDocuments();
  const traces = new TraceStore(api, store, context.globalStorageUri);
  const details = new TaskDetails(store, () => api.client(), log);
  const reviews = new ReviewDocuments(store);
  // Issue 37: the checks running now, all stopped with their processes when the window closes.
  const checks = new CheckRuns();
  const checksOfRemoved = store.onDidChange(e => e.kind === 'removed' && checks.cancel(e.task.id));
  // The pages, each a part of its own (lazy.ts), built on the first call that needs one.
  const resultPanels = new OnFirstUse(() => new (resultsPart().ResultPanels)(store, traces, pollerStatus));
  const resultView = resultViewOf(resultPanels);
  const transcriptPanels = new OnFirstUse(() => new (transcriptsPart().TranscriptPanels)(threads));
  const statusBar = new TaskStatusBar(store, attachments, pollerStatus);
  const notifier = new CompletionNotifier(store, ui, log, config, resultView);
  const approvals = new ApprovalNotifier(store, ui, log, () => api.client().addresses.platformUrl);
  const usagePanel = new OnFirstUse(() => new (usagePart().UsagePanel)(services.usage, store));
  const sidebar = createSidebar({ views: shell.views, store, threads, files, basket: attachments, config, models: services.models, polling: pollerStatus });
  const effortCheck = new EffortCheck({ config, models, ui, log, run: vscode.commands.executeCommand });
  const transcripts = new ThreadTranscriptProvider(threads);
  const documents: CoreTargets['documents'] = {
    [DocumentSchemes.proposal]: proposals,
    [DocumentSchemes.review]: reviews,
    [DocumentSchemes.prompt]: new PromptDocumentProvider(store),
    [DocumentSchemes.result]: new ResultDocumentProvider(store),
    [DocumentSchemes.file]: services.fileDocuments,
    [DocumentSchemes.thread]: transcripts,
  };
  const actions = commandsOnFirstUse({ ...services, basket: attachments, usage: { show: () => usagePanel.page.show() }, resultView, transcripts: { show: thread => transcriptPanels.page.show(thread) }, tracker, proposals, reviews, editors, checks });
  const chat = chatParts({ log, ui, keys, store, pipeline, threads, editors });

  context.subscriptions.push(
    checks,
    checksOfRemoved,
    statusBar,
    notifier,
    approvals,
    usagePanel,
    sidebar,
    effortCheck,
    proposals,
    reviews,
    resultPanels,
    traces,
    details,
    transcriptPanels,
    transcripts,
    editors,
    pollerStatus.onDidFindProblem(problem => showDescribed(ui, problem)),
  );

  // Once the key is read: follow the running tasks, announce what finished or waits while the window was closed.
  void (async () => {
    await shell.started;
    poller.setFocused(vscode.window.state.focused);
    if (store.running().length) poller.wake();
    await notifier.catchUp();
    approvals.catchUp();
  })().catch(e => log.warn(`start-up: ${(e as Error).message}`));

  const isViewCommand = (id: CommandId): id is (typeof VIEW_COMMANDS)[number] => (VIEW_COMMANDS as readonly string[]).includes(id);
  const handlers = new Map<CommandId, (...args: unknown[]) => unknown>();
  const host = { ui, log };
  return {
    command: id => {
      let handler = handlers.get(id);
      if (!handler) handlers.set(id, (handler = guarded(host, id, isViewCommand(id) ? sidebar.commands[id] : (...args: never[]) => actions(id)(...args))));
      return handler;
    },
    checkEffort: () => void (effortCheck.checked = effortCheck.check()),
    mcpTools: { log, ui, keys, store, pipeline, canceller: services.canceller, threads, traces, describeError },
    documents,
    trees: { tasks: sidebar.tasks, threads: sidebar.threads, files: sidebar.files },
    pages: {
      [WebviewTypes.result]: { restore: (panel, state) => resultPanels.page.restore(panel, state) },
      [WebviewTypes.transcript]: { restore: (panel, state) => transcriptPanels.page.restore(panel, state) },
    },
    chatHandler: chat.handler,
    chatTool: chat.tool as unknown as vscode.LanguageModelTool<never>,
    testApi: {
      ...services,
      loadApi: apiPart,
      trust: shell.trust,
      pollerSettings: () => pollerSettings(config),
      sidebar,
      statusBar,
      usagePanel,
      notifier,
      resultPanels,
      transcriptPanels,
      editors,
      tracker,
      proposals,
      reviews,
      traces,
      details,
      mcp: shell.mcp,
      effortCheck,
      checks,
    },
  };
}
