/**
 * The result view: one webview per task with a header (instruction, model, agents, duration, source,
 * attachments), the answer rendered by our own inert markdown renderer, and Copy / Apply per code block.
 * While the task runs it shows each agent's state and an elapsed time that ticks. Strict CSP with a nonce,
 * no command links, no remote content; every message from the page is checked before anything runs.
 * Open views come back after a reload (a serializer), or close when their task is gone.
 */
import * as vscode from 'vscode';
import { Commands, RESULT_VIEW_TYPE } from '../constants';
import { extensionColumn } from '../documents/editorGroups';
import { Disposable } from '../disposable';
import { lazy } from '../lazy';
import { formatDuration } from '../format';
import type { ResultView } from '../tasks/resultView';
import { type TrackedTask, displayLines, isAwaitingApproval, isFinished, modelOf } from '../tasks/model';
import { readOptionsOf, readTaskAnswer } from '../documents/answers';
import type { AnswerBlock } from '../review';
import { type TaskOffer, applyWayOf, offer, offersOf } from '../tasks/offers';
import type { TaskChange, TaskStore } from '../tasks/taskStore';
import { escapeHtml, renderMarkdown } from './markdown';
import { nonce, webviewPage } from './webviewPage';
import { validMessage } from './resultMessages';
import type { TraceReading, TraceStore } from '../stores/traceStore';
import { agentStatusLabel, agentWords } from '../vocabulary';
import type * as TeamSections from './teamSections';
import { type TeamAction, validTeamMessage } from './teamMessages';
import { RENDERED_PAGE_STYLE } from './pageStyle';
import type { PollingState } from './statusBar';

/** The team's work, trace, files and sources: loaded with the first result page, not at activation (lazy.ts). */
const teamSections = lazy<typeof TeamSections>('team');

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

