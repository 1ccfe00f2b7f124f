/**
 * An execution trace (`GET {engine}/api/v1/tasks/{id}/trace`) read into what the extension shows and keeps:
 * the goal, the plan, one step per agent (its subtask is `plan[i]`, its answer, its tools), the
 * self-evaluation, the report when the service kept one, and the final answer. Tolerant of the stored JSON
 * (Go field names `AgentID`/`AgentName`/`Status`/`Response`, snake_case or camelCase alike; zero values for
 * agents that have not ended) and bounded: at most so many steps and plan items, every text cut, and the
 * whole kept under one budget of characters, with the cuts counted so the view can say what was left out.
 * Linear in the input; no dependencies.
 */
import { type Json, field, isObject } from './json';
import { type ToolEventInfo, cutText, readToolEvents } from './toolEvents';

export const TRACE_LIMITS = {
  steps: 24,
  plan: 24,
  /** Tool calls kept per step. */
  toolsPerStep: 12,
  reportItems: 24,
  /** Characters of one agent's answer, of the final answer, of the goal, of any shorter text. */
  response: 12_000,
  answer: 20_000,
  goal: 4_000,
  line: 1_000,
  /** Characters kept of all texts together: a 3 MiB trace becomes a few hundred kilobytes. */
  total: 250_000,
} as const;

export interface TraceStep {
  /** 1-based position in the plan. */
  index: number;
  agent?: string;
  subtask?: string;
  /** `success`, `error`, or `pending` (a slot whose agent has not ended: Go's zero value). */
  status: 'success' | 'error' | 'pending' | (string & {});
  response?: string;
  executionMs?: number;
  tools: ToolEventInfo[];
}

export interface TraceReport {
  summary?: string;
  keySteps: { agent?: string; action?: string; observation?: string }[];
  decisions: { agent?: string; rationale?: string; outcome?: string }[];
  /** Accuracy, completeness, confidence (0-5), risk, human review, as the service rated them. */
  rubric: { name: string; value: string }[];
}

export interface TraceView {
  id?: string;
  goal?: string;
  plan: string[];
  steps: TraceStep[];
  /** The self-evaluation's status (the service writes `completed`), or its fields as text. */
  selfEval?: string;
  report?: TraceReport;
  finalAnswer?: string;
  createdAt?: string;
  /** What was left out: steps and plan items over the limits, characters over the limits. */
  cut: { steps: number; plan: number; chars: number };
}


/** Keeps texts within their own limit and the shared budget, counting what it drops. */
class Budget {
  left: number = TRACE_LIMITS.total;
  dropped = 0;

  text(value: unknown, max: number): string | undefined {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    const text = String(value).trim();
    if (!text) return undefined;
    const room = Math.min(max, this.left);
    if (room <= 1) {
      this.dropped += text.length;
      return undefined;
    }
    const kept = cutText(text, room);
    // A cut text ends with "…" in place of what was left out.
    this.dropped += text.length - (kept === text ? text.length : kept.length - 1);
    this.left -= kept.length;
    return kept;
  }
}

function readStep(raw: unknown, index: number, subtask: string | undefined, budget: Budget): TraceStep | undefined {
  if (!isObject(raw)) return undefined;
  const status = String(field(raw, 'Status', 'status') ?? '').trim().toLowerCase();
  const name = field(raw, 'AgentName', 'agentName', 'agent_name', 'agent');
  const response = field(raw, 'Response', 'response', 'result');
  const pending = !status && !name && !response;
  const ms = field(raw, 'ExecutionTime', 'executionTime', 'execution_time', 'durationMs');
  return {
    index,
    agent: budget.text(name, TRACE_LIMITS.line),
    subtask,
    status: pending ? 'pending' : status || 'success',
    response: budget.text(response, TRACE_LIMITS.response),
    executionMs: typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : undefined,
    tools: readToolEvents(field(raw, 'ToolEvents', 'toolEvents', 'tool_events'), TRACE_LIMITS.toolsPerStep),
  };
}

function readReport(raw: unknown, budget: Budget): TraceReport | undefined {
  if (!isObject(raw)) return undefined;
  const items = (value: unknown) => (Array.isArray(value) ? value.slice(0, TRACE_LIMITS.reportItems).filter(isObject) : []);
  const line = (value: unknown) => budget.text(value, TRACE_LIMITS.line);
  const rubric = isObject(raw.rubric)
    ? Object.entries(raw.rubric)
        .slice(0, TRACE_LIMITS.reportItems)
        .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
        .map(([name, v]) => ({ name: cutText(name, 60), value: cutText(String(v), 60) }))
    : [];
  return {
    summary: budget.text(raw.summary, TRACE_LIMITS.goal),
    keySteps: items(field(raw, 'key_steps', 'keySteps')).map(s => ({ agent: line(s.agent), action: line(s.action), observation: line(s.observation) })),
    decisions: items(raw.decisions).map(d => ({ agent: line(d.agent), rationale: line(d.rationale), outcome: line(d.outcome) })),
    rubric,
  };
}

function selfEvalOf(raw: unknown): string | undefined {
  if (typeof raw === 'string') return cutText(raw, TRACE_LIMITS.line) || undefined;
  if (!isObject(raw)) return undefined;
  if (typeof raw.status === 'string' && Object.keys(raw).length === 1) return cutText(raw.status, 60);
  const parts = Object.entries(raw)
    .slice(0, 12)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${cutText(k, 60)}: ${cutText(String(v), 200)}`);
  return parts.length ? parts.join(' · ') : undefined;
}

/** The trace of `GET …/trace` (its `trace` object) as the extension keeps and shows it. */
export function readTrace(raw: unknown): TraceView {
  const t = isObject(raw) ? raw : {};
  const budget = new Budget();
  const goal = budget.text(t.goal, TRACE_LIMITS.goal);
  const rawPlan = Array.isArray(t.plan) ? t.plan : [];
  const plan: string[] = [];
  for (const item of rawPlan.slice(0, TRACE_LIMITS.plan)) plan.push(budget.text(typeof item === 'string' ? item : undefined, TRACE_LIMITS.line) ?? '');
  const rawSteps = Array.isArray(t.steps) ? t.steps : [];
  const steps: TraceStep[] = [];
  for (const [i, item] of rawSteps.slice(0, TRACE_LIMITS.steps).entries()) {
    const step = readStep(item, i + 1, plan[i] || undefined, budget);
    if (step) steps.push(step);
  }
  const artifacts = isObject(t.artifacts) ? t.artifacts : {};
  const report = readReport(t.report, budget);
  const finalAnswer = budget.text(field(artifacts, 'final_answer', 'finalAnswer'), TRACE_LIMITS.answer);
  const id = t.id;
  return {
    id: typeof id === 'string' || typeof id === 'number' ? cutText(String(id), 200) : undefined,
    goal,
    plan,
    steps,
    selfEval: selfEvalOf(t.self_eval),
    report,
    finalAnswer,
    createdAt: typeof t.created_at === 'string' ? cutText(t.created_at, 60) : undefined,
    cut: { steps: Math.max(0, rawSteps.length - steps.length), plan: Math.max(0, rawPlan.length - plan.length), chars: budget.dropped },
  };
}

/** Whether a value read back from disk is a trace this version wrote (a cache from an older one is read again). */
export function isTraceView(value: unknown): value is TraceView {
  return isObject(value) && Array.isArray(value.plan) && Array.isArray(value.steps) && isObject(value.cut);
}
