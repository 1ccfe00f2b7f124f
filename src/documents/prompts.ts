/**
 * "Show Prompt Sent": what went to the service for a task, as a read-only markdown document under
 * `multi-agent-prompt:` — the attachments' names, then the prompt exactly as sent in a fence it cannot close.
 */
import * as vscode from 'vscode';
import { promptLength } from '../api/requests';
import { DocumentSchemes } from '../constants';
import { type TrackedTask, modelNameOf } from '../tasks/model';
import { fencedBlock } from '../tasks/sending/prompt';
import type { TaskStore } from '../tasks/store/taskStore';
import { extensionColumn } from './editorGroups';
import { readableName } from './uris';

function promptUri(task: { id: string; title: string }): vscode.Uri {
  return vscode.Uri.from({ scheme: DocumentSchemes.prompt, path: `/${readableName(`Prompt sent - ${task.title}`, 'Prompt sent')}.md`, query: task.id });
}

function renderPromptDocument(task: TrackedTask): string {
  const out = [`# ${vscode.l10n.t('Prompt sent: {0}', task.title)}`, ''];
  out.push(`- ${vscode.l10n.t('Sent: {0}', new Date(task.submittedAt).toLocaleString())}`);
  out.push(`- ${vscode.l10n.t('Model: {0}', modelNameOf(task) ?? vscode.l10n.t('service default'))}`);
  if (task.agentCount) out.push(`- ${vscode.l10n.t('Agents: {0}', task.agentCount)}`);
  out.push(`- ${task.attachmentNames?.length ? vscode.l10n.t('Attachments: {0}', task.attachmentNames.join(', ')) : vscode.l10n.t('Attachments: none')}`);
  out.push('');
  if (task.prompt === undefined) {
    out.push(vscode.l10n.t('This task was sent before prompts were recorded. The instruction was:'), '', task.instruction, '');
    return out.join('\n');
  }
  out.push(vscode.l10n.t('The prompt, exactly as sent ({0} characters):', promptLength(task.prompt)), '');
  out.push(fencedBlock(task.prompt, 'text'), '');
  return out.join('\n');
}

export class PromptDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: TaskStore) {}
  provideTextDocumentContent(uri: vscode.Uri): string {
    const task = this.store.get(uri.query);
    return task ? renderPromptDocument(task) : `# ${vscode.l10n.t('This task is no longer tracked.')}\n`;
  }
}

export async function showPrompt(task: TrackedTask): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(promptUri(task));
  if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  return vscode.window.showTextDocument(document, { viewColumn: extensionColumn(), preview: true });
}
