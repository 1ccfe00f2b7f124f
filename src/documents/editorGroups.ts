/**
 * Where the extension's tabs go: one editor group beside the code, reused by every opener (result views,
 * raw results, prompts sent, diffs, transcripts, service files), so columns do not pile up and squeeze the
 * code. And where code goes back to (Reveal Source, an applied change): a group that shows the code.
 */
import * as vscode from 'vscode';
import { FILE_SCHEME, PROMPT_SCHEME, PROPOSAL_SCHEME, RESULT_SCHEME, RESULT_VIEW_TYPE, REVIEW_SCHEME, THREAD_SCHEME, TRANSCRIPT_VIEW_TYPE } from '../constants';

const OUR_SCHEMES = new Set([RESULT_SCHEME, PROMPT_SCHEME, PROPOSAL_SCHEME, REVIEW_SCHEME, THREAD_SCHEME, FILE_SCHEME]);
const OUR_VIEW_TYPES = [RESULT_VIEW_TYPE, TRANSCRIPT_VIEW_TYPE];

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
 * a new group beside the code, once. Every opener of the extension passes this as its `viewColumn`.
 */
export function extensionColumn(): vscode.ViewColumn {
  const groups = vscode.window.tabGroups;
  if (groups.activeTabGroup.tabs.some(isExtensionTab)) return groups.activeTabGroup.viewColumn;
  const holding = groups.all.find(group => group.tabs.some(isExtensionTab));
  return holding?.viewColumn ?? vscode.ViewColumn.Beside;
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
