/**
 * The Tasks view: this workspace's tasks first, then the others, newest first. Renders from the store and
 * refreshes one node per progress event; never polls.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../disposable';
import { type AgentProgress, type TrackedTask, displayLines, isFinished, isAwaitingApproval, latestCheck, modelNameOf, tookMs } from '../../tasks/model';
import { capabilityWords, offersOf, openingOf } from '../../tasks/offers';
import type { TaskChange, TaskStore } from '../../tasks/store/taskStore';
import { verdictRules } from '../../tasks/checking/policy';
import { CHECK_TONE_COLORS, taskRowUri } from './checkBadges';
import type { CheckStore, RunningCheck } from '../../tasks/checking/store';
import type { Config } from '../../config';
import { formatDuration } from '../../format';
import { checkSentence, checkVerdictWords, checkingWords } from '../../tasks/checkWords';
import { agentStatusLabel, notFollowed, taskStatusText, taskWaiting } from '../../vocabulary';
import type { PollingState } from '../notifiers/statusBar';
import { textTooltip } from './treeNodes';
import { type ProducedFileNode, agentDescription, agentTooltip, producedFileItem, producedFileNodes, teamTooltipLines } from './teamNodes';

export interface TaskNode {
  readonly kind: 'task';
  /** Replaced in place on every change so VS Code keeps seeing the same element. */
  task: TrackedTask;
}

export interface AgentNode {
  readonly kind: 'agent';
  readonly task: TrackedTask;
  readonly agent: AgentProgress;
}

/** The files waiting to go with the next task, listed above the tasks. */
export interface AttachmentsNode {
  readonly kind: 'attachments';
}

export interface AttachmentNode {
  readonly kind: 'attachment';
  readonly uri: vscode.Uri;
}

/** A fix the team was asked for (Ask the Team to Fix, issue 37), listed under the checked task: a task itself. */
export interface FixNode {
  readonly kind: 'fix';
  readonly task: TrackedTask;
  /** The checked task it is listed under. */
  readonly of: string;
}

export type TasksTreeNode = TaskNode | AgentNode | AttachmentsNode | AttachmentNode | ProducedFileNode | FixNode;

/** The attachment basket as the view needs it. */
export interface AttachmentList {
  list(): readonly vscode.Uri[];
  readonly onDidChange: vscode.Event<void>;
}

const ATTACHMENTS_NODE: AttachmentsNode = { kind: 'attachments' };

/** How often running rows are redrawn for their elapsed time, ms. */
const TICK_MS = 5000;

/** The row's state, for its icon. */
function statusKey(task: Pick<TrackedTask, 'status'>): string {
  return isFinished(task) ? task.status : 'running';
}

