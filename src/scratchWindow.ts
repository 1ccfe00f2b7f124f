/**
 * A window opened on a kept scratch copy (Open Scratch Copy, issue 45) cannot be mistaken for the user's own:
 * the copy's folder is named "<folder> (scratch copy)" (the window's title), and here, at activation, a banner
 * says whose proposal it holds, that changes here are not the user's, where it lives and that it stays until
 * deleted, with Delete This Copy (the copy and its temp folder, then the window closes) and Open My Folder. A
 * status bar item keeps saying it. The marker beside the copy (`KEPT_SCRATCH_MARKER`) is what tells.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inert } from './format';
import { KEPT_SCRATCH_MARKER, type KeptScratch } from './tasks/checking/types';

/** The kept copy this window shows, if it is one: the marker beside its only folder, read bounded. */
function keptScratchOf(folders: readonly vscode.WorkspaceFolder[] | undefined): { marker: KeptScratch; base: string } | undefined {
  if (folders?.length !== 1 || folders[0].uri.scheme !== 'file') return undefined;
  const base = path.dirname(folders[0].uri.fsPath);
  try {
    const text = fs.readFileSync(path.join(base, KEPT_SCRATCH_MARKER), 'utf8');
    const marker = text.length <= 16_384 ? (JSON.parse(text) as Partial<KeptScratch>) : undefined;
    if (typeof marker?.original !== 'string' || typeof marker.folderName !== 'string' || typeof marker.taskTitle !== 'string') return undefined;
    return { marker: marker as KeptScratch, base };
  } catch {
    return undefined;
  }
}

/** Says what this window is when it shows a kept scratch copy; nothing otherwise. */
export function announceScratchWindow(): vscode.Disposable {
  const kept = keptScratchOf(vscode.workspace.workspaceFolders);
  if (!kept) return { dispose: () => undefined };
  const { marker, base } = kept;
  const where = base.replace(os.homedir(), '~');
  const item = vscode.window.createStatusBarItem('multiAgent.scratchCopy', vscode.StatusBarAlignment.Left, 1000);
  item.name = vscode.l10n.t('Scratch Copy');
  item.text = `$(beaker) ${vscode.l10n.t('Scratch copy: not your files')}`;
  item.tooltip = vscode.l10n.t('A scratch copy of "{0}" with the proposal of "{1}", in {2}. Changes here stay in the copy until you delete it.', marker.folderName, marker.taskTitle, where);
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  item.show();
  const remove = vscode.l10n.t('Delete This Copy');
  const open = vscode.l10n.t('Open My Folder');
  void vscode.window
    .showWarningMessage(
      inert(
        vscode.l10n.t(
          'This window is a scratch copy of "{0}" with the proposal of "{1}": changes here are not made to your files. It lives in {2} and stays until you delete it.',
          marker.folderName,
          marker.taskTitle,
          where,
        ),
      ),
      remove,
      open,
    )
    .then(async choice => {
      if (choice === open) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(marker.original), { forceNewWindow: true });
      if (choice !== remove) return;
      // Only the temp folder the marker is in, which holds the copy: nothing it links to is followed.
      await fs.promises.rm(base, { recursive: true, force: true, maxRetries: 3 });
      await vscode.commands.executeCommand('workbench.action.closeWindow');
    });
  return item;
}
