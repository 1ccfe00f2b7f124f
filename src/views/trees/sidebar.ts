/**
 * The Multi-Agent activity-bar container: the Tasks, Threads and Files views. They render their stores
 * and answer only their own refresh and load-more commands; every action lives in commands/.
 */
import * as vscode from 'vscode';
import type { CheckStore } from '../../tasks/checking/store';
import type { Config } from '../../config';
import { Commands, ContextKeys, type VIEW_COMMANDS } from '../../constants';
import type { FileStore } from '../../stores/fileStore';
import type { ModelCatalog } from '../../stores/modelCatalog';
import type { ThreadStore } from '../../stores/threadStore';
import type { AttachmentBasket } from '../../tasks/sending/attachments';
import type { TaskStore } from '../../tasks/store/taskStore';
import { type FilesTreeNode, FilesTreeProvider } from './filesTree';
import type { PollingState } from '../notifiers/statusBar';
import { CheckBadges } from './checkBadges';
import { type TasksTreeNode, TasksTreeProvider, runningBadge } from './tasksTree';
import { type ThreadsTreeNode, ThreadsTreeProvider } from './threadsTree';

/** What the sidebar made: the views' providers, for the composition root (and the tests through it). */
export interface Sidebar extends vscode.Disposable {
  tasks: TasksTreeProvider;
  /** A checked task's verdict as its row's badge. */
  checkBadges: CheckBadges;
  threads: ThreadsTreeProvider;
  files: FilesTreeProvider;
  views: {
    tasks: vscode.TreeView<TasksTreeNode>;
    threads: vscode.TreeView<ThreadsTreeNode>;
    files: vscode.TreeView<FilesTreeNode>;
  };
  /** The views' own refresh and load-more commands (registered by the shell, standIns.ts). */
  commands: Record<(typeof VIEW_COMMANDS)[number], () => unknown>;
}

export interface SidebarDeps {
  /** The three views, made at activation with stand-in providers that hand on to the ones built here (standIns.ts). */
  views: { tasks: vscode.TreeView<unknown>; threads: vscode.TreeView<unknown>; files: vscode.TreeView<unknown> };
  store: TaskStore;
  threads: ThreadStore;
  files: FileStore;
  basket: AttachmentBasket;
  config: Config;
  /** Labels the chosen model in the Tasks view's header. */
  models?: ModelCatalog;
  /** Why polling waits: the running rows say so. */
  polling?: PollingState;
  /** The checks running now: a checked row says "checking…" with Cancel Check. */
  checks?: CheckStore;
}

export function createSidebar(d: SidebarDeps): Sidebar {
  const tasks = new TasksTreeProvider(d.store, d.config, d.basket, undefined, d.polling, d.checks);
  const threads = new ThreadsTreeProvider(d.threads);
  const files = new FilesTreeProvider(d.files);
  const views = d.views as Sidebar['views'];

  const renderTasksChrome = () => {
    views.tasks.badge = runningBadge(d.store);
    const attached = d.basket.count;
    const model = d.config.settings.modelId;
    views.tasks.description =
      [
        model ? vscode.l10n.t('model: {0}', d.models?.labelOf(model) ?? model) : undefined,
        attached ? (attached === 1 ? vscode.l10n.t('1 file attached') : vscode.l10n.t('{0} files attached', attached)) : undefined,
      ]
        .filter(Boolean)
        .join(' · ') || undefined;
  };
  // The walkthrough's "Send" and "See the result" steps are done once a task was sent, and once one completed
  // (context keys, not clicks: a task sent from chat or before a reload counts too).
  const ticked = new Set<string>();
  const tick = (key: string, done: boolean) => {
    if (!done || ticked.has(key)) return;
    ticked.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
  };
  const noteResults = () => {
    const tasks = d.store.all();
    tick(ContextKeys.hasSentTask, tasks.length > 0);
    tick(ContextKeys.hasResult, tasks.some(t => t.status === 'completed' && !t.error));
  };
  noteResults();
  const onAttachmentsChanged = () => {
    renderTasksChrome();
    void vscode.commands.executeCommand('setContext', ContextKeys.hasAttachments, d.basket.count > 0);
  };
  renderTasksChrome();
  // Until the key and the first page are known, the view says so: no "Set an API key", no "No threads yet".
  const showLoading = (view: vscode.TreeView<unknown>, provider: { loading: boolean }, text: string) => () => {
    view.message = provider.loading ? text : undefined;
  };
  const threadsLoading = showLoading(views.threads, threads, vscode.l10n.t('Loading threads…'));
  const filesLoading = showLoading(views.files, files, vscode.l10n.t('Loading files…'));
  threadsLoading();
  filesLoading();
  // The label needs the service's list: read once when the view is first shown with a model chosen
  // (never at activation), then the header says "GLM 5.2", not a cut "zai/glm-5.2-…".
  const labelModel = () => {
    const model = d.config.settings.modelId;
    if (!model || !d.models || d.models.loaded || !views.tasks.visible) return;
    const models = d.models;
    Promise.resolve()
      .then(() => models.list())
      .then(renderTasksChrome, () => undefined);
  };
  labelModel();

  const checkBadges = new CheckBadges(d.store, d.checks);
  const disposable = vscode.Disposable.from(
    tasks,
    checkBadges,
    threads,
    files,
    d.store.onDidChange(e => {
      if (e.kind === 'progress') return;
      renderTasksChrome();
      noteResults();
    }),
    d.basket.onDidChange(onAttachmentsChanged),
    d.config.onDidChange(change => {
      if (!change.affects('modelId')) return;
      renderTasksChrome();
      labelModel();
    }),
    views.tasks.onDidChangeVisibility(labelModel),
    threads.onDidChangeLoading(threadsLoading),
    threads.onDidChangeListedNone(none => void vscode.commands.executeCommand('setContext', ContextKeys.threadsListedNone, none)),
    files.onDidChangeLoading(filesLoading),
  );
  const commands: Sidebar['commands'] = {
    [Commands.refreshTasks]: () => tasks.refresh(),
    [Commands.refreshThreads]: () => d.threads.refresh(),
    [Commands.loadMoreThreads]: () => d.threads.loadMore().catch(() => d.threads.refresh()),
    [Commands.refreshFiles]: () => d.files.refresh(),
    [Commands.loadMoreFiles]: () => d.files.loadMore().catch(() => d.files.refresh()),
  };
  return { tasks, checkBadges, threads, files, views, commands, dispose: () => disposable.dispose() };
}

