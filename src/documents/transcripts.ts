/**
 * A thread's whole transcript as a read-only markdown document, read when opened and again when the
 * thread changes (a run in it ended).
 */
import * as vscode from 'vscode';
import type { Thread, ThreadMessage } from '../api';
import { Disposable } from '../disposable';
import { describeForView } from '../errors';
import { type ThreadStore, threadTitle } from '../stores/threadStore';
import { shiftHeadings } from '../tasks/resultText';
import { threadIdOfTranscript } from './uris';

/** "You", "Agents", or the service's role name. */
export function roleName(role: string): string {
  if (role === 'user') return vscode.l10n.t('You');
  if (role === 'assistant') return vscode.l10n.t('Agents');
  return role;
}

export function roleIcon(role: string): string {
  if (role === 'user') return 'account';
  if (role === 'assistant') return 'hubot';
  return 'gear';
}

/** The whole thread as a read-only markdown document, fetched when opened. */
export class ThreadTranscriptProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly threads: ThreadStore) {
    super();
    this._register(
      threads.onDidChange(({ threadId }) => {
        for (const doc of vscode.workspace.textDocuments) {
          const id = threadIdOfTranscript(doc.uri);
          if (id && (threadId === undefined || id === threadId)) this.changed.fire(doc.uri);
        }
      }),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = threadIdOfTranscript(uri);
    if (!id) return `# ${vscode.l10n.t('Thread not found')}\n`;
    try {
      const { thread, messages, truncated } = await this.threads.transcript(id);
      return renderTranscript(thread, messages, truncated);
    } catch (e) {
      const reason = describeForView(e);
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
  // The service drops the newest messages (not the oldest) when a transcript passes its 3 MiB limit.
  const missing = `> ${vscode.l10n.t('The newest messages are missing: this thread is larger than the service sends at once, so it left out the latest messages. The web console shows the whole thread.')}`;
  if (truncated) out.push(missing, '');
  for (const m of messages.filter(m => !m.is_agent_status)) {
    const who = roleName(m.role);
    const when = m.created_at ? ` · ${new Date(m.created_at).toLocaleString()}` : '';
    out.push(`## ${who}${when}`, '');
    // The message's own headings sit under this one: "# Proposal" becomes "### Proposal".
    if (m.content) out.push(shiftHeadings(m.content.trimEnd(), 2), '');
    if (m.error) out.push(`> ${vscode.l10n.t('Error: {0}', m.error)}`, '');
  }
  if (!messages.length && !truncated) out.push(vscode.l10n.t('No messages yet.'), '');
  // Also where the missing messages would be, so a reader at the end of the transcript sees it.
  if (truncated && messages.length) out.push(missing, '');
  return out.join('\n');
}
