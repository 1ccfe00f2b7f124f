/**
 * The status bar item: running tasks with their progress and a ticking elapsed time, a short flash when one
 * ends, hidden when idle.
 */
import * as vscode from 'vscode';
import { Commands } from '../../constants';
import { Disposable } from '../../disposable';
import { formatDuration } from '../../format';
import { type TrackedTask, isAwaitingApproval, isFinished, meanProgress } from '../../tasks/model';
import { type TaskOffer, TASK_OFFERS, offersOf } from '../../tasks/offers';
import type { TaskChange, TaskStore } from '../../tasks/store/taskStore';
import { notFollowed, taskStatusText, taskWaiting } from '../../vocabulary';
import type { CheckStore, RunningCheck } from '../../tasks/checking/store';
import { checkingWords } from '../../tasks/checkWords';

const FLASH_MS = 5000;

/** Files waiting to go with the next task. */
export interface AttachedFiles {
  readonly count: number;
  /** The files themselves, listed in the tooltip. */
  list?(): readonly vscode.Uri[];
  readonly onDidChange: vscode.Event<void>;
}

/** Why polling waits, when it does (a rate limit, a rejected key, no connection). */
export interface PollingState {
  readonly pausedReason: string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export class TaskStatusBar extends Disposable {
  readonly item = this._register(vscode.window.createStatusBarItem('multiAgent.status', vscode.StatusBarAlignment.Left, 50));
  private flash: { text: string; until: number; task: TrackedTask } | undefined;
  private flashTimer: NodeJS.Timeout | undefined;
  /** Ticks the elapsed time once a second while a task runs; idle otherwise. */
  private tickTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly attached: AttachedFiles,
    private readonly polling: PollingState,
    /** The checks of proposals running now (issue 42): "checking…" with Cancel Check while one runs. */
    private readonly checks?: CheckStore,
  ) {
    super();
    if (checks) this._register(checks.onDidChange(() => this.render()));
    this.item.name = vscode.l10n.t('Multi-Agent Tasks');
    this.item.command = Commands.showTasks;
    this._register(store.onDidChange(e => this.onChange(e)));
    this._register(attached.onDidChange(() => this.render()));
    this._register(polling.onDidChange(() => this.render()));
    this._register({ dispose: () => (clearTimeout(this.flashTimer), clearTimeout(this.tickTimer)) });
    this.render();
  }

  private onChange(e: TaskChange): void {
    if (e.kind === 'finished') {
      const { status, title } = e.task;
      const ok = status === 'completed' && !e.task.error;
      this.flash = {
        text: e.task.trackingStopped
          ? `$(eye-closed) ${notFollowed('flash', title)}`
          : ok
            ? `$(check) ${vscode.l10n.t('Task done: {0}', title)}`
            : status === 'completed'
              ? `$(error) ${vscode.l10n.t('Task incomplete: {0}', title)}`
              : `$(error) ${vscode.l10n.t('Task {0}: {1}', taskStatusText(e.task), title)}`,
        until: Date.now() + FLASH_MS,
        task: e.task,
      };
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => {
        this.flash = undefined;
        this.render();
      }, FLASH_MS);
    }
    this.render();
  }

  private render(): void {
    const running = this.store.all().filter(t => !isFinished(t));
    const paused = this.polling.pausedReason;
    const attached = this.attached.count;
    const flash = this.flash && this.flash.until > Date.now() && running.length === 0 ? this.flash : undefined;
    const checking = this.checking();
    let text: string | undefined;
    if (flash) text = flash.text;
    else if (running.length) text = runningText(running, paused);
    else if (checking.length) text = checking.length === 1 ? `$(beaker~spin) ${vscode.l10n.t('Checking: {0}', checking[0].task.title)}` : `$(beaker~spin) ${vscode.l10n.t('Checking {0} proposals', checking.length)}`;
    else if (attached) text = `$(paperclip) ${vscode.l10n.t('{0} attached', attached)}`;
    clearTimeout(this.tickTimer);
    this.tickTimer = running.length ? setTimeout(() => this.render(), TICK_MS) : undefined;
    if (!text) {
      this.item.hide();
      return;
    }
    this.item.text = text;
    const tooltip = this.tooltip(running, paused, attached, flash?.task, checking);
    if ((this.item.tooltip as vscode.MarkdownString | undefined)?.value !== tooltip.value) this.item.tooltip = tooltip;
    const spoken = text.replace(/\$\([^)]+\)\s*/g, '');
    const count = running.length === 1 ? vscode.l10n.t('1 task running') : vscode.l10n.t('{0} tasks running', running.length);
    this.item.accessibilityInformation = {
      label: running.length && !flash ? vscode.l10n.t('Multi-Agent Tasks: {0}, {1}', count, spoken) : vscode.l10n.t('Multi-Agent Tasks: {0}', spoken),
      role: 'button',
    };
    this.item.show();
  }

  /** The tasks whose proposal is being checked now, with where their check is. */
  private checking(): { task: TrackedTask; running: RunningCheck }[] {
    return (this.checks?.all() ?? []).flatMap(running => {
      const task = this.store.get(running.taskId);
      return task ? [{ task, running }] : [];
    });
  }

  private tooltip(running: TrackedTask[], paused: string | undefined, attached: number, flashed: TrackedTask | undefined, checking: { task: TrackedTask; running: RunningCheck }[]): vscode.MarkdownString {
    const md = new vscode.MarkdownString('', true);
    // Only the task offers of this surface (tasks/offers.ts: Cancel Task, Follow Again) may run from this tooltip;
    // task titles are appended as text.
    md.isTrusted = { enabledCommands: STATUS_OFFERS.map(o => o.command) };
    md.appendMarkdown(`**${vscode.l10n.t('Multi-Agent Tasks')}**\n\n`);
    if (flashed?.trackingStopped) {
      md.appendMarkdown('$(eye-closed) ');
      md.appendText(`${flashed.title}: ${notFollowed('sentence')}`);
      md.appendMarkdown(offersOf(flashed, 'status').map(o => ` · ${offerLink(o, flashed)}`).join('') + '\n\n');
    }
    for (const task of running.slice(0, 10)) {
      md.appendMarkdown(paused ? '$(watch) ' : isAwaitingApproval(task) ? '$(shield) ' : '$(sync~spin) ');
      md.appendText(`${task.title} — ${progressText(task, paused)}`);
      md.appendMarkdown(offersOf(task, 'status').map(o => ` · ${offerLink(o, task)}`).join('') + '\n\n');
    }
    if (running.length > 10) md.appendText(`${vscode.l10n.t('…and {0} more', running.length - 10)}\n\n`);
    for (const { task, running: check } of checking.slice(0, 10)) {
      md.appendMarkdown('$(beaker~spin) ');
      md.appendText(`${task.title} — ${checkingWords(check)}`);
      const offered = { ...task, checking: true };
      md.appendMarkdown(offersOf(offered, 'status').map(o => ` · ${offerLink(o, offered)}`).join('') + '\n\n');
    }
    if (paused) md.appendText(`${paused}\n\n`);
    if (attached) {
      md.appendText(
        `${attached === 1 ? vscode.l10n.t('1 file attached to the next task') : vscode.l10n.t('{0} files attached to the next task', attached)}\n\n`,
      );
      for (const uri of this.attached.list?.() ?? []) {
        md.appendMarkdown('$(file) ');
        md.appendText(vscode.workspace.asRelativePath(uri));
        md.appendMarkdown('  \n');
      }
      if (this.attached.list) md.appendMarkdown('\n');
    }
    md.appendMarkdown(vscode.l10n.t('Click to show the tasks.'));
    return md;
  }
}

