// All in-memory state of the emulated service. Task progress is derived from the clock when read, so there
// is no per-task loop and a stopped/restarted emulator keeps consistent tasks. What a finished piece of work
// leaves behind (a generated file, the thread a completed task is saved to) is written by `settle`, which every
// request runs first: the same observable history as timers, without timers to clean up.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Access } from './access';
import { Clock } from './clock';
import { parseDirective, synthesizeResult } from './synth';
import { consumedUsd, planWork, PLANNING_SHARE, type TaskWork, type ToolWork } from './work';
import type {
  EmulatedTask,
  EmulatorConfig,
  AgentStatusForm,
  ProgressModel,
  StoredAttachment,
  StoredFile,
  TaskOutcome,
  TaskOverride,
  TaskStatus,
} from './types';

export const DEFAULT_MODEL_ID = 'zai/glm-5.2';
export const DEFAULT_AGENT_COUNT = 4;
export const DEFAULT_FAILURE = 'Orchestration failed: upstream model error';
/** The service keeps JSON answers under this size (status, results, transcripts, traces). */
export const MAX_INLINE_STATE_BYTES = 3 * 1024 * 1024;
/** The stream keeps this many bytes of an agent's result or reasoning, then "...". */
export const PROGRESS_PREVIEW_BYTES = 600;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const UPLOAD_RESERVATION_MS = 15 * 60 * 1000;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_PENDING_MS = 2 * 60 * 1000;

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
      reasoningEffortLevels: ['low', 'medium', 'high', 'xhigh'],
      defaultReasoningEffort: 'high',
    },
    {
      id: 'openai/gpt-5.1',
      label: 'GPT-5.1',
      badge: 'Pro',
      reasoningEffortLevels: ['low', 'medium', 'high'],
      defaultReasoningEffort: 'medium',
    },
    {
      id: 'google/gemini-3-pro',
      label: 'Gemini 3 Pro',
      badge: 'New',
      reasoningEffortLevels: ['low', 'medium', 'high'],
      defaultReasoningEffort: 'high',
    },
  ],
};

/** Models a free plan may not use (403 `model "…" requires a Pro or Super subscription`). */
export const PAID_MODELS: readonly string[] = ['anthropic/claude-sonnet-4.5', 'openai/gpt-5.1'];

export function modelLabel(id: string): string {
  return MODELS.options.find((m) => m.id === id)?.label ?? id;
}

export function reasoningLevels(id: string): readonly string[] | undefined {
  return (MODELS.options.find((m) => m.id === id) as { reasoningEffortLevels?: string[] } | undefined)?.reasoningEffortLevels;
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
}

interface TaskRecord extends Omit<EmulatedTask, 'status' | 'generatedFileIds'> {
  steps: number;
  attachmentNames: string[];
  progressModel: ProgressModel;
  agentStatusForm: AgentStatusForm;
  /** Paused tasks: approve automatically this long after the pause starts. */
  autoApproveMs?: number;
  /** Paused tasks: processing time left after approval. */
  resumeMs: number;
  /** Task state lifetime after its last change; 0 = forever. */
  ttlMs: number;
  work: TaskWork;
  /** How long after completion the conversation is saved. */
  conversationDelayMs: number;
  /** The execution trace is stored (live: with the trust layer on). */
  traceStored: boolean;
  reportOmitted: boolean;
  traceBytes?: number;
  /** The completed task was saved to its thread. */
  persisted: boolean;
  /** Generated files by tool invocation: the stored file's id, or null when it could not be stored. */
  generated: Map<string, string | null>;
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
  sources?: unknown[];
  toolEvents?: unknown[];
  agentStatuses?: unknown[];
}

export interface ThreadRecord {
  id: number;
  userId: number;
  /** The thread's `user_input`: its title, or the prompt of the task it was saved from. */
  userInput: string;
  createdAt: number;
  messages: MessageRecord[];
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

export interface StoredBlob {
  bytes: Buffer;
  contentType: string;
  uploadedAt: number;
}

interface StorageAccount {
  quotaBytes?: number;
  /** Bytes a test declared as used on top of the real files. */
  extraUsedBytes: number;
  /** Direct-upload reservations (10 MB each) until completed or released after expiry. */
  reservations: { fileId: string; bytes: number; expiresAt: number }[];
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
  /** Engine run only. */
  budget?: number;
  roleModels?: Record<string, string>;
  reasoningEffort?: string;
  idempotencyKey?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export const iso = (ms: number): string => new Date(ms).toISOString();
const utcDay = (ms: number): string => iso(ms).slice(0, 10);
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function seededNumber(text: string, modulo: number): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % modulo;
}

/** At most `limit` bytes of UTF-8, then "..." (the stream's cut of agent results). */
export function cutText(text: unknown, limit = PROGRESS_PREVIEW_BYTES): unknown {
  if (typeof text !== 'string') {
    return text;
  }
  const bytes = Buffer.from(text);
  return bytes.length <= limit ? text : `${bytes.subarray(0, limit).toString('utf8')}...`;
}

export class Store {
  readonly keys = new Map<string, KeyRecord>();
  readonly tasksById = new Map<string, TaskRecord>();
  readonly threads = new Map<number, ThreadRecord>();
  readonly filesById = new Map<string, StoredFile>();
  readonly attachmentsById = new Map<string, StoredAttachment>();
  private readonly uploadTokens = new Map<string, UploadToken>();
  /** Bytes PUT to the emulated blob store, by pathname. */
  readonly blobs = new Map<string, StoredBlob>();
  private readonly storage = new Map<number, StorageAccount>();
  private readonly idempotency = new Map<string, { taskId: string; createdAt: number }>();
  private readonly nextTasks: TaskOverride[] = [];
  /** Tasks whose files or conversation may still need writing. */
  private readonly unsettled = new Set<string>();
  private nextKeyId = 1;
  private nextThreadId = 1;
  private nextMessageId = 1;
  readonly clock = new Clock();
  readonly access: Access;

