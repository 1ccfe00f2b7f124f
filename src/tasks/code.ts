/** The code a command sends: a document's range (or all of it) as prompt context plus its source record. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RangeRecord } from '../review';
import { type SourceRef, displayLines } from './model';
import type { CodeContext } from './prompt';

/**
 * How a file is named in a prompt and a task's record: its workspace-relative path, or only its name outside the
 * workspace (a produced file kept in the extension's storage), so no local path goes to the service.
 */
export function labelOf(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, false) : path.posix.basename(uri.path) || 'file';
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
