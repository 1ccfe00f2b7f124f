/**
 * What a check may touch (issue 44): the OS sandbox its runs go into, or, where none can be had, the user's own
 * choice to run without one (asked in plain words, kept in the user's settings, never assumed); and the secrets
 * kept out of everything a check keeps and sends.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { updateSetting } from '../config';
import type { CheckStart } from '../tasks/checking/policy';
import type { CheckSandbox } from '../tasks/checking/session';
import type { CheckDeps } from './checkDeps';
import { checkingPart } from './checkingPart';

/**
 * What a check keeps out of everything it keeps and sends (issue 44): the keys, the values of this machine's
 * secret variables and of the folder's `.env` (one redaction for the output, the record and Ask the Team to Fix).
 */
export async function secretsOf(keys: KeyStore, folder?: vscode.WorkspaceFolder): Promise<string[]> {
  const dotEnv = folder ? await fs.readFile(path.join(folder.uri.fsPath, '.env'), 'utf8').catch(() => undefined) : undefined;
  const machine = checkingPart().machineSecrets(process.env, dotEnv && dotEnv.length <= 256 * 1024 ? dotEnv : undefined);
  return [await keys.getApiKey(), await keys.getGatewayKey(), ...machine].filter((k): k is string => !!k);
}

/**
 * The sandbox of a check (issue 44): the machine's, with the secret places and the editor's storage hidden and the
 * network as the user's setting says. Where none can be had, the user chooses to run without one (remembered in the
 * user's settings), never silently: a check that starts by itself there does not run.
 */
export async function sandboxFor(d: CheckDeps, start: CheckStart): Promise<CheckSandbox | undefined | 'declined'> {
  const checking = checkingPart();
  const support = await checking.sandboxSupport();
  const { allowNetwork, allowUnsandboxed } = d.config.settings.check;
  if (support.kind !== 'none' && support.binary) {
    // The editor's own storage (its User folder: settings, state, every extension's storage) is hidden too.
    const editorStorage = path.resolve(d.storage, '..', '..');
    return { kind: support.kind, binary: support.binary, hidden: [...checking.secretPlaces(os.homedir()), editorStorage], allowNetwork };
  }
  if (allowUnsandboxed) return undefined;
  if (start.unasked) {
    d.log.warn(`check: not started by itself: no sandbox here (${support.why ?? 'none'}), and running without one was never chosen`);
    return 'declined';
  }
  const run = vscode.l10n.t('Run Without a Sandbox');
  const choice = await d.ui.ask(
    vscode.l10n.t(
      'No sandbox can be had on this machine ({0}). Without one, a check runs the team\'s proposed code with your permissions: it can read your files and keys, write wherever you can and reach the network. Run checks without a sandbox on this machine? You are asked once: the answer is kept in your setting multiAgent.check.allowUnsandboxed.',
      support.why ?? '',
    ),
    run,
  );
  if (choice !== run) return 'declined';
  await updateSetting('check.allowUnsandboxed', true);
  return undefined;
}
