/**
 * Where the extension's tabs go: one editor group beside the code, reused by every opener (result views,
 * raw results, prompts sent, diffs, transcripts, service files), so columns do not pile up and squeeze the
 * code. And where code goes back to (Reveal Source, an applied change): a group that shows the code.
 */
import * as vscode from 'vscode';
import { DocumentSchemes, WebviewTypes } from '../constants';

const OUR_SCHEMES = new Set<string>(Object.values(DocumentSchemes));
const OUR_VIEW_TYPES = Object.values(WebviewTypes);

/** A tab of the extension's own: a result or transcript view, or one of its read-only documents or diffs. */
export function isExtensionTab(tab: vscode.Tab): boolean {
  const input = tab.input;
  // The tab's view type carries a prefix of the host ("mainThreadWebview-multiAgent.result").
  if (input instanceof vscode.TabInputWebview) return OUR_VIEW_TYPES.some(type => input.viewType === type || input.viewType.endsWith(`-${type}`));
  if (input instanceof vscode.TabInputText) return OUR_SCHEMES.has(input.uri.scheme);
  if (input instanceof vscode.TabInputTextDiff) return OUR_SCHEMES.has(input.modified.scheme) || OUR_SCHEMES.has(input.original.scheme);
  return false;
}

/**
 * The one group for the extension's tabs: the group that already holds one (the active group first), else
 * a new group beside the code, once. Every opener of the extension passes this as its `viewColumn`. Opened from
 * Chat (`from: 'chat'`), none is made: a tab in the active group. Chat stands beside the code already, and a group
 * beside it was a third column that squeezed the code to about 310 px (issue 45).
 */
export function extensionColumn(from?: 'chat'): vscode.ViewColumn {
  const groups = vscode.window.tabGroups;
  if (groups.activeTabGroup.tabs.some(isExtensionTab)) return groups.activeTabGroup.viewColumn;
  const holding = groups.all.find(group => group.tabs.some(isExtensionTab));
  return holding?.viewColumn ?? (from === 'chat' ? vscode.ViewColumn.Active : vscode.ViewColumn.Beside);
}

/**
 * A group for code: the one showing `uri`, else one without the extension's tabs (the active group
 * first), else the first group.
 */
export function codeColumn(uri?: vscode.Uri): vscode.ViewColumn {
  const shown = uri && vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === uri.toString());
  if (shown?.viewColumn) return shown.viewColumn;
  const groups = vscode.window.tabGroups;
  if (!groups.activeTabGroup.tabs.some(isExtensionTab)) return groups.activeTabGroup.viewColumn;
  return (groups.all.find(group => !group.tabs.some(isExtensionTab)) ?? groups.all[0])?.viewColumn ?? vscode.ViewColumn.One;
}

/** How long an opener waits for `vscode.diff` to say the diff is shown before it goes on. */
const DIFF_SETTLE_MS = 5_000;

/**
 * Opens a diff and waits until VS Code has shown it, but not forever: now and then (three clean-clone runs
 * of our suite on VS Code 1.100; like microsoft/vscode#249391, a diff whose progress bar never ends)
 * `vscode.diff` never settles its promise, and Apply to Source waiting on it would never ask Accept or
 * Discard. A refusal that comes in time still throws.
 */
export async function openDiff(left: vscode.Uri, right: vscode.Uri, title: string, options: vscode.TextDocumentShowOptions): Promise<void> {
  const opening = Promise.resolve(vscode.commands.executeCommand('vscode.diff', left, right, title, options));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>(resolve => (timer = setTimeout(resolve, DIFF_SETTLE_MS)));
  try {
    await Promise.race([opening, late]);
  } finally {
    clearTimeout(timer);
    opening.catch(() => undefined); // settled after the wait: nobody is left to tell
  }
}
