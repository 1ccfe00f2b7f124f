/**
 * Results as read-only markdown documents under the `multi-agent-result:` scheme, served from the
 * store's cache so they open after a reload and offline.
 */
import * as vscode from 'vscode';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/store/taskStore';
import { extensionColumn } from './editorGroups';
import { resultUri, taskIdOfResult } from './uris';

export class ResultDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: TaskStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const taskId = taskIdOfResult(uri);
    const task = taskId ? this.store.get(taskId) : undefined;
    const text = taskId ? await this.store.readResult(taskId) : undefined;
    if (text !== undefined) return text;
    if (task?.error) return `# ${task.title}\n\n${task.error}\n`;
    const missing = taskId ? vscode.l10n.t('No result is stored for {0} yet.', taskId) : vscode.l10n.t('No result is stored for this task yet.');
    return `# ${vscode.l10n.t('Result not available')}\n\n${missing}\n`;
  }
}

/** Opens the result beside the code, as a real tab (not a preview that the next click replaces). */
export async function showResult(
  task: TrackedTask,
  options: { preserveFocus?: boolean; stillWanted?: () => boolean } = {},
): Promise<vscode.TextEditor | undefined> {
  const document = await vscode.workspace.openTextDocument(resultUri(task));
  if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  // Opening takes a few awaits: a task removed meanwhile (Remove, Clear Finished) must not pop up a tab.
  if (options.stillWanted && !options.stillWanted()) return undefined;
  return vscode.window.showTextDocument(document, {
    viewColumn: extensionColumn(),
    preview: false,
    preserveFocus: options.preserveFocus ?? false,
  });
}
