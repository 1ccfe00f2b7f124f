/**
 * Button labels offered with messages from several places and compared when the user picks one. Each is a
 * function so the label is localized at run time, and the same call is used to show it and to check it.
 */
import * as vscode from 'vscode';

export const Actions = {
  setApiKey: () => vscode.l10n.t('Set API Key'),
  openSettings: () => vscode.l10n.t('Open Settings'),
  showLog: () => vscode.l10n.t('Show Log'),
} as const;
