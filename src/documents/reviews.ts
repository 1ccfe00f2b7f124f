/**
 * Review Changes' read-only documents under `multi-agent-review:` (see uris.ts): the two sides of "Open All
 * Changes" per file and the review's notes. The texts are set when a review is built, replaced by the next
 * review of the same task (open tabs follow), and dropped when the task is removed.
 */
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { TaskStore } from '../tasks/store/taskStore';
import { parseReviewUri } from './uris';

export class ReviewDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(store: TaskStore) {
    super();
    this._register(store.onDidChange(e => e.kind === 'removed' && this.forget(e.task.id)));
  }

  /** Sets a task's documents, dropping the ones of its earlier review that are not set again. */
  setAll(taskId: string, documents: ReadonlyMap<vscode.Uri, string>): void {
    const fresh = new Map([...documents].map(([uri, text]) => [uri.toString(), text]));
    for (const [key] of this.texts) {
      if (parseReviewUri(vscode.Uri.parse(key))?.taskId === taskId && !fresh.has(key)) this.texts.delete(key);
    }
    for (const [uri, text] of documents) {
      const key = uri.toString();
      const before = this.texts.get(key);
      this.texts.set(key, text);
      if (before !== undefined && before !== text) this.changed.fire(uri);
    }
  }

  set(uri: vscode.Uri, text: string): void {
    const before = this.texts.get(uri.toString());
    this.texts.set(uri.toString(), text);
    if (before !== undefined && before !== text) this.changed.fire(uri);
  }

  private forget(taskId: string): void {
    for (const key of [...this.texts.keys()]) if (parseReviewUri(vscode.Uri.parse(key))?.taskId === taskId) this.texts.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This review is no longer available: run Review Changes again.');
  }
}
