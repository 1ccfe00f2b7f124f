/** "Orchestrate Selection" and "Orchestrate File": code plus an instruction becomes a tracked task. */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { UserFacingError } from '../errors';
import type { AttachmentBasket } from '../tasks/sending/attachments';
import type { CodeEditors } from '../tasks/sending/codeEditors';
import type { TrackedTask } from '../tasks/model';
import type { RecentInstructions } from '../tasks/store/recentInstructions';
import type { SubmissionPipeline } from '../tasks/sending/submission';
import type { UserInterface } from '../ui';
import { askInstruction, chooseCode, sendOrOfferAttachment } from './ask';
import { codeFrom, labelOf, looksBinary } from '../tasks/sending/code';
import { checkOutgoingFile } from '../tasks/sending/uploadCheck';

export interface OrchestrateDeps {
  ui: UserInterface;
  keys: KeyStore;
  pipeline: SubmissionPipeline;
  recent: RecentInstructions;
  /** The editor whose code goes (the last one holding code when a webview has the focus). */
  editors: Pick<CodeEditors, 'current'>;
  /** The attached files, which go with the task: the instruction box names them. */
  basket?: Pick<AttachmentBasket, 'list'>;
}

export async function orchestrateSelection(d: OrchestrateDeps): Promise<TrackedTask | undefined> {
  const editor = d.editors.current();
  if (!editor) return offerAFile(d);
  const choice = await chooseCode(d.ui, editor, { instructionAlone: false });
  if (!choice?.code) return undefined;
  return orchestrate(d, choice.code);
}

/**
 * No code in view (the welcome view's button, the palette in an empty window): not an error. Offers to open
 * a file, or to choose one to send as it is.
 */
async function offerAFile(d: OrchestrateDeps): Promise<TrackedTask | undefined> {
  const open = vscode.l10n.t('Open a File…');
  const send = vscode.l10n.t('Send a File…');
  const choice = await d.ui.info(vscode.l10n.t('Open a file and select the code the agents should work on, or choose a file to send as it is.'), open, send);
  if (choice === open) {
    await vscode.commands.executeCommand('workbench.action.quickOpen');
    return undefined;
  }
  if (choice !== send) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await d.ui.openDialog({ canSelectFiles: true, canSelectFolders: false, canSelectMany: false, defaultUri: folder, openLabel: vscode.l10n.t('Send to the Agents') });
  return picked?.[0] ? orchestrateFile(d, picked[0]) : undefined;
}

/** From the explorer (a URI, maybe one of several selected), the editor title, or the palette. */
export async function orchestrateFile(d: OrchestrateDeps, uri?: unknown): Promise<TrackedTask | undefined> {
  const target = uri instanceof vscode.Uri ? uri : d.editors.current()?.document.uri;
  if (!target) return offerAFile(d);
  const name = labelOf(target);
  await checkOutgoingFile(target, 'prompt');
  const bytes = await vscode.workspace.fs.readFile(target);
  if (looksBinary(bytes)) throw new UserFacingError(vscode.l10n.t('{0} looks like a binary file: only text can be sent as a prompt.', name));
  const document = await vscode.workspace.openTextDocument(target);
  if (!document.getText().trim()) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', name));
  return orchestrate(d, codeFrom(document, undefined));
}

async function orchestrate(d: OrchestrateDeps, code: ReturnType<typeof codeFrom>): Promise<TrackedTask | undefined> {
  const settings = d.pipeline.settings(); // a bad setting fails before the user types anything
  if (!(await d.keys.ensureApiKey())) return undefined;
  const attached = (d.basket?.list() ?? []).map(uri => vscode.workspace.asRelativePath(uri));
  const instruction = await askInstruction(d.ui, d.recent, code.context, attached);
  if (!instruction) return undefined;
  return sendOrOfferAttachment(d.ui, d.pipeline, { instruction, code, withBasket: true }, settings);
}
