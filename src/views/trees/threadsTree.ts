/**
 * The Threads view: renders the thread store (threads, paged, each expanding into its messages) and
 * re-renders what the store says changed.
 */
import * as vscode from 'vscode';
import type { ThreadMessage, Thread } from '../../api';
import { shownText } from '../../api/filenames';
import { Commands } from '../../constants';
import { Disposable } from '../../disposable';
import { roleIcon, roleName } from '../../documents/transcripts';
import { firstLine, formatWhen } from '../../format';
import { plainFirstLine } from '../pages/markdown';
import { type ThreadStore, threadTitle } from '../../stores/threadStore';
import { notOnEarlierForm } from '../../vocabulary';
import { FirstPageLoading, type LoadMoreNode, type NoticeNode, errorNotice, loadMoreItem, notice, noticeItem, textTooltip } from './treeNodes';

export interface ThreadNode {
  readonly kind: 'thread';
  thread: Thread;
}
export interface MessageNode {
  readonly kind: 'message';
  readonly threadId: string;
  readonly message: ThreadMessage;
  readonly index: number;
}
export type ThreadsTreeNode = ThreadNode | MessageNode | NoticeNode | LoadMoreNode;

export class ThreadsTreeProvider extends Disposable implements vscode.TreeDataProvider<ThreadsTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ThreadsTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private nodes = new Map<string, ThreadNode>();
  private readonly firstPage = this._register(new FirstPageLoading());
  /** `loading` changed. */
  readonly onDidChangeLoading = this.firstPage.onDidChange;
  private readonly listedNoneChanged = this._register(new vscode.EventEmitter<boolean>());
  /**
   * Whether a read listed no threads: only then may the empty tree say "No threads yet" (not after a "no key"
   * read). A list with threads leaves it as it is: turned on there, the context reached the workbench before
   * the rows did, and "No threads yet" flashed above a thread that existed.
   */
  readonly onDidChangeListedNone = this.listedNoneChanged.event;
  private listedNoneNow = false;

  constructor(private readonly store: ThreadStore) {
    super();
    this._register(
      store.onDidChange(({ threadId }) => {
        const node = threadId === undefined ? undefined : this.nodes.get(threadId);
        this.changed.fire(node);
      }),
    );
  }

  async getChildren(element?: ThreadsTreeNode): Promise<ThreadsTreeNode[]> {
    if (!element) return this.roots();
    if (element.kind !== 'thread') return [];
    const id = String(element.thread.id);
    try {
      const messages = await this.store.messagesOf(id);
      // Reading the messages also re-read the thread (its title may have been set by the first run).
      const fresh = this.store.known(id);
      if (fresh && fresh !== element.thread) {
        element.thread = fresh;
        this.changed.fire(element);
      }
      if (!messages.length) return [notice(vscode.l10n.t('No messages yet'))];
      // A thread saved from a task holds the team's answer only, its instruction is the thread's user_input:
      // the instruction's row comes first, so a thread starts with what was asked, not "Agents: …" (issue 35).
      const thread = fresh ?? element.thread;
      const rows: ThreadMessage[] =
        messages[0].role !== 'user' && thread.user_input
          ? [{ role: 'user', message_id: 'instruction', content: thread.user_input, created_at: thread.timestamp ?? null }, ...messages]
          : messages;
      return rows.map((message, index) => ({ kind: 'message', threadId: id, message, index }));
    } catch (e) {
      return [errorNotice(vscode.l10n.t('Could not load the messages'), e)];
    }
  }

  getTreeItem(element: ThreadsTreeNode): vscode.TreeItem {
    switch (element.kind) {
      case 'thread': {
        const thread = element.thread;
        const item = new vscode.TreeItem(threadTitle(thread), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `thread:${thread.id}`;
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.description = thread.timestamp ? formatWhen(new Date(thread.timestamp)) : undefined;
        item.tooltip = textTooltip(threadTitle(thread), [
          [
            vscode.l10n.t('Thread {0}', thread.id),
            thread.timestamp && vscode.l10n.t('Started {0}', new Date(thread.timestamp).toLocaleString()),
            thread.model && vscode.l10n.t('Model {0}', shownText(thread.model)),
          ]
            .filter(Boolean)
            .join(' · '),
        ]);
        item.contextValue = 'thread';
        item.accessibilityInformation = {
          label: item.description ? vscode.l10n.t('Thread {0}, started {1}', threadTitle(thread), item.description as string) : vscode.l10n.t('Thread {0}', threadTitle(thread)),
        };
        return item;
      }
      case 'message': {
        const { message } = element;
        // Who said it, then what, in words: "You: Make mean() total", "Agents: Proposal" (not "# Proposal").
        // Server text, cleaned as file names are: no bidi override or control character reorders or hides it.
        const who = shownText(roleName(message.role)) || '?';
        const said = shownText(plainFirstLine(message.content)) || (message.error ? shownText(firstLine(message.error)) : '') || vscode.l10n.t('(empty)');
        const label = message.error ? vscode.l10n.t('{0}, failed: {1}', who, said) : vscode.l10n.t('{0}: {1}', who, said);
        const item = new vscode.TreeItem(label);
        item.id = `thread:${element.threadId}:message:${message.id ?? message.message_id ?? element.index}`;
        item.iconPath = new vscode.ThemeIcon(message.error ? 'error' : roleIcon(message.role));
        item.description = message.created_at ? formatWhen(new Date(message.created_at)) : undefined;
        const md = new vscode.MarkdownString();
        md.appendMarkdown(`**${escapeMd(who)}**\n\n`);
        md.appendText((message.content ?? message.error ?? '').slice(0, 2000).split(/\r?\n/).map(shownText).join('\n'));
        item.tooltip = md;
        item.contextValue = 'threadMessage';
        item.accessibilityInformation = { label };
        item.command = { command: Commands.openTranscript, title: vscode.l10n.t('Open Transcript'), arguments: [element.threadId] };
        return item;
      }
      case 'notice':
        return noticeItem(element);
      case 'loadMore':
        return loadMoreItem(Commands.loadMoreThreads);
    }
  }

  /**
   * True while the first page (or one after an empty list) is read: the view then says "Loading…", so
   * neither "Set an API key" nor "No threads yet" shows before the key and the list are known.
   */
  get loading(): boolean {
    return this.firstPage.loading;
  }

  private setListedNone(none: boolean): void {
    if (this.listedNoneNow === none) return;
    this.listedNoneNow = none;
    this.listedNoneChanged.fire(none);
  }

  private roots(): Promise<ThreadsTreeNode[]> {
    return this.firstPage.read(() => this.readRoots());
  }

  private async readRoots(): Promise<ThreadsTreeNode[]> {
    try {
      const list = await this.store.list();
      if (list.kind === 'noKey') this.setListedNone(false);
      else if (list.kind === 'loaded' && !list.threads.length) this.setListedNone(true);
      // No key: an empty tree, so the welcome content offers "Set API Key" and nothing is sent.
      if (list.kind === 'noKey') return [];
      if (list.kind === 'unavailable') return [notice(notOnEarlierForm('threads'))];
      const nodes = list.threads.map(thread => {
        const node: ThreadNode = this.nodes.get(String(thread.id)) ?? { kind: 'thread', thread };
        node.thread = thread;
        return node;
      });
      this.nodes = new Map(nodes.map(n => [String(n.thread.id), n]));
      return list.hasMore ? [...nodes, { kind: 'loadMore' }] : nodes;
    } catch (e) {
      return [errorNotice(vscode.l10n.t('Could not load the threads'), e, Commands.refreshThreads)];
    }
  }
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

