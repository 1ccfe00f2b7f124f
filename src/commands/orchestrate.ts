/** "Orchestrate Selection" and "Orchestrate File": code plus an instruction becomes a tracked task. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StateKeys } from '../constants';
import { LIMITS, promptLength } from '../api/requests';
import type { Services } from '../services';
import { type CodeContext, buildAttachmentPrompt, buildPrompt } from '../tasks/prompt';
import type { SourceRef, TrackedTask } from '../tasks/model';
import { UserFacingError } from '../tasks/submitter';

const RECENT_LIMIT = 10;

export class Orchestrator {
  constructor(private readonly s: Services) {}

  async orchestrateSelection(): Promise<TrackedTask | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new UserFacingError('Open a file and select the code to send first.');
    const document = editor.document;
    const selection = editor.selection;
    if (selection.isEmpty || !document.getText(selection).trim()) {
      if (!document.getText().trim()) throw new UserFacingError(`${labelOf(document.uri)} is empty: there is nothing to send.`);
      const choice = await this.s.ui.info('No code is selected. Send the whole file instead?', 'Send Whole File');
      if (choice !== 'Send Whole File') return undefined;
      return this.orchestrate(document, undefined);
    }
    return this.orchestrate(document, selection);
  }

  /** From the explorer (a URI, maybe one of several selected), the editor title, or the palette. */
  async orchestrateFile(uri?: unknown): Promise<TrackedTask | undefined> {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    if (!target) throw new UserFacingError('Open or select a file to send first.');
    const name = labelOf(target);
    const info = await vscode.workspace.fs.stat(target);
    if (info.type & vscode.FileType.Directory) throw new UserFacingError(`${name} is a folder: choose a file.`);
    if (info.size > LIMITS.maxUploadBytes) {
      throw new UserFacingError(`${name} is ${(info.size / 1024 / 1024).toFixed(1)} MB; files up to 10 MB can be sent.`);
    }
    const bytes = await vscode.workspace.fs.readFile(target);
    if (looksBinary(bytes)) throw new UserFacingError(`${name} looks like a binary file: only text can be sent as a prompt.`);
    const document = await vscode.workspace.openTextDocument(target);
    if (!document.getText().trim()) throw new UserFacingError(`${name} is empty: there is nothing to send.`);
    return this.orchestrate(document, undefined);
  }

  private async orchestrate(document: vscode.TextDocument, range: vscode.Range | undefined): Promise<TrackedTask | undefined> {
    this.s.submitter.checkedSettings(); // a bad setting fails before the user types anything
    if (!(await this.s.keys.ensureApiKey())) return undefined;
    const instruction = await this.askInstruction();
    if (!instruction) return undefined;

    const label = labelOf(document.uri);
    const lines = range ? lineSpan(range) : undefined;
    const context: CodeContext = { code: document.getText(range), languageId: document.languageId, label, lines };
    const source: SourceRef = {
      uri: document.uri.toString(),
      label,
      languageId: document.languageId,
      range: range && { startLine: range.start.line, startCharacter: range.start.character, endLine: range.end.line, endCharacter: range.end.character },
    };
    const attached = await this.s.attachments.prepare(buildPrompt(instruction, context));
    let prompt = attached.prompt;
    const attachmentIds = [...attached.ids];
    const attachmentNames = [...attached.names];

    if (promptLength(prompt) > LIMITS.promptMaxChars) {
      const length = promptLength(prompt).toLocaleString('en-US');
      const choice = await this.s.ui.warn(
        `The prompt would be ${length} characters; the service accepts at most 10,000. Nothing was sent. Send the code as an attachment instead?`,
        'Send as Attachment',
      );
      if (choice !== 'Send as Attachment') return undefined;
      if (attachmentIds.length >= LIMITS.maxAttachments) {
        throw new UserFacingError(`At most ${LIMITS.maxAttachments} attachments can go with a task; remove one and try again.`);
      }
      const filename = path.basename(document.uri.path) || 'code.txt';
      // Checked before the upload: a prompt that cannot be sent anyway must not cost a request.
      if (promptLength(buildAttachmentPrompt(instruction, context, filename)) > LIMITS.promptMaxChars) {
        throw new UserFacingError('The instruction alone is over 10,000 characters: shorten it. Nothing was sent.');
      }
      const settings = this.s.submitter.checkedSettings();
      const uploaded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Uploading ${filename}…` },
        () => this.s.api.client(settings).uploadAttachment({ data: new TextEncoder().encode(context.code), filename }),
      );
      attachmentIds.push(uploaded.id);
      attachmentNames.push(filename);
      prompt = buildAttachmentPrompt(instruction, context, filename) + attached.prompt.slice(buildPrompt(instruction, context).length);
      if (promptLength(prompt) > LIMITS.promptMaxChars) {
        throw new UserFacingError('The instruction alone is over 10,000 characters: shorten it.');
      }
    }

    const task = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Sending to the agents…' },
      () => this.s.submitter.submit({ instruction, prompt, source, attachmentIds, attachmentNames }),
    );
    this.s.attachments.clearSent(attached);
    this.s.log.info(`task ${task.id} sent: "${task.title}" (${task.promptChars} characters${attachmentIds.length ? `, ${attachmentIds.length} attachments` : ''})`);
    return task;
  }

  /** Asks what the agents should do, offering the last instruction to reuse or edit. */
  async askInstruction(): Promise<string | undefined> {
    const recent = this.s.context.globalState.get<string[]>(StateKeys.recentInstructions, []);
    const value = await this.s.ui.input({
      title: 'Multi-Agent Tasks',
      prompt: 'What should the agents do with this code?',
      placeHolder: 'e.g. Review for bugs and suggest a fix',
      value: recent[0],
      valueSelection: recent[0] ? [0, recent[0].length] : undefined,
      ignoreFocusOut: true,
      validateInput: v => (v.trim() ? undefined : 'Describe what the agents should do.'),
    });
    const instruction = value?.trim();
    if (!instruction) return undefined;
    const next = [instruction, ...recent.filter(r => r !== instruction)].slice(0, RECENT_LIMIT);
    await this.s.context.globalState.update(StateKeys.recentInstructions, next);
    return instruction;
  }
}

export function labelOf(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, false) : path.basename(uri.path);
}

/** 1-based lines; a selection ending at column 0 of a line does not include that line. */
function lineSpan(range: vscode.Range): { start: number; end: number } {
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return { start: range.start.line + 1, end: endLine + 1 };
}

/** A NUL byte in the first 8 KB is the usual sign of a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

