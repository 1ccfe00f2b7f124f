/**
 * The result view: one webview per task (its page is resultPage.ts). While the task runs, progress goes into
 * the page in place; every message from the page is checked before anything runs (resultMessages.ts,
 * teamMessages.ts). Open views come back after a reload (`restore`, which the stand-in in onFirstUse.ts calls:
 * this module loads on first use, lazy.ts), or close when their task is gone.
 */
import * as vscode from 'vscode';
import { Commands, WebviewTypes } from '../../constants';
import { extensionColumn, isExtensionTab } from '../../documents/editorGroups';
import { Disposable } from '../../disposable';
import type { ResultView } from '../../tasks/resultView';
import { type TrackedTask, isFinished } from '../../tasks/model';
import { readTaskAnswer } from '../../documents/answers';
import type { AnswerBlock } from '../../review';
import { applyWayOf, isInsertable, offer, offersOf } from '../../tasks/offers';
import type { TaskChange, TaskStore } from '../../tasks/store/taskStore';
import { nonce, webviewPage } from './webviewPage';
import { escapeHtml } from './markdown';
import { validMessage } from './resultMessages';
import type { TraceReading, TraceStore } from '../../stores/traceStore';
import { type TeamAction, validTeamMessage } from './teamMessages';
import type { PollingState } from '../notifiers/statusBar';
import type { CheckStore } from '../../tasks/checking/store';
import { type ProgressMessage, type TeamHtml, progressMessage, renderResultHtml, titleOf } from './resultPage';
import { finishedTeamHtml, runningTeamHtml, teamMeta, traceBody } from './teamSections';

interface Open {
  panel: vscode.WebviewPanel;
  /** The answer's blocks as the reader read them: Copy copies their text, Apply… follows their kind. */
  blocks: AnswerBlock[];
  /** The trace as last read into this view, and whether its section is open. */
  trace?: TraceReading;
  traceOpen?: boolean;
  /**
   * The status the page shows while it is the running view: progress then goes to the page as a message,
   * not as a new page. A new page per event flickers, loses the scroll and can take the focus (a quick
   * input the user is typing in closes).
   */
  live?: string;
  /** What the running page was last sent in place (tests read it, as they read the html). */
  lastProgress?: ProgressMessage;
}

/** How many result views stay open; the oldest hidden, unpinned ones beyond it close (issue 35 item 9). */
export const MAX_RESULT_VIEWS = 5;

