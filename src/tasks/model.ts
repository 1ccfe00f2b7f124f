/** The tracked-task record and the pure rules about it. No vscode here: the poller is tested in plain Node. */
import { isTerminalStatus } from '../api/status';
import type { SourceInfo, ToolEventInfo } from '../api/toolEvents';
import type { RangeRecord } from '../review';
import type { EndReason } from '../vocabulary';
import type { CheckRecord, FixRound } from './checking/types';
import type { SentFile } from './store/sentTexts';

export interface SourceRef {
  /** The document's URI as a string. */
  uri: string;
  /** Workspace-relative path, or the file name outside a workspace. */
  label: string;
  languageId?: string;
  /** Zero-based, as in vscode.Range; absent when the whole file was sent. */
  range?: RangeRecord;
}

/** 1-based first and last line of a range for people: a range ending at column 0 does not include that line. */
export function displayLines(r: RangeRecord): { start: number; end: number } {
  const end = r.endCharacter === 0 && r.endLine > r.startLine ? r.endLine : r.endLine + 1;
  return { start: r.startLine + 1, end };
}

export interface AgentProgress {
  /** The number shown ("Agent 1"…"Agent n"): the agent's place among the task's agents sorted by the service's id. */
  id: string;
  /**
   * One word for logic, whatever the service wrote (`PROCESSING...`, `running`, …): `queued`, `running`,
   * `completed`, `failed`, `timeout`, or the service's own word in lower case. Views word it with
   * `agentStatusLabel()` (vocabulary.ts).
   */
  status: string;
  /** 0..1 */
  progress?: number;
  /** The model this agent runs on (role models may differ from the task's). */
  model?: string;
  /** The agent's latest words, cut: the answer it is writing, or the tool it uses ("Using search web..."). */
  preview?: string;
}

/** A tool call of an agent, as the task's activity shows it (newest last, bounded: see tasks/tracking/activity.ts). */
export type ToolActivity = Pick<ToolEventInfo, 'id' | 'agent' | 'tool' | 'status' | 'preview'>;

/** A file the agents generated; an ordinary service file once stored (`fileId`), opened through the files path. */
export interface ProducedFile {
  fileId?: string;
  filename: string;
  mimeType?: string;
  bytes?: number;
  agent?: number;
}

/** A page the agents read: its address opens only after an explicit click, and only over https. */
export type SourceLink = SourceInfo;

/** What an engine run spent, USD (`initialUsd`/`remainingUsd` only when a budget was set). */
export interface BudgetSpent {
  initialUsd?: number;
  consumedUsd: number;
  remainingUsd?: number;
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
  /** `modelId`'s label in the service's model list when the task was sent ("Claude Sonnet 4.5"), when it was known. */
  modelLabel?: string;
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
  /** Stop Tracking ended it here, not the service: "Follow Again" follows it once more. */
  trackingStopped?: boolean;
  /** Followed again after Stop Tracking: when it finished is known only as "by" the moment it was seen done. */
  followedAgain?: boolean;
  /** The user was told about the approval pause (once per task, across reloads and windows). */
  approvalNotified?: boolean;
  /** Characters of the cached result, when there is one. */
  resultChars?: number;
  /** The completion was shown to the user (never twice, even across reloads and windows). */
  notified?: boolean;
  /** The prompt exactly as it went to the service (at most the service's prompt limit). */
  prompt?: string;
  /** Sent by an agent through the extension's MCP server (src/mcp), with the MCP client's name as it said it. */
  origin?: { kind: 'mcp'; client?: string };
  /** Sent through the engine's own run (budget, role models, reasoning effort), not the Developer `/run`. */
  via?: 'engine';
  /** What was asked of the engine run. */
  budgetUsd?: number;
  reasoningEffort?: string;
  roleModels?: Record<string, string>;
  /** What the run spent, as the service last reported it. */
  budget?: BudgetSpent;
  /** The agents' recent tool calls (while running: what each is doing). */
  activity?: ToolActivity[];
  /** Files the agents generated. */
  files?: ProducedFile[];
  /** Pages the agents read. */
  sources?: SourceLink[];
  /** The thread the service saved the completed task to: it outlives the task's one-hour state. */
  conversationId?: string;
  /** The execution trace's id, once the service has one. */
  traceId?: string;
  /**
   * The files the task sent (the source's document, attached workspace files), with the stored text's hash,
   * or why no text was kept (store/sentTexts.ts): the base of Review Changes' three-way merge.
   */
  sent?: SentFile[];
  /** Blocks of the answer that name a file (landable or not): Review Changes is offered when there are any. */
  namedFiles?: number;
  /** Blocks of the answer Apply… can do something with, and blocks Insert at Cursor may insert (tasks/offers.ts). */
  applicableBlocks?: number;
  insertableBlocks?: number;
  /** The answer holds code in a form nothing here lands (HTML, a tool's XML, a fence in a quote): say so (issue 43). */
  unlandedCode?: boolean;
  /** The checks of its proposal (issue 37), newest last, the last few (`MAX_KEPT_CHECKS`). */
  checks?: CheckRecord[];
  /** Sent by Ask the Team to Fix: the checked task it continues, and which round. */
  fixOf?: FixRound;
}

