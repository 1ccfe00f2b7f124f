/**
 * A thread's transcript rendered like a result: one webview per thread, in the extension's editor group,
 * each message under its own heading with the answer's headings below it, rendered by the same linear,
 * inert markdown renderer (no links, no scripts, no remote content). Re-read when the thread changes;
 * open views come back after a reload (`restore`, which the stand-in in onFirstUse.ts calls: this module loads on
 * first use). The page posts three messages, checked before anything runs.
 */
import * as vscode from 'vscode';
import type { Thread, ThreadMessage } from '../../api';
import { Commands, WebviewTypes } from '../../constants';
import { Disposable } from '../../disposable';
import { extensionColumn } from '../../documents/editorGroups';
import { roleName } from '../../documents/transcripts';
import { transcriptUri } from '../../documents/uris';
import { describeForView } from '../../errors';
import { type ThreadStore, threadTitle } from '../../stores/threadStore';
import { escapeHtml, renderMarkdown } from './markdown';
import { RENDERED_PAGE_STYLE } from './pageStyle';
import { nonce, webviewPage } from './webviewPage';

const ACTIONS = ['runInThread', 'raw', 'refresh'] as const;
type TranscriptAction = (typeof ACTIONS)[number];

/** A message from the page, checked: a known action for this panel's thread. Pure. */
export function validTranscriptMessage(message: unknown, threadId: string): TranscriptAction | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const m = message as { type?: unknown; threadId?: unknown };
  if (m.threadId !== threadId || typeof m.type !== 'string') return undefined;
  return (ACTIONS as readonly string[]).includes(m.type) ? (m.type as TranscriptAction) : undefined;
}

export class TranscriptPanels extends Disposable {
  private readonly open = new Map<string, vscode.WebviewPanel>();
  /** Bumped per render, so a slow read never overwrites a newer one. */
  private readonly renders = new Map<string, number>();

  constructor(private readonly threads: ThreadStore) {
    super();
    this._register(
      threads.onDidChange(({ threadId }) => {
        for (const id of this.open.keys()) if (threadId === undefined || threadId === id) void this.render(id);
      }),
    );
    this._register({ dispose: () => [...this.open.values()].forEach(p => p.dispose()) });
  }

  /** A view VS Code brings back after a reload: its state names the thread (checked, it comes from the page). */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = (state as { threadId?: unknown } | undefined)?.threadId;
    if (typeof id !== 'string' || !/^[\w-]{1,64}$/.test(id)) return panel.dispose();
    await this.adopt(panel, id);
  }

  /** The open view of a thread (tests read its html). */
  panelOf(threadId: string): vscode.WebviewPanel | undefined {
    return this.open.get(threadId);
  }

  /** Opens (or brings forward) the thread's transcript; resolves once its messages are shown. */
  async show(thread: Pick<Thread, 'id'> & Partial<Thread>, options: { preserveFocus?: boolean } = {}): Promise<vscode.WebviewPanel> {
    const id = String(thread.id);
    const existing = this.open.get(id);
    if (existing) {
      existing.reveal(undefined, options.preserveFocus);
      await this.render(id);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      WebviewTypes.transcript,
      threadTitle({ id: thread.id, title: thread.title, user_input: thread.user_input }),
      { viewColumn: extensionColumn(), preserveFocus: options.preserveFocus ?? false },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], enableFindWidget: true },
    );
    await this.adopt(panel, id);
    return panel;
  }

  private async adopt(panel: vscode.WebviewPanel, threadId: string): Promise<void> {
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [] };
    this.open.set(threadId, panel);
    panel.onDidDispose(() => {
      if (this.open.get(threadId) === panel) this.open.delete(threadId);
    });
    panel.webview.onDidReceiveMessage(message => void this.onMessage(threadId, message));
    await this.render(threadId);
  }

  private async render(threadId: string): Promise<void> {
    const panel = this.open.get(threadId);
    if (!panel) return;
    const run = (this.renders.get(threadId) ?? 0) + 1;
    this.renders.set(threadId, run);
    let html: string;
    try {
      const { thread, messages, truncated } = await this.threads.transcript(threadId);
      if (this.renders.get(threadId) !== run || this.open.get(threadId) !== panel) return;
      panel.title = threadTitle(thread);
      html = renderTranscriptHtml(thread, messages, truncated, panel.webview.cspSource, nonce());
    } catch (e) {
      if (this.renders.get(threadId) !== run || this.open.get(threadId) !== panel) return;
      html = renderTranscriptHtml({ id: threadId }, [], false, panel.webview.cspSource, nonce(), describeForView(e));
    }
    panel.webview.html = html;
  }

  private async onMessage(threadId: string, message: unknown): Promise<void> {
    const action = validTranscriptMessage(message, threadId);
    if (action === 'refresh') return this.render(threadId);
    if (action === 'runInThread') await vscode.commands.executeCommand(Commands.runInThread, threadId);
    if (action === 'raw') {
      const panel = this.open.get(threadId);
      const document = await vscode.workspace.openTextDocument(transcriptUri({ id: threadId }, panel?.title ?? threadId));
      if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
      await vscode.window.showTextDocument(document, { viewColumn: extensionColumn(), preview: false });
    }
  }
}

