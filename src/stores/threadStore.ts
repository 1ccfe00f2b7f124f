/**
 * The service's threads and their messages: pages the list, caches what was read until a refresh, knows
 * that the earlier API form has no threads, and fires `onDidChange` when something shown may differ.
 * The Threads view and the transcripts render from it; commands act on it.
 */
import * as vscode from 'vscode';
import type { Thread, ThreadMessage } from '../api';
import { shownText } from '../api/filenames';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import type { Config } from '../config';
import { ContextKeys, StateKeys } from '../constants';
import { Disposable } from '../disposable';
import { firstLine } from '../format';
import type { TaskChange, TaskStore } from '../tasks/store/taskStore';
import { onServiceChange } from './follow';
import { PagedList } from './paging';

const PAGE_SIZE = 20;
/** Hidden thread ids kept at most. */
const MAX_HIDDEN = 500;

/** What the list is: no key (nothing asked), the earlier API form (no threads there), or a page. */
export type ThreadListing =
  | { kind: 'noKey' }
  | { kind: 'unavailable' }
  | { kind: 'loaded'; threads: Thread[]; hasMore: boolean };

export interface ThreadChange {
  /** The thread whose messages (or title) changed; undefined: the whole list. */
  threadId?: string;
}

export function threadTitle(thread: Pick<Thread, 'id' | 'title' | 'user_input'>): string {
  // Server text: no bidi override or control character reorders or hides what the title shows (as file names).
  const line = (text: string | null | undefined) => shownText(firstLine(text, 60));
  return line(thread.title) || line(thread.user_input) || vscode.l10n.t('Thread {0}', thread.id);
}

/** When a finished run's messages are read again (the service saves them a moment after the completion), ms. */
const SAVED_MESSAGES_RECHECK_MS = [1000, 4000];

