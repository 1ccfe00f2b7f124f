// All in-memory state of the emulated service. Task progress is derived from the clock when read, so there
// is no per-task loop and a stopped/restarted emulator keeps consistent tasks.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { parseDirective, synthesizeResult } from './synth';
import type {
  EmulatedTask,
  EmulatorConfig,
  ProgressModel,
  RateLimit,
  StoredAttachment,
  StoredFile,
  TaskOutcome,
  TaskOverride,
  TaskStatus,
} from './types';

export const DEFAULT_MODEL_ID = 'zai/glm-5.2';
export const DEFAULT_AGENT_COUNT = 4;
export const DEFAULT_FAILURE = 'Orchestration failed: upstream model error';
/** The real service drops bulky fields from a status over this size. */
export const MAX_INLINE_STATE_BYTES = 3 * 1024 * 1024;

export const MODELS = {
  enabled: true,
  defaultModelId: DEFAULT_MODEL_ID,
  options: [
    {
      id: 'zai/glm-5.2',
      label: 'GLM 5.2',
      badge: 'Default',
      description: 'Fast general-purpose model, the default for new tasks.',
    },
    {
      id: 'anthropic/claude-sonnet-4.5',
      label: 'Claude Sonnet 4.5',
      badge: 'Pro',
      description: 'Strong at code review and long-context reasoning.',
      usageMultiple: 2,
    },
    {
      id: 'openai/gpt-5.1',
      label: 'GPT-5.1',
      badge: 'Pro',
      reasoningEffortLevels: ['low', 'medium', 'high'],
      defaultReasoningEffort: 'medium',
    },
    { id: 'google/gemini-3-pro', label: 'Gemini 3 Pro', badge: 'New' },
  ],
};

export function modelLabel(id: string): string {
  return MODELS.options.find((m) => m.id === id)?.label ?? id;
}

export type Tier = 'STARTER' | 'PRO' | 'ENTERPRISE';
export const TIERS: Record<Tier, { hourly: number; monthly: number }> = {
  STARTER: { hourly: 1000, monthly: 1_000_000 },
  PRO: { hourly: 5000, monthly: 10_000_000 },
  ENTERPRISE: { hourly: 10000, monthly: 100_000_000 },
};

export interface KeyRecord {
  keyId: number;
  key: string;
  userId: number;
  tier: Tier;
  createdAt: number;
  lastUsedAt?: number;
  revokedAt?: number;
  /** Keys given at start-up report a deterministic history on top of real use. */
  seeded: boolean;
  /** Real authenticated requests per UTC day. */
  daily: Map<string, number>;
  /** Timestamps of the last hour's requests. */
  lastHour: number[];
  /** Timestamps inside the current rate-limit window. */
  window: number[];
}

interface TaskRecord extends Omit<EmulatedTask, 'status'> {
  steps: number;
  attachmentNames: string[];
  progressModel: ProgressModel;
  /** Paused tasks: approve automatically this long after the pause starts. */
  autoApproveMs?: number;
  /** Paused tasks: processing time left after approval. */
  resumeMs: number;
  /** Task state lifetime after its last change; 0 = forever. */
  ttlMs: number;
}

export interface MessageRecord {
  id: number;
  messageId: string;
  threadId: number;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  elapsedSeconds?: number;
  error?: string;
}

export interface ThreadRecord {
  id: number;
  userId: number;
  title?: string;
  createdAt: number;
  messages: MessageRecord[];
  /** Runs whose assistant message is not appended yet. */
  pending: string[];
  lastTaskId?: string;
}

interface UploadToken {
  token: string;
  expiresAt: number;
  fileId: string;
  userId: number;
  pathname: string;
  filename: string;
  mimeType?: string;
  purpose?: string;
}

export interface NewTask {
  userId: number;
  apiKey: string;
  source: EmulatedTask['source'];
  threadId?: number;
  prompt: string;
  modelId: string;
  options: Record<string, unknown>;
  body: unknown;
  attachmentIds: string[];
}