const STATUS_ICONS: Record<string, [string, string?]> = {
  running: ['sync~spin'],
  waiting: ['watch', 'notificationsWarningIcon.foreground'],
  stopped: ['eye-closed', 'disabledForeground'],
  completed: ['check', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  canceled: ['circle-slash', 'disabledForeground'],
  awaiting_approval: ['shield', 'notificationsWarningIcon.foreground'],
};

export class TasksTreeProvider extends Disposable implements vscode.TreeDataProvider<TasksTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TasksTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, TaskNode>();
  /** Redraws the running rows now and then, so their elapsed time moves; idle when nothing runs. */
  private tickTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly config: Pick<Config, 'settings' | 'onDidChange'>,
    private readonly attachments?: AttachmentList,
    private readonly workspaceFolders: () => readonly string[] = () => (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.toString()),
    /** Why polling waits: running rows then say so instead of spinning on stale progress. */
    private readonly polling?: PollingState,
    /** The checks running now: a row says "checking…" and offers Cancel Check while its proposal is checked. */
    private readonly checks?: CheckStore,
  ) {
    super();
    this._register(store.onDidChange(e => this.onStoreChange(e)));
    if (checks) this._register(checks.onDidChange(id => this.changed.fire(this.nodes.get(id))));
    if (polling) this._register(polling.onDidChange(() => this.refreshRunning()));
    this._register({ dispose: () => clearTimeout(this.tickTimer) });
    if (attachments) this._register(attachments.onDidChange(() => this.refresh()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()));
    // A running task opens the result view only when results render there (the Open offer's condition).
    this._register(config.onDidChange(change => change.affects('resultView') && this.refresh()));
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Redraws each running task's row (its state or elapsed time changed, not the list). */
  private refreshRunning(): void {
    for (const node of this.nodes.values()) if (!isFinished(node.task)) this.changed.fire(node);
    this.tick();
  }

  private tick(): void {
    clearTimeout(this.tickTimer);
    this.tickTimer = this.store.running().length ? setTimeout(() => this.refreshRunning(), TICK_MS) : undefined;
  }

  /** Tasks in display order: this workspace's first, each group newest first. */
  ordered(): TrackedTask[] {
    const here = new Set(this.workspaceFolders());
    const all = this.store.all();
    return [...all.filter(t => t.workspace && here.has(t.workspace)), ...all.filter(t => !t.workspace || !here.has(t.workspace))];
  }

  getChildren(element?: TasksTreeNode): TasksTreeNode[] {
    if (!element) {
      const tasks = this.ordered();
      const live = new Set(tasks.map(t => t.id));
      for (const id of this.nodes.keys()) if (!live.has(id)) this.nodes.delete(id);
      const nodes: TasksTreeNode[] = tasks.map(task => {
        const node = this.nodes.get(task.id) ?? { kind: 'task' as const, task };
        node.task = task;
        this.nodes.set(task.id, node);
        return node;
      });
      return this.attachments?.list().length ? [ATTACHMENTS_NODE, ...nodes] : nodes;
    }
    if (element.kind === 'attachments') return (this.attachments?.list() ?? []).map(uri => ({ kind: 'attachment' as const, uri }));
    if (element.kind === 'task' && !isFinished(element.task)) {
      return (element.task.agents ?? []).map(agent => ({ kind: 'agent' as const, task: element.task, agent }));
    }
    if (element.kind === 'task') return [...producedFileNodes(element.task), ...this.fixesOf(element.task.id)];
    return [];
  }

  getTreeItem(element: TasksTreeNode): vscode.TreeItem {
    switch (element.kind) {
      case 'task':
        return this.taskItem(element.task);
      case 'agent':
        return agentItem(element.task, element.agent);
      case 'producedFile':
        return producedFileItem(element);
      case 'fix':
        return this.fixItem(element);
      case 'attachments':
        return this.attachmentsItem();
      case 'attachment':
        return attachmentItem(element.uri);
    }
  }

  /** The fixes asked of the team for a checked task, round by round. */
  private fixesOf(taskId: string): FixNode[] {
    return this.store
      .all()
      .filter(t => t.fixOf?.of === taskId)
      .sort((a, b) => a.fixOf!.round - b.fixOf!.round)
      .map(task => ({ kind: 'fix' as const, task, of: taskId }));
  }

  /** A fix under its checked task: the fix's own row (its state, its check, its menu; its title names its round). */
  private fixItem(node: FixNode): vscode.TreeItem {
    const item = this.taskItem(node.task);
    item.id = `${node.of}/fix/${node.task.id}`;
    item.collapsibleState = vscode.TreeItemCollapsibleState.None;
    return item;
  }

  private attachmentsItem(): vscode.TreeItem {
    const n = this.attachments?.list().length ?? 0;
    const item = new vscode.TreeItem(vscode.l10n.t('Attached to the next task'), vscode.TreeItemCollapsibleState.Expanded);
    item.id = 'attachments';
    item.description = n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', n);
    item.iconPath = new vscode.ThemeIcon('paperclip');
    item.contextValue = 'attachments';
    item.accessibilityInformation = { label: vscode.l10n.t('Attached to the next task, {0}', item.description as string) };
    return item;
  }

  private taskItem(task: TrackedTask): vscode.TreeItem {
    const running = !isFinished(task);
    const item = new vscode.TreeItem(
      task.title,
      (running && task.agents?.length) || (!running && (task.files?.length || this.store.all().some(t => t.fixOf?.of === task.id)))
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = task.id;
    // A running task whose status cannot be read now (no connection, a rate limit) waits: no frozen spinner.
    const waiting = running && this.polling?.pausedReason;
    const state = task.trackingStopped ? 'stopped' : waiting ? 'waiting' : isAwaitingApproval(task) ? task.status : statusKey(task);
    const check = latestCheck(task);
    const checking = this.checks?.runningOf(task.id);
    // A checked proposal's row shows the check's outcome in its icon: at the sidebar's width its words are cut first.
    const [icon, color]: [string, string?] = checking
      ? ['beaker~spin']
      : task.status === 'completed' && check
        ? ['beaker', CHECK_TONE_COLORS[verdictRules(check.verdict).tone]]
        : (STATUS_ICONS[state] ?? STATUS_ICONS.running);
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    // The check's badge at the row's right edge (checkBadges.ts): never cut, as the words may be.
    if (checking || check) item.resourceUri = taskRowUri(task.id);
    // A time only where it is known: running, or followed the whole way (a task followed again showed the moment it
    // was seen done, "23s" for a 12 s task; one no longer followed, the moment it was let go: issue 35).
    const took = running ? Date.now() - task.submittedAt : tookMs(task);
    const elapsed = took === undefined ? undefined : formatDuration(took);
    const pct = running && task.progress !== undefined && !isAwaitingApproval(task) ? `${Math.round(task.progress * 100)}%` : undefined;
    // Progress first: the row is narrow. The model is in the tooltip.
    const said = waiting ? taskWaiting() : running ? (isAwaitingApproval(task) ? taskStatusText(task) : undefined) : task.status === 'completed' ? undefined : taskStatusText(task);
    // Issue 37: the newest check of its proposal ("checked: 1 failing"), and a fix the team was asked for ("fix 1").
    const checked = checking ? vscode.l10n.t('checking…') : check ? checkVerdictWords(check) : undefined;
    const fix = task.fixOf ? vscode.l10n.t('fix {0}', task.fixOf.round) : undefined;
    item.description = [said, pct, checked, elapsed, fix, task.threadId && !fix ? vscode.l10n.t('thread') : undefined, task.origin ? vscode.l10n.t('via MCP') : undefined].filter(Boolean).join(' · ');
    item.tooltip = tooltipOf(task, waiting || undefined, checking);
    // What the menus offer is the table of tasks/offers.ts: the task's capability words, which package.json's menus match.
    const opening = openingOf(this.config.settings);
    item.contextValue = capabilityWords({ ...task, checking: !!checking }, opening);
    item.accessibilityInformation = { label: [task.title, waiting ? taskWaiting() : taskStatusText(task), checked, elapsed, fix].filter(Boolean).join(', ') };
    // A click opens the result where Open is offered (a running task only where results render).
    const open = offersOf(task, 'tree', opening).find(o => o.id === 'open');
    if (open) item.command = { command: open.command, title: vscode.l10n.t(open.label), arguments: [task.id] };
    return item;
  }

  private onStoreChange(e: TaskChange): void {
    if (e.kind === 'added' || !this.tickTimer) this.tick();
    // A fix is listed under its checked task too: that row (and its children) redraws with it.
    const parent = e.task.fixOf && this.nodes.get(e.task.fixOf.of);
    if (parent) this.changed.fire(parent);
    if (e.kind === 'added' || e.kind === 'removed') return this.changed.fire(undefined);
    const node = this.nodes.get(e.task.id);
    if (!node) return this.changed.fire(undefined);
    node.task = e.task;
    this.changed.fire(node);
  }
}

function attachmentItem(uri: vscode.Uri): vscode.TreeItem {
  const item = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.None);
  item.id = `attachment:${uri.toString()}`;
  item.description = vscode.workspace.asRelativePath(uri); // with several folders, the folder's name first
  item.tooltip = vscode.l10n.t('Goes with the next task you orchestrate.');
  item.contextValue = 'attachment';
  item.accessibilityInformation = { label: vscode.l10n.t('{0}, attached to the next task', vscode.workspace.asRelativePath(uri, true)) };
  item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
  return item;
}

