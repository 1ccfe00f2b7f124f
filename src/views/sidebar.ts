/**
 * The Multi-Agent activity-bar container: the Tasks, Threads and Files views. They render their stores
 * and bind only their own refresh and load-more commands; every action lives in commands/.
 */
import * as vscode from 'vscode';
import type { Config } from '../config';
import { Commands, ContextKeys, Views } from '../constants';
import type { FileStore } from '../stores/fileStore';
import type { ThreadStore } from '../stores/threadStore';
import type { AttachmentBasket } from '../tasks/attachments';
import type { TaskStore } from '../tasks/taskStore';
import { type FilesTreeNode, FilesTreeProvider } from './filesTree';
import { type TasksTreeNode, TasksTreeProvider, runningBadge } from './tasksTree';
import { type ThreadsTreeNode, ThreadsTreeProvider } from './threadsTree';

/** What the sidebar made: the views' providers, for the composition root (and the tests through it). */
export interface Sidebar extends vscode.Disposable {
  tasks: TasksTreeProvider;
  threads: ThreadsTreeProvider;
  files: FilesTreeProvider;
  views: {
    tasks: vscode.TreeView<TasksTreeNode>;
    threads: vscode.TreeView<ThreadsTreeNode>;
    files: vscode.TreeView<FilesTreeNode>;
  };
}

export function createSidebar(d: { store: TaskStore; threads: ThreadStore; files: FileStore; basket: AttachmentBasket; config: Config }): Sidebar {
  const tasks = new TasksTreeProvider(d.store, d.config, d.basket);
  const threads = new ThreadsTreeProvider(d.threads);
  const files = new FilesTreeProvider(d.files);
  const views = {
    tasks: vscode.window.createTreeView(Views.tasks, { treeDataProvider: tasks, showCollapseAll: false }),
    threads: vscode.window.createTreeView(Views.threads, { treeDataProvider: threads, showCollapseAll: true }),
    files: vscode.window.createTreeView(Views.files, { treeDataProvider: files, canSelectMany: false }),
  };

  const renderTasksChrome = () => {
    views.tasks.badge = runningBadge(d.store);
    const attached = d.basket.count;
    const model = d.config.settings.modelId;
    views.tasks.description =
      [
        model ? vscode.l10n.t('model: {0}', model) : undefined,
        attached ? (attached === 1 ? vscode.l10n.t('1 file attached') : vscode.l10n.t('{0} files attached', attached)) : undefined,
      ]
        .filter(Boolean)
        .join(' · ') || undefined;
  };
  const onAttachmentsChanged = () => {
    renderTasksChrome();
    void vscode.commands.executeCommand('setContext', ContextKeys.hasAttachments, d.basket.count > 0);
  };
  renderTasksChrome();

  const disposable = vscode.Disposable.from(
    tasks,
    threads,
    files,
    views.tasks,
    views.threads,
    views.files,
    d.store.onDidChange(e => e.kind !== 'progress' && renderTasksChrome()),
    d.basket.onDidChange(onAttachmentsChanged),
    d.config.onDidChange(change => change.affects('modelId') && renderTasksChrome()),
    vscode.commands.registerCommand(Commands.refreshTasks, () => tasks.refresh()),
    vscode.commands.registerCommand(Commands.refreshThreads, () => d.threads.refresh()),
    vscode.commands.registerCommand(Commands.loadMoreThreads, () => d.threads.loadMore().catch(() => d.threads.refresh())),
    vscode.commands.registerCommand(Commands.refreshFiles, () => d.files.refresh()),
    vscode.commands.registerCommand(Commands.loadMoreFiles, () => d.files.loadMore().catch(() => d.files.refresh())),
  );
  return { tasks, threads, files, views, dispose: () => disposable.dispose() };
}