export interface RateDecision {
  limited: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when a slot frees. */
  reset: number;
  retryAfterSeconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export const iso = (ms: number): string => new Date(ms).toISOString();
const utcDay = (ms: number): string => iso(ms).slice(0, 10);
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function seededNumber(text: string, modulo: number): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % modulo;
}

export class Store {
  readonly keys = new Map<string, KeyRecord>();
  readonly tasksById = new Map<string, TaskRecord>();
  readonly threads = new Map<number, ThreadRecord>();
  readonly filesById = new Map<string, StoredFile>();
  readonly attachmentsById = new Map<string, StoredAttachment>();
  private readonly uploadTokens = new Map<string, UploadToken>();
  /** Bytes PUT to the emulated blob store, by pathname. */
  readonly blobs = new Map<string, Buffer>();
  private readonly nextTasks: TaskOverride[] = [];
  private nextKeyId = 1;
  private nextThreadId = 1;
  private nextMessageId = 1;
  rateLimit: RateLimit | undefined;

  constructor(
    apiKeys: string[],
    public config: EmulatorConfig,
  ) {
    const now = Date.now();
    apiKeys.forEach((key, i) => this.addKey(key, i + 1, 'PRO', now - 30 * DAY_MS, true));
  }

  addKey(key: string, userId: number, tier: Tier, createdAt: number, seeded: boolean): KeyRecord {
    const record: KeyRecord = {
      keyId: this.nextKeyId++,
      key,
      userId,
      tier,
      createdAt,
      seeded,
      daily: new Map(),
      lastHour: [],
      window: [],
    };
    this.keys.set(key, record);
    return record;
  }

  authenticate(key: string | undefined): KeyRecord | undefined {
    const record = key === undefined ? undefined : this.keys.get(key);
    return record && record.revokedAt === undefined ? record : undefined;
  }

