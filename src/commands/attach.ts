/** Workspace files as context for the next task, through the attachment basket (which checks them). */
import * as vscode from 'vscode';
import { LIMITS } from '../api/requests';
import { searchExcludeGlob } from '../config';
import { UserFacingError } from '../errors';
import { attachableFiles } from '../vocabulary';
import type { AttachmentBasket } from '../tasks/sending/attachments';
import { labelOf } from '../tasks/sending/code';
import type { UserInterface } from '../ui';

export interface AttachDeps {
  ui: UserInterface;
  basket: AttachmentBasket;
}

/** Enough to choose from without listing a monorepo's every file. */
const MAX_PICKABLE = 5000;

/** Picks workspace files (files.exclude and search.exclude applied) and attaches them. Returns how many. */
export async function attachFiles(s: AttachDeps): Promise<number> {
  if (!vscode.workspace.workspaceFolders?.length) throw new UserFacingError(vscode.l10n.t('Open a folder first: attached files come from the workspace.'));
  const found = await vscode.workspace.findFiles('**/*', searchExcludeGlob(), MAX_PICKABLE);
  const attached = new Set(s.basket.list().map(u => u.toString()));
  const items = found
    .filter(uri => !attached.has(uri.toString()))
    .map(uri => ({ label: vscode.workspace.asRelativePath(uri, true), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (!items.length) throw new UserFacingError(vscode.l10n.t('There are no more workspace files to attach.'));
  const left = LIMITS.maxAttachments - attached.size;
  const picked = await s.ui.pickMany(items, {
    title: vscode.l10n.t('Attach Files to the Next Task'),
    placeHolder: attachableFiles(left),
    matchOnDescription: true,
  });
  if (!picked?.length) return 0;
  return add(s, picked.map(p => p.uri));
}

/** From the explorer: the clicked file, or every selected one. */
export async function attachToNextTask(s: AttachDeps, uri?: unknown, uris?: unknown): Promise<number> {
  const targets =
    Array.isArray(uris) && uris.length && uris.every(u => u instanceof vscode.Uri)
      ? (uris as vscode.Uri[])
      : uri instanceof vscode.Uri
        ? [uri]
        : vscode.window.activeTextEditor
          ? [vscode.window.activeTextEditor.document.uri]
          : [];
  if (!targets.length) throw new UserFacingError(vscode.l10n.t('Select a file in the explorer to attach.'));
  return add(s, targets);
}

export function clearAttachments(s: AttachDeps): void {
  const n = s.basket.count;
  s.basket.clear();
  if (n) void s.ui.info(n === 1 ? vscode.l10n.t('Removed 1 attached file.') : vscode.l10n.t('Removed {0} attached files.', n));
}

async function add(s: AttachDeps, uris: vscode.Uri[]): Promise<number> {
  const added = await s.basket.add(uris);
  const count = s.basket.count;
  if (added) void s.ui.info(count === 1 ? vscode.l10n.t('1 file will go with the next task.') : vscode.l10n.t('{0} files will go with the next task.', count));
  return added;
}

/** Removes one attached file: the Tasks view's item, a URI, or one the user picks. Returns whether one went. */
export async function removeAttachment(s: AttachDeps, arg?: unknown): Promise<boolean> {
  const given = arg instanceof vscode.Uri ? arg : (arg as { uri?: unknown } | undefined)?.uri;
  let target = given instanceof vscode.Uri ? given : undefined;
  if (!target) {
    const files = s.basket.list();
    if (!files.length) throw new UserFacingError(vscode.l10n.t('No files are attached to the next task.'));
    const picked = await s.ui.pick(
      files.map(uri => ({ label: labelOf(uri), uri })),
      { title: vscode.l10n.t('Remove an Attached File'), placeHolder: vscode.l10n.t('Which file should not go with the next task?') },
    );
    target = picked?.uri;
  }
  if (!target) return false;
  const before = s.basket.count;
  s.basket.remove(target);
  return s.basket.count < before;
}