export class ResultPanels extends Disposable implements ResultView {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly store: TaskStore,
    private readonly traces?: TraceStore,
    /** Why polling waits: a running view then says so instead of looking busy. */
    private readonly polling?: PollingState,
  ) {
    super();
    this._register(store.onDidChange(e => void this.onStoreChange(e)));
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
    this._register(
      vscode.window.registerWebviewPanelSerializer(RESULT_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          const id = (state as { taskId?: unknown } | undefined)?.taskId;
          const task = typeof id === 'string' ? store.get(id) : undefined;
          // A restored view whose task is gone closes, instead of leaving an empty tab or group behind.
          if (!task) return panel.dispose();
          await this.adopt(panel, task);
        },
      }),
    );
    this._register({ dispose: () => [...this.open.values()].forEach(o => o.panel.dispose()) });
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

  async show(task: TrackedTask, options: { preserveFocus?: boolean } = {}): Promise<vscode.WebviewPanel> {
    const existing = this.open.get(task.id);
    if (existing) {
      existing.panel.reveal(undefined, options.preserveFocus);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      RESULT_VIEW_TYPE,
      titleOf(task),
      { viewColumn: extensionColumn(), preserveFocus: options.preserveFocus ?? false },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], enableFindWidget: true },
    );
    await this.adopt(panel, task);
    return panel;
  }

  private async adopt(panel: vscode.WebviewPanel, task: TrackedTask): Promise<void> {
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [] };
    panel.title = titleOf(task);
    // Known as open at once: a task that ends while the trace is read must not be told as "not open" (its toast would offer Open).
    const entry: Open = { panel, blocks: [] };
    this.open.set(task.id, entry);
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

  private async render(task: TrackedTask): Promise<void> {
    const entry = this.open.get(task.id);
    if (!entry) return;
    const result = task.status === 'completed' ? await this.store.readResult(task.id) : undefined;
    // Closed while the result was read: a disposed webview takes no html ("Webview is disposed").
    if (!this.isOpen(task.id, entry)) return;
    entry.blocks = result ? readTaskAnswer(task, result).blocks : [];
    entry.panel.title = titleOf(task);
    const team: TeamHtml = {
      meta: teamSections().teamMeta(task),
      running: teamSections().runningTeamHtml(task),
      finished: teamSections().finishedTeamHtml(task, entry.trace, entry.traceOpen ?? false),
    };
    const waiting = this.polling?.pausedReason;
    entry.live = !isFinished(task) && !waiting ? task.status : undefined;
    entry.lastProgress = undefined;
    entry.panel.webview.html = renderResultHtml(task, result, entry.panel.webview.cspSource, nonce(), team, waiting);
  }

  /** Opens the task's view with its trace section open, loading the trace (Show How the Team Worked). */
  async showTrace(task: TrackedTask): Promise<void> {
    await this.show(task);
    const entry = this.open.get(task.id);
    if (entry) await this.loadTrace(task.id, entry);
  }

  /** Reads the trace (cache first) and puts it into the open section without redrawing the page. */
  private async loadTrace(taskId: string, entry: Open): Promise<void> {
    if (!this.traces) return;
    entry.traceOpen = true;
    entry.trace = await this.traces.load(taskId, { refresh: entry.trace?.kind === 'loaded' ? entry.trace.partial : true });
    if (this.isOpen(taskId, entry)) post(entry, { type: 'trace', html: teamSections().traceBody(entry.trace) });
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
    const m = validMessage(message, taskId, entry.blocks.length, task ? offersOf(task, 'view') : []);
    if (!m) return;
    if (m.type === 'offer') return void (await vscode.commands.executeCommand(m.offer.command, taskId));
    if (m.type === 'copy') {
      await vscode.env.clipboard.writeText(entry.blocks[m.block!].body);
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Code block {0} copied', m.block! + 1), 3000);
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

/** The markup of the team sections (teamSections.ts), placed into the page. */
interface TeamHtml {
  meta: string;
  running: string;
  finished: string;
}

/** What a running page updates in place (see `Open.live`): the model, the agents and their progress. */
export interface ProgressMessage {
  type: 'progress';
  model: string;
  agentCount: string;
  agents: { label: string; status: string; pct?: number; preview: string }[];
  teamMeta: string;
  teamRunning: string;
}

function progressMessage(task: TrackedTask): ProgressMessage {
  return {
    type: 'progress',
    // Markup from the team sections' own escaping renderer (teamSections.ts), as the trace is sent.
    teamMeta: teamSections().teamMeta(task),
    teamRunning: teamSections().runningTeamHtml(task),
    model: modelOf(task) ?? vscode.l10n.t('service default'),
    agentCount: String(task.agents?.length ?? task.agentCount ?? '—'),
    agents: (task.agents ?? []).map(a => ({
      label: vscode.l10n.t('Agent {0}', a.id),
      status: agentStatusLabel(a.status),
      pct: a.progress !== undefined ? Math.round(a.progress * 100) : undefined,
      preview: a.preview ?? '',
    })),
  };
}

/** Tells reruns apart: the title and the time it was sent. */
function titleOf(task: Pick<TrackedTask, 'title' | 'submittedAt'>): string {
  const time = new Date(task.submittedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${task.title} · ${time}`;
}

function sourceText(task: TrackedTask): string | undefined {
  const s = task.source;
  if (!s) return undefined;
  if (!s.range) return s.label;
  const span = displayLines(s.range);
  return vscode.l10n.t('{0}, lines {1}–{2}', s.label, span.start, span.end);
}

/** The whole page. Pure apart from l10n: its output is checked by the tests. */
function renderResultHtml(task: TrackedTask, result: string | undefined, cspSource: string, nonce: string, team: TeamHtml, waiting?: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'none'; font-src ${cspSource}`;
  const t = (s: string) => escapeHtml(s);
  const running = !isFinished(task);
  const meta: string[] = [];
  meta.push(`<dt>${t(vscode.l10n.t('Model'))}</dt><dd id="model">${t(modelOf(task) ?? vscode.l10n.t('service default'))}</dd>`);
  meta.push(`<dt>${t(vscode.l10n.t('Agents'))}</dt><dd id="agent-count">${t(String(task.agents?.length ?? task.agentCount ?? '—'))}</dd>`);
  const elapsed = formatDuration((task.finishedAt ?? Date.now()) - task.submittedAt);
  meta.push(
    `<dt>${t(running ? vscode.l10n.t('Running for') : vscode.l10n.t('Took'))}</dt><dd><span id="elapsed" data-start="${task.submittedAt}" data-running="${running}">${t(elapsed)}</span></dd>`,
  );
  const offers = offersOf(task, 'view');
  const source = sourceText(task);
  const reveal = offers.find(o => o.id === 'source');
  if (source && reveal) meta.push(`<dt>${t(vscode.l10n.t('Source'))}</dt><dd><button class="link" data-offer="source" title="${t(vscode.l10n.t(reveal.detail!))}">${t(source)}</button></dd>`);
  meta.push(
    `<dt>${t(vscode.l10n.t('Attached'))}</dt><dd>${task.attachmentNames?.length ? task.attachmentNames.map(n => `<code>${t(n)}</code>`).join(', ') : t(vscode.l10n.t('nothing'))}</dd>`,
  );
  meta.push(`<div id="team-meta" class="contents">${team.meta}</div>`);

  // What the task offers here now (tasks/offers.ts), landing an answer first: Review Changes… for an answer that
  // names files (the blocks' own Apply… stays for any block), Cancel Task while it runs (redrawn without it once it ends).
  const buttons = offers.filter(o => o.id !== 'source');
  const actions = [...buttons.filter(o => o.primary), ...buttons.filter(o => !o.primary)].map(o => offerButton(o)).join('');

  let body: string;
  if (running) body = runningHtml(task, waiting) + `<div id="team-running">${team.running}</div>`;
  else if (result !== undefined) {
    body = renderMarkdown(result, {
      read: readOptionsOf(task),
      blockHeader: block => blockBar(task, block),
    });
  } else body = `<p class="error" role="alert">${t(task.error ?? vscode.l10n.t('No result is stored for this task.'))}</p>`;

  return webviewPage({
    csp,
    nonce,
    title: task.title,
    style: `${RENDERED_PAGE_STYLE}
.instruction { white-space: pre-wrap; color: var(--vscode-descriptionForeground); margin: 0 0 8px; }
button.link { background: none; color: var(--vscode-textLink-foreground); padding: 0; text-decoration: underline; }
table.agents td { padding: 2px 12px 2px 0; }
progress { width: 120px; }
.contents { display: contents; }
.block-bar .target { margin-left: 8px; font-family: var(--vscode-editor-font-family); }
.block-bar .kind { margin-left: 8px; }
${teamSections().TEAM_STYLE}`,
    body: `<header>
<h1 class="title">${t(task.title)}</h1>
${task.instruction.trim() === task.title ? '' : `<p class="instruction">${t(task.instruction)}</p>`}
<dl>${meta.join('')}</dl>
<div class="actions">${actions}</div>
</header>
<main id="answer">
${body}
</main>
${team.finished}`,
    script: `
(function () {
  const vscode = acquireVsCodeApi();
  const taskId = ${JSON.stringify(task.id).replace(/</g, '\\u003c')};
  vscode.setState({ taskId });
  document.addEventListener('click', e => {
    const el = e.target instanceof Element ? e.target.closest('[data-action],[data-offer]') : null;
    if (!el) return;
    e.preventDefault();
    const offer = el.getAttribute('data-offer');
    if (offer !== null) return vscode.postMessage({ type: 'offer', offer, taskId });
    const block = el.getAttribute('data-block');
    const index = el.getAttribute('data-index');
    vscode.postMessage({ type: el.getAttribute('data-action'), taskId, block: block === null ? undefined : Number(block), index: index === null ? undefined : Number(index) });
  });
  // The trace loads when its section is first opened; the extension sends it back as markup.
  const trace = document.getElementById('trace');
  if (trace) {
    trace.addEventListener('toggle', () => {
      if (trace.open && trace.dataset.loaded !== 'true') {
        trace.dataset.loaded = 'true';
        vscode.postMessage({ type: 'loadTrace', taskId });
      }
    });
  }
  window.addEventListener('message', e => {
    const m = e.data;
    if (!m || m.type !== 'trace' || typeof m.html !== 'string' || !trace) return;
    trace.dataset.loaded = 'true';
    trace.open = true;
    document.getElementById('trace-body').innerHTML = m.html;
  });
  const elapsed = document.getElementById('elapsed');
  if (elapsed && elapsed.dataset.running === 'true') {
    const start = Number(elapsed.dataset.start);
    const tick = () => {
      const s = Math.max(0, Math.floor((Date.now() - start) / 1000));
      elapsed.textContent = s < 60 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
      setTimeout(tick, 1000);
    };
    tick();
  }
  // A running page is updated in place (the extension's own messages: text, and the team sections' escaped markup).
  window.addEventListener('message', event => {
    const m = event.data;
    if (!m || m.type !== 'progress' || !Array.isArray(m.agents)) return;
    const set = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = String(text); };
    set('model', m.model);
    set('agent-count', m.agentCount);
    const table = document.getElementById('agents');
    if (!table) return;
    table.replaceChildren(...m.agents.map(a => {
      const row = document.createElement('tr');
      const cell = text => { const td = document.createElement('td'); td.textContent = String(text); row.appendChild(td); return td; };
      cell(a.label);
      cell(a.status);
      const bar = cell('');
      if (typeof a.pct === 'number') {
        const progress = document.createElement('progress');
        progress.max = 100;
        progress.value = a.pct;
        bar.append(progress, ' ' + a.pct + '%');
      }
      cell(a.preview).className = 'muted';
      return row;
    }));
    const waiting = document.getElementById('agents-waiting');
    if (waiting) waiting.hidden = m.agents.length > 0;
    const html = (id, markup) => { const el = document.getElementById(id); if (el && typeof markup === 'string') el.innerHTML = markup; };
    html('team-meta', m.teamMeta);
    html('team-running', m.teamRunning);
  });
})();
`,
  });
}

/** A button for one of the task's offers: its one label, its sentence as the tooltip. */
function offerButton(o: TaskOffer): string {
  const t = (s: string) => escapeHtml(s);
  const title = o.detail ? ` title="${t(vscode.l10n.t(o.detail))}"` : '';
  return `<button data-offer="${o.id}"${o.primary ? '' : ' class="secondary"'}${title}>${t(vscode.l10n.t(o.label))}</button>`;
}

/**
 * A block's bar: its language, the file it is for, Copy, and Apply… when the block's kind lets Apply do
 * something (tasks/offers.ts): a diff, a patch or a named file is reviewed; a block for the sent range is
 * proposed as a diff; prose and program output offer Copy only.
 */
function blockBar(task: TrackedTask, block: AnswerBlock): string {
  const t = (s: string) => escapeHtml(s);
  const i = block.index;
  const way = applyWayOf(block, task);
  const target = block.targets.length > 1 ? vscode.l10n.t('{0} files', block.targets.length) : block.targets[0]?.path;
  const what =
    block.kind === 'output' ? vscode.l10n.t('output') : block.kind === 'diff' || block.kind === 'patch' ? vscode.l10n.t('changes') : block.kind === 'partial' ? vscode.l10n.t('part of a file') : undefined;
  const apply =
    way === 'review'
      ? `<button data-action="apply" data-block="${i}" title="${t(vscode.l10n.t('Review this block\'s changes hunk by hunk; nothing is written before you apply them'))}">${t(vscode.l10n.t('Apply…'))}</button>`
      : way === 'range'
        ? `<button data-action="apply" data-block="${i}" title="${t(vscode.l10n.t('Review it against the code that was sent; nothing is written before you accept'))}">${t(vscode.l10n.t('Apply…'))}</button>`
        : '';
  return (
    `<div class="block-bar" data-kind="${block.kind}"><span class="lang">${t(block.language || vscode.l10n.t('code'))}</span>` +
    (target ? `<span class="target">${t(target)}</span>` : '') +
    (what ? `<span class="kind muted">${t(what)}</span>` : '') +
    `<span class="spacer"></span>` +
    `<button data-action="copy" data-block="${i}" class="secondary">${t(vscode.l10n.t('Copy'))}</button>` +
    apply +
    `</div>`
  );
}

function runningHtml(task: TrackedTask, waiting: string | undefined): string {
  const t = (s: string) => escapeHtml(s);
  // The last progress is stale while the status cannot be read: say why, do not look busy.
  if (waiting) {
    const last = task.agents?.length ? `<p class="muted">${t(vscode.l10n.t('The agents may still be working on the service; their last reported state was:'))}</p>${agentTable(task)}` : '';
    return `<p role="status" class="warning">${t(waiting)}</p>${last}`;
  }
  const working = isAwaitingApproval(task)
    ? vscode.l10n.t('The agents are waiting for your approval in the web console. The answer appears here when they finish.')
    : vscode.l10n.t('The agents are working. The answer appears here when they finish.');
  return `<p role="status">${t(working)}</p>${agentTable(task)}<p class="muted" id="agents-waiting"${
    task.agents?.length ? ' hidden' : ''
  }>${t(vscode.l10n.t('Waiting for the agents to report…'))}</p>`;
}

function agentTable(task: TrackedTask): string {
  const t = (s: string) => escapeHtml(s);
  const rows = (task.agents ?? []).map(a => {
    const pct = a.progress !== undefined ? Math.round(a.progress * 100) : undefined;
    return `<tr><td>${t(vscode.l10n.t('Agent {0}', a.id))}</td><td>${t(agentStatusLabel(a.status))}</td><td>${
      pct !== undefined ? `<progress max="100" value="${pct}"></progress> ${pct}%` : ''
    }</td><td class="muted">${t(agentWords(a))}</td></tr>`;
  });
  return `<table class="agents" id="agents">${rows.join('')}</table>`;
}

/**
 * Posts to a view's page. A view closed while the message was on its way rejects it ("Webview is disposed"):
 * nothing is left to show it to, so that is no error (it was an unhandled rejection, issue 25).
 */
function post(entry: Open, message: unknown): void {
  entry.panel.webview.postMessage(message).then(undefined, () => undefined);
}