/** The whole page. Pure apart from l10n: its output is checked by the tests. */
export function renderTranscriptHtml(
  thread: Pick<Thread, 'id'> & Partial<Thread>,
  messages: readonly ThreadMessage[],
  truncated: boolean,
  cspSource: string,
  nonceValue: string,
  failure?: string,
): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonceValue}'; script-src 'nonce-${nonceValue}'; img-src 'none'; font-src ${cspSource}`;
  const t = (s: string) => escapeHtml(s);
  const title = threadTitle({ id: thread.id, title: thread.title, user_input: thread.user_input });
  const shown = messages.filter(m => !m.is_agent_status);
  const meta = [
    `<dt>${t(vscode.l10n.t('Thread'))}</dt><dd>${t(String(thread.id))}</dd>`,
    thread.timestamp ? `<dt>${t(vscode.l10n.t('Started'))}</dt><dd>${t(new Date(thread.timestamp).toLocaleString())}</dd>` : '',
    thread.model ? `<dt>${t(vscode.l10n.t('Model'))}</dt><dd>${t(thread.model)}</dd>` : '',
    failure ? '' : `<dt>${t(vscode.l10n.t('Messages'))}</dt><dd>${shown.length}</dd>`,
  ].join('');
  // The service drops the newest messages (not the oldest) when a transcript passes its 3 MiB limit.
  const missing = truncated
    ? `<p class="warning" role="note">${t(vscode.l10n.t('The newest messages are missing: this thread is larger than the service sends at once, so it left out the latest messages. The web console shows the whole thread.'))}</p>`
    : '';
  let body: string;
  if (failure) body = `<p class="error" role="alert">${t(vscode.l10n.t('The transcript could not be loaded: {0}', failure))}</p>`;
  else if (!shown.length) body = `<p class="muted">${t(vscode.l10n.t('No messages yet.'))}</p>`;
  else {
    body = shown
      .map(m => {
        const when = m.created_at ? ` · ${new Date(m.created_at).toLocaleString()}` : '';
        // The message's own headings sit below its h2: "# Proposal" renders as h3.
        const content = m.content ? renderMarkdown(m.content, { headingOffset: 2 }) : '';
        const error = m.error ? `<p class="error">${t(vscode.l10n.t('Error: {0}', m.error))}</p>` : '';
        return `<section class="message ${m.role === 'user' ? 'user' : 'agents'}"><h2>${t(roleName(m.role))}<span class="muted">${t(when)}</span></h2>${content}${error}</section>`;
      })
      .join('\n');
  }
  return webviewPage({
    csp,
    nonce: nonceValue,
    title,
    style: `${RENDERED_PAGE_STYLE}
section.message { border-top: 1px solid var(--vscode-panel-border); padding-top: 4px; margin-top: 12px; }
section.message h2 { font-size: 1.1em; margin: 6px 0; }
section.user h2 { color: var(--vscode-textLink-foreground); }
`,
    body: `<header>
<h1 class="title">${t(title)}</h1>
<dl>${meta}</dl>
<div class="actions"><button data-action="runInThread">${t(vscode.l10n.t('Run in Thread…'))}</button><button data-action="raw" class="secondary">${t(vscode.l10n.t('Open Raw Markdown'))}</button><button data-action="refresh" class="secondary">${t(vscode.l10n.t('Refresh'))}</button></div>
</header>
<main id="transcript">
${missing}${body}${shown.length > 3 ? missing : ''}
</main>`,
    script: `
(function () {
  const vscode = acquireVsCodeApi();
  const threadId = ${JSON.stringify(String(thread.id)).replace(/</g, '\\u003c')};
  vscode.setState({ threadId });
  document.addEventListener('click', e => {
    const el = e.target instanceof Element ? e.target.closest('[data-action]') : null;
    if (!el) return;
    e.preventDefault();
    vscode.postMessage({ type: el.getAttribute('data-action'), threadId });
  });
})();
`,
  });
}
