/**
 * The Multi-Agent activity-bar container: Tasks, Threads and Files views, their document providers, the
 * usage panel and every command they offer. One Disposable for all of it.
 */
import * as vscode from 'vscode';
import { attachFiles, attachToNextTask, clearAttachments } from '../commands/attach';
import { FileActions } from '../commands/files';
import { ModelCatalog, refreshModels, selectModel } from '../commands/models';
import { Orchestrator } from '../commands/orchestrate';
import { registerCommand } from '../commands/run';
import { clearFinished, removeTask, revealSource, runAgain } from '../commands/taskActions';
import { ThreadActions } from '../commands/threads';
import { affects } from '../config';
import { Commands, ContextKeys, FILE_SCHEME, THREAD_SCHEME, Views } from '../constants';
import type { Services } from '../services';
import { FileDocumentProvider } from './fileDocuments';
import { type FilesTreeNode, FilesTreeProvider } from './filesTree';
import { type TasksTreeNode, TasksTreeProvider, runningBadge } from './tasksTree';
import { ThreadTranscriptProvider, type ThreadsTreeNode, ThreadsTreeProvider } from './threadsTree';
import { UsagePanel } from './usagePanel';

/** What the sidebar made; kept on Services so integration tests can read the views' data. */
export interface Sidebar {
  tasks: TasksTreeProvider;
  threads: ThreadsTreeProvider;
  files: FilesTreeProvider;
  models: ModelCatalog;
  usage: UsagePanel;
  views: {
    tasks: vscode.TreeView<TasksTreeNode>;
    threads: vscode.TreeView<ThreadsTreeNode>;
    files: vscode.TreeView<FilesTreeNode>;
  };
}

export function registerSidebar(s: Services): vscode.Disposable {
  const tasks = new TasksTreeProvider(s.store);
  const threads = new ThreadsTreeProvider(s.api, s.keys, s.store);
  const files = new FilesTreeProvider(s.api, s.keys);
  const fileDocuments = new FileDocumentProvider(s.api);
  const transcripts = new ThreadTranscriptProvider(s.api, threads);
  const models = new ModelCatalog(s);
  const usage = new UsagePanel(s.api, s.keys);
  const views = {
    tasks: vscode.window.createTreeView(Views.tasks, { treeDataProvider: tasks, showCollapseAll: false }),
    threads: vscode.window.createTreeView(Views.threads, { treeDataProvider: threads, showCollapseAll: true }),
    files: vscode.window.createTreeView(Views.files, { treeDataProvider: files, canSelectMany: false }),
  };
  s.sidebar = { tasks, threads, files, models, usage, views };

  const renderTasksChrome = () => {
    views.tasks.badge = runningBadge(s.store);
    const attached = s.attachments.count;
    views.tasks.description = attached
      ? attached === 1
        ? vscode.l10n.t('1 file attached')
        : vscode.l10n.t('{0} files attached', attached)
      : undefined;
  };
  const onAttachmentsChanged = () => {
    renderTasksChrome();
    void vscode.commands.executeCommand('setContext', ContextKeys.hasAttachments, s.attachments.count > 0);
  };
  renderTasksChrome();

  const orchestrator = new Orchestrator(s);
  const threadActions = new ThreadActions(s, threads, orchestrator);
  const fileActions = new FileActions(s, files, fileDocuments);
  const host = { ui: s.ui, log: s.log };

  return vscode.Disposable.from(
    tasks,
    threads,
    files,
    fileDocuments,
    transcripts,
    usage,
    views.tasks,
    views.threads,
    views.files,
    vscode.workspace.registerTextDocumentContentProvider(THREAD_SCHEME, transcripts),
    vscode.workspace.registerTextDocumentContentProvider(FILE_SCHEME, fileDocuments),
    s.store.onDidChange(e => e.kind !== 'progress' && renderTasksChrome()),
    s.attachments.onDidChange(onAttachmentsChanged),
    s.keys.onDidChange(() => {
      threads.refresh();
      files.refresh();
    }),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (!affects(e, 'baseUrl', 'platformUrl')) return;
      models.invalidate();
      threads.refresh();
      files.refresh();
    }),

    registerCommand(host, Commands.refreshTasks, () => tasks.refresh()),
    registerCommand(host, Commands.revealSource, (arg: unknown) => revealSource(s, arg)),
    registerCommand(host, Commands.runAgain, (arg: unknown) => runAgain(s, arg)),
    registerCommand(host, Commands.removeTask, (arg: unknown) => removeTask(s, arg)),
    registerCommand(host, Commands.clearFinished, () => clearFinished(s)),

    registerCommand(host, Commands.refreshThreads, () => threads.refresh()),
    registerCommand(host, Commands.loadMoreThreads, () => threads.loadMore()),
    registerCommand(host, Commands.newThread, () => threadActions.newThread()),
    registerCommand(host, Commands.runInThread, (arg: unknown) => threadActions.runInThread(arg)),
    registerCommand(host, Commands.openTranscript, (arg: unknown) => threadActions.openTranscript(arg)),

    registerCommand(host, Commands.refreshFiles, () => files.refresh()),
    registerCommand(host, Commands.loadMoreFiles, () => files.loadMore()),
    registerCommand(host, Commands.uploadFile, (uri: unknown, uris: unknown) => fileActions.upload(uri, uris)),
    registerCommand(host, Commands.openFile, (arg: unknown) => fileActions.open(arg)),
    registerCommand(host, Commands.saveFileAs, (arg: unknown) => fileActions.saveAs(arg)),
    registerCommand(host, Commands.deleteFile, (arg: unknown) => fileActions.delete(arg)),
    registerCommand(host, Commands.copyFileId, (arg: unknown) => fileActions.copyId(arg)),

    registerCommand(host, Commands.attachFiles, () => attachFiles(s)),
    registerCommand(host, Commands.attachToNextTask, (uri: unknown, uris: unknown) => attachToNextTask(s, uri, uris)),
    registerCommand(host, Commands.clearAttachments, () => clearAttachments(s)),
    registerCommand(host, Commands.selectModel, () => selectModel(s, models)),
    registerCommand(host, Commands.refreshModels, () => refreshModels(s, models)),
    registerCommand(host, Commands.showUsage, () => usage.show()),
    { dispose: () => (s.sidebar = undefined) },
  );
}
