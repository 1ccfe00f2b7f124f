/** Set or clear the API key and the AI gateway key (both live only in SecretStorage). */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import type { UserInterface } from '../ui';

export interface KeyDeps {
  ui: UserInterface;
  keys: KeyStore;
}

export async function setApiKey(d: KeyDeps): Promise<boolean> {
  const key = await d.keys.promptForApiKey();
  if (key) void d.ui.info(vscode.l10n.t('Multi-Agent Tasks: API key saved in the system keychain.'));
  return !!key;
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
