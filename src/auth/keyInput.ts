/** The one input box for the Developer API key: Set API Key and "a key is needed first" both ask here. */
import * as vscode from 'vscode';
import type { UserInterface } from '../ui';

/**
 * Asks for the key with `prompt`; the trimmed key, or undefined when the user backs out. With `check`, the
 * box stays open while the key is checked, and shows the problem `check` returns (a rejected key) until
 * the user corrects it or leaves.
 */
export async function askApiKey(
  ui: Pick<UserInterface, 'input' | 'inputUntil'>,
  prompt: string,
  check?: (key: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const options: vscode.InputBoxOptions = {
    title: vscode.l10n.t('Multi-Agent Tasks: API Key'),
    prompt,
    placeHolder: 'tfai_…',
    password: true,
    ignoreFocusOut: true,
    validateInput: apiKeyProblem,
  };
  const value = check ? await ui.inputUntil(options, value => check(value.trim())) : await ui.input(options);
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
