/** Set or clear the API key and the AI gateway key (both live only in SecretStorage). */
import * as vscode from 'vscode';
import type { ApiService } from '../apiService';
import { askApiKey } from '../auth/keyInput';
import type { KeyStore } from '../auth/keyStore';
import { serviceCondition } from '../api/conditions';
import { errorKind, messageOf } from '../errors';
import { keyAccountDisabled, keyUncheckedUnreachable, newKeyRejected } from '../vocabulary';
import type { UserInterface } from '../ui';

/**
 * What the service said of a key: it answered an authenticated read, refused the key, knows the key but
 * its account is disabled, or could not be asked (unreachable, or its authentication briefly unavailable).
 */
export type KeyVerdict = 'accepted' | 'rejected' | 'disabled' | 'unreachable';

export interface KeyDeps {
  ui: UserInterface;
  keys: KeyStore;
}

export interface SetKeyDeps extends KeyDeps {
  api: Pick<ApiService, 'clientWithKey'>;
  /** Checks a key before it is stored (tests may pass their own). */
  check?: (key: string) => Promise<KeyVerdict>;
}

const KEY_CHECK_TASK_ID = 'task_00000000-0000-0000-0000-000000000000';

/** One cheap authenticated read (the first thread, if any) with `key`, nothing stored, no retries. */
async function checkApiKey(api: SetKeyDeps['api'], key: string): Promise<KeyVerdict> {
  const client = api.clientWithKey(key, 15_000);
  try {
    if (client.form === 'earlier') {
      // The earlier form has no list to read: the status of a task nobody has is 404 once the key is accepted.
      await client.getTaskStatus(KEY_CHECK_TASK_ID, { retry: false });
    } else await client.listThreads({ limit: 1 }, { retry: false });
    return 'accepted';
  } catch (e) {
    const kind = errorKind(e);
    if (kind === 'notFound' && client.form === 'earlier') return 'accepted';
    if (kind === 'permission' && serviceCondition(kind, messageOf(e))?.condition === 'accountDisabled') return 'disabled';
    // A 503 ("Authentication backend unavailable") is the service's passing trouble, never a verdict on the key.
    return kind === 'authentication' || kind === 'permission' ? 'rejected' : 'unreachable';
  }
}

/** Set API Key: the box says whether a key is stored; the key is checked with the service before it is saved. */
export async function setApiKey(d: SetKeyDeps): Promise<boolean> {
  const stored = !!(await d.keys.getApiKey());
  return askAndSaveApiKey(
    d,
    stored
      ? vscode.l10n.t('A key is stored. Enter a new key to replace it, or press Escape to keep the stored one.')
      : vscode.l10n.t('No key is stored yet. Enter your Developer API key (create one in the web console, developer settings).'),
  );
}

/**
 * The one way a key is asked for and saved: Set API Key, and the "An API key is needed first" box a command opens
 * when none is set (`KeyStore.ensureApiKey`, wired in commands/index.ts). The box stays open while the key is
 * checked; a key the service rejects says so there, not in a toast, and is never saved. True once a key is saved.
 */
export async function askAndSaveApiKey(d: SetKeyDeps, prompt: string): Promise<boolean> {
  let verdict: KeyVerdict | undefined;
  const key = await askApiKey(d.ui, prompt, async candidate => {
    verdict = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Checking the key with the service…') },
      () => (d.check ? d.check(candidate) : checkApiKey(d.api, candidate)),
    );
    return verdict === 'rejected' ? newKeyRejected('box') : undefined;
  });
  if (!key || !verdict) return false;
  if (verdict === 'unreachable' || verdict === 'disabled') {
    const keep = vscode.l10n.t('Save Anyway');
    const ask = verdict === 'disabled' ? keyAccountDisabled : keyUncheckedUnreachable;
    const choice = await d.ui.warn(ask(false), keep);
    if (choice !== keep) return false;
    await d.keys.setApiKey(key);
    void d.ui.info(ask(true));
    return true;
  }
  await d.keys.setApiKey(key);
  void d.ui.info(vscode.l10n.t('Key saved and accepted by the service.'));
  return true;
}

export async function clearApiKey(d: KeyDeps): Promise<void> {
  await d.keys.clearApiKey();
  void d.ui.info(vscode.l10n.t('Multi-Agent Tasks: API key removed.'));
}

export async function setGatewayKey(d: KeyDeps): Promise<void> {
  const key = await d.ui.input({
    title: vscode.l10n.t('Multi-Agent Tasks: AI Gateway Key'),
    prompt: vscode.l10n.t('Your key for the third-party AI gateway, sent with each task as vercelAiKey. Leave empty to remove it.'),
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  await d.keys.setGatewayKey(key);
  void d.ui.info(key.trim() ? vscode.l10n.t('Multi-Agent Tasks: AI gateway key saved.') : vscode.l10n.t('Multi-Agent Tasks: AI gateway key removed.'));
}

export async function clearGatewayKey(d: KeyDeps): Promise<void> {
  await d.keys.setGatewayKey(undefined);
  void d.ui.info(vscode.l10n.t('Multi-Agent Tasks: AI gateway key removed.'));
}