/** Checks kept per task: the newest, with their outputs on disk. */
export const MAX_KEPT_CHECKS = 5;

/** The newest check of a task's proposal. */
export function latestCheck(task: Pick<TrackedTask, 'checks'>): CheckRecord | undefined {
  return task.checks?.at(-1);
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
  agentStatuses?:
    | { agent_id?: string | number; status?: string; progress?: number | null; result?: string | null; model?: string | null }[]
    | null;
  pendingApproval?: { agentName?: string; permission?: string } | null;
  /** The tools the agents used (any shape the service sends; read by tasks/tracking/activity.ts). */
  toolEvents?: unknown;
  /** Sources of a thread message (read from a thread, not from a task state). */
  sources?: unknown;
  budgetUsage?: { initialUsd?: number | null; consumedUsd?: number | null; remainingUsd?: number | null } | null;
  conversationId?: string | number | null;
  traceId?: string | null;
  /** The model the service runs the task with, when it says. */
  modelId?: string;
  /** Why the client ended the task (the poller has no words: the store words this when it is stored). */
  reason?: EndReason;
}

/**
 * The service's word for an agent's state as one word for logic. The live tracker writes QUEUED,
 * PROCESSING..., COMPLETED, FAILED, TIMEOUT (progress_tracker.go); earlier servers wrote lower case.
 */
export function agentStatusWord(raw: string | undefined): string {
  const word = (raw ?? '').trim().toLowerCase().replace(/[.…\s]+$/u, '');
  switch (word) {
    case '':
    case 'processing':
    case 'running':
    case 'working':
    case 'in_progress':
      return 'running';
    case 'queued':
    case 'pending':
    case 'waiting':
      return 'queued';
    case 'completed':
    case 'complete':
    case 'done':
    case 'success':
      return 'completed';
    case 'failed':
    case 'error':
      return 'failed';
    case 'timeout':
    case 'timed_out':
      return 'timeout';
    default:
      return word.slice(0, 40);
  }
}

/** An agent that will not change any more: done, failed or timed out (its progress is then 1). */
export function isAgentDone(agent: Pick<AgentProgress, 'status' | 'progress'>): boolean {
  return agent.status === 'completed' || agent.status === 'failed' || agent.status === 'timeout' || (agent.progress !== undefined && agent.progress >= 1);
}

/** Characters of an agent's latest words kept. */
const AGENT_PREVIEW_CHARS = 160;

/**
 * The agents of a state, in the service's order of ids (its list comes in no order) and numbered 1…n
 * whatever its base (the live service counts from 0), each with one status word.
 */
