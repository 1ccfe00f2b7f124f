/**
 * Open Scratch Copy (issue 37): the folder with the proposal in it, as a check has it (the same plan: the
 * unsaved texts, then what Review Changes… lands by default), made outside every workspace folder as a check's
 * copy is, and opened in a new window. Kept until the user deletes it (its path is said), since a window works in it.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { filesExcluded } from '../config';
import { proposedFiles, unsavedTexts } from '../documents/checkInputs';
import { folderOf, prepareReview } from '../documents/reviewPlan';
import { UserFacingError, inert, messageOf } from '../errors';
import { reviewPart } from '../parts';
import { checkLeftOutWhy, checkRefusedWords } from '../tasks/checkWords';
import type { CheckDeps } from './checkDeps';
import { KEPT_SCRATCH_MARKER, type KeptScratch } from '../tasks/checking/types';
import { checkingPart } from './checkingPart';
import { resolveTask } from './resolve';

export async function openScratchCopy(d: CheckDeps, arg?: unknown): Promise<string | undefined> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'scratch', vscode.l10n.t('Open the scratch copy of which answer?'));
  if (!task) return undefined;
  const folder = folderOf(task) ?? vscode.workspace.workspaceFolders?.[0];
  const answer = await d.store.readResult(task.id);
  if (!folder || folder.uri.scheme !== 'file' || answer === undefined) throw new UserFacingError(vscode.l10n.t('There is no proposal of "{0}" to copy here.', inert(task.title)));
  // A window opened on the copy may run its tasks and extensions on the proposed code: as a check, trusted folders only.
  if (!d.config.trusted) throw new UserFacingError(vscode.l10n.t('Open Scratch Copy makes a copy with the proposed code in it, so it works only in a trusted workspace. Trust this folder (Manage Workspace Trust) and try again.'));
  const checking = checkingPart();
  const tmp = os.tmpdir();
  const holder = checking.folderHolding(tmp, (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath));
  if (holder) throw new UserFacingError(checkRefusedWords({ kind: 'tempInFolder', tmp, folder: holder }, folder.name));
  const made = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Copying "{0}" with the proposal…', folder.name), cancellable: true },
    async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const review = await prepareReview(d, task, answer, folder, { signal: abort.signal });
        const plan = checking.scratchPlan(proposedFiles(review, folder), unsavedTexts(folder));
        const root = folder.uri.fsPath;
        const listed = await checking.listFiles(root, { exclude: filesExcluded(folder.uri), signal: abort.signal });
        // Named for what it is (the new window's title), with a marker beside it that its window reads (scratchWindow.ts).
        const name = vscode.l10n.t('{0} (scratch copy)', folder.name).replace(/[\\/:*?"<>|]/g, '_');
        const scratch = await checking.buildScratch({ root, files: listed.files, overlay: new Map([...plan.base, ...plan.proposal]), signal: abort.signal, name });
        const marker: KeptScratch = { original: root, folderName: folder.name, taskTitle: task.title, keptAt: Date.now() };
        await fs.writeFile(path.join(scratch.base, KEPT_SCRATCH_MARKER), JSON.stringify(marker));
        return { scratch, changes: plan.changes };
      } catch (e) {
        if (abort.signal.aborted || e instanceof reviewPart().PlanCancelled) return undefined;
        throw new UserFacingError(vscode.l10n.t('The scratch copy of "{0}" could not be made: {1}', folder.name, messageOf(e)));
      } finally {
        sub.dispose();
      }
    },
  );
  if (!made) return undefined;
  const { scratch, changes } = made;
  d.log.info(`check ${task.id}: scratch copy kept at ${scratch.dir}`);
  const leftOut = changes.leftOut.length ? ' ' + vscode.l10n.t('Left out of it: {0}.', changes.leftOut.map(l => `${l.path} (${checkLeftOutWhy(l.why)})`).join('; ')) : '';
  void d.ui.info(inert(vscode.l10n.t('The scratch copy with the proposal opens in a new window; it lives in {0} and stays until you delete it (its window offers Delete This Copy).', scratch.dir.replace(os.homedir(), '~')) + leftOut));
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(scratch.dir), { forceNewWindow: true });
  return scratch.dir;
}
