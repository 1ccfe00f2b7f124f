/** The code a command sends: a document's range (or all of it) as prompt context plus its source record. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RangeRecord } from '../../review';
import { type SourceRef, displayLines } from '../model';
import type { CodeContext } from './prompt';

/**
 * How a file is named in a prompt and a task's record: its workspace-relative path (with several workspace
 * folders, `<folder>/<path>`: the folder's name first, as the answer's paths name it back), or only its name
 * outside the workspace (a produced file kept in the extension's storage), so no local path goes to the service.
 */
export function labelOf(uri: vscode.Uri): string {
  if (!vscode.workspace.getWorkspaceFolder(uri)) return path.posix.basename(uri.path) || 'file';
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/**
 * The folder a file picker starts in: the active editor's workspace folder (the last code editor's when a
 * webview has the focus), else the first folder.
 */
export function activeFolder(): vscode.WorkspaceFolder | undefined {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  return (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? vscode.workspace.workspaceFolders?.[0];
}

/** A vscode.Range as the task records it. */
export const rangeRecordOf = (r: vscode.Range): RangeRecord => ({ startLine: r.start.line, startCharacter: r.start.character, endLine: r.end.line, endCharacter: r.end.character });

/**
 * The code of `range` (or the whole document) for a prompt, where it came from for the task record, and the
 * whole document's text at this moment (the base of Review Changes' three-way merge).
 */
export function codeFrom(
  document: vscode.TextDocument,
  range: vscode.Range | undefined,
  label = labelOf(document.uri),
): { context: CodeContext; source: SourceRef; documentText: string } {
  const record = range && rangeRecordOf(range);
  return {
    documentText: document.getText(),
    context: { code: document.getText(range), languageId: document.languageId, label, lines: record && displayLines(record) },
    source: { uri: document.uri.toString(), label, languageId: document.languageId, range: record },
  };
}

/** A NUL byte in the first 8 KB is the usual sign of a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
