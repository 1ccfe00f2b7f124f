/**
 * "Applied …", with Undo: for Apply to Source and for Review Changes alike. Undo puts every file the change
 * touched back as it was, as one edit, and only if each still holds exactly what the change left there (the
 * toast can outlive later edits; Ctrl+Z in the editor works too). Nothing is undone in part.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import type { UserInterface } from '../ui';

/** One file a change touched: the span it wrote (`after`) and what was there before, or a file it created. */
export type AppliedChange =
  | { uri: vscode.Uri; range: vscode.Range; after: string; before: string }
  | { uri: vscode.Uri; created: true; after: string };

/**
 * The one span in which `after` differs from `before` (common start and end left out), as a change of the
 * document that now holds `after`; undefined when the texts are equal. Linear.
 */
export function changeBetween(document: vscode.TextDocument, before: string, after: string): AppliedChange | undefined {
  if (before === after) return undefined;
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  const range = new vscode.Range(document.positionAt(start), document.positionAt(after.length - end));
  return { uri: document.uri, range, after: after.slice(start, after.length - end), before: before.slice(start, before.length - end) };
}

/** Shows `message` with Undo; not awaited by the caller (the command is done). Resolves once answered (tests). */
export function offerUndo(ui: UserInterface, message: string, changes: readonly AppliedChange[]): Promise<'undone' | 'alreadyUndone' | 'changed' | undefined> {
  // Every reviewed change that lands passes here: the walkthrough's "Review a change" step is done.
  void vscode.commands.executeCommand('setContext', ContextKeys.hasAppliedChange, true);
  const undo = vscode.l10n.t('Undo');
  return Promise.resolve(ui.info(message, undo))
    .then(async choice => {
      if (choice !== undo) return undefined;
      // The toast outlives Ctrl+Z in the editor: a change undone there already is said so, not taken for an edit (issue 35).
      if (await alreadyUndone(changes)) {
        ui.note(vscode.l10n.t('The change was already undone.'));
        return 'alreadyUndone' as const;
      }
      const changed = await undoChanges(changes);
      if (changed) {
        void ui.warn(vscode.l10n.t('{0} changed since the change was applied: use Undo (Ctrl+Z) in the editor instead.', path.posix.basename(changed.path)));
        return 'changed' as const;
      }
      return 'undone' as const;
    })
    .catch(() => undefined);
}

/** Whether every file holds again what was there before the change (Ctrl+Z in the editor, or a file created then deleted). */
async function alreadyUndone(changes: readonly AppliedChange[]): Promise<boolean> {
  for (const c of changes) {
    if ('created' in c) {
      if ((await fileTextOf(c.uri)) !== undefined) return false;
      continue;
    }
    const document = await vscode.workspace.openTextDocument(c.uri);
    const from = document.getText().slice(document.offsetAt(c.range.start));
    // What was there is back, and what the change wrote is gone (an insertion's `before` is empty: its text decides).
    if (!from.startsWith(c.before) || (c.after && from.startsWith(c.after) && !c.before.startsWith(c.after))) return false;
  }
  return changes.length > 0;
}

/** Undoes every change as one edit; returns the first file that no longer holds what the change left (then nothing is undone). */
async function undoChanges(changes: readonly AppliedChange[]): Promise<vscode.Uri | undefined> {
  const edit = new vscode.WorkspaceEdit();
  for (const c of changes) {
    if ('created' in c) {
      const now = await fileTextOf(c.uri);
      if (now !== c.after) return c.uri;
      edit.deleteFile(c.uri, { ignoreIfNotExists: true });
      continue;
    }
    const document = await vscode.workspace.openTextDocument(c.uri);
    if (document.getText(c.range) !== c.after) return c.uri;
    edit.replace(c.uri, c.range, c.before);
  }
  // Saved as the review saved it (`isRefactoring`, commands/review.ts): back on disk as it was.
  if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: true }))) return changes[0]?.uri;
  return undefined;
}

/** A file's text: its open document, else the disk; undefined when it is gone. */
async function fileTextOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
  if (open && !open.isClosed) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
