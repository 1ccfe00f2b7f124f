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
import { CheckStore } from './tasks/checking/store';
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
import { createSidebar } from './views/trees/sidebar';
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

/**
 * What activate() returns in the extension's test mode only: the live services and views, for integration tests.
 * Derived from what the core builds, so it is written once.
 */
export type TestApi = Services &
  CoreViews & {
    /** The workspace trust the settings follow; tests act out Restricted Mode and a grant with it. */
    trust: ScriptableTrust;
    /** What the poller reads as its settings (the function it was given). */
    pollerSettings: () => PollerSettings;
    mcp: McpServerProvider;
    tracker: SourceRangeTracker;
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
    // Issue 42: the checks running now, which the views follow; all stopped with their processes when the window closes.
    checks: new CheckStore(),
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
    services.checks,
    store.onDidChange(e => e.kind === 'removed' && services.checks.cancel(e.task.id)),
    poller.follow({ keys, config, status: pollerStatus, focus: { onDidChange: listener => vscode.window.onDidChangeWindowState(state => listener(state.focused)) } }),
  );
  return services;
}

/** The views, pages and documents over the services, built in order. */
function buildViews(shell: Shell, services: Services) {
  const { context, ui, log, config } = shell;
  const { store, api, attachments, pollerStatus, models, threads, files, checks } = services;
  const traces = new TraceStore(api, store, context.globalStorageUri);
  const resultPanels = new OnFirstUse(() => new (resultsPart().ResultPanels)(store, traces, pollerStatus, checks));
  const usagePanel = new OnFirstUse(() => new (usagePart().UsagePanel)(services.usage, store));
  return {
    editors: new CodeEditors(),
    proposals: new ProposalDocuments(),
    traces,
    details: new TaskDetails(store, () => api.client(), log),
    reviews: new ReviewDocuments(store),
    // The pages, each a part of its own (lazy.ts), built on the first call that needs one.
    resultPanels,
    transcriptPanels: new OnFirstUse(() => new (transcriptsPart().TranscriptPanels)(threads)),
    statusBar: new TaskStatusBar(store, attachments, pollerStatus, checks),
    notifier: new CompletionNotifier(store, ui, log, config, resultViewOf(resultPanels)),
    approvals: new ApprovalNotifier(store, ui, log, () => api.client().addresses.platformUrl),
    usagePanel,
    sidebar: createSidebar({ views: shell.views, store, threads, files, basket: attachments, config, models, polling: pollerStatus, checks }),
    effortCheck: new EffortCheck({ config, models, ui, log, run: vscode.commands.executeCommand }),
    transcripts: new ThreadTranscriptProvider(threads),
  };
}

type CoreViews = ReturnType<typeof buildViews>;

export function buildCore(shell: Shell): Core {
  const services = buildServices(shell);
  const views = buildViews(shell, services);
  const { context, ui, log, keys } = shell;
  const { store, pipeline, threads, poller } = services;
  const { sidebar, resultPanels, transcriptPanels, notifier, approvals } = views;
  const resultView = resultViewOf(resultPanels);
  const documents: CoreTargets['documents'] = {
    [DocumentSchemes.proposal]: views.proposals,
    [DocumentSchemes.review]: views.reviews,
    [DocumentSchemes.prompt]: new PromptDocumentProvider(store),
    [DocumentSchemes.result]: new ResultDocumentProvider(store),
    [DocumentSchemes.file]: services.fileDocuments,
    [DocumentSchemes.thread]: views.transcripts,
  };
  const actions = commandsOnFirstUse({
    ...services,
    ...views,
    tracker: shell.tracker,
    usagePanel: { show: () => views.usagePanel.page.show() },
    resultView,
    transcripts: { show: thread => transcriptPanels.page.show(thread) },
  });
  const chat = chatParts({ log, ui, keys, store, pipeline, threads, editors: views.editors, config: shell.config });
  context.subscriptions.push(...Object.values(views), services.pollerStatus.onDidFindProblem(problem => showDescribed(ui, problem)));

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
    checkEffort: () => void (views.effortCheck.checked = views.effortCheck.check()),
    mcpTools: { log, ui, keys, store, pipeline, canceller: services.canceller, threads, traces: views.traces, describeError },
    documents,
    trees: { tasks: sidebar.tasks, threads: sidebar.threads, files: sidebar.files },
    pages: {
      [WebviewTypes.result]: { restore: (panel, state) => resultPanels.page.restore(panel, state) },
      [WebviewTypes.transcript]: { restore: (panel, state) => transcriptPanels.page.restore(panel, state) },
    },
    chatHandler: chat.handler,
    chatFollowups: chat.followups,
    chatTool: chat.tool as unknown as vscode.LanguageModelTool<never>,
    testApi: { ...services, ...views, tracker: shell.tracker, trust: shell.trust, pollerSettings: () => pollerSettings(shell.config), mcp: shell.mcp },
  };
}