export class ResultPanels extends Disposable implements ResultView {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly store: TaskStore,
    private readonly traces?: TraceStore,
    /** Why polling waits: a running view then says so instead of looking busy. */
    private readonly polling?: PollingState,
    /** The checks running now: the view's Checks section says "checking…" with Cancel while one runs. */
    private readonly checks?: CheckStore,
  ) {
    super();
    this._register(store.onDidChange(e => void this.onStoreChange(e)));
    if (checks) {
      this._register(
        checks.onDidChange(id => {
          const task = this.open.has(id) ? store.get(id) : undefined;
          if (task) void this.render(task);
        }),
      );
    }
    if (polling) {
      this._register(
        polling.onDidChange(() => {
          for (const id of this.open.keys()) {
            const task = store.get(id);
            if (task && !isFinished(task)) void this.render(task);
          }
        }),
      );
    }
    this._register({ dispose: () => [...this.open.values()].forEach(o => o.panel.dispose()) });
  }

  /** A view VS Code brings back after a reload: it shows its task again, or closes when the task is gone. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = (state as { taskId?: unknown } | undefined)?.taskId;
    const task = typeof id === 'string' ? this.store.get(id) : undefined;
    // A restored view whose task is gone closes, instead of leaving an empty tab or group behind.
    if (!task) return panel.dispose();
    await this.adopt(panel, task);
  }

  /** The task of the focused result view. */
  activeTaskId(): string | undefined {
    for (const [id, o] of this.open) if (o.panel.active) return id;
    return undefined;
  }

  /** What a task's running view was last sent in place, if anything since its page was drawn (tests read it). */
  liveOf(taskId: string): ProgressMessage | undefined {
    return this.open.get(taskId)?.lastProgress;
  }

  /** The open view of a task (tests read its html). */
  panelOf(taskId: string): vscode.WebviewPanel | undefined {
    return this.open.get(taskId)?.panel;
  }

  /** `options.fromChat`: opened by a button under a chat answer (editorGroups.ts `extensionColumn`: no column of its own). */
  async show(task: TrackedTask, options: { preserveFocus?: boolean; fromChat?: boolean } = {}): Promise<vscode.WebviewPanel> {
    const existing = this.open.get(task.id);
    if (existing) {
      // The newest again, for the cap below.
      this.open.delete(task.id);
      this.open.set(task.id, existing);
      existing.panel.reveal(undefined, options.preserveFocus);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      WebviewTypes.result,
      titleOf(task),
      { viewColumn: extensionColumn(options.fromChat ? 'chat' : undefined), preserveFocus: options.preserveFocus ?? false },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], enableFindWidget: true },
    );
    await this.adopt(panel, task);
    this.closeOldest(task.id);
    return panel;
  }

  /**
   * Result views do not pile up (issue 35 item 9: 16 tabs after an hour): past MAX_RESULT_VIEWS the oldest are
   * closed, never the one just shown, a visible one or one the user pinned. Each opens again from its task.
   */
  private closeOldest(keep: string): void {
    let extra = this.open.size - MAX_RESULT_VIEWS;
    if (extra <= 0) return;
    const pinned = new Set(
      vscode.window.tabGroups.all
        .flatMap(group => group.tabs)
        .filter(tab => tab.isPinned && tab.input instanceof vscode.TabInputWebview && isExtensionTab(tab))
        .map(tab => tab.label),
    );
    for (const [id, o] of [...this.open]) {
      if (extra <= 0) break;
      if (id === keep || o.panel.visible || pinned.has(o.panel.title)) continue;
      o.panel.dispose();
      extra--;
    }
  }

  private async adopt(panel: vscode.WebviewPanel, task: TrackedTask): Promise<void> {
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [] };
    panel.title = titleOf(task);
    // Known as open at once: a task that ends while the trace is read must not be told as "not open" (its toast would offer Open).
    const entry: Open = { panel, blocks: [] };
    this.open.set(task.id, entry);
    // At once, before anything is read: a new view was blank white while its answer was read (issue 35).
    panel.webview.html = openingHtml(task);
    entry.trace = await this.traces?.cached(task.id);
    panel.onDidDispose(() => {
      if (this.open.get(task.id)?.panel === panel) this.open.delete(task.id);
    });
    panel.webview.onDidReceiveMessage(message => void this.onMessage(task.id, entry, message));
    await this.render(task);
  }

  private async onStoreChange(e: TaskChange): Promise<void> {
    const entry = this.open.get(e.task.id);
    if (!entry) return;
    if (e.kind === 'removed') return entry.panel.dispose();
    // A trace read while the task ran is read again once it finished (the service saved the rest by then).
    if (e.kind === 'finished' && entry.trace?.kind === 'loaded' && entry.trace.partial && this.traces) {
      entry.trace = await this.traces.load(e.task.id, { refresh: true });
      if (!this.isOpen(e.task.id, entry)) return;
    }
    // Progress goes into the running page in place (see `Open.live`).
    if (e.kind === 'progress' && entry.live === e.task.status && !this.polling?.pausedReason) {
      entry.lastProgress = progressMessage(e.task);
      post(entry, entry.lastProgress);
      return;
    }
    await this.render(e.task);
  }

  private async render(shown: TrackedTask): Promise<void> {
    const entry = this.open.get(shown.id);
    if (!entry) return;
    // The record as it is now: a view opened with the record of its submission (opened on submit) may be drawn
    // after the task ended, and must not draw it as running (nothing would redraw it).
    const task = this.store.get(shown.id) ?? shown;
    const result = task.status === 'completed' ? await this.store.readResult(task.id) : undefined;
    // Closed while the result was read: a disposed webview takes no html ("Webview is disposed").
    if (!this.isOpen(task.id, entry)) return;
    entry.blocks = result ? readTaskAnswer(task, result).blocks : [];
    entry.panel.title = titleOf(task);
    const team: TeamHtml = {
      meta: teamMeta(task),
      running: runningTeamHtml(task),
      finished: finishedTeamHtml(task, entry.trace, entry.traceOpen ?? false),
    };
    const waiting = this.polling?.pausedReason;
    entry.live = !isFinished(task) && !waiting ? task.status : undefined;
    entry.lastProgress = undefined;
    entry.panel.webview.html = renderResultHtml(task, result, entry.panel.webview.cspSource, nonce(), team, waiting, this.checks?.runningOf(task.id));
  }

  /** Opens the task's view with its trace section open, loading the trace (Show How the Team Worked). */
  async showTrace(task: TrackedTask): Promise<void> {
    await this.show(task);
    const entry = this.open.get(task.id);
    if (entry) await this.loadTrace(task.id, entry, true);
  }

  /** Reads the trace (cache first) and puts it into the open section without redrawing the page; `reveal` scrolls to it. */
  private async loadTrace(taskId: string, entry: Open, reveal = false): Promise<void> {
    if (!this.traces) return;
    entry.traceOpen = true;
    entry.trace = await this.traces.load(taskId, { refresh: entry.trace?.kind === 'loaded' ? entry.trace.partial : true });
    if (this.isOpen(taskId, entry)) post(entry, { type: 'trace', html: traceBody(entry.trace), reveal });
  }

  /** The entry is still the task's open view (not closed, nor replaced, while something was awaited). */
  private isOpen(taskId: string, entry: Open): boolean {
    return this.open.get(taskId) === entry;
  }

  private async onTeamMessage(taskId: string, entry: Open, m: { type: TeamAction; index?: number }): Promise<void> {
    if (m.type === 'loadTrace') return this.loadTrace(taskId, entry);
    await vscode.commands.executeCommand(TEAM_FORWARDED[m.type], taskId, ...(m.index === undefined ? [] : [m.index]));
  }

  private async onMessage(taskId: string, entry: Open, message: unknown): Promise<void> {
    const task = this.store.get(taskId);
    const team = validTeamMessage(message, taskId, { files: task?.files?.length ?? 0, sources: task?.sources?.length ?? 0 });
    if (team) return this.onTeamMessage(taskId, entry, team);
    // The page may ask for exactly what the task offers here now (tasks/offers.ts), and for its blocks' Copy and Apply….
    const m = validMessage(message, taskId, entry.blocks.length, task ? offersOf({ ...task, checking: !!this.checks?.runningOf(taskId) }, 'view') : []);
    if (!m) return;
    if (m.type === 'offer') {
      const done = await vscode.commands.executeCommand(m.offer.command, taskId, ...(m.text === undefined ? [] : [m.text]));
      // The follow-up's words went with the message and left the box: when no task was sent (no key given, the service
      // out of reach, a question declined), they go back into it.
      if (m.text !== undefined && !done) post(entry, { type: 'draft', text: m.text });
      return;
    }
    if (m.type === 'copy') {
      await vscode.env.clipboard.writeText(entry.blocks[m.block!].body);
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Code block {0} copied', m.block! + 1), 3000);
      return;
    }
    // Insert… is on a block for the sent range that shows no place there: that block goes in at the cursor.
    if (m.type === 'insert') {
      if (!task || !isInsertable(entry.blocks[m.block])) return;
      await vscode.commands.executeCommand(offer('insert').command, taskId, m.block);
      return;
    }
    // Apply… exists only on a block it can do something with (the page is ours, but the message is checked).
    if (!task || !applyWayOf(entry.blocks[m.block], task)) return;
    await vscode.commands.executeCommand(offer('apply').command, taskId, m.block);
  }
}