  /** Counts an authenticated request against the rate limit; a refused one is not counted. */
  checkRateLimit(record: KeyRecord, now: number): RateDecision | undefined {
    const rl = this.rateLimit;
    if (!rl) {
      return undefined;
    }
    record.window = record.window.filter((t) => t > now - rl.windowMs);
    const limited = record.window.length >= rl.limit;
    if (!limited) {
      record.window.push(now);
    }
    const freesAt = record.window.length > 0 ? record.window[0] + rl.windowMs : now;
    return {
      limited,
      limit: rl.limit,
      remaining: Math.max(0, rl.limit - record.window.length),
      reset: Math.ceil(freesAt / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)),
    };
  }

  recordUse(record: KeyRecord, now: number): void {
    const day = utcDay(now);
    record.daily.set(day, (record.daily.get(day) ?? 0) + 1);
    record.lastHour.push(now);
    while (record.lastHour.length > 0 && record.lastHour[0] <= now - HOUR_MS) {
      record.lastHour.shift();
    }
    record.lastUsedAt = now;
  }

  userKeys(userId: number): KeyRecord[] {
    return [...this.keys.values()].filter((k) => k.userId === userId);
  }

  // ---- tasks ----

  queueOverride(o: TaskOverride): void {
    this.nextTasks.push(o);
  }

  createTask(input: NewTask, now = Date.now()): TaskRecord {
    // The prompt directive is the fallback; an override queued by a test wins field by field.
    const override: TaskOverride = { ...parseDirective(input.prompt), ...(this.nextTasks.shift() ?? {}) };
    const durationMs = Math.max(0, override.durationMs ?? this.config.taskDurationMs);
    const agentCount = typeof input.options.agentCount === 'number' ? input.options.agentCount : DEFAULT_AGENT_COUNT;
    const attachmentNames = input.attachmentIds.map((id) => this.attachmentsById.get(id)?.filename ?? id);
    const outcome: TaskOutcome = override.outcome ?? 'completed';
    const budget = typeof input.options.budget === 'number' ? input.options.budget : undefined;
    const task: TaskRecord = {
      id: `task_${randomUUID()}`,
      userId: input.userId,
      apiKey: input.apiKey,
      source: input.source,
      threadId: input.threadId,
      createdAt: now,
      completesAt: now + durationMs,
      durationMs,
      outcome,
      prompt: input.prompt,
      modelId: input.modelId,
      agentCount,
      options: { ...input.options, agentCount },
      body: input.body,
      attachmentIds: input.attachmentIds,
      attachmentNames,
      result:
        override.result ??
        synthesizeResult({
          prompt: input.prompt,
          modelId: input.modelId,
          modelLabel: modelLabel(input.modelId),
          agentCount,
          attachmentNames,
          budget,
          resultBytes: override.resultBytes,
        }),
      error: outcome === 'failed' ? (override.error ?? DEFAULT_FAILURE) : undefined,
      resultTooLargeForResults: override.resultTooLargeForResults ?? false,
      steps: Math.max(1, this.config.progressSteps),
      progressModel: this.config.progressModel,
      autoApproveMs: this.config.autoApproveMs,
      resumeMs: Math.max(0, this.config.approvalResumeMs ?? Math.round(durationMs / 2)),
      ttlMs: Math.max(0, this.config.taskTtlMs),
    };
    this.tasksById.set(task.id, task);
    return task;
  }

  /** A task visible to this user (another user's task does not exist for them); expired state is gone. */
  findTask(id: string, userId: number, now = Date.now()): TaskRecord | undefined {
    const task = this.tasksById.get(id);
    return task && task.userId === userId && !isExpired(task, now) ? task : undefined;
  }

  snapshot(task: TaskRecord, now = Date.now()): EmulatedTask {
    const { steps: _s, attachmentNames: _n, progressModel: _p, autoApproveMs: _a, resumeMs: _r, ttlMs: _t, ...rest } = task;
    const last = lastChangeAt(task, now);
    const expiresAt = task.ttlMs > 0 && last !== undefined ? last + task.ttlMs : undefined;
    return { ...rest, status: statusAt(task, now), approvedAt: approvalTime(task), expiresAt };
  }

  /** The web console's approve: a task paused for approval goes back to processing. */
  approve(task: TaskRecord, now = Date.now()): boolean {
    if (statusAt(task, now) !== 'awaiting_approval') {
      return false;
    }
    task.approvedAt = now;
    this.changed(task.id);
    return true;
  }

  /** POST /tasks/{id}/cancel: a task still running or paused becomes canceled; a finished one is unchanged. */
  cancel(task: TaskRecord, now = Date.now()): boolean {
    const status = statusAt(task, now);
    if (status !== 'processing' && status !== 'awaiting_approval') {
      return false;
    }
    task.canceledAt = now;
    this.canceledCount++;
    this.changed(task.id);
    return true;
  }

  canceledCount = 0;
  private readonly watchers = new Map<string, Set<() => void>>();

  /** Called when a task changes by an outside action (cancel, approve); returns the unsubscribe. */
  watch(taskId: string, fn: () => void): () => void {
    const set = this.watchers.get(taskId) ?? new Set();
    set.add(fn);
    this.watchers.set(taskId, set);
    return () => set.delete(fn);
  }

  private changed(taskId: string): void {
    for (const fn of [...(this.watchers.get(taskId) ?? [])]) {
      fn();
    }
  }

  // ---- threads ----

  createThread(userId: number, title: string | undefined, now = Date.now()): ThreadRecord {
    const thread: ThreadRecord = { id: this.nextThreadId++, userId, title, createdAt: now, messages: [], pending: [] };
    this.threads.set(thread.id, thread);
    return thread;
  }

  findThread(id: number, userId: number): ThreadRecord | undefined {
    const thread = this.threads.get(id);
    return thread && thread.userId === userId ? thread : undefined;
  }

  addMessage(thread: ThreadRecord, m: Omit<MessageRecord, 'id' | 'messageId' | 'threadId'>): void {
    thread.messages.push({ ...m, id: this.nextMessageId++, messageId: `msg_${randomUUID()}`, threadId: thread.id });
  }

  /**
   * Appends the assistant message of every run that has ended by `now`, stamped with its completion time.
   * Done on read rather than by timers, which gives the same observable history without timers to clean up.
   */
  settleThread(thread: ThreadRecord, now = Date.now()): ThreadRecord {
    const ended = thread.pending
      .map((id) => this.tasksById.get(id))
      .filter((t): t is TaskRecord => t !== undefined && isFinal(statusAt(t, now)))
      .sort((a, b) => (endTime(a) ?? 0) - (endTime(b) ?? 0));
    for (const task of ended) {
      thread.pending = thread.pending.filter((id) => id !== task.id);
      const end = endTime(task) ?? now;
      const base = { role: 'assistant' as const, createdAt: end, elapsedSeconds: (end - task.createdAt) / 1000 };
      if (statusAt(task, now) === 'completed') {
        this.addMessage(thread, { ...base, content: task.result });
      } else {
        this.addMessage(thread, { ...base, content: '', error: task.canceledAt === undefined ? (task.error ?? 'Task was canceled') : 'Task was canceled' });
      }
    }
    return thread;
  }

  // ---- files ----

  addFile(f: Omit<StoredFile, 'id'> & { id?: string }): StoredFile {
    const file: StoredFile = { ...f, id: f.id ?? newFileId() };
    this.filesById.set(file.id, file);
    return file;
  }

  findFile(id: string, userId: number): StoredFile | undefined {
    const file = this.filesById.get(id);
    return file && file.userId === userId ? file : undefined;
  }

  issueUploadToken(t: Omit<UploadToken, 'fileId' | 'pathname' | 'token' | 'expiresAt'>, now = Date.now()): UploadToken {
    const fileId = newFileId();
    const record: UploadToken = {
      ...t,
      fileId,
      token: `vercel_blob_client_emulated_${randomBytes(16).toString('hex')}`,
      expiresAt: now + 15 * 60 * 1000,
      pathname: `developer-files/u${t.userId}/${fileId}/${sanitizeFilename(t.filename)}`,
    };
    this.uploadTokens.set(fileId, record);
    return record;
  }

  uploadTokenFor(pathname: string): UploadToken | undefined {
    return [...this.uploadTokens.values()].find((t) => t.pathname === pathname);
  }

  takeUploadToken(fileId: string, userId: number, pathname?: string): UploadToken | undefined {
    const t = this.uploadTokens.get(fileId);
    if (!t || t.userId !== userId || (pathname !== undefined && t.pathname !== pathname) || Date.now() > t.expiresAt) {
      return undefined;
    }
    this.uploadTokens.delete(fileId);
    return t;
  }

  addAttachment(a: Omit<StoredAttachment, 'id'>): StoredAttachment {
    const attachment: StoredAttachment = { ...a, id: `u:${a.userId}:${randomUUID()}` };
    this.attachmentsById.set(attachment.id, attachment);
    return attachment;
  }

  // ---- usage ----

  usage(userId: number, now = Date.now()): Record<string, unknown> {
    const keys = this.userKeys(userId);
    const today = utcDay(now);
    const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
    const nextMonthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + 1, 1);
    const dayCount = (k: KeyRecord, day: string): number =>
      (k.seeded ? 40 + seededNumber(`${k.keyId}:${day}`, 160) : 0) + (k.daily.get(day) ?? 0);
    const sumDays = (k: KeyRecord, fromMs: number): number => {
      let total = 0;
      for (let t = now; t >= fromMs; t -= DAY_MS) {
        total += dayCount(k, utcDay(t));
      }
      return total;
    };

    const perKey = keys.map((k) => {
      const limits = TIERS[k.tier];
      return {
        keyId: k.keyId,
        displayKey: displayKey(k.key),
        tier: k.tier,
        createdAt: iso(k.createdAt),
        lastUsedAt: k.lastUsedAt === undefined ? null : iso(k.lastUsedAt),
        revokedAt: k.revokedAt === undefined ? null : iso(k.revokedAt),
        hourlyLimit: limits.hourly,
        monthlyQuota: limits.monthly,
        currentHourlyUsage: k.lastHour.filter((t) => t > now - HOUR_MS).length,
        dailyUsage: dayCount(k, today),
        weeklyUsage: sumDays(k, now - 6 * DAY_MS),
        monthlyUsage: sumDays(k, monthStart),
      };
    });
    const usageHistory = [];
    for (let i = 13; i >= 0; i--) {
      const day = utcDay(now - i * DAY_MS);
      usageHistory.push({ date: day, count: keys.reduce((n, k) => n + dayCount(k, day), 0) });
    }
    const requestsThisMonth = perKey.reduce((n, k) => n + k.monthlyUsage, 0);
    const monthlyQuota = Math.max(0, ...keys.filter((k) => k.revokedAt === undefined).map((k) => TIERS[k.tier].monthly));
    const earlier = keys.reduce((n, k) => n + (k.seeded ? 20000 + seededNumber(`${k.keyId}:total`, 5000) : 0), 0);
    return {
      totalRequests: earlier + requestsThisMonth,
      requestsThisMonth,
      requestsThisWeek: perKey.reduce((n, k) => n + k.weeklyUsage, 0),
      requestsToday: perKey.reduce((n, k) => n + k.dailyUsage, 0),
      monthlyQuota,
      monthlyRemaining: Math.max(0, monthlyQuota - requestsThisMonth),
      periodStart: iso(monthStart),
      periodEnd: iso(nextMonthStart),
      apiKeys: perKey,
      usageHistory,
    };
  }
}

