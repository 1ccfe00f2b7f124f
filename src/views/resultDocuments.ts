/**
 * Results as read-only markdown documents under the `multi-agent-result:` scheme, served from the
 * store's cache so they open after a reload and offline.
 */
import * as vscode from 'vscode';
import { RESULT_SCHEME } from '../constants';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/taskStore';

/** `multi-agent-result:/task_123/Explain this function.md`: the title names the tab. */
export function resultUri(task: Pick<TrackedTask, 'id' | 'title'>): vscode.Uri {
  const name = task.title.replace(/[\\/:*?"<>|#%\u0000-\u001f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 60) || 'Result';
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${task.id}/${name}.md` });
}

export function taskIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === RESULT_SCHEME ? uri.path.split('/')[1] || undefined : undefined;
}

export class ResultDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: TaskStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const taskId = taskIdOf(uri);
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
    viewColumn: vscode.ViewColumn.Beside,
    preview: false,
    preserveFocus: options.preserveFocus ?? false,
  });
}

/** The code the user most likely wants to insert: a lone fenced block, else the whole answer. */
export function insertableText(result: string): string {
  const blocks = [...result.matchAll(/^(`{3,})[^\n]*\n([\s\S]*?)^\1\s*$/gm)];
  return blocks.length === 1 ? blocks[0][2] : result;
}