/** The team sections' buttons for a produced file or a source, and the command each runs (with the task id and its index). */
const TEAM_FORWARDED: Record<Exclude<TeamAction, 'loadTrace'>, string> = {
  openFile: Commands.openProducedFile,
  saveFile: Commands.saveProducedFileAs,
  attachFile: Commands.attachProducedFile,
  openSource: Commands.openSource,
};

/** What a view shows the moment it opens, until its page is drawn: its title and a word, in the theme's colours. */
function openingHtml(task: TrackedTask): string {
  const once = nonce();
  return webviewPage({
    csp: `default-src 'none'; style-src 'nonce-${once}'; script-src 'nonce-${once}'`,
    nonce: once,
    title: titleOf(task),
    style: 'body { font-family: var(--vscode-font-family); background: var(--vscode-editor-background); color: var(--vscode-descriptionForeground); padding: 0 20px; }',
    body: `<h1>${escapeHtml(task.title)}</h1><p role="status">${escapeHtml(vscode.l10n.t('Opening…'))}</p>`,
    script: '',
  });
}

/**
 * Posts to a view's page. A view closed while the message was on its way rejects it ("Webview is disposed"):
 * nothing is left to show it to, so that is no error (it was an unhandled rejection, issue 25).
 */
function post(entry: Open, message: unknown): void {
  entry.panel.webview.postMessage(message).then(undefined, () => undefined);
}
