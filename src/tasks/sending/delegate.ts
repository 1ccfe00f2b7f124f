/**
 * What every delegate that runs a task for an agent shares (the chat participant and tool in chat/, the MCP
 * server's tools in mcp/): the refusal of files that may hold secrets, one line about the agents, the task once the service named its thread and files,
 * and the JSON a caller can read about what a task is and produced.
 */
import * as vscode from 'vscode';
import { UserFacingError } from '../../errors';
import { agentStatusLabel } from '../../vocabulary';
import type { AgentProgress, TrackedTask } from '../model';
import type { TaskStore } from '../store/taskStore';
import { isSensitivePath } from './sensitiveFiles';

/** One line about the agents, e.g. "Agent 1: running 40% · Agent 2: completed". */
export function describeAgents(agents: AgentProgress[]): string {
  return agents
    .map(a => `${vscode.l10n.t('Agent {0}', a.id)}: ${agentStatusLabel(a.status)}${a.progress !== undefined && a.progress < 1 && a.status !== 'completed' ? ` ${Math.round(a.progress * 100)}%` : ''}`)
    .join(' · ');
}

/**
 * The task once the service named its thread and files (read once at completion), or as it is after `ms`:
 * the answer should not wait long for them.
 */
export async function withServiceDetails(store: TaskStore, task: TrackedTask, ms = 3000): Promise<TrackedTask> {
  if (task.conversationId || task.status !== 'completed') return store.get(task.id) ?? task;
  return new Promise(resolve => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve(store.get(task.id) ?? task);
    };
    const timer = setTimeout(done, ms);
    const sub = store.onDidChange(e => e.task.id === task.id && (e.kind === 'removed' || e.task.conversationId) && done());
  });
}

/** The JSON a caller can read: what the task is and what it produced. */
export function taskData(task: TrackedTask): { taskId: string; status: string; files: object[]; sources: object[] } {
  return {
    taskId: task.id,
    status: task.status,
    files: (task.files ?? []).map(f => ({ filename: f.filename, mimeType: f.mimeType, bytes: f.bytes, fileId: f.fileId })),
    sources: (task.sources ?? []).map(s => ({ title: s.title, url: s.url, snippet: s.snippet })),
  };
}

/**
 * A tool call names files to send: one that may hold secrets (sensitiveFiles.ts, the list Attach Files… asks
 * about) is refused with the reason, before anything is read or sent. A tool call cannot answer the question
 * the editor asks, so the user attaches such a file from the editor, where the question is asked.
 */
export function refuseSensitiveFiles(paths: readonly string[]): void {
  const sensitive = paths.find(isSensitivePath);
  if (sensitive === undefined) return;
  throw new UserFacingError(
    vscode.l10n.t(
      '"{0}" may hold secrets (keys, passwords, tokens), so a tool call does not send it. If it should go with a task, attach it from the editor with Attach Files…, which asks first. Nothing was sent.',
      sensitive.slice(0, 200),
    ),
  );
}