export function displayKey(key: string): string {
  return key.length > 14 ? `${key.slice(0, 10)}...${key.slice(-4)}` : key;
}

/** Names in blob paths and download headers: [A-Za-z0-9._-], anything else as `_`. */
export function sanitizeFilename(filename: string): string {
  const base = filename.trim().split(/[\\/]/).pop() ?? '';
  const safe = [...base].map((c) => (/^[A-Za-z0-9._-]$/.test(c) ? c : '_')).join('');
  return safe === '' || safe === '.' ? 'file.bin' : safe;
}

function newFileId(): string {
  return `file-${randomBytes(12).toString('hex')}`;
}

const FINAL: readonly TaskStatus[] = ['completed', 'failed', 'canceled'];
export const isFinal = (status: TaskStatus): boolean => FINAL.includes(status);

/** When a paused task is (or will be) approved; undefined while nobody approved it. */
export function approvalTime(task: TaskRecord): number | undefined {
  if (task.outcome !== 'awaiting_approval') {
    return undefined;
  }
  if (task.approvedAt !== undefined) {
    return task.approvedAt;
  }
  return task.autoApproveMs === undefined ? undefined : task.completesAt + task.autoApproveMs;
}

function naturalStatus(task: TaskRecord, now: number): TaskStatus {
  if (now < task.completesAt) {
    return 'processing';
  }
  if (task.outcome !== 'awaiting_approval') {
    return task.outcome;
  }
  const approved = approvalTime(task);
  if (approved === undefined || now < approved) {
    return 'awaiting_approval';
  }
  return now < approved + task.resumeMs ? 'processing' : 'completed';
}

