/** The items the Threads and Files trees share (a notice, "Load more…") and the tooltip all three trees build. */
import * as vscode from 'vscode';
import { describeForView } from '../../errors';

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
  const detail = typeof node.detail === 'string' ? node.detail : undefined;
  item.accessibilityInformation = { label: detail ? `${node.label}. ${detail}` : node.label, role: node.command ? 'button' : undefined };
  return item;
}

/** "Load more…", running the view's own load-more command. */
export function loadMoreItem(command: string): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command, title: vscode.l10n.t('Load More') };
  item.contextValue = 'loadMore';
  item.accessibilityInformation = { label: vscode.l10n.t('Load more items'), role: 'button' };
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

/**
 * "Loading…" of a list view: true while its first page (or one after an empty list) is read, so neither "Set an
 * API key" nor "No … yet" shows before the key and the list are known. A refresh of a list with rows keeps them
 * on screen instead.
 */
export class FirstPageLoading implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** `loading` changed. */
  readonly onDidChange = this.changed.event;
  /** Reads under way that started with nothing on screen (a newer one may supersede an older one). */
  private firstReads = 0;
  private now = true;
  /** Whether the last list shown had rows. */
  private shownRows = false;

  get loading(): boolean {
    return this.now;
  }

  /** Runs one read of the list's roots, saying "Loading…" while it is the first. */
  async read<T>(roots: () => Promise<T[]>): Promise<T[]> {
    const first = !this.shownRows;
    if (first) {
      this.firstReads++;
      this.set(true);
    }
    try {
      const nodes = await roots();
      this.shownRows = nodes.length > 0;
      return nodes;
    } finally {
      if (first) this.firstReads--;
      // A read that a refresh superseded must not clear "Loading…" while the newer one is still out.
      this.set(this.firstReads > 0);
    }
  }

  private set(loading: boolean): void {
    if (this.now === loading) return;
    this.now = loading;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