function agentItem(task: TrackedTask, agent: AgentProgress): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Agent {0}', agent.id), vscode.TreeItemCollapsibleState.None);
  item.description = agentDescription(task, agent);
  item.tooltip = agentTooltip(task, agent);
  item.iconPath = new vscode.ThemeIcon(
    agent.status === 'completed' ? 'pass' : agent.status === 'failed' || agent.status === 'timeout' ? 'error' : agent.status === 'queued' ? 'clock' : 'loading~spin',
  );
  item.contextValue = 'agent';
  item.accessibilityInformation = { label: vscode.l10n.t('Agent {0}, {1}', agent.id, item.description) };
  return item;
}

/** How long it took, or, for a task followed again, by when it was seen done (tasks/model.ts `tookMs`). */
function finishedLine(task: TrackedTask): string {
  const took = tookMs(task);
  if (took !== undefined) return vscode.l10n.t('Took: {0}', formatDuration(took));
  if (task.trackingStopped && task.finishedAt !== undefined) return vscode.l10n.t('Followed until {0}', new Date(task.finishedAt).toLocaleTimeString());
  if (task.finishedAt !== undefined) return vscode.l10n.t('Finished by {0} (not followed the whole time)', new Date(task.finishedAt).toLocaleTimeString());
  return vscode.l10n.t('Running for: {0}', formatDuration(Date.now() - task.submittedAt));
}