const TICK_MS = 1000;

/**
 * A running task's state for the tooltip: "52%", "waiting for the service". No ticking time here, so an
 * open tooltip is not redrawn every second.
 */
function progressText(task: TrackedTask, paused: string | undefined): string {
  if (paused) return taskWaiting();
  if (isAwaitingApproval(task)) return taskStatusText(task);
  return task.progress !== undefined ? `${Math.round(task.progress * 100)}%` : taskStatusText(task);
}

/**
 * The item's text while tasks run: progress where the user looks, not only in the tooltip. One task:
 * "Agents 52% · 12s"; several: "3 tasks running · 40%"; polling waits: "Agents waiting · 12s".
 */
function runningText(running: TrackedTask[], paused: string | undefined): string {
  if (running.length === 1) {
    const task = running[0];
    const elapsed = formatDuration(Date.now() - task.submittedAt);
    if (paused) return `$(watch) ${vscode.l10n.t('Agents waiting · {0}', elapsed)}`;
    if (isAwaitingApproval(task)) return `$(shield) ${vscode.l10n.t('Agents: approval needed · {0}', elapsed)}`;
    return task.progress !== undefined
      ? `$(sync~spin) ${vscode.l10n.t('Agents {0}% · {1}', Math.round(task.progress * 100), elapsed)}`
      : `$(sync~spin) ${vscode.l10n.t('Agents working · {0}', elapsed)}`;
  }
  const n = running.length;
  if (paused) return `$(watch) ${vscode.l10n.t('{0} tasks waiting', n)}`;
  const mean = meanProgress(running.map(t => ({ id: t.id, status: t.status, progress: t.progress })));
  return mean !== undefined
    ? `$(sync~spin) ${vscode.l10n.t('{0} tasks running · {1}%', n, Math.round(mean * 100))}`
    : `$(sync~spin) ${vscode.l10n.t('{0} tasks running', n)}`;
}

/** The actions the tooltip may link to: those the table shows on this surface. */
const STATUS_OFFERS = TASK_OFFERS.filter(o => (o.surfaces as readonly string[]).includes('status'));

/** A link that runs a task's offer: its icon and short label, its sentence as the link's title. */
function offerLink(o: TaskOffer, task: TrackedTask): string {
  const args = encodeURIComponent(JSON.stringify([task.id]));
  const icon = o.icon ? `$(${o.icon}) ` : '';
  return `[${icon}${vscode.l10n.t(o.shortLabel ?? o.label)}](command:${o.command}?${args} "${vscode.l10n.t(o.detail ?? o.label)}")`;
}