export class ThreadStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ThreadChange>());
  readonly onDidChange = this.changed.event;

  private readonly pages = new PagedList<Thread>(
    PAGE_SIZE,
    async request => {
      const page = await this.api.client().listThreads(request);
      return { items: page.conversations ?? [], hasMore: !!page.has_more };
    },
    thread => String(thread.id),
  );
  private readonly messages = new Map<string, Promise<ThreadMessage[]>>();
  private readonly details = new Map<string, Thread>();
  /** Ids on the pages read so far, to tell a new thread from a listed one. */
  private readonly listed = new Set<string>();

  /** Threads the user hid from the list (ids, newest last); kept in `memento`, the service keeps the threads. */
  private hidden: Set<string>;

  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
    tasks: TaskStore,
    config: Pick<Config, 'onDidChange'>,
    private readonly memento?: vscode.Memento,
  ) {
    super();
    const kept = memento?.get<unknown>(StateKeys.hiddenThreads);
    this.hidden = new Set(Array.isArray(kept) ? kept.filter((id): id is string => typeof id === 'string' && /^\d{1,20}$/.test(id)) : []);
    // The context key starts unset (false): activation sends it only when threads were hidden before.
    if (this.hidden.size) void this.tellHidden();
    this._register(onServiceChange({ config, keys }, () => this.refresh()));
    // A run in a thread adds messages when it is sent and when it ends. The service writes a finished run's
    // messages just after it reports the task completed, so a finished run is read again a moment later.
    this._register(
      tasks.onDidChange(e => {
        if (this.followSavedTo(e)) return;
        const threadId = e.task.threadId;
        if (!threadId || (e.kind !== 'finished' && e.kind !== 'added')) return;
        this.refreshThread(threadId);
        if (e.kind === 'finished') this.refreshLater(threadId);
      }),
    );
    for (const task of tasks.all()) if (task.conversationId) this.savedTo.set(task.id, task.conversationId);
    this._register({ dispose: () => this.laterTimers.forEach(clearTimeout) });
  }

  private readonly laterTimers = new Set<NodeJS.Timeout>();
  /** The thread each task was saved to, as last seen. */
  private readonly savedTo = new Map<string, string>();

  /**
   * A task the service saved to a thread it made (a plain run: "Thread #1" in the result): the Threads view
   * lists it without a manual refresh (issue 26). True when handled here.
   */
  private followSavedTo(e: TaskChange): boolean {
    if (e.kind === 'removed') {
      this.savedTo.delete(e.task.id);
      return false;
    }
    const saved = e.task.conversationId;
    if (!saved || e.kind === 'progress' || this.savedTo.get(e.task.id) === saved) return false;
    this.savedTo.set(e.task.id, saved);
    if (e.task.threadId === saved && e.kind === 'finished') return false; // followed as a run in a thread below
    this.refreshThread(saved);
    this.refreshLater(saved);
    return true;
  }

  private refreshLater(threadId: string): void {
    for (const ms of SAVED_MESSAGES_RECHECK_MS) {
      const timer = setTimeout(() => {
        this.laterTimers.delete(timer);
        this.refreshThread(threadId);
      }, ms);
      this.laterTimers.add(timer);
    }
  }

  /** Forgets everything read; the next read asks the service again. */
  refresh(): void {
    this.pages.reset();
    this.messages.clear();
    this.details.clear();
    this.listed.clear();
    this.changed.fire({});
  }

  /** A thread not listed yet (a task's new thread): the list is read again as far as it was shown. */
  private relist(): void {
    this.pages.reload();
    this.changed.fire({});
  }

  /** Forgets one thread's messages (or the list, when that thread was not read yet). */
  refreshThread(threadId: string): void {
    if (!this.listed.has(threadId)) return this.relist();
    this.messages.delete(threadId);
    this.details.delete(threadId);
    this.changed.fire({ threadId });
  }

  /** The first page is read on demand and cached; a failed read is not cached. */
  async list(): Promise<ThreadListing> {
    if (!(await this.keys.getApiKey())) return { kind: 'noKey' };
    const client = this.api.client();
    if (client.form === 'earlier') return { kind: 'unavailable' };
    const { items: threads, hasMore } = await this.pages.first();
    for (const t of threads) this.listed.add(String(t.id));
    const shown = threads.filter(t => !this.hidden.has(String(t.id)));
    return { kind: 'loaded', threads: shown.map(t => this.details.get(String(t.id)) ?? t), hasMore };
  }

  /** Hides a thread from the list (and the pickers); the service keeps it. */
  async hide(threadId: string): Promise<void> {
    this.hidden.delete(threadId);
    this.hidden.add(threadId);
    await this.keepHidden();
  }

  /** Shows the hidden threads again; returns how many there were. */
  async showHidden(ids?: readonly string[]): Promise<number> {
    const before = this.hidden.size;
    if (ids) ids.forEach(id => this.hidden.delete(id));
    else this.hidden.clear();
    await this.keepHidden();
    return before - this.hidden.size;
  }

  get hiddenCount(): number {
    return this.hidden.size;
  }

  private async keepHidden(): Promise<void> {
    // Bounded: the oldest hidden ids go first (a thread that old has long left the service's newest 20).
    const ids = [...this.hidden].slice(-MAX_HIDDEN);
    this.hidden = new Set(ids);
    await this.memento?.update(StateKeys.hiddenThreads, ids);
    await this.tellHidden();
    this.changed.fire({});
  }

  private async tellHidden(): Promise<void> {
    await vscode.commands.executeCommand('setContext', ContextKeys.hasHiddenThreads, this.hidden.size > 0);
  }

  /** The threads read so far (the first page read on demand). */
  async threads(): Promise<Thread[]> {
    const list = await this.list();
    return list.kind === 'loaded' ? list.threads : [];
  }

  async loadMore(): Promise<void> {
    if (await this.pages.more()) this.changed.fire({});
  }

  /** A thread's messages (agent status lines left out), read once until refreshed; also re-reads its title. */
  messagesOf(threadId: string): Promise<ThreadMessage[]> {
    let pending = this.messages.get(threadId);
    if (!pending) {
      const client = this.api.client();
      pending = Promise.all([client.listThreadMessages(threadId), client.getThread(threadId).catch(() => undefined)]).then(([list, thread]) => {
        if (thread) this.details.set(threadId, thread);
        return (list.messages ?? []).filter(m => !m.is_agent_status);
      });
      this.messages.set(threadId, pending);
      const settled = pending;
      pending.catch(() => {
        if (this.messages.get(threadId) === settled) this.messages.delete(threadId);
      });
    }
    return pending;
  }

  /** A thread and its whole transcript, read fresh (for the transcript document). */
  async transcript(threadId: string): Promise<{ thread: Thread; messages: ThreadMessage[]; truncated: boolean }> {
    const client = this.api.client();
    const [thread, list] = await Promise.all([client.getThread(threadId), client.listThreadMessages(threadId)]);
    return { thread, messages: list.messages ?? [], truncated: !!list.truncated };
  }

  /** The thread as last read, if it was. */
  known(threadId: string): Thread | undefined {
    return this.details.get(threadId);
  }

  async get(threadId: string): Promise<Thread> {
    return this.details.get(threadId) ?? this.api.client().getThread(threadId);
  }

  async create(title: string | undefined): Promise<Thread> {
    const thread = await this.api.client().createThread({ title });
    this.refresh();
    return thread;
  }

  /** The earlier API form has no threads. */
  get available(): boolean {
    return this.api.client().form !== 'earlier';
  }
}
