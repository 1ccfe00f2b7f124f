/**
 * Stand-ins, built at activation, for the views that load on first use (lazy.ts): each holds only what must
 * exist from the start (the transcripts' webview serializer, so open transcripts come back after a reload)
 * and builds the real view, from its own bundle, on the first call.
 */
import * as vscode from 'vscode';
import type { Thread } from '../../api';
import { TRANSCRIPT_VIEW_TYPE } from '../../constants';
import { Disposable } from '../../disposable';
import { lazy } from '../../lazy';
import type { ThreadStore } from '../../stores/threadStore';
import type { UsageStore } from '../../stores/usageStore';
import type { TaskStore } from '../../tasks/store/taskStore';
import type * as Transcripts from './transcriptPanel';
import type * as Usage from './usagePanel';

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
    this._register(vscode.window.registerWebviewPanelSerializer(TRANSCRIPT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => this.panels.restore(panel, state) }));
  }

  private get panels(): Transcripts.TranscriptPanels {
    return (this.real ??= this._register(new (transcriptsModule().TranscriptPanels)(this.threads)));
  }

  show(thread: Pick<Thread, 'id'> & Partial<Thread>, options?: { preserveFocus?: boolean }): Promise<vscode.WebviewPanel> {
    return this.panels.show(thread, options);
  }

  /** The open view of a thread (tests read its html). */
  panelOf(threadId: string): vscode.WebviewPanel | undefined {
    return this.real?.panelOf(threadId);
  }
}
