/**
 * The Tasks view's rows about the team's work (issue 18): what each agent is doing while the task runs
 * (its state, its running tool or latest words), the files a finished task produced (name, type, size; a
 * click opens one), and the tooltip's lines about budget and thread. Server text stays text.
 */
import * as vscode from 'vscode';
import { shownFileName } from '../../api/filenames';
import { Commands } from '../../constants';
import { formatBytes } from '../../format';
import { runningToolOf } from '../../tasks/tracking/activity';
import type { AgentProgress, ProducedFile, TrackedTask } from '../../tasks/model';
import { agentStatusLabel, agentWords, budgetSpent } from '../../vocabulary';

export interface ProducedFileNode {
  readonly kind: 'producedFile';
  readonly task: TrackedTask;
  readonly file: ProducedFile;
  readonly index: number;
}

export function producedFileNodes(task: TrackedTask): ProducedFileNode[] {
  return (task.files ?? []).map((file, index) => ({ kind: 'producedFile' as const, task, file, index }));
}

export function producedFileItem(node: ProducedFileNode): vscode.TreeItem {
  const { file, task, index } = node;
  const item = new vscode.TreeItem(shownFileName(file.filename), vscode.TreeItemCollapsibleState.None);
  item.id = `${task.id}/file/${index}`;
  item.description = [file.mimeType, file.bytes !== undefined ? formatBytes(file.bytes) : undefined].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon(file.mimeType?.startsWith('image/') ? 'file-media' : 'file');
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(shownFileName(file.filename));
  tooltip.appendMarkdown('  \n');
  tooltip.appendText(file.fileId ? vscode.l10n.t('Made by the agents of "{0}". Click to open.', task.title) : vscode.l10n.t('The service did not store this file, so it cannot be downloaded.'));
  item.tooltip = tooltip;
  item.contextValue = file.fileId ? 'producedFile.stored' : 'producedFile';
  item.accessibilityInformation = {
    label: file.fileId
      ? vscode.l10n.t('{0}, file made by the agents, {1}', shownFileName(file.filename), item.description || vscode.l10n.t('no details'))
      : vscode.l10n.t('{0}, file made by the agents, not stored by the service', shownFileName(file.filename)),
  };
  if (file.fileId) item.command = { command: Commands.openProducedFile, title: vscode.l10n.t('Open'), arguments: [task.id, index] };
  return item;
}

/** An agent row's description: its state, its progress, and what it does now (a running tool, or its words). */
export function agentDescription(task: TrackedTask, agent: AgentProgress): string {
  const pct = agent.progress !== undefined && agent.status !== 'completed' ? `${Math.round(agent.progress * 100)}%` : '';
  const tool = runningToolOf(task, Number(agent.id));
  const doing = tool ? `${tool.tool}…` : agent.status === 'running' ? agent.preview : undefined;
  return [agentStatusLabel(agent.status), pct, doing].filter(Boolean).join(' · ');
}

export function agentTooltip(task: TrackedTask, agent: AgentProgress): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(vscode.l10n.t('Agent {0}', agent.id));
  md.appendMarkdown('**  \n');
  md.appendText(agentStatusLabel(agent.status));
  if (agent.model) md.appendText(` · ${agent.model}`);
  md.appendMarkdown('  \n');
  const tool = runningToolOf(task, Number(agent.id));
  if (tool) {
    md.appendText(vscode.l10n.t('Using {0}', tool.tool));
    md.appendMarkdown('  \n');
  }
  if (agent.preview) md.appendText(agentWords(agent));
  return md;
}

/** The task tooltip's extra lines: what the run spent, its thread, what it produced. */
export function teamTooltipLines(task: TrackedTask): string[] {
  const lines: string[] = [];
  if (task.budget) lines.push(vscode.l10n.t('Budget: {0}', budgetSpent(task.budget.consumedUsd, task.budget.initialUsd ?? task.budgetUsd)));
  else if (task.budgetUsd !== undefined) lines.push(vscode.l10n.t('Budget: {0}', budgetSpent(0, task.budgetUsd)));
  if (task.reasoningEffort) lines.push(vscode.l10n.t('Reasoning effort: {0}', task.reasoningEffort));
  if (task.conversationId && task.conversationId !== task.threadId) lines.push(vscode.l10n.t('Saved to thread: {0}', task.conversationId));
  if (task.files?.length) lines.push(task.files.length === 1 ? vscode.l10n.t('Made 1 file') : vscode.l10n.t('Made {0} files', task.files.length));
  if (task.sources?.length) lines.push(task.sources.length === 1 ? vscode.l10n.t('Read 1 source') : vscode.l10n.t('Read {0} sources', task.sources.length));
  return lines;
}
