/** The tracked-task record and the pure rules about it. No vscode here: the poller is tested in plain Node. */
import { isTerminalStatus } from '../api/status';
import type { EndReason } from '../vocabulary';
import type { SentFile } from './sentTexts';

export interface SourceRef {
  /** The document's URI as a string. */
  uri: string;
  /** Workspace-relative path, or the file name outside a workspace. */
  label: string;
  languageId?: string;
  /** Zero-based, as in vscode.Range; absent when the whole file was sent. */
  range?: { startLine: number; startCharacter: number; endLine: number; endCharacter: number };
}

export interface AgentProgress {
  id: string;
  status: string;
  /** 0..1 */
  progress?: number;
}

export interface TrackedTask {
  id: string;
  /** Short label for lists and tab titles, from the instruction. */
  title: string;
  instruction: string;
  /** Characters of the prompt that was sent. */
  promptChars: number;
  source?: SourceRef;
  /** The workspace folder URI the task was sent from, to list this workspace's tasks first. */
  workspace?: string;
  modelId?: string;
  /** The model the service says it runs the task with (the stream's `start`, a status read), when it says. */
  modelUsed?: string;
  agentCount?: number;
  threadId?: string;
  attachmentNames?: string[];
  /** ms since epoch */
  submittedAt: number;
  updatedAt: number;
  finishedAt?: number;
  /** The service's status as sent; unknown values mean "still running". */
  status: string;
  /** 0..1, the agents' mean progress when the service reports it. */
  progress?: number;
  agents?: AgentProgress[];
  /** What went wrong. */
  error?: string;
  /**
   * Set while the service waits for the user to approve an agent's action in the web console
   * (`awaiting_approval`, a pause: the same task resumes and completes after approval).
   */
  approval?: { agentName?: string; permission?: string };
  /** Stop Tracking ended it here, not the service: "Check Again" follows it once more. */
  trackingStopped?: boolean;
  /** The user was told about the approval pause (once per task, across reloads and windows). */
  approvalNotified?: boolean;
  /** Characters of the cached result, when there is one. */
  resultChars?: number;
  /** The completion was shown to the user (never twice, even across reloads and windows). */
  notified?: boolean;
  /** The prompt exactly as it went to the service (at most the service's prompt limit). */
  prompt?: string;
  /**
   * The files the task sent (the source's document, attached workspace files), with the stored text's hash,
   * or why no text was kept (sentTexts.ts): the base of Review Changes' three-way merge.
   */
  sent?: SentFile[];
  /** Blocks of the answer that name a file (landable or not): Review Changes is offered when there are any. */
  namedFiles?: number;
}

/** Completed, failed or canceled (the api layer's one list; `awaiting_approval` is a pause, not an end). */
export function isFinished(task: Pick<TrackedTask, 'status'>): boolean {
  return isTerminalStatus(task.status);
}

/** Paused until the user approves in the web console; still tracked, polled slowly. */
export function isAwaitingApproval(task: Pick<TrackedTask, 'status'>): boolean {
  return task.status === 'awaiting_approval';
}

/** The shape of a status response the store needs (a subset of the api's TaskState). */
export interface ObservedState {
  status: string;
  result?: string | null;
  error?: string | null;
  agentStatuses?: { agent_id?: string | number; status?: string; progress?: number | null }[] | null;
  pendingApproval?: { agentName?: string; permission?: string } | null;
  /** The model the service runs the task with, when it says. */
  modelId?: string;
  /** Why the client ended the task (the poller has no words: the store words this when it is stored). */
  reason?: EndReason;
}

export function agentsOf(state: ObservedState): AgentProgress[] | undefined {
  const agents = state.agentStatuses;
  if (!agents?.length) return undefined;
  return agents.map((a, i) => ({
    id: String(a.agent_id ?? i + 1),
    status: a.status ?? 'running',
    progress: typeof a.progress === 'number' ? clamp01(a.progress > 1 ? a.progress / 100 : a.progress) : undefined,
  }));
}

export function meanProgress(agents: AgentProgress[] | undefined): number | undefined {
  const known = agents?.map(a => a.progress).filter((p): p is number => p !== undefined) ?? [];
  return known.length ? known.reduce((s, p) => s + p, 0) / known.length : undefined;
}

function clamp01(n: number): number {
  return Math.max(0, Math.min(1, n));
}

/** The model to name for a task: the one the service said it used, else the one asked for. */
export function modelOf(task: Pick<TrackedTask, 'modelId' | 'modelUsed'>): string | undefined {
  return task.modelUsed || task.modelId;
}

/** A label from the first line of the instruction. */
export function titleFrom(instruction: string, max = 60): string {
  const line = instruction.trim().split(/\r?\n/)[0]?.trim() || 'Task';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
