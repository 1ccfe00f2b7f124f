/**
 * The Threads view: the service's threads, paged, each expanding into its messages. Pages and messages are
 * cached until a refresh; a finished thread run refreshes only that thread.
 */
import * as vscode from 'vscode';
import type { Thread, ThreadMessage } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { Commands, THREAD_SCHEME } from '../constants';
import { Disposable } from '../disposable';
import type { TaskStore } from '../tasks/taskStore';
import { firstLine, formatWhen } from './format';

const PAGE_SIZE = 20;
const earlierFormNotice = () => vscode.l10n.t('Threads are not available on the earlier API form (…/api/developer)');

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
export interface ThreadNoticeNode {
  readonly kind: 'notice';
  readonly label: string;
  readonly detail?: string;
  readonly icon: string;
  readonly command?: vscode.Command;
}
export interface LoadMoreNode {
  readonly kind: 'loadMore';
}
export type ThreadsTreeNode = ThreadNode | MessageNode | ThreadNoticeNode | LoadMoreNode;

export function threadTitle(thread: Pick<Thread, 'id' | 'title' | 'user_input'>): string {
  return firstLine(thread.title, 60) || firstLine(thread.user_input, 60) || vscode.l10n.t('Thread {0}', thread.id);
}

/** `multi-agent-thread:/12/My thread.md`: the title names the tab. */
export function transcriptUri(thread: Pick<Thread, 'id' | 'title' | 'user_input'>): vscode.Uri {
  const name = threadTitle(thread).replace(/[\\/:*?"<>|#%\u0000-\u001f]/g, ' ').replace(/\s+/g, ' ').trim() || 'Thread';
  return vscode.Uri.from({ scheme: THREAD_SCHEME, path: `/${thread.id}/${name}.md` });
}

export function threadIdOfTranscript(uri: vscode.Uri): string | undefined {
  return uri.scheme === THREAD_SCHEME ? uri.path.split('/')[1] || undefined : undefined;
}

export class ThreadsTreeProvider extends Disposable implements vscode.TreeDataProvider<ThreadsTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ThreadsTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly threadChanged = this._register(new vscode.EventEmitter<string>());
  /** A thread got new messages (its id); the transcript provider listens. */
  readonly onDidChangeThread = this.threadChanged.event;

  private page: { nodes: ThreadNode[]; hasMore: boolean } | undefined;
  private readonly messages = new Map<string, ThreadMessage[]>();
  private generation = 0;

  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
    store: TaskStore,
  ) {
    super();
    this._register(
      store.onDidChange(e => {
        const threadId = e.task.threadId;
        if (threadId && (e.kind === 'finished' || e.kind === 'added')) this.refreshThread(threadId);
      }),
    );
  }

  /** Forgets everything loaded; the view asks again. */
  refresh(): void {
    this.generation++;
    this.page = undefined;
    this.messages.clear();
    this.changed.fire(undefined);
  }

  /** Re-reads one thread's messages (and its title), or the whole list when the thread is not shown yet. */
  refreshThread(threadId: string): void {
    this.messages.delete(threadId);
    this.threadChanged.fire(threadId);
    const node = this.page?.nodes.find(n => String(n.thread.id) === threadId);
    if (node) this.changed.fire(node);
    else this.refresh();
  }

  async loadMore(): Promise<void> {
    if (!this.page?.hasMore) return;
    const generation = this.generation;
    const more = await this.api.client().listThreads({ limit: PAGE_SIZE, offset: this.page.nodes.length });
    if (generation !== this.generation || !this.page) return;
    const known = new Set(this.page.nodes.map(n => String(n.thread.id)));
    const fresh = (more.conversations ?? []).filter(t => !known.has(String(t.id)));
    this.page = {
      nodes: [...this.page.nodes, ...fresh.map(thread => ({ kind: 'thread' as const, thread }))],
      hasMore: !!more.has_more && fresh.length > 0,
    };
    this.changed.fire(undefined);
  }

  /** The loaded threads (first page loaded on demand). */
  async threads(): Promise<Thread[]> {
    const nodes = await this.getChildren();
    return nodes.filter((n): n is ThreadNode => n.kind === 'thread').map(n => n.thread);
  }

  async getChildren(element?: ThreadsTreeNode): Promise<ThreadsTreeNode[]> {
    if (!element) return this.roots();
    if (element.kind !== 'thread') return [];
    const id = String(element.thread.id);
    try {
      let messages = this.messages.get(id);
      if (!messages) {
        const client = this.api.client();
        const [list, thread] = await Promise.all([client.listThreadMessages(id), client.getThread(id).catch(() => undefined)]);
        messages = (list.messages ?? []).filter(m => !m.is_agent_status);
        this.messages.set(id, messages);
        if (thread) element.thread = thread;
      }
      if (!messages.length) return [{ kind: 'notice', label: vscode.l10n.t('No messages yet'), icon: 'info' }];
      return messages.map((message, index) => ({ kind: 'message', threadId: id, message, index }));
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
        const md = new vscode.MarkdownString();
        md.appendMarkdown('**');
        md.appendText(threadTitle(thread));
        md.appendMarkdown('**\n\n');
        md.appendText(
          [
            vscode.l10n.t('Thread {0}', thread.id),
            thread.timestamp && vscode.l10n.t('Started {0}', new Date(thread.timestamp).toLocaleString()),
            thread.model && vscode.l10n.t('Model {0}', thread.model),
          ]
            .filter(Boolean)
            .join(' · '),
        );
        item.tooltip = md;
        item.contextValue = 'thread';
        return item;
      }
      case 'message': {
        const { message } = element;
        const item = new vscode.TreeItem(firstLine(message.content) || (message.error ? firstLine(message.error) : vscode.l10n.t('(empty)')));
        item.id = `thread:${element.threadId}:message:${message.id ?? message.message_id ?? element.index}`;
        item.iconPath = new vscode.ThemeIcon(message.error ? 'error' : roleIcon(message.role));
        item.description = message.created_at ? formatWhen(new Date(message.created_at)) : undefined;
        const md = new vscode.MarkdownString();
        md.appendMarkdown(`**${escapeMd(roleName(message.role))}**\n\n`);
        md.appendText((message.content ?? message.error ?? '').slice(0, 2000));
        item.tooltip = md;
        item.contextValue = 'threadMessage';
        item.command = { command: Commands.openTranscript, title: vscode.l10n.t('Open Transcript'), arguments: [element.threadId] };
        return item;
      }
      case 'notice': {
        const item = new vscode.TreeItem(element.label);
        item.iconPath = new vscode.ThemeIcon(element.icon);
        item.tooltip = element.detail;
        item.command = element.command;
        item.contextValue = 'notice';
        return item;
      }
      case 'loadMore': {
        const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: Commands.loadMoreThreads, title: vscode.l10n.t('Load More') };
        item.contextValue = 'loadMore';
        return item;
      }
    }
  }

  private async roots(): Promise<ThreadsTreeNode[]> {
    // No key: an empty tree, so the welcome content offers "Set API Key" and nothing is sent.
    if (!(await this.keys.getApiKey())) return [];
    try {
      const client = this.api.client();
      if (client.form === 'earlier') return [{ kind: 'notice', label: earlierFormNotice(), icon: 'info' }];
      if (!this.page) {
        const generation = this.generation;
        const first = await client.listThreads({ limit: PAGE_SIZE, offset: 0 });
        const page = { nodes: (first.conversations ?? []).map(thread => ({ kind: 'thread' as const, thread })), hasMore: !!first.has_more };
        if (generation === this.generation) this.page = page;
        else return this.roots();
      }
      return this.page.hasMore ? [...this.page.nodes, { kind: 'loadMore' }] : this.page.nodes;
    } catch (e) {
      return [errorNotice(vscode.l10n.t('Could not load the threads'), e, Commands.refreshThreads)];
    }
  }
}