function tooltipOf(task: TrackedTask, waiting?: string, checking?: RunningCheck): vscode.MarkdownString {
  const md = textTooltip(
    task.title,
    [
      vscode.l10n.t('Status: {0}', taskStatusText(task)),
      waiting ?? '',
      vscode.l10n.t('Sent: {0}', new Date(task.submittedAt).toLocaleString()),
      finishedLine(task),
      vscode.l10n.t('Model: {0}', modelNameOf(task) ?? vscode.l10n.t('service default')),
      task.agentCount ? vscode.l10n.t('Agents: {0}', task.agentCount) : '',
      task.source ? sourceLine(task.source) : '',
      task.threadId ? vscode.l10n.t('Thread: {0}', task.threadId) : '',
      task.origin ? vscode.l10n.t('Sent by an agent through MCP: {0}', task.origin.client ?? vscode.l10n.t('unnamed client')) : '',
      task.attachmentNames?.length ? vscode.l10n.t('Attached: {0}', task.attachmentNames.join(', ')) : '',
      ...teamTooltipLines(task),
      checking ? checkingWords(checking) : latestCheck(task) ? checkSentence(latestCheck(task)!) : '',
      task.fixOf ? vscode.l10n.t('Ask the Team to Fix, round {0}', task.fixOf.round) : '',
      vscode.l10n.t('Id: {0}', task.id),
    ],
    true,
  );
  // A task no longer followed: its agents' last state is not news about them.
  if (task.agents?.length && !task.trackingStopped) {
    md.appendMarkdown('\n');
    for (const agent of task.agents) {
      const pct = agent.progress !== undefined ? ` ${Math.round(agent.progress * 100)}%` : '';
      md.appendText(`${vscode.l10n.t('Agent {0}', agent.id)}: ${agentStatusLabel(agent.status)}${pct}`);
      md.appendMarkdown('  \n');
    }
  }
  if (task.trackingStopped) {
    md.appendMarkdown('\n');
    md.appendText(notFollowed('sentence'));
  } else if (task.error) {
    md.appendMarkdown('\n');
    md.appendText(task.error);
  }
  return md;
}

function sourceLine(source: NonNullable<TrackedTask['source']>): string {
  const { label, range } = source;
  // The same lines as the result view's header says (issue 45: "lines 1–17" there, "lines 1-18" here).
  const span = range && displayLines(range);
  return span ? vscode.l10n.t('Source: {0} (lines {1}–{2})', label, span.start, span.end) : vscode.l10n.t('Source: {0}', label);
}

/** The view's badge: how many tasks are running, or nothing. */
export function runningBadge(store: TaskStore): vscode.ViewBadge | undefined {
  const running = store.running().length;
  if (!running) return undefined;
  return { value: running, tooltip: running === 1 ? vscode.l10n.t('1 task running') : vscode.l10n.t('{0} tasks running', running) };
}