export function statusAt(task: TaskRecord, now: number): TaskStatus {
  if (task.canceledAt !== undefined && now >= task.canceledAt) {
    return 'canceled';
  }
  return naturalStatus(task, now);
}

/** When the task reached (or will reach) a final state; undefined while that is not known. */
export function endTime(task: TaskRecord): number | undefined {
  const natural =
    task.outcome !== 'awaiting_approval'
      ? task.completesAt
      : (() => {
          const approved = approvalTime(task);
          return approved === undefined ? undefined : approved + task.resumeMs;
        })();
  if (task.canceledAt !== undefined && (natural === undefined || task.canceledAt < natural)) {
    return task.canceledAt;
  }
  return natural;
}

/** Time of the last state change up to `now` for a task that stopped changing (final or paused), else undefined. */
export function lastChangeAt(task: TaskRecord, now: number): number | undefined {
  const status = statusAt(task, now);
  if (isFinal(status)) {
    return endTime(task);
  }
  return status === 'awaiting_approval' ? task.completesAt : undefined;
}

export function isExpired(task: TaskRecord, now: number): boolean {
  const last = lastChangeAt(task, now);
  return task.ttlMs > 0 && last !== undefined && now >= last + task.ttlMs;
}

interface Phase {
  start: number;
  end: number;
  /** Overall work fraction at start and end of the phase. */
  from: number;
  to: number;
  /** Progress updates before this phase. */
  stepOffset: number;
}

