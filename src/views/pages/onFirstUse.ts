/**
 * Stand-ins for the views that load on first use (lazy.ts): each builds the real view, from its own bundle, on
 * the first call. Open result views and transcripts come back after a reload through the shell's webview
 * serializers (standIns.ts), which call `restore`.
 */
import * as vscode from 'vscode';
import type { Thread } from '../../api';
import { Disposable } from '../../disposable';
import { lazy } from '../../lazy';
import type { ThreadStore } from '../../stores/threadStore';
import type { TraceStore } from '../../stores/traceStore';
import type { TrackedTask } from '../../tasks/model';
import type { ResultView } from '../../tasks/resultView';
import type { UsageStore } from '../../stores/usageStore';
import type { TaskStore } from '../../tasks/store/taskStore';
import type { PollingState } from '../notifiers/statusBar';
import type { ProgressMessage } from './resultPage';
import type * as Results from './resultPanel';
import type * as Transcripts from './transcriptPanel';
import type * as Usage from './usagePanel';

const resultsModule = lazy<typeof Results>('results');
const transcriptsModule = lazy<typeof Transcripts>('transcripts');
const usageModule = lazy<typeof Usage>('usage');

/** The usage page (`views/pages/usagePanel.ts`), loaded when it is first shown. */
export class UsagePanelOnFirstUse extends Disposable {
  private real: Usage.UsagePanel | undefined;

  constructor(
    private readonly store: UsageStore,
    private readonly tasks?: Pick<TaskStore, 'all'>,
  ) {
    super();
  }

  private get panel(): Usage.UsagePanel {
    return (this.real ??= this._register(new (usageModule().UsagePanel)(this.store, this.tasks)));
  }

  show(): Promise<vscode.WebviewPanel> {
    return this.panel.show();
  }

  /** The open panel, if any (tests read its html). */
  get current(): vscode.WebviewPanel | undefined {
    return this.real?.current;
  }
}

/** The thread transcripts (`views/pages/transcriptPanel.ts`), loaded when one is first shown or restored. */
export class TranscriptPanelsOnFirstUse extends Disposable {
  private real: Transcripts.TranscriptPanels | undefined;

  constructor(private readonly threads: ThreadStore) {
    super();
  }

  private get panels(): Transcripts.TranscriptPanels {
    return (this.real ??= this._register(new (transcriptsModule().TranscriptPanels)(this.threads)));
  }

  show(thread: Pick<Thread, 'id'> & Partial<Thread>, options?: { preserveFocus?: boolean }): Promise<vscode.WebviewPanel> {
    return this.panels.show(thread, options);
  }

  /** A transcript left open before a reload (its serializer is the shell's, standIns.ts). */
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    return this.panels.restore(panel, state);
  }

  /** The open view of a thread (tests read its html). */
  panelOf(threadId: string): vscode.WebviewPanel | undefined {
    return this.real?.panelOf(threadId);
  }
}

/** The result views (`views/pages/resultPanel.ts`), loaded when one is first shown or restored. */
export class ResultPanelsOnFirstUse extends Disposable implements ResultView {
  private real: Results.ResultPanels | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly traces?: TraceStore,
    private readonly polling?: PollingState,
  ) {
    super();
  }

  private get panels(): Results.ResultPanels {
    return (this.real ??= this._register(new (resultsModule().ResultPanels)(this.store, this.traces, this.polling)));
  }

  show(task: TrackedTask, options?: { preserveFocus?: boolean }): Promise<vscode.WebviewPanel> {
    return this.panels.show(task, options);
  }

  /** A result view left open before a reload (its serializer is the shell's, standIns.ts). */
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    return this.panels.restore(panel, state);
  }

  showTrace(task: TrackedTask): Promise<void> {
    return this.panels.showTrace(task);
  }

  /** No view is open before the first is shown: the module stays unloaded until then. */
  activeTaskId(): string | undefined {
    return this.real?.activeTaskId();
  }

  /** The open view of a task (tests read its html). */
  panelOf(taskId: string): vscode.WebviewPanel | undefined {
    return this.real?.panelOf(taskId);
  }

  /** What a task's running view was last sent in place (tests read it). */
  liveOf(taskId: string): ProgressMessage | undefined {
    return this.real?.liveOf(taskId);
  }
}
