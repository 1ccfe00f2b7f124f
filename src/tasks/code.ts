/** The code a command sends: a document's range (or all of it) as prompt context plus its source record. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SourceRef } from './model';
import type { CodeContext } from './prompt';

export function labelOf(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, false) : path.basename(uri.path);
}

/** 1-based lines; a selection ending at column 0 of a line does not include that line. */
function lineSpan(range: vscode.Range): { start: number; end: number } {
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return { start: range.start.line + 1, end: endLine + 1 };
}

/**
 * The code of `range` (or the whole document) for a prompt, where it came from for the task record, and the
 * whole document's text at this moment (the base of Review Changes' three-way merge).
 */
export function codeFrom(
  document: vscode.TextDocument,
  range: vscode.Range | undefined,
  label = labelOf(document.uri),
): { context: CodeContext; source: SourceRef; documentText: string } {
  return {
    documentText: document.getText(),
    context: { code: document.getText(range), languageId: document.languageId, label, lines: range ? lineSpan(range) : undefined },
    source: {
      uri: document.uri.toString(),
      label,
      languageId: document.languageId,
      range: range && { startLine: range.start.line, startCharacter: range.start.character, endLine: range.end.line, endCharacter: range.end.character },
    },
  };
}

/** A NUL byte in the first 8 KB is the usual sign of a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
