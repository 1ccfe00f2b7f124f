/**
 * Follows each task's source range through the user's edits since it was sent, so "Apply to Source"
 * replaces the code the task was about even after lines were added above it, and can say when that code
 * itself changed. Ranges live in workspaceState; the text sent is kept only as a SHA-256.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { StateKeys } from '../constants';
import { Disposable } from '../disposable';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/store/taskStore';
import { rangeRecordOf } from '../tasks/sending/code';
import type { RangeRecord } from '../review';
import { rangeAfterChange } from './rangeMath';

interface Entry {
  uri: string;
  range: RangeRecord;
  /** SHA-256 of the range's text when the task was sent. */
  sentHash: string;
}

const SAVE_DELAY_MS = 1000;

function hashText(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

export const toRange = (r: RangeRecord) => new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter);

export interface SourceNow {
  document: vscode.TextDocument;
  /** Where the sent code is now (the whole document when the whole file was sent). */
  range: vscode.Range;
  /** The code there is no longer the code that was sent (or that cannot be known). */
  changed: boolean;
  /** The whole file was sent. */
  wholeFile: boolean;
}

export class SourceRangeTracker extends Disposable {
  private readonly entries = new Map<string, Entry>();
  private saveTimer: NodeJS.Timeout | undefined;

  /** Follows the edits from activation on; the tasks themselves once the store is built (`watch`). */
  constructor(private readonly memento: vscode.Memento) {
    super();
    for (const [id, entry] of Object.entries(memento.get<Record<string, Entry>>(StateKeys.sourceRanges, {}))) {
      if (entry && typeof entry.uri === 'string' && entry.range) this.entries.set(id, entry);
    }
    this._register(vscode.workspace.onDidChangeTextDocument(e => this.follow(e)));
    this._register({ dispose: () => this.flush() });
  }

  /** Records each task sent from now on, and forgets each task removed. */
  watch(store: Pick<TaskStore, 'onDidChange'>): void {
    this._register(
      store.onDidChange(e => {
        if (e.kind === 'added' && e.task.source && !this.entries.has(e.task.id)) this.capture(e.task);
        if (e.kind === 'removed' && this.entries.delete(e.task.id)) this.scheduleSave();
      }),
    );
  }

  /** Records where the task's code is and a hash of it, from the document as it is now (just sent). */
  private capture(task: TrackedTask): void {
    const source = task.source;
    if (!source) return;
    const document = vscode.workspace.textDocuments.find(d => d.uri.toString() === source.uri);
    if (!document) return;
    const range = source.range ? document.validateRange(toRange(source.range)) : fullRange(document);
    this.entries.set(task.id, { uri: source.uri, range: rangeRecordOf(range), sentHash: hashText(document.getText(range)) });
    this.scheduleSave();
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length) return;
    const uri = e.document.uri.toString();
    let moved = false;
    for (const entry of this.entries.values()) {
      if (entry.uri !== uri) continue;
      // Changes of one event are given bottom-up as non-overlapping ranges of the old text: apply in order.
      for (const change of e.contentChanges) {
        entry.range = rangeAfterChange(entry.range, { range: rangeRecordOf(change.range), text: change.text }).range;
      }
      moved = true;
    }
    if (moved) this.scheduleSave();
  }

  /** The task's code as it is now, in its document (opened if needed, not shown). */
  async now(task: TrackedTask): Promise<SourceNow> {
    const source = task.source;
    if (!source) throw new Error('no source');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(source.uri));
    const entry = this.entries.get(task.id);
    const wholeFile = !source.range;
    if (wholeFile) {
      const range = fullRange(document);
      return { document, range, changed: entry ? hashText(document.getText()) !== entry.sentHash : false, wholeFile };
    }
    const range = document.validateRange(toRange(entry?.range ?? source.range!));
    const changed = entry ? hashText(document.getText(range)) !== entry.sentHash : false;
    return { document, range, changed, wholeFile };
  }

  private scheduleSave(): void {
    this.saveTimer ??= setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  private flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    void this.memento.update(StateKeys.sourceRanges, Object.fromEntries(this.entries));
  }
}

function fullRange(document: vscode.TextDocument): vscode.Range {
  return new vscode.Range(0, 0, document.lineCount, 0).with({ end: document.lineAt(document.lineCount - 1).range.end });
}
