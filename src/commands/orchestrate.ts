/** "Orchestrate Selection" and "Orchestrate File": code plus an instruction becomes a tracked task. */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { UserFacingError } from '../errors';
import type { TrackedTask } from '../tasks/model';
import type { RecentInstructions } from '../tasks/recentInstructions';
import type { SubmissionPipeline } from '../tasks/submission';
import type { UserInterface } from '../ui';
import { askInstruction, sendOrOfferAttachment } from './ask';
import { codeFrom, labelOf, looksBinary } from '../tasks/code';
import { checkOutgoingFile } from '../tasks/uploadCheck';

export interface OrchestrateDeps {
  ui: UserInterface;
  keys: KeyStore;
  pipeline: SubmissionPipeline;
  recent: RecentInstructions;
}

export async function orchestrateSelection(d: OrchestrateDeps): Promise<TrackedTask | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new UserFacingError(vscode.l10n.t('Open a file and select the code to send first.'));
  const document = editor.document;
  const selection = editor.selection;
  if (selection.isEmpty || !document.getText(selection).trim()) {
    if (!document.getText().trim()) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', labelOf(document.uri)));
    const sendWholeFile = vscode.l10n.t('Send Whole File');
    const choice = await d.ui.info(vscode.l10n.t('No code is selected. Send the whole file instead?'), sendWholeFile);
    if (choice !== sendWholeFile) return undefined;
    return orchestrate(d, document, undefined);
  }
  return orchestrate(d, document, selection);
}

/** From the explorer (a URI, maybe one of several selected), the editor title, or the palette. */
export async function orchestrateFile(d: OrchestrateDeps, uri?: unknown): Promise<TrackedTask | undefined> {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (!target) throw new UserFacingError(vscode.l10n.t('Open or select a file to send first.'));
  const name = labelOf(target);
  await checkOutgoingFile(target, 'prompt');
  const bytes = await vscode.workspace.fs.readFile(target);
  if (looksBinary(bytes)) throw new UserFacingError(vscode.l10n.t('{0} looks like a binary file: only text can be sent as a prompt.', name));
  const document = await vscode.workspace.openTextDocument(target);
  if (!document.getText().trim()) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', name));
  return orchestrate(d, document, undefined);
}

async function orchestrate(d: OrchestrateDeps, document: vscode.TextDocument, range: vscode.Range | undefined): Promise<TrackedTask | undefined> {
  const settings = d.pipeline.settings(); // a bad setting fails before the user types anything
  if (!(await d.keys.ensureApiKey())) return undefined;
  const instruction = await askInstruction(d.ui, d.recent);
  if (!instruction) return undefined;
  return sendOrOfferAttachment(d.ui, d.pipeline, { instruction, code: codeFrom(document, range), withBasket: true }, settings);
}
