/** The items the Threads and Files trees share (a notice, "Load more…") and the tooltip all three trees build. */
import * as vscode from 'vscode';
import { describeForView } from '../errors';

export interface NoticeNode {
  readonly kind: 'notice';
  readonly label: string;
  readonly detail?: string;
  readonly icon: string;
  readonly command?: vscode.Command;
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
}

export function notice(label: string, icon = 'info'): NoticeNode {
  return { kind: 'notice', label, icon };
}

/** "`what`: why", with a click that runs `retry` (a refresh command) when given. */
export function errorNotice(what: string, error: unknown, retry?: string): NoticeNode {
  const message = describeForView(error);
  return {
    kind: 'notice',
    label: `${what}: ${message}`,
    detail: retry ? `${message}\n\n${vscode.l10n.t('Click to try again.')}` : message,
    icon: 'warning',
    command: retry ? { command: retry, title: vscode.l10n.t('Retry') } : undefined,
  };
}

export function noticeItem(node: NoticeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label);
  item.iconPath = new vscode.ThemeIcon(node.icon);
  item.tooltip = node.detail;
  item.command = node.command;
  item.contextValue = 'notice';
  return item;
}

/** "Load more…", running the view's own load-more command. */
export function loadMoreItem(command: string): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command, title: vscode.l10n.t('Load More') };
  item.contextValue = 'loadMore';
  return item;
}

/** A tooltip: `title` in bold, then each non-empty line; all of it as text, so server text stays inert. */
export function textTooltip(title: string, lines: readonly (string | false | undefined)[], supportThemeIcons = false): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', supportThemeIcons);
  md.appendMarkdown('**');
  md.appendText(title);
  md.appendMarkdown('**\n\n');
  for (const line of lines) {
    if (!line) continue;
    md.appendText(line);
    md.appendMarkdown('  \n');
  }
  return md;
}