/** The processing phase `now` falls in (a paused task works before and after its approval). */
function phaseAt(task: TaskRecord, now: number): Phase {
  const paused = task.outcome === 'awaiting_approval';
  const approved = approvalTime(task);
  if (paused && approved !== undefined && now >= approved) {
    return { start: approved, end: approved + task.resumeMs, from: 0.5, to: 1, stepOffset: task.steps };
  }
  return { start: task.createdAt, end: task.completesAt, from: 0, to: paused ? 0.5 : 1, stepOffset: 0 };
}

/** Work fraction (0..1) and number of progress updates so far, frozen when the task stopped. */
function progressAt(task: TaskRecord, now: number): { fraction: number; step: number; at: number } {
  const frozen = task.canceledAt !== undefined && now >= task.canceledAt ? task.canceledAt : now;
  const status = statusAt(task, frozen);
  if (status === 'completed') {
    return { fraction: 1, step: task.steps * (task.outcome === 'awaiting_approval' ? 2 : 1), at: endTime(task) ?? now };
  }
  if (status === 'awaiting_approval') {
    return { fraction: 0.5, step: task.steps, at: task.completesAt };
  }
  const t = Math.min(frozen, task.completesAt);
  const phase = phaseAt(task, status === 'failed' ? t : frozen);
  const at = status === 'failed' ? phase.end : frozen;
  const span = Math.max(1, phase.end - phase.start);
  const within = Math.min(1, Math.max(0, (at - phase.start) / span));
  const inPhase = status === 'failed' ? task.steps - 1 : Math.min(task.steps - 1, Math.floor(within * task.steps));
  return {
    fraction: phase.from + (phase.to - phase.from) * within,
    step: phase.stepOffset + inPhase,
    at: phase.start + Math.round((inPhase * span) / task.steps),
  };
}

/** Next time the derived state changes after `now`; undefined when it will not change by itself. */
export function nextChange(task: TaskRecord, now: number): number | undefined {
  const status = statusAt(task, now);
  if (isFinal(status)) {
    return undefined;
  }
  if (status === 'awaiting_approval') {
    return approvalTime(task);
  }
  const phase = phaseAt(task, now);
  const stepMs = Math.max(1, (phase.end - phase.start) / task.steps);
  const next = phase.start + (Math.floor((now - phase.start) / stepMs) + 1) * stepMs;
  return Math.min(Math.ceil(next), phase.end);
}

export const PENDING_APPROVAL_PERMISSION = 'bash';

function pendingApproval(task: TaskRecord): Record<string, unknown> {
  return {
    approvalId: `appr_${task.id.slice(5, 17)}`,
    permission: PENDING_APPROVAL_PERMISSION,
    agentName: 'Agent 2',
    patterns: ['npm test'],
    metadata: { command: 'npm test', reason: 'Run the project tests to verify the proposed change' },
  };
}

/**
 * Agent statuses. Live model: 0.05 while queued, 0.5 while working plus 0.01 per update (at most 0.95), 1 when
 * that agent is done; agents start and finish staggered. Linear model: rising evenly with time (kinder).
 */
function agentStatuses(task: TaskRecord, status: TaskStatus, fraction: number, step: number): Record<string, unknown>[] {
  const n = task.agentCount;
  return Array.from({ length: n }, (_, i) => {
    const base = { agent_id: i + 1, model: task.modelId };
    if (status === 'completed') {
      return { ...base, status: 'completed', progress: 1 };
    }
    const stopped = status === 'failed' || status === 'canceled';
    if (task.progressModel === 'linear') {
      const reached = Math.min(step, task.steps - 1) / task.steps;
      const progress = round3(Math.max(0, reached - 0.02 * (i % 3)));
      return { ...base, status: stopped ? status : 'running', progress };
    }
    const startsAt = (0.3 * i) / n;
    const doneAt = 0.7 + (0.3 * (i + 1)) / n;
    if (fraction >= doneAt && !(i === n - 1)) {
      return { ...base, status: 'completed', progress: 1 };
    }
    if (fraction < startsAt) {
      return { ...base, status: stopped ? status : 'queued', progress: 0.05 };
    }
    const totalSteps = task.steps * (task.outcome === 'awaiting_approval' ? 2 : 1);
    const updates = Math.max(0, step - Math.floor(startsAt * totalSteps));
    const progress = Math.round(Math.min(0.95, 0.5 + 0.01 * updates) * 100) / 100;
    return { ...base, status: stopped ? status : 'running', progress };
  });
}

