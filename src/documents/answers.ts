/**
 * A task's answer read by the one reader (review/reader.ts) with the task's own context (the file it was sent
 * from, the workspace folders' names), so that the result view, Apply…, Insert at Cursor and Review Changes
 * number and understand its blocks alike.
 */
import * as vscode from 'vscode';
import type * as Review from '../review';
import type { ReadAnswer, ReadOptions } from '../review';
import type { TrackedTask } from '../tasks/model';
import { reviewPart } from '../parts';

/** The review core, loaded on first use (lazy.ts). */

/** The reader's options for a task: its source's path in its workspace folder, and the folders' names. */
export function readOptionsOf(task: Pick<TrackedTask, 'source'>): ReadOptions {
  const folders = (vscode.workspace.workspaceFolders ?? []).map(f => f.name);
  if (!task.source) return { folders };
  const uri = vscode.Uri.parse(task.source.uri);
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return { folders };
  const root = folder.uri.path.replace(/\/+$/, '');
  if (!uri.path.startsWith(`${root}/`)) return { folders };
  const checked = reviewPart().checkPath(uri.path.slice(root.length + 1));
  return { folders, sourcePath: checked.ok ? checked.path : undefined, sourceFolder: folder.name };
}

/** The blocks of a task's answer, read as every surface reads them. */
export function readTaskAnswer(task: Pick<TrackedTask, 'source'>, text: string): ReadAnswer {
  return reviewPart().readAnswer(text, readOptionsOf(task));
}

/**
 * Where an unnamed block goes when Apply… takes it alone, against `range` of `document`: the range, a definition it
 * redefines, or nowhere proven (review/proof.ts). A selection inside one line (a word, an expression) takes a
 * one-line block as it is. Apply… and the result view's button (Apply… or Insert…) both ask this.
 */
export function placeUnnamedBlock(code: string, document: vscode.TextDocument, range: vscode.Range): Review.UnnamedPlace {
  const inLine = range.isSingleLine && !range.isEqual(document.lineAt(range.start.line).range) && code.trim().split('\n').length === 1;
  if (inLine) return { kind: 'range' };
  const lastLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return reviewPart().placeUnnamed(code, document.getText(), range.start.line, lastLine);
}

/** What inserting a block's text before line `at` would write twice: a definition the file has once, or a long run of its lines (review/landingGuard.ts). */
export function repeatsOnInsert(file: string, at: number, inserted: string): Review.Held | undefined {
  return reviewPart().insertionRepeats(file, at, inserted);
}
