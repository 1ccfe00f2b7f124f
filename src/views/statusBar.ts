/** The status bar item: running tasks with a spinner, a short flash when one ends, hidden when idle. */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { Disposable } from '../disposable';
import { type TrackedTask, isFinished } from '../tasks/model';
import type { TaskChange, TaskStore } from '../tasks/taskStore';

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
  private flash: { text: string; until: number } | undefined;
  private flashTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly attached: AttachedFiles,
    private readonly polling: PollingState,
  ) {
    super();
    this.item.name = vscode.l10n.t('Multi-Agent Tasks');
    this.item.command = Commands.showTasks;
    this._register(store.onDidChange(e => this.onChange(e)));
    this._register(attached.onDidChange(() => this.render()));
    this._register(polling.onDidChange(() => this.render()));
    this._register({ dispose: () => clearTimeout(this.flashTimer) });
    this.render();
  }

  private onChange(e: TaskChange): void {
    if (e.kind === 'finished') {
      const { status, title } = e.task;
      const ok = status === 'completed' && !e.task.error;
      this.flash = {
        text: ok
          ? `$(check) ${vscode.l10n.t('Task done: {0}', title)}`
          : status === 'completed'
            ? `$(error) ${vscode.l10n.t('Task incomplete: {0}', title)}`
            : `$(error) ${vscode.l10n.t('Task {0}: {1}', status.replace('_', ' '), title)}`,
        until: Date.now() + FLASH_MS,
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
    let text: string | undefined;
    if (this.flash && this.flash.until > Date.now() && running.length === 0) text = this.flash.text;
    else if (running.length) {
      const n = running.length;
      text = `$(sync~spin) ${n === 1 ? vscode.l10n.t('1 task running') : vscode.l10n.t('{0} tasks running', n)}`;
      if (paused) text = `$(watch) ${n === 1 ? vscode.l10n.t('1 task waiting') : vscode.l10n.t('{0} tasks waiting', n)}`;
    } else if (attached) text = `$(paperclip) ${vscode.l10n.t('{0} attached', attached)}`;
    if (!text) {
      this.item.hide();
      return;
    }
    this.item.text = text;
    this.item.tooltip = this.tooltip(running, paused, attached);
    const spoken = text.replace(/\$\([^)]+\)\s*/g, '');
    this.item.accessibilityInformation = { label: vscode.l10n.t('Multi-Agent Tasks: {0}', spoken), role: 'button' };
    this.item.show();
  }

  private tooltip(running: TrackedTask[], paused: string | undefined, attached: number): vscode.MarkdownString {
    const md = new vscode.MarkdownString('', true);
    // Only our own Cancel Task command may run from this tooltip; task titles are appended as text.
    md.isTrusted = { enabledCommands: [Commands.cancelTask] };
    md.appendMarkdown(`**${vscode.l10n.t('Multi-Agent Tasks')}**\n\n`);
    for (const task of running.slice(0, 10)) {
      const pct = task.progress !== undefined ? ` — ${Math.round(task.progress * 100)}%` : '';
      md.appendMarkdown(`$(sync~spin) `);
      md.appendText(`${task.title}${pct}`);
      const args = encodeURIComponent(JSON.stringify([task.id]));
      md.appendMarkdown(` · [$(stop-circle) ${vscode.l10n.t('Cancel')}](command:${Commands.cancelTask}?${args} "${vscode.l10n.t('Cancel this task on the service')}")`);
      md.appendMarkdown('\n\n');
    }
    if (running.length > 10) md.appendText(`${vscode.l10n.t('…and {0} more', running.length - 10)}\n\n`);
    if (paused) md.appendText(`${paused}\n\n`);
    if (attached) {
      md.appendText(
        `${attached === 1 ? vscode.l10n.t('1 file attached to the next task') : vscode.l10n.t('{0} files attached to the next task', attached)}\n\n`,
      );
      for (const uri of this.attached.list?.() ?? []) {
        md.appendMarkdown('$(file) ');
        md.appendText(vscode.workspace.asRelativePath(uri, false));
        md.appendMarkdown('  \n');
      }
      if (this.attached.list) md.appendMarkdown('\n');
    }
    md.appendMarkdown(vscode.l10n.t('Click to show the tasks.'));
    return md;
  }
}
