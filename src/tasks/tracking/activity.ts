/**
 * What a task is doing and what it produced, from the service's tool events: each agent's recent tool calls
 * (tool, agent, status, a short preview), the files the agents generated, the pages they read, what an engine
 * run spent, and the thread and trace the service saved. Bounded in count and length, so a flood of events
 * costs a fixed amount of memory and storage. No vscode: the store and the tests call it in plain Node.
 */
import { readSources, readToolEvents } from '../../api/toolEvents';
import type { BudgetSpent, ObservedState, ProducedFile, SourceLink, ToolActivity, TrackedTask } from '../model';

export const ACTIVITY_LIMITS = {
  /** Tool calls kept per task (the newest). */
  activity: 12,
  /** Characters of a tool call's preview. */
  preview: 160,
  files: 20,
  sources: 20,
} as const;

const cut = (text: string | undefined, max: number): string | undefined => {
  if (!text) return undefined;
  const flat = text.slice(0, max * 2).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat || undefined;
};

const finite = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);

/** The details a state carries; a field is absent when the state says nothing about it. */
export function detailsOf(state: ObservedState): Partial<Pick<TrackedTask, 'activity' | 'files' | 'sources' | 'budget' | 'conversationId' | 'traceId'>> {
  const out: ReturnType<typeof detailsOf> = {};
  const events = readToolEvents(state.toolEvents);
  if (Array.isArray(state.toolEvents)) {
    out.activity = events.slice(-ACTIVITY_LIMITS.activity).map(e => {
      const a: ToolActivity = { tool: e.tool, status: e.status };
      if (e.id) a.id = e.id;
      if (e.agent !== undefined) a.agent = e.agent;
      const preview = cut(e.error ?? e.preview, ACTIVITY_LIMITS.preview);
      if (preview) a.preview = preview;
      return a;
    });
  }
  const files: ProducedFile[] = [];
  for (const e of events) {
    if (!e.file || files.length >= ACTIVITY_LIMITS.files) continue;
    const file: ProducedFile = { filename: e.file.filename };
    if (e.file.fileId) file.fileId = e.file.fileId;
    if (e.file.mimeType) file.mimeType = e.file.mimeType;
    if (e.file.bytes !== undefined) file.bytes = e.file.bytes;
    if (e.agent !== undefined) file.agent = e.agent;
    files.push(file);
  }
  if (files.length) out.files = files;
  const sources = mergeSources([], [...events.flatMap(e => e.sources), ...readSources(state.sources, ACTIVITY_LIMITS.sources)]);
  if (sources.length) out.sources = sources;
  const usage = state.budgetUsage;
  const consumed = finite(usage?.consumedUsd);
  if (usage && consumed !== undefined) {
    const budget: BudgetSpent = { consumedUsd: consumed };
    const initial = finite(usage.initialUsd);
    const remaining = finite(usage.remainingUsd);
    if (initial !== undefined) budget.initialUsd = initial;
    if (remaining !== undefined) budget.remainingUsd = remaining;
    out.budget = budget;
  }
  const conversation = state.conversationId;
  if ((typeof conversation === 'number' && Number.isSafeInteger(conversation) && conversation > 0) || (typeof conversation === 'string' && /^\d{1,18}$/.test(conversation))) {
    out.conversationId = String(conversation);
  }
  if (typeof state.traceId === 'string' && state.traceId.trim()) out.traceId = state.traceId.trim().slice(0, 200);
  return out;
}

function mergeSources(known: readonly SourceLink[], more: readonly { url: string; title?: string; snippet?: string }[]): SourceLink[] {
  const out = [...known];
  const seen = new Set(out.map(s => s.url));
  for (const s of more) {
    if (out.length >= ACTIVITY_LIMITS.sources) break;
    if (seen.has(s.url)) continue;
    seen.add(s.url);
    const link: SourceLink = { url: s.url };
    if (s.title) link.title = s.title;
    if (s.snippet) link.snippet = s.snippet;
    out.push(link);
  }
  return out;
}

/** Files by their id, else their name: a later report of the same file (now stored, with an id) replaces it. */
function mergeFiles(known: readonly ProducedFile[], more: readonly ProducedFile[]): ProducedFile[] {
  const out = [...known];
  for (const f of more) {
    const i = out.findIndex(k => (f.fileId && k.fileId === f.fileId) || (k.filename === f.filename && (!k.fileId || !f.fileId)));
    if (i >= 0) out[i] = { ...out[i], ...f };
    else if (out.length < ACTIVITY_LIMITS.files) out.push(f);
  }
  return out;
}

/**
 * The task with what `state` says added: the activity is the service's latest list (it sends all calls so
 * far), files and sources only ever add up (a stream's compacted events have no files, a status read later
 * does), the budget and the thread as last reported.
 */
export function withDetails(task: TrackedTask, state: ObservedState): TrackedTask {
  const d = detailsOf(state);
  const next: TrackedTask = { ...task };
  if (d.activity) next.activity = d.activity;
  if (d.files) next.files = mergeFiles(task.files ?? [], d.files);
  if (d.sources) next.sources = mergeSources(task.sources ?? [], d.sources);
  if (d.budget) next.budget = d.budget;
  if (d.conversationId) next.conversationId = d.conversationId;
  if (d.traceId) next.traceId = d.traceId;
  return next;
}

/** Whether two records show the same details (so an unchanged state fires no event and writes nothing). */
export function sameDetails(a: TrackedTask, b: TrackedTask): boolean {
  return (
    a.conversationId === b.conversationId &&
    a.traceId === b.traceId &&
    JSON.stringify([a.activity, a.files, a.sources, a.budget]) === JSON.stringify([b.activity, b.files, b.sources, b.budget])
  );
}

/** The agent's running tool, for its row ("search_web…"), if one runs. */
export function runningToolOf(task: Pick<TrackedTask, 'activity'>, agent: number): ToolActivity | undefined {
  const list = task.activity ?? [];
  for (let i = list.length - 1; i >= 0; i--) if (list[i].agent === agent && list[i].status === 'running') return list[i];
  return undefined;
}