/**
 * TaskState JSON at `now`. The earlier API form knows only processing|completed|failed, so the other
 * terminal states are reported as failed there.
 */
export function taskStateJson(task: TaskRecord, now: number, legacy = false): string {
  const state = taskState(task, now, legacy);
  const json = JSON.stringify(state);
  if (Buffer.byteLength(json) <= MAX_INLINE_STATE_BYTES) {
    return json;
  }
  delete state.result;
  delete state.agentStatuses;
  delete state.toolEvents;
  return JSON.stringify(state);
}

export function taskState(task: TaskRecord, now: number, legacy = false): Record<string, unknown> {
  const status = statusAt(task, now);
  const { fraction, step, at } = progressAt(task, now);
  const steps = task.steps;
  const toolEvents = Array.from({ length: Math.min(step, steps * 2) }, (_, s) => ({
    timestamp: iso(Math.min(at, task.createdAt + Math.round(((s + 1) * task.durationMs) / steps))),
    agentId: (s % task.agentCount) + 1,
    agentLabel: `Agent ${(s % task.agentCount) + 1}`,
    toolName: 'analyze_context',
    success: true,
    durationMs: Math.round(task.durationMs / steps),
  }));

  let reported: TaskStatus = status;
  let error = status === 'canceled' ? 'Run canceled' : task.error;
  if (legacy && (status === 'canceled' || status === 'awaiting_approval')) {
    reported = 'failed';
    error = status === 'canceled' ? 'Task was canceled' : 'Task is awaiting approval in the web console';
  }

  const state: Record<string, unknown> = {
    taskId: task.id,
    status: reported,
    userId: task.userId,
    options: task.options,
    prompt: task.prompt,
    modelId: task.modelId,
    started: true,
    updatedAt: isFinal(status) ? (endTime(task) ?? at) : at,
    progressVersion: step + 1 + (isFinal(status) ? 1 : 0),
    agentStatuses: agentStatuses(task, status, fraction, step),
    toolEvents,
  };
  if (task.threadId !== undefined) {
    state.conversationId = task.threadId;
  }
  if (reported === 'completed') {
    state.result = task.result;
  }
  if (reported === 'failed') {
    state.error = error;
  }
  if (reported === 'awaiting_approval') {
    state.pendingApproval = pendingApproval(task);
  }
  const budget = task.options.budget;
  if (typeof budget === 'number') {
    const consumed = Math.round(budget * 0.6 * fraction * 100) / 100;
    state.budgetUsage = { initialUsd: budget, consumedUsd: consumed, remainingUsd: Math.round((budget - consumed) * 100) / 100 };
  }
  return state;
}

/** The typed stream event for the state at `now` (start is sent separately, once). */
export function streamEvent(task: TaskRecord, now: number): Record<string, unknown> {
  const status = statusAt(task, now);
  const state = taskState(task, now);
  const agents = (state.agentStatuses as Record<string, unknown>[]).map(({ model: _m, ...a }) => a);
  switch (status) {
    case 'completed':
      return {
        type: 'complete',
        message: task.result,
        agent_statuses: agents,
        tool_usage: state.toolEvents,
        ...(task.threadId !== undefined ? { conversation_id: task.threadId } : {}),
      };
    case 'failed':
      return { type: 'error', error: task.error ?? DEFAULT_FAILURE };
    case 'canceled':
      return { type: 'error', error: 'Run canceled' };
    default: {
      const event: Record<string, unknown> = {
        type: 'progress',
        agent_statuses: agents,
        pending_approval: status === 'awaiting_approval' ? pendingApproval(task) : null,
        tool_usage: state.toolEvents,
      };
      if (state.budgetUsage) {
        event.budget_usage = state.budgetUsage;
      }
      return event;
    }
  }
}

export type { TaskRecord };