/** "You", "Agents", or the service's role name. */
function roleName(role: string): string {
  if (role === 'user') return vscode.l10n.t('You');
  if (role === 'assistant') return vscode.l10n.t('Agents');
  return role;
}

function roleIcon(role: string): string {
  if (role === 'user') return 'account';
  if (role === 'assistant') return 'hubot';
  return 'gear';
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function errorNotice(what: string, error: unknown, retry?: string): ThreadNoticeNode {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'notice',
    label: `${what}: ${message}`,
    detail: retry ? `${message}\n\n${vscode.l10n.t('Click to try again.')}` : message,
    icon: 'warning',
    command: retry ? { command: retry, title: vscode.l10n.t('Retry') } : undefined,
  };
}

/** The whole thread as a read-only markdown document, fetched when opened. */
export class ThreadTranscriptProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly api: ApiService,
    threads: ThreadsTreeProvider,
  ) {
    super();
    this._register(
      threads.onDidChangeThread(id => {
        for (const doc of vscode.workspace.textDocuments) if (threadIdOfTranscript(doc.uri) === id) this.changed.fire(doc.uri);
      }),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = threadIdOfTranscript(uri);
    if (!id) return `# ${vscode.l10n.t('Thread not found')}\n`;
    try {
      const client = this.api.client();
      const [thread, list] = await Promise.all([client.getThread(id), client.listThreadMessages(id)]);
      return renderTranscript(thread, list.messages ?? [], !!list.truncated);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return `# ${vscode.l10n.t('Thread {0}', id)}\n\n${vscode.l10n.t('The transcript could not be loaded: {0}', reason)}\n`;
    }
  }
}

export function renderTranscript(thread: Thread, messages: readonly ThreadMessage[], truncated: boolean): string {
  const out = [`# ${threadTitle(thread)}`, ''];
  const meta = [
    vscode.l10n.t('Thread {0}', thread.id),
    thread.timestamp && vscode.l10n.t('started {0}', new Date(thread.timestamp).toLocaleString()),
    thread.model && vscode.l10n.t('model {0}', thread.model),
  ];
  out.push(`_${meta.filter(Boolean).join(' · ')}_`, '');
  if (truncated) out.push(`> ${vscode.l10n.t('Older messages were left out by the service.')}`, '');
  for (const m of messages.filter(m => !m.is_agent_status)) {
    const who = roleName(m.role);
    const when = m.created_at ? ` · ${new Date(m.created_at).toLocaleString()}` : '';
    out.push(`## ${who}${when}`, '');
    if (m.content) out.push(m.content.trimEnd(), '');
    if (m.error) out.push(`> ${vscode.l10n.t('Error: {0}', m.error)}`, '');
  }
  if (!messages.length) out.push(vscode.l10n.t('No messages yet.'), '');
  return out.join('\n');
}