export function agentsOf(state: ObservedState): AgentProgress[] | undefined {
  const agents = state.agentStatuses;
  if (!agents?.length) return undefined;
  const rank = (a: { agent_id?: string | number }, i: number): number => {
    const n = typeof a.agent_id === 'number' ? a.agent_id : typeof a.agent_id === 'string' && /^\d{1,9}$/.test(a.agent_id) ? Number(a.agent_id) : NaN;
    return Number.isFinite(n) ? n : 1e9 + i;
  };
  return agents
    .map((a, i) => ({ a, key: rank(a, i) }))
    .sort((x, y) => x.key - y.key)
    .map(({ a }, i) => {
      const agent: AgentProgress = {
        id: String(i + 1),
        status: agentStatusWord(a.status),
        progress: typeof a.progress === 'number' && Number.isFinite(a.progress) ? clamp01(a.progress > 1 ? a.progress / 100 : a.progress) : undefined,
      };
      if (typeof a.model === 'string' && a.model.trim()) agent.model = a.model.trim().slice(0, 100);
      const words = typeof a.result === 'string' ? a.result.slice(0, AGENT_PREVIEW_CHARS * 2).replace(/\s+/g, ' ').trim() : '';
      if (words) agent.preview = words.length > AGENT_PREVIEW_CHARS ? `${words.slice(0, AGENT_PREVIEW_CHARS - 1)}…` : words;
      return agent;
    });
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

/**
 * The model as a user reads it: the label the model picker shows ("Claude Sonnet 4.5"), by `labelOf` (the catalog
 * as last read) or as kept when the task was sent; the id only for a model no list names.
 */
export function modelNameOf(task: Pick<TrackedTask, 'modelId' | 'modelUsed' | 'modelLabel'>, labelOf?: (id: string) => string | undefined): string | undefined {
  const id = modelOf(task);
  if (!id) return undefined;
  return labelOf?.(id) || (id === task.modelId ? task.modelLabel : undefined) || id;
}

/** A label from the first line of the instruction. */
export function titleFrom(instruction: string, max = 60): string {
  const line = instruction.trim().split(/\r?\n/)[0]?.trim() || 'Task';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** What a state says of a pause for approval (server text, kept only when it is a non-empty string). */
export function approvalOf(state: ObservedState): NonNullable<TrackedTask['approval']> {
  const pending = state.pendingApproval;
  const approval: NonNullable<TrackedTask['approval']> = {};
  if (typeof pending?.agentName === 'string' && pending.agentName) approval.agentName = pending.agentName;
  if (typeof pending?.permission === 'string' && pending.permission) approval.permission = pending.permission;
  return approval;
}

/** A task that failed or was canceled stopped its agents too: none of them reads "running 52%" any more. */
export function endedAgents(agents: TrackedTask['agents'], status: string): TrackedTask['agents'] {
  if (!agents || status === 'completed') return agents;
  return agents.map(a => (a.status === 'completed' || a.status === 'failed' ? a : { ...a, status }));
}

/** Whether two agent lists say the same (a state that changes nothing fires nothing). */
export function sameAgents(a: TrackedTask['agents'], b: TrackedTask['agents']): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x.id === b[i].id && x.status === b[i].status && x.progress === b[i].progress && x.preview === b[i].preview && x.model === b[i].model);
}

/**
 * How long the task took, when this window followed it the whole way. A task followed again after Stop
 * Tracking has none: the service does not say when a task ended, and the moment it was seen done can be hours
 * later. Undefined then, while it runs, and once it is no longer followed (Stop Tracking).
 */
export function tookMs(task: Pick<TrackedTask, 'finishedAt' | 'submittedAt' | 'followedAgain' | 'trackingStopped'>): number | undefined {
  // A task no longer followed did not end when it was let go (it may still run): it took no known time (issue 35).
  return task.finishedAt === undefined || task.followedAgain || task.trackingStopped ? undefined : task.finishedAt - task.submittedAt;
}