  constructor(
    apiKeys: string[],
    public config: EmulatorConfig,
    plans: Record<string, EmulatorConfig['defaultPlan']> = {},
  ) {
    this.access = new Access(config.defaultPlan);
    const now = this.now();
    apiKeys.forEach((key, i) => {
      const record = this.addKey(key, i + 1, 'PRO', now - 30 * DAY_MS, true);
      if (plans[key]) {
        this.access.userPlans.set(record.userId, plans[key]);
      }
    });
  }

  now(): number {
    return this.clock.now();
  }

  addKey(key: string, userId: number, tier: Tier, createdAt: number, seeded: boolean): KeyRecord {
    const record: KeyRecord = { keyId: this.nextKeyId++, key, userId, tier, createdAt, seeded, daily: new Map(), lastHour: [] };
    this.keys.set(key, record);
    return record;
  }

  authenticate(key: string | undefined): KeyRecord | undefined {
    const record = key === undefined ? undefined : this.keys.get(key);
    return record && record.revokedAt === undefined ? record : undefined;
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

  createTask(input: NewTask, now = this.now()): TaskRecord {
    // The prompt directive is the fallback; an override queued by a test wins field by field.
    const override: TaskOverride = { ...parseDirective(input.prompt), ...(this.nextTasks.shift() ?? {}) };
    const agentCount = typeof input.options.agentCount === 'number' ? input.options.agentCount : DEFAULT_AGENT_COUNT;
    const id = `task_${randomUUID()}`;
    const plannedMs = Math.max(0, override.durationMs ?? this.config.taskDurationMs);
    const work = planWork({
      taskId: id,
      prompt: input.prompt,
      modelId: input.modelId,
      agentCount,
      roleModels: input.roleModels,
      budget: input.budget,
      files: override.files,
      sources: override.sources,
      totalMs: plannedMs,
    });
    if (override.echoKey) echoKeyInto(work, input.apiKey);
    // A task whose every agent was refused by the budget fails soon after planning.
    const durationMs = work.failure && override.outcome === undefined ? Math.round(plannedMs * 0.15) : plannedMs;
    const outcome: TaskOutcome = override.outcome ?? (work.failure ? 'failed' : 'completed');
    const attachmentNames = input.attachmentIds.map((a) => this.attachmentsById.get(a)?.filename ?? a);
    const budgetLine = typeof input.options.budget === 'number' ? input.options.budget : input.budget;
    let error: string | undefined;
    if (outcome === 'failed') {
      error = override.error ?? work.failure ?? DEFAULT_FAILURE;
      if (override.errorBytes !== undefined && override.errorBytes > Buffer.byteLength(error)) {
        error += ` ${'x'.repeat(override.errorBytes - Buffer.byteLength(error) - 1)}`;
      }
    }
    if (override.echoKey && override.result === undefined) override.result = `The answer, signed with ${input.apiKey}.`;
    const task: TaskRecord = {
      id,
      userId: input.userId,
      apiKey: input.apiKey,
      source: input.source,
      threadId: input.threadId,
      createdAt: now,
      // Held: processing until released (far away, yet a finite time every timer can take).
      completesAt: override.hold ? now + HELD_MS : now + durationMs,
      durationMs,
      ...(override.hold ? { held: true } : {}),
      outcome,
      prompt: input.prompt,
      modelId: input.modelId,
      agentCount: work.agents.length,
      options: { ...input.options, agentCount },
      body: input.body,
      attachmentIds: input.attachmentIds,
      attachmentNames,
      result:
        override.result ??
        work.fallbackAnswer ??
        synthesizeResult({
          prompt: input.prompt,
          modelId: input.modelId,
          modelLabel: modelLabel(input.modelId),
          agentCount: work.agents.length,
          attachmentNames,
          budget: budgetLine,
          resultBytes: override.resultBytes,
          reasoningEffort: input.reasoningEffort,
          stoppedAgents: work.agents.filter((a) => !a.ok).map((a) => a.role),
          answer: override.answer,
          threadPrompts: input.source === 'threadRun' ? this.userPrompts(input.threadId) : undefined,
        }),
      error,
      resultTooLargeForResults: override.resultTooLargeForResults ?? false,
      budget: input.budget,
      roleModels: input.roleModels,
      reasoningEffort: input.reasoningEffort,
      idempotencyKey: input.idempotencyKey,
      steps: Math.max(1, this.config.progressSteps),
      progressModel: this.config.progressModel,
      agentStatusForm: this.config.agentStatusForm,
      autoApproveMs: this.config.autoApproveMs,
      resumeMs: Math.max(0, this.config.approvalResumeMs ?? Math.round(durationMs / 2)),
      ttlMs: Math.max(0, this.config.taskTtlMs),
      work,
      conversationDelayMs: Math.max(0, this.config.conversationDelayMs),
      traceStored: override.trace !== 'none',
      reportOmitted: override.report === 'none' || (override.report !== 'stored' && this.config.traceReport === 'none'),
      traceBytes: override.traceBytes,
      persisted: false,
      generated: new Map(),
    };
    this.tasksById.set(task.id, task);
    this.unsettled.add(task.id);
    if (input.idempotencyKey) {
      this.idempotency.set(`${input.userId}:${input.idempotencyKey}`, { taskId: task.id, createdAt: now });
    }
    return task;
  }

  /**
   * A retried engine submission with the same idempotency key (24 hours, per user): the task it made, or a
   * pending answer while that task is at most two minutes old but gone; undefined when the key is new or stale.
   */
  idempotentTask(userId: number, key: string, now = this.now()): { taskId: string; status: TaskStatus; task?: TaskRecord } | undefined {
    const id = `${userId}:${key}`;
    const entry = this.idempotency.get(id);
    if (!entry || now >= entry.createdAt + IDEMPOTENCY_TTL_MS) {
      this.idempotency.delete(id);
      return undefined;
    }
    const task = this.findTask(entry.taskId, userId, now);
    if (task) {
      return { taskId: task.id, status: statusAt(task, now), task };
    }
    if (now - entry.createdAt < IDEMPOTENCY_PENDING_MS) {
      return { taskId: entry.taskId, status: 'processing' };
    }
    this.idempotency.delete(id);
    return undefined;
  }

  /** A task visible to this user (another user's task does not exist for them); expired state is gone. */
  findTask(id: string, userId: number, now = this.now()): TaskRecord | undefined {
    const task = this.tasksById.get(id);
    return task && task.userId === userId && !isExpired(task, now) ? task : undefined;
  }

  snapshot(task: TaskRecord, now = this.now()): EmulatedTask {
    const {
      steps: _s, attachmentNames: _n, progressModel: _p, agentStatusForm: _f, autoApproveMs: _a, resumeMs: _r, ttlMs: _t, work: _w,
      conversationDelayMs: _c, traceStored: _ts, reportOmitted: _ro, traceBytes: _tb, persisted: _pe, generated, ...rest
    } = task;
    const last = lastChangeAt(task, now);
    const expiresAt = task.ttlMs > 0 && last !== undefined ? last + task.ttlMs : undefined;
    return {
      ...rest,
      status: statusAt(task, now),
      approvedAt: approvalTime(task),
      expiresAt,
      generatedFileIds: [...generated.values()].filter((v): v is string => typeof v === 'string'),
    };
  }

  /** The web console's approve: a task paused for approval goes back to processing. */
  approve(task: TaskRecord, now = this.now()): boolean {
    if (statusAt(task, now) !== 'awaiting_approval') {
      return false;
    }
    task.approvedAt = now;
    this.changed(task.id);
    return true;
  }

  /** POST /tasks/{id}/cancel: a task still running or paused becomes canceled; a finished one is unchanged. */
  cancel(task: TaskRecord, now = this.now()): boolean {
    const status = statusAt(task, now);
    if (status !== 'processing' && status !== 'awaiting_approval') {
      return false;
    }
    task.canceledAt = now;
    this.canceledCount++;
    this.changed(task.id);
    return true;
  }

  /** Lets a held task finish now (its outcome as planned); every held task without an id. Returns how many. */
  release(taskId?: string, now = this.now()): number {
    let released = 0;
    for (const task of taskId === undefined ? this.tasksById.values() : [this.tasksById.get(taskId)].filter((t): t is TaskRecord => !!t)) {
      if (!task.held) {
        continue;
      }
      task.held = false;
      task.completesAt = Math.max(task.createdAt, now);
      task.durationMs = task.completesAt - task.createdAt;
      released++;
      this.changed(task.id);
    }
    return released;
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

  // ---- what finished work leaves behind ----

  /**
   * Writes what finished work left behind by `now`: generated files once their tool call completed, and the
   * thread of each completed task once it was saved (`conversationDelayMs` after completion), in that order.
   */
  settle(now = this.now()): void {
    const toPersist: { task: TaskRecord; at: number }[] = [];
    for (const id of [...this.unsettled]) {
      const task = this.tasksById.get(id);
      if (!task) {
        this.unsettled.delete(id);
        continue;
      }
      const status = statusAt(task, now);
      const fraction = workFraction(task, now);
      for (const tool of task.work.tools) {
        if (tool.file && tool.doneAt <= fraction && !task.generated.has(tool.invocationId)) {
          task.generated.set(tool.invocationId, this.storeGeneratedFile(task, tool, now));
        }
      }
      const end = endTime(task);
      if (status === 'completed' && !task.persisted && end !== undefined && now >= end + task.conversationDelayMs) {
        toPersist.push({ task, at: end + task.conversationDelayMs });
      }
      const filesDone = task.work.tools.every((t) => !t.file || task.generated.has(t.invocationId) || status === 'canceled' || status === 'failed');
      if (isFinal(status) && filesDone && (status !== 'completed' || task.persisted || toPersist.some((p) => p.task === task))) {
        this.unsettled.delete(id);
      }
    }
    for (const { task, at } of toPersist.sort((a, b) => a.at - b.at)) {
      this.persist(task, at);
    }
  }

  private storeGeneratedFile(task: TaskRecord, tool: ToolWork, now: number): string | null {
    const file = tool.file!;
    if (!this.reserveStorage(task.userId, file.content.length, now)) {
      return null;
    }
    const stored = this.addFile({
      userId: task.userId,
      filename: file.filename,
      bytes: file.content,
      purpose: 'assistants',
      mime_type: file.mimeType,
      createdAt: now,
      taskId: task.id,
    });
    return stored.id;
  }

  /** Saves a completed task to a thread: a new one holding the prompt and the answer, or the thread it ran in. */
  private persist(task: TaskRecord, at: number): void {
    const end = endTime(task) ?? at;
    const state = taskState(task, end);
    const toolEvents = (state.toolEvents as Record<string, unknown>[] | undefined) ?? [];
    const sources = uniqueSources(task.work.tools);
    let thread = task.threadId === undefined ? undefined : this.threads.get(task.threadId);
    if (thread) {
      this.addMessage(thread, { role: 'user', content: task.prompt, createdAt: at });
    } else {
      thread = this.createThread(task.userId, task.prompt, at);
    }
    this.addMessage(thread, {
      role: 'assistant',
      content: task.result,
      createdAt: at,
      elapsedSeconds: (end - task.createdAt) / 1000,
      sources,
      toolEvents,
      agentStatuses: state.agentStatuses as unknown[],
    });
    thread.lastTaskId = task.id;
    task.conversationId = thread.id;
    task.persisted = true;
  }

  // ---- threads ----

  createThread(userId: number, userInput: string, now = this.now()): ThreadRecord {
    const thread: ThreadRecord = { id: this.nextThreadId++, userId, userInput, createdAt: now, messages: [] };
    this.threads.set(thread.id, thread);
    return thread;
  }

  findThread(id: number, userId: number): ThreadRecord | undefined {
    const thread = this.threads.get(id);
    return thread && thread.userId === userId ? thread : undefined;
  }

  /** The user prompts a thread holds, oldest first: the one it was saved from (its `user_input`), then each user message. */
  userPrompts(threadId: number | undefined): string[] {
    const thread = threadId === undefined ? undefined : this.threads.get(threadId);
    return thread ? [thread.userInput, ...thread.messages.filter((m) => m.role === 'user').map((m) => m.content)] : [];
  }

  addMessage(thread: ThreadRecord, m: Omit<MessageRecord, 'id' | 'messageId' | 'threadId'>): void {
    thread.messages.push({ ...m, id: this.nextMessageId++, messageId: `msg_${randomUUID()}`, threadId: thread.id });
  }

  // ---- files and storage ----

  addFile(f: Omit<StoredFile, 'id'> & { id?: string }): StoredFile {
    const file: StoredFile = { ...f, id: f.id ?? newFileId() };
    this.filesById.set(file.id, file);
    return file;
  }

  findFile(id: string, userId: number): StoredFile | undefined {
    const file = this.filesById.get(id);
    return file && file.userId === userId ? file : undefined;
  }

  private account(userId: number): StorageAccount {
    const account = this.storage.get(userId) ?? { extraUsedBytes: 0, reservations: [] };
    this.storage.set(userId, account);
    return account;
  }

  quotaBytes(userId: number): number {
    return this.account(userId).quotaBytes ?? this.config.storageQuotaBytes;
  }

  fileBytes(userId: number): number {
    let total = 0;
    for (const f of this.filesById.values()) {
      if (f.userId === userId) {
        total += f.bytes.length;
      }
    }
    return total;
  }

  reservedBytes(userId: number): number {
    return this.account(userId).reservations.reduce((n, r) => n + r.bytes, 0);
  }

  usedBytes(userId: number): number {
    return this.fileBytes(userId) + this.reservedBytes(userId) + this.account(userId).extraUsedBytes;
  }

  setStorage(userId: number, s: { quotaBytes?: number; usedBytes?: number }): void {
    const account = this.account(userId);
    if (s.quotaBytes !== undefined) {
      account.quotaBytes = s.quotaBytes;
    }
    if (s.usedBytes !== undefined) {
      account.extraUsedBytes = Math.max(0, s.usedBytes - this.fileBytes(userId) - this.reservedBytes(userId));
    }
  }

  /** Whether `bytes` more fit the user's quota (the caller then stores them). */
  reserveStorage(userId: number, bytes: number, _now = this.now()): boolean {
    return this.usedBytes(userId) + bytes <= this.quotaBytes(userId);
  }

  /** Expired direct-upload reservations are released when the user next asks for a token (or a completion fails). */
  releaseExpiredReservations(userId: number, now = this.now()): void {
    const account = this.account(userId);
    const expired = account.reservations.filter((r) => r.expiresAt <= now);
    account.reservations = account.reservations.filter((r) => r.expiresAt > now);
    for (const r of expired) {
      this.uploadTokens.delete(r.fileId);
    }
  }

  issueUploadToken(t: Omit<UploadToken, 'fileId' | 'pathname' | 'token' | 'expiresAt'>, now = this.now()): UploadToken | undefined {
    if (!this.reserveStorage(t.userId, MAX_FILE_BYTES, now)) {
      return undefined;
    }
    const fileId = newFileId();
    const record: UploadToken = {
      ...t,
      fileId,
      token: `vercel_blob_client_emulated_${randomBytes(16).toString('hex')}`,
      expiresAt: now + UPLOAD_RESERVATION_MS,
      pathname: `developer-files/u${t.userId}/${fileId}/${sanitizeFilename(t.filename)}`,
    };
    this.uploadTokens.set(fileId, record);
    this.account(t.userId).reservations.push({ fileId, bytes: MAX_FILE_BYTES, expiresAt: record.expiresAt });
    return record;
  }

  /** The token that allows a PUT at exactly this pathname. */
  uploadTokenFor(pathname: string): UploadToken | undefined {
    return [...this.uploadTokens.values()].find((t) => t.pathname === pathname);
  }

  /** The token a PUT's bearer names (the store still checks the pathname). */
  uploadTokenByValue(token: string): UploadToken | undefined {
    return [...this.uploadTokens.values()].find((t) => t.token === token);
  }

  /** Consumes the reservation of a completion; its 10 MB are released (the file's own bytes then count). */
  takeUploadToken(fileId: string, userId: number, pathname?: string, now = this.now()): UploadToken | undefined {
    const t = this.uploadTokens.get(fileId);
    if (!t || t.userId !== userId || (pathname !== undefined && t.pathname !== pathname) || now > t.expiresAt) {
      return undefined;
    }
    this.uploadTokens.delete(fileId);
    const account = this.account(userId);
    account.reservations = account.reservations.filter((r) => r.fileId !== fileId);
    return t;
  }

  addAttachment(a: Omit<StoredAttachment, 'id'>): StoredAttachment {
    const attachment: StoredAttachment = { ...a, id: `u:${a.userId}:${randomUUID()}` };
    this.attachmentsById.set(attachment.id, attachment);
    return attachment;
  }

  // ---- usage ----

  usage(userId: number, now = this.now()): Record<string, unknown> {
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
        currentHourlyUsage: this.access.hourlyUse(k.key, now).count,
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

function uniqueSources(tools: ToolWork[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const tool of tools) {
    for (const s of tool.sources ?? []) {
      if (s.url !== '' && !seen.has(s.url)) {
        seen.add(s.url);
        out.push(s);
      }
    }
  }
  return out;
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
  return `file-${randomUUID()}`;
}

const FINAL: readonly TaskStatus[] = ['completed', 'failed', 'canceled'];
export const isFinal = (status: TaskStatus): boolean => FINAL.includes(status);

/** How far away a held task's end is until it is released: a year. */
const HELD_MS = 365 * 24 * 3600_000;

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
    const end = endTime(task);
    // The state changes once more when the completed task is saved to its thread.
    return status === 'completed' && end !== undefined ? end + task.conversationDelayMs : end;
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
  // A held task works through its planned duration (its steps, agents and tools move as usual); its last
  // step waits for the release (`progressAt` stops before it).
  const end = task.held ? task.createdAt + task.durationMs : task.completesAt;
  return { start: task.createdAt, end, from: 0, to: paused ? 0.5 : 1, stepOffset: 0 };
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
  const within = Math.min(task.held ? (task.steps - 1) / task.steps : 1, Math.max(0, (at - phase.start) / span));
  const inPhase = status === 'failed' ? task.steps - 1 : Math.min(task.steps - 1, Math.floor(within * task.steps));
  return {
    fraction: phase.from + (phase.to - phase.from) * within,
    step: phase.stepOffset + inPhase,
    at: phase.start + Math.round((inPhase * span) / task.steps),
  };
}

/** How much of its work the task has done at `now` (frozen when it stopped). */
export function workFraction(task: TaskRecord, now: number): number {
  return progressAt(task, now).fraction;
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
  // Held at its last step: nothing changes until the release (which tells the watchers itself).
  if (task.held && next >= phase.end) return task.completesAt;
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

/** The first part of an answer an agent has written so far (it streams its answer while working). */
function partialAnswer(answer: string, share: number): string {
  const words = answer.split(' ');
  return words.slice(0, Math.max(1, Math.floor(words.length * Math.min(1, Math.max(0, share))))).join(' ');
}

/**
 * Agent statuses. Live model: none while the team is being planned (`[]`), then 0.05 while queued, 0.5 while
 * working plus 0.01 per update (at most 0.95) with the answer written so far as `result` ("Using search web..."
 * while one of its tools runs; `reasoning` on a run with a reasoning effort), 1 when that agent is done (its
 * answer as `result`); an agent refused by the budget fails at once. Linear model: rising evenly (kinder).
 * Live form (progress_tracker.go): `agent_id` 0-based, QUEUED / PROCESSING... / COMPLETED / FAILED (a stopped
 * run's agents fail: their context is canceled); the kinder lowercase form keeps 1-based ids and lower case.
 */
function agentStatuses(task: TaskRecord, status: TaskStatus, fraction: number, step: number): Record<string, unknown>[] {
  const lower = lowercaseAgentStatuses(task, status, fraction, step);
  if (task.agentStatusForm !== 'live') {
    return lower;
  }
  return lower.map((a) => ({ ...a, agent_id: (a.agent_id as number) - 1, status: LIVE_AGENT_STATUS[a.status as string] ?? 'FAILED' }));
}

/** The progress tracker's words (packages/core/go/pkg/orchestrator/progress_tracker.go). */
const LIVE_AGENT_STATUS: Record<string, string> = { queued: 'QUEUED', running: 'PROCESSING...', completed: 'COMPLETED', failed: 'FAILED', canceled: 'FAILED' };

function lowercaseAgentStatuses(task: TaskRecord, status: TaskStatus, fraction: number, step: number): Record<string, unknown>[] {
  const agents = task.work.agents;
  const n = agents.length;
  const working = status === 'processing' || status === 'awaiting_approval';
  if (task.progressModel === 'live' && working && fraction < PLANNING_SHARE) {
    return [];
  }
  return agents.map((agent, i) => {
    const base = { agent_id: agent.index, model: agent.model };
    if (!agent.ok && (fraction >= agent.startsAt || !working)) {
      return { ...base, status: 'failed', progress: 1, result: agent.answer };
    }
    if (status === 'completed') {
      return { ...base, status: 'completed', progress: 1, result: agent.answer };
    }
    const stopped = status === 'failed' || status === 'canceled';
    if (task.progressModel === 'linear') {
      const reached = Math.min(step, task.steps - 1) / task.steps;
      const progress = round3(Math.max(0, reached - 0.02 * (i % 3)));
      return { ...base, status: stopped ? status : 'running', progress };
    }
    if (fraction >= agent.doneAt && i !== n - 1) {
      return { ...base, status: 'completed', progress: 1, result: agent.answer };
    }
    if (fraction < agent.startsAt) {
      return { ...base, status: stopped ? status : 'queued', progress: 0.05 };
    }
    const totalSteps = task.steps * (task.outcome === 'awaiting_approval' ? 2 : 1);
    const updates = Math.max(0, step - Math.floor(agent.startsAt * totalSteps));
    const progress = Math.round(Math.min(0.95, 0.5 + 0.01 * updates) * 100) / 100;
    // While one of its tools runs, the tracker says which (agent_runner.go liveToolActivity).
    const tool = task.work.tools.find((t) => t.agentIndex === agent.index && t.startsAt <= fraction && fraction < t.doneAt);
    const written = tool
      ? `Using ${tool.toolName.replace(/_/g, ' ')}...`
      : partialAnswer(agent.answer, (fraction - agent.startsAt) / Math.max(0.01, agent.doneAt - agent.startsAt));
    const reasoning = task.reasoningEffort ? { reasoning: `Weighing the subtask "${agent.subtask}" (${task.reasoningEffort} effort).` } : {};
    return { ...base, status: stopped ? status : 'running', progress, result: written, ...reasoning };
  });
}

/** Tool events up to `fraction`, as the state holds them (generated files with their stored ids). */
function toolEvents(task: TaskRecord, fraction: number): Record<string, unknown>[] {
  return task.work.tools
    .filter((t) => t.startsAt <= fraction)
    .map((t) => {
      const done = t.doneAt <= fraction;
      const event: Record<string, unknown> = {
        invocationId: t.invocationId,
        // 0-based, as agent_runner.go sets it; the label says agent-1…n.
        agentId: t.agentIndex - 1,
        agentLabel: t.agentLabel,
        toolName: t.toolName,
        arguments: t.arguments,
        status: done ? 'completed' : 'running',
        success: true,
        durationMs: done ? t.durationMs : 0,
      };
      if (done) {
        event.resultPreview = t.resultPreview;
        if (t.sources && t.sources.length > 0) {
          event.sources = t.sources;
        }
        if (t.file) {
          const fileId = task.generated.get(t.invocationId);
          event.generatedFile = {
            filename: t.file.filename,
            mimeType: t.file.mimeType,
            bytes: t.file.content.length,
            toolName: t.toolName,
            ...(typeof fileId === 'string' ? { fileId, downloadUrl: `/api/v1/developer/files/${encodeURIComponent(fileId)}/content` } : {}),
          };
        }
      }
      return event;
    });
}

/**
 * TaskState JSON at `now`, or undefined when it exceeds 3 MiB even without its result, agent statuses, tool
 * events and approval metadata (the route then answers 413). The earlier API form knows only
 * processing|completed|failed, so the other terminal states are reported as failed there.
 */
export function taskStateJson(task: TaskRecord, now: number, legacy = false): string | undefined {
  const state = taskState(task, now, legacy);
  const json = JSON.stringify(state);
  if (Buffer.byteLength(json) <= MAX_INLINE_STATE_BYTES) {
    return json;
  }
  delete state.result;
  delete state.agentStatuses;
  delete state.toolEvents;
  if (state.pendingApproval) {
    state.pendingApproval = { ...(state.pendingApproval as Record<string, unknown>), metadata: null };
  }
  const trimmed = JSON.stringify(state);
  return Buffer.byteLength(trimmed) <= MAX_INLINE_STATE_BYTES ? trimmed : undefined;
}

export function taskState(task: TaskRecord, now: number, legacy = false): Record<string, unknown> {
  const status = statusAt(task, now);
  const { fraction, step, at } = progressAt(task, now);

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
  };
  const tools = toolEvents(task, fraction);
  if (tools.length > 0) {
    state.toolEvents = tools;
  }
  if (task.persisted && task.conversationId !== undefined) {
    state.conversationId = task.conversationId;
  }
  if (reported === 'completed') {
    state.result = task.result;
    state.traceId = `trace_${task.id}`;
  }
  if (reported === 'failed' && error !== '') {
    state.error = error;
  }
  if (reported === 'awaiting_approval') {
    state.pendingApproval = pendingApproval(task);
  }
  const usage = budgetUsage(task, fraction);
  if (usage) {
    state.budgetUsage = usage;
  }
  return state;
}

/** The enforced budget's use at `fraction` (engine runs with a budget only). */
function budgetUsage(task: TaskRecord, fraction: number): Record<string, number> | undefined {
  const budget = task.work.budget;
  if (!budget) {
    return undefined;
  }
  const consumed = consumedUsd(task.work, fraction);
  return { initialUsd: budget.initialUsd, consumedUsd: consumed, remainingUsd: budget.initialUsd - consumed };
}

/** Tool events as a stream event carries them: no generated file, arguments only for a web search, previews cut. */
function compactTools(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return events.map((e) => {
    const out: Record<string, unknown> = {};
    for (const key of ['invocationId', 'agentId', 'agentLabel', 'toolName', 'success', 'status', 'durationMs', 'error', 'sources']) {
      if (e[key] !== undefined) {
        out[key] = e[key];
      }
    }
    if (e.toolName === 'search_web' && typeof e.arguments === 'string') {
      try {
        const query = (JSON.parse(e.arguments) as { query?: unknown }).query;
        if (typeof query === 'string' && query.trim() !== '') {
          out.arguments = { query: cutText(query.trim()) };
        }
      } catch {
        // unparsable arguments are dropped
      }
    }
    if (e.resultPreview !== undefined) {
      out.resultPreview = cutText(e.resultPreview);
    }
    return out;
  });
}

/** Agent statuses as a progress event carries them: result and reasoning cut to 600 bytes + "...". */
function compactAgents(agents: Record<string, unknown>[]): Record<string, unknown>[] {
  return agents.map((a) => {
    const out = { ...a };
    if ('result' in out) {
      out.result = cutText(out.result);
    }
    if ('reasoning' in out) {
      out.reasoning = cutText(out.reasoning);
    }
    return out;
  });
}

/** The typed stream event for the state at `now` (start is sent separately, once). */
export function streamEvent(task: TaskRecord, now: number): Record<string, unknown> {
  const status = statusAt(task, now);
  const state = taskState(task, now);
  const agents = state.agentStatuses as Record<string, unknown>[];
  const tools = state.toolEvents as Record<string, unknown>[] | undefined;
  switch (status) {
    case 'completed': {
      const event: Record<string, unknown> = { type: 'complete', message: task.result, agent_statuses: agents };
      if (tools) {
        event.tool_usage = compactTools(tools);
      }
      if (state.conversationId !== undefined) {
        event.conversation_id = state.conversationId;
      }
      event.trace_id = state.traceId;
      return event;
    }
    case 'failed':
      return { type: 'error', error: task.error ?? '' };
    case 'canceled':
      return { type: 'error', error: 'Run canceled' };
    default: {
      const event: Record<string, unknown> = {
        type: 'progress',
        agent_statuses: compactAgents(agents),
        pending_approval: status === 'awaiting_approval' ? pendingApproval(task) : null,
      };
      if (tools) {
        event.tool_usage = compactTools(tools);
      }
      if (state.budgetUsage) {
        event.budget_usage = state.budgetUsage;
      }
      return event;
    }
  }
}

/**
 * The agents whose result the trace store holds at `now`: the orchestrator saves the trace after each agent
 * ends, ok or failed (agent_execution.go saveTrace), and once more with the goal and the answer when it
 * completes (orchestration_flow.go). A canceled run keeps what was saved before the cancel.
 */
function savedAgents(task: TaskRecord, now: number): Set<number> {
  const status = statusAt(task, now);
  const agents = task.work.agents;
  if (status === 'completed') {
    return new Set(agents.map((a) => a.index));
  }
  const fraction = workFraction(task, now);
  const stopped = status === 'failed' || status === 'canceled';
  return new Set(
    agents
      .filter((a, i) => (!a.ok ? fraction >= a.startsAt || (stopped && task.canceledAt === undefined) : fraction >= a.doneAt && i !== agents.length - 1))
      .map((a) => a.index),
  );
}

/**
 * The execution trace as GET {engine}/api/v1/tasks/{id}/trace answers it at `now`: while the task runs (and
 * after it failed) the steps saved so far, the others zero values, no goal and no answer; complete once it
 * completed. The store never keeps `report` (runrepository/repository.go: the upsert has no report column)
 * unless `traceReport: 'stored'` or the steer `report=stored`.
 */
export function traceJson(task: TaskRecord, now: number): Record<string, unknown> {
  const completed = statusAt(task, now) === 'completed';
  const end = endTime(task) ?? task.completesAt;
  const saved = savedAgents(task, now);
  const toolsOf = (index: number): Record<string, unknown>[] =>
    task.work.tools
      .filter((t) => t.agentIndex === index)
      .map((t) => ({
        invocationId: t.invocationId,
        agentId: t.agentIndex - 1,
        agentLabel: t.agentLabel,
        toolName: t.toolName,
        arguments: t.arguments,
        status: 'completed',
        success: true,
        durationMs: t.durationMs,
        resultPreview: t.resultPreview,
        ...(t.sources && t.sources.length > 0 ? { sources: t.sources } : {}),
        ...(t.file ? { generatedFile: { filename: t.file.filename, mimeType: t.file.mimeType, bytes: t.file.content.length, toolName: t.toolName } } : {}),
      }));
  // Go's zero value for a slot whose agent has not ended: AgentResult has no json tags.
  const unsaved = { AgentID: 0, AgentName: '', Status: '', Response: '', ExecutionTime: 0, ToolEvents: null };
  const steps: Record<string, unknown>[] = task.work.agents.map((a) =>
    saved.has(a.index)
      ? {
          AgentID: a.index - 1,
          AgentName: a.role,
          Status: a.ok ? 'success' : 'error',
          Response: a.answer,
          ExecutionTime: a.ok ? a.executionMs : 0,
          ToolEvents: a.ok ? toolsOf(a.index) : null,
        }
      : { ...unsaved },
  );
  if (task.traceBytes !== undefined && steps.length > 0) {
    const size = Buffer.byteLength(JSON.stringify(steps));
    if (task.traceBytes > size) {
      steps[steps.length - 1].Response = `${steps[steps.length - 1].Response as string}\n${'d'.repeat(task.traceBytes - size)}`;
    }
  }
  const trace: Record<string, unknown> = {
    id: `trace_${seededNumber(task.id, 1_000_000_000)}${String(end).slice(-6)}`,
    task_id: task.id,
    user_id: task.userId,
    goal: completed ? task.prompt : '',
    plan: task.work.subtasks,
    steps,
    self_eval: { status: 'completed' },
  };
  if (!task.reportOmitted && completed) {
    trace.report = task.work.report;
  }
  trace.artifacts = { final_answer: completed ? task.result : '' };
  trace.created_at = new Date(task.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { trace };
}

/** Whether the trace store has a trace of the task: once its first agent ended (and with the trust layer on). */
export function hasTrace(task: TaskRecord, now: number): boolean {
  return task.traceStored && savedAgents(task, now).size > 0;
}

export type { TaskRecord };

/** `setNextTask({ echoKey: true })`: the key in every text the service says of the task (a hostile service). */
function echoKeyInto(work: TaskWork, key: string): void {
  work.subtasks = work.subtasks.map((s) => `${s} (for ${key})`);
  for (const a of work.agents) {
    a.subtask = `${a.subtask} (for ${key})`;
    a.answer = `${a.answer} Key: ${key}.`;
  }
  for (const t of work.tools) {
    t.resultPreview = `${t.resultPreview} ${key}`;
    if (t.sources) t.sources = t.sources.map((s) => ({ title: `${s.title} ${key}`, url: `${s.url}?key=${key}`, snippet: `${s.snippet} ${key}` }));
    if (t.file) t.file = { ...t.file, filename: `${key}-${t.file.filename}` };
  }
  work.report.summary = `${work.report.summary} ${key}`;
}
