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
    if (!editor) throw new UserFacingError(vscode.l10n.t('Open a file and select the code to send first.'));
    const document = editor.document;
    const selection = editor.selection;
    if (selection.isEmpty || !document.getText(selection).trim()) {
      if (!document.getText().trim()) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', labelOf(document.uri)));
      const sendWholeFile = vscode.l10n.t('Send Whole File');
      const choice = await this.s.ui.info(vscode.l10n.t('No code is selected. Send the whole file instead?'), sendWholeFile);
      if (choice !== sendWholeFile) return undefined;
      return this.orchestrate(document, undefined);
    }
    return this.orchestrate(document, selection);
  }

  /** From the explorer (a URI, maybe one of several selected), the editor title, or the palette. */
  async orchestrateFile(uri?: unknown): Promise<TrackedTask | undefined> {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    if (!target) throw new UserFacingError(vscode.l10n.t('Open or select a file to send first.'));
    const name = labelOf(target);
    const info = await vscode.workspace.fs.stat(target);
    if (info.type & vscode.FileType.Directory) throw new UserFacingError(vscode.l10n.t('{0} is a folder: choose a file.', name));
    if (info.size > LIMITS.maxUploadBytes) {
      throw new UserFacingError(vscode.l10n.t('{0} is {1} MB; files up to 10 MB can be sent.', name, (info.size / 1024 / 1024).toFixed(1)));
    }
    const bytes = await vscode.workspace.fs.readFile(target);
    if (looksBinary(bytes)) throw new UserFacingError(vscode.l10n.t('{0} looks like a binary file: only text can be sent as a prompt.', name));
    const document = await vscode.workspace.openTextDocument(target);
    if (!document.getText().trim()) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', name));
    return this.orchestrate(document, undefined);
  }

  private async orchestrate(document: vscode.TextDocument, range: vscode.Range | undefined): Promise<TrackedTask | undefined> {
    this.s.submitter.checkedSettings(); // a bad setting fails before the user types anything
    if (!(await this.s.keys.ensureApiKey())) return undefined;
    const instruction = await this.askInstruction();
    if (!instruction) return undefined;

    const { context, source } = codeFrom(document, range);
    const attached = await this.s.attachments.prepare(buildPrompt(instruction, context));
    let prompt = attached.prompt;
    const attachmentIds = [...attached.ids];
    const attachmentNames = [...attached.names];

    if (promptLength(prompt) > LIMITS.promptMaxChars) {
      const length = promptLength(prompt).toLocaleString('en-US');
      const sendAsAttachment = vscode.l10n.t('Send as Attachment');
      const choice = await this.s.ui.warn(
        vscode.l10n.t('The prompt would be {0} characters; the service accepts at most 10,000. Nothing was sent. Send the code as an attachment instead?', length),
        sendAsAttachment,
      );
      if (choice !== sendAsAttachment) return undefined;
      if (attachmentIds.length >= LIMITS.maxAttachments) {
        throw new UserFacingError(vscode.l10n.t('At most {0} attachments can go with a task; remove one and try again.', LIMITS.maxAttachments));
      }
      const filename = path.basename(document.uri.path) || 'code.txt';
      // Checked before the upload: a prompt that cannot be sent anyway must not cost a request.
      if (promptLength(buildAttachmentPrompt(instruction, context, filename)) > LIMITS.promptMaxChars) {
        throw new UserFacingError(vscode.l10n.t('The instruction alone is over 10,000 characters: shorten it. Nothing was sent.'));
      }
      const settings = this.s.submitter.checkedSettings();
      const uploaded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Uploading {0}…', filename) },
        () => this.s.api.client(settings).uploadAttachment({ data: new TextEncoder().encode(context.code), filename }),
      );
      attachmentIds.push(uploaded.id);
      attachmentNames.push(filename);
      prompt = buildAttachmentPrompt(instruction, context, filename) + attached.prompt.slice(buildPrompt(instruction, context).length);
      if (promptLength(prompt) > LIMITS.promptMaxChars) {
        throw new UserFacingError(vscode.l10n.t('The instruction alone is over 10,000 characters: shorten it.'));
      }
    }

    const task = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Sending to the agents…') },
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
      title: vscode.l10n.t('Multi-Agent Tasks'),
      prompt: vscode.l10n.t('What should the agents do with this code?'),
      placeHolder: vscode.l10n.t('e.g. Review for bugs and suggest a fix'),
      value: recent[0],
      valueSelection: recent[0] ? [0, recent[0].length] : undefined,
      ignoreFocusOut: true,
      validateInput: v => (v.trim() ? undefined : vscode.l10n.t('Describe what the agents should do.')),
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

/** The code of `range` (or the whole document) for a prompt, and where it came from for the task record. */
export function codeFrom(document: vscode.TextDocument, range: vscode.Range | undefined, label = labelOf(document.uri)): { context: CodeContext; source: SourceRef } {
  return {
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

