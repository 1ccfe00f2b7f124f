/**
 * Which editor's code a command sends. With a webview, the panel or the Chat view focused there is no active
 * text editor, but the code the user means is still in the editor they last worked in: every command that
 * sends code (Orchestrate Selection and File, Run in Thread, `@team /file`) asks here, so they all follow
 * one rule.
 */
import * as vscode from 'vscode';
import { DocumentSchemes } from '../../constants';
import { Disposable } from '../../disposable';

/** Documents that hold no code of the user's: the extension's own, output, debug and comment inputs. */
const NOT_CODE = new Set([DocumentSchemes.result, DocumentSchemes.prompt, DocumentSchemes.proposal, DocumentSchemes.review, DocumentSchemes.thread, DocumentSchemes.file, 'output', 'debug', 'comment', 'vscode-scm', 'walkThroughSnippet']);

export function isCodeDocument(document: vscode.TextDocument): boolean {
  return !NOT_CODE.has(document.uri.scheme) && !document.uri.scheme.startsWith('vscode-chat');
}

export class CodeEditors extends Disposable {
  private last: { uri: string; column: vscode.ViewColumn | undefined } | undefined;

  constructor() {
    super();
    this.note(vscode.window.activeTextEditor);
    this._register(vscode.window.onDidChangeActiveTextEditor(editor => this.note(editor)));
  }

  private note(editor: vscode.TextEditor | undefined): void {
    if (editor && isCodeDocument(editor.document)) this.last = { uri: editor.document.uri.toString(), column: editor.viewColumn };
  }

  /**
   * The active text editor when it holds code; else the last one that did, while it is still on screen;
   * else the first code editor on screen. Undefined when no code is in view.
   */
  current(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active && isCodeDocument(active.document)) return active;
    const visible = vscode.window.visibleTextEditors.filter(e => isCodeDocument(e.document));
    const last = this.last;
    const remembered = last && (visible.find(e => e.document.uri.toString() === last.uri && e.viewColumn === last.column) ?? visible.find(e => e.document.uri.toString() === last.uri));
    return remembered ?? visible[0];
  }
}
