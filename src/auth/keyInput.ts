/** The one input box for the Developer API key: Set API Key and "a key is needed first" both ask here. */
import * as vscode from 'vscode';
import type { UserInterface } from '../ui';

/** Asks for the key with `prompt`; the trimmed key, or undefined when the user backs out. */
export async function askApiKey(ui: Pick<UserInterface, 'input'>, prompt: string): Promise<string | undefined> {
  const value = await ui.input({
    title: vscode.l10n.t('Multi-Agent Tasks: API Key'),
    prompt,
    placeHolder: 'tfai_…',
    password: true,
    ignoreFocusOut: true,
    validateInput: apiKeyProblem,
  });
  return value?.trim() || undefined;
}

/** Why `value` cannot be an API key, or undefined. */
function apiKeyProblem(value: string): string | undefined {
  const key = value.trim();
  if (!key) return vscode.l10n.t('Enter a key.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces.');
  if (key.length < 12) return vscode.l10n.t('This is too short to be an API key.');
  return undefined;
}
