/**
 * What the MCP tools do, in the extension host: the same pipeline, stores and checks as a task sent from the
 * editor (the prompt limit, the attachment checks, the user's budget and role models, the service's words for
 * its limits through `describeError`). The server bundle only sees these answers: never the key, never a
 * client. Nothing here writes a workspace file; landing stays with the user's Review Changes….
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LIMITS } from '../api/requests';
import type { KeyStore } from '../auth/keyStore';
import { UserFacingError, describeError, inert, messageOf } from '../errors';
import type { Logger } from '../log';
import type { ThreadStore } from '../stores/threadStore';
import { threadTitle } from '../stores/threadStore';
import type { TraceStore } from '../stores/traceStore';
import { AttachmentBasket } from '../tasks/sending/attachments';
import type { TaskCanceller } from '../tasks/tracking/canceller';
import { describeAgents, refuseSensitiveFiles, taskData } from '../tasks/sending/delegate';
import { type TrackedTask, isFinished, latestCheck, modelOf } from '../tasks/model';
import type { SubmissionPipeline, TaskRequest } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { checkSentence } from '../tasks/checkWords';
import { cannotCancelOnEarlierForm, keyNeeded, noReasonGiven, promptTooLong, serviceEndReason, taskStatusText, threadsNeedCurrentForm } from '../vocabulary';
import type { CallContext, ContinueInput, RunInput, ToolHost, ToolReply } from './protocol';

export interface McpToolDeps {
  log: Logger;
  ui: Pick<UserInterface, 'confirm'>;
  keys: Pick<KeyStore, 'getApiKey'>;
  store: TaskStore;
  pipeline: Pick<SubmissionPipeline, 'send' | 'settings'>;
  canceller: Pick<TaskCanceller, 'cancel'>;
  threads: Pick<ThreadStore, 'list'>;
  traces: Pick<TraceStore, 'load'>;
  /**
   * The core's `describeError` (core.ts, which holds the pipeline): this file is bundled into dist/mcp.js, whose
   * copy of errors.ts would not know the core's UserFacingError (thrown by the pipeline) as its own.
   */
  describeError: typeof describeError;
}

/** Threads listed by list_threads. */
const MAX_THREADS = 20;

export class McpTools implements ToolHost {
  readonly limits = { promptMaxChars: LIMITS.promptMaxChars, agentCountMin: LIMITS.agentCountMin, agentCountMax: LIMITS.agentCountMax, maxFiles: LIMITS.maxAttachments };

  constructor(private readonly deps: McpToolDeps) {}

  runTask(input: RunInput, context: CallContext): Promise<ToolReply> {
    return this.guarded(async () => {
      const settings = { ...this.deps.pipeline.settings() };
      if (input.agentCount !== undefined) settings.agentCount = input.agentCount;
      if (input.model !== undefined) settings.modelId = input.model;
      const basket = input.files?.length ? await this.basketOf(input.files) : undefined;
      try {
        return await this.send({ instruction: input.instruction, attachFrom: basket, origin: { kind: 'mcp', client: context.client } }, settings, input.wait, context);
      } finally {
        basket?.dispose();
      }
    });
  }

  continueThread(input: ContinueInput, context: CallContext): Promise<ToolReply> {
    return this.guarded(() =>
      this.send({ instruction: input.instruction, threadId: input.threadId, origin: { kind: 'mcp', client: context.client } }, this.deps.pipeline.settings(), input.wait, context),
    );
  }

  async readTask(taskId: string): Promise<ToolReply> {
    const task = this.deps.store.get(taskId);
    if (!task) return unknownTask(taskId);
    const result = task.status === 'completed' ? await this.deps.store.readResult(task.id) : undefined;
    const running = isFinished(task) ? undefined : vscode.l10n.t('Still running: read it again later.');
    return { text: describeTask(task, result), data: dataOf(task, result === undefined ? { message: running } : { answer: result }), taskId: task.id };
  }

  taskResource(taskId: string): Promise<string | undefined> {
    const task = this.deps.store.get(taskId);
    return task ? this.readTask(taskId).then(r => r.text) : Promise.resolve(undefined);
  }

  cancelTask(taskId: string): Promise<ToolReply> {
    return this.guarded(async () => {
      const task = this.deps.store.get(taskId);
      if (!task) return unknownTask(taskId);
      if (isFinished(task)) return said(vscode.l10n.t('Task {0} had already ended as "{1}"; nothing was canceled.', task.id, task.status), task);
      const outcome = await this.deps.canceller.cancel(task.id);
      const now = this.deps.store.get(task.id) ?? task;
      if (outcome === 'unsupported') return { ...said(cannotCancelOnEarlierForm(), now), isError: true };
      if (outcome === 'alreadyFinished') return said(vscode.l10n.t('Task {0} had already finished on the service; read it with read_task.', task.id), now);
      return said(`${serviceEndReason('canceled')} (${task.id})`, now);
    });
  }

  listThreads(): Promise<ToolReply> {
    return this.guarded(async () => {
      const listing = await this.deps.threads.list();
      if (listing.kind === 'noKey') return { text: keyNeeded('tool'), isError: true };
      if (listing.kind === 'unavailable') return { text: threadsNeedCurrentForm(), isError: true };
      const threads = listing.threads.slice(0, MAX_THREADS).map(t => ({ threadId: String(t.id), title: threadTitle(t), model: t.model ?? undefined, when: t.timestamp }));
      const lines = threads.map(t => `- ${t.threadId}: ${t.title}${t.model ? ` (${t.model})` : ''}${t.when ? ` · ${t.when}` : ''}`);
      const head = vscode.l10n.t('The most recent threads (continue one with continue_thread):');
      if (!threads.length) return { text: vscode.l10n.t('There are no threads yet: each completed task is saved to one.') };
      return { text: `${head}\n${lines.join('\n')}`, data: { message: head, threads } };
    });
  }

  async readTrace(taskId: string): Promise<ToolReply> {
    const task = this.deps.store.get(taskId);
    if (!task) return unknownTask(taskId);
    const reading = await this.deps.traces.load(task.id);
    if (reading.kind === 'unavailable') return { text: reading.message, taskId: task.id, isError: true };
    const { trace, partial } = reading;
    const trail = { taskId: task.id, partial, goal: trace.goal, plan: trace.plan, steps: trace.steps, report: trace.report, finalAnswer: trace.finalAnswer, cut: trace.cut };
    const head = partial ? vscode.l10n.t('The trace so far (the task is still running; agents add steps as they end):') : vscode.l10n.t('How the team worked:');
    // The text is the head and the same data: the structured result carries both (VS Code hands a model only that).
    return { text: `${head}\n\n${JSON.stringify(trail, null, 2)}`, data: { message: head, ...trail }, taskId: task.id };
  }

  /** Any failure as a tool error in the words the editor would use (never a protocol error the model cannot read). */
  private async guarded(run: () => Promise<ToolReply>): Promise<ToolReply> {
    if (!(await this.deps.keys.getApiKey())) return { text: keyNeeded('tool'), isError: true };
    try {
      return await run();
    } catch (e) {
      this.deps.log.info(`mcp: tool call failed: ${messageOf(e)}`);
      const described = e instanceof UserFacingError ? describeError(e) : this.deps.describeError(e);
      return { text: described?.message ?? inert(messageOf(e)), isError: true };
    }
  }

  /** run_task and continue_thread: sends, follows, and answers in text (their results are shown for approval). */
  private async send(request: TaskRequest, settings: ReturnType<McpToolDeps['pipeline']['settings']>, wait: boolean | undefined, context: CallContext): Promise<ToolReply> {
    if (context.signal.aborted) return { text: vscode.l10n.t('The call was canceled before anything was sent.'), isError: true };
    const outcome = await this.deps.pipeline.send(request, settings);
    if (outcome.kind === 'tooLong') return { text: promptTooLong(outcome.length, 'chat'), isError: true };
    const task = outcome.task;
    this.deps.log.info(`mcp: task ${task.id} sent for ${context.client ?? 'an MCP client'}`);
    if (wait === false) {
      const text = vscode.l10n.t('Task {0} was sent and runs on the service. Read it with read_task; the user also sees it in the Tasks view.', task.id);
      return { text, taskId: task.id, status: vscode.l10n.t('Task {0} sent', task.id) };
    }
    const end = await this.follow(task, context);
    // The call's last word replaces its last progress message ("Agent 1: working 54%") where a client shows one.
    const ended = (status: string): string => {
      context.progress?.(100, status);
      return status;
    };
    if (end === 'canceled') {
      const text = vscode.l10n.t('The call was canceled, and so was task {0}.', task.id);
      return { text, taskId: task.id, isError: true, status: ended(vscode.l10n.t('Task {0} canceled', task.id)) };
    }
    if (end === 'removed') return { text: vscode.l10n.t('Task {0} was removed from the Tasks view before it finished.', task.id), taskId: task.id, isError: true, status: ended(vscode.l10n.t('Task {0} removed', task.id)) };
    // No wait for the thread the service saves the task to (a moment later): read_task has it then.
    const known = this.deps.store.get(end.id) ?? end;
    const result = known.status === 'completed' ? await this.deps.store.readResult(known.id) : undefined;
    if (result === undefined) {
      const why = inert(known.error ?? noReasonGiven());
      const text = vscode.l10n.t('The multi-agent task ended as "{0}": {1}', known.status, why);
      return { text, taskId: known.id, isError: true, status: ended(vscode.l10n.t('Task {0} ended as "{1}"', known.id, known.status)) };
    }
    const thread = known.conversationId ?? known.threadId;
    const note = thread
      ? vscode.l10n.t(
          'Task {0}, in thread {1}. Nothing was written to the workspace: the user lands any changes proposed above with "Review Changes…" on the task in the Tasks view.',
          known.id,
          thread,
        )
      : vscode.l10n.t(
          'Task {0}. Nothing was written to the workspace: the user lands any changes proposed above with "Review Changes…" on the task in the Tasks view.',
          known.id,
        );
    // Text only: these tools' results are shown for approval, where data would be a line of JSON (server.ts `reply`).
    return { text: `${result}\n\n---\n${note}`, taskId: known.id, status: ended(vscode.l10n.t('Task {0} completed', known.id)) };
  }

  /**
   * Follows the task in the store until it ends, reporting each change of its agents; when the client cancels
   * the call, cancels the task on the service. Claimed meanwhile: the caller shows the answer, not a toast.
   */
  private follow(task: TrackedTask, context: CallContext): Promise<TrackedTask | 'canceled' | 'removed'> {
    const disposables: vscode.Disposable[] = [this.deps.store.claim(task.id)];
    return new Promise<TrackedTask | 'canceled' | 'removed'>(resolve => {
      const report = (t: TrackedTask) => {
        const agents = t.agents?.length ? describeAgents(t.agents) : taskStatusText(t);
        context.progress?.((t.progress ?? 0) * 100, agents);
      };
      report(task);
      disposables.push(
        this.deps.store.onDidChange(({ kind, task: t }) => {
          if (t.id !== task.id) return;
          if (kind === 'removed') resolve('removed');
          else if (isFinished(t)) resolve(t);
          else report(t);
        }),
      );
      const onAbort = () => {
        this.deps.log.info(`mcp: the call was canceled, cancelling task ${task.id} on the service`);
        this.deps.canceller.cancel(task.id).then(
          () => resolve('canceled'),
          e => {
            this.deps.log.warn(`mcp: cancelling task ${task.id} failed: ${messageOf(e)}`);
            resolve('canceled');
          },
        );
      };
      context.signal.addEventListener('abort', onAbort, { once: true });
      disposables.push({ dispose: () => context.signal.removeEventListener('abort', onAbort) });
      const now = this.deps.store.get(task.id);
      if (!now) resolve('removed');
      else if (isFinished(now)) resolve(now);
      else if (context.signal.aborted) onAbort();
    }).finally(() => {
      for (const d of disposables) d.dispose();
    });
  }

  /**
   * The named files in a basket of their own (checked as the user's basket checks them: count, size, type, a
   * question for files that look like secrets). Only paths inside a workspace folder, following no link out.
   */
  private async basketOf(names: string[]): Promise<AttachmentBasket> {
    refuseSensitiveFiles(names);
    const uris: vscode.Uri[] = [];
    for (const name of names) uris.push(await workspaceFile(name));
    const basket = new AttachmentBasket(this.deps.ui as UserInterface);
    try {
      const added = await basket.add(uris);
      if (added < uris.length) throw new UserFacingError(vscode.l10n.t('The user chose not to attach every file. Nothing was sent.'));
      return basket;
    } catch (e) {
      basket.dispose();
      throw e;
    }
  }
}

/** A workspace-relative path as a file inside one of the workspace folders, or a clear error. */
async function workspaceFile(name: string): Promise<vscode.Uri> {
  const parts = name.split(/[\\/]+/).filter(p => p && p !== '.');
  const notRelative = /^[a-z][\w+.-]*:/i.test(name) || /^[\\/]/.test(name) || parts.includes('..') || !parts.length;
  if (notRelative) throw new UserFacingError(vscode.l10n.t('Only workspace-relative paths can be attached: "{0}" is not one. Nothing was sent.', name));
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, ...parts);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      continue;
    }
    if (uri.scheme === 'file' && !(await staysInside(folder.uri.fsPath, uri.fsPath))) {
      throw new UserFacingError(vscode.l10n.t('"{0}" leads outside the workspace folder (a link): it is not attached. Nothing was sent.', name));
    }
    return uri;
  }
  throw new UserFacingError(vscode.l10n.t('The file "{0}" was not found in the workspace. Nothing was sent.', name));
}

async function staysInside(folder: string, file: string): Promise<boolean> {
  try {
    const [root, real] = await Promise.all([fs.realpath(folder), fs.realpath(file)]);
    const rel = path.relative(root, real);
    return !!rel && !rel.startsWith('..') && !path.isAbsolute(rel);
  } catch {
    return false;
  }
}

/** A sentence about a task: the same words in the text and first in the data. */
function said(text: string, task: TrackedTask): ToolReply {
  return { text, data: dataOf(task, { message: text }), taskId: task.id };
}

function unknownTask(taskId: string): ToolReply {
  return { text: vscode.l10n.t('There is no task "{0}" in the Tasks view: the tools read and cancel only the tasks listed there.', taskId.slice(0, 100)), isError: true };
}

/**
 * What a task is, as data: the structured content beside the text. VS Code (1.139) hands a model this data
 * *instead of* the text content when a result has it, so whatever the text tells comes first here: the
 * agents' answer (the same redacted text as the text content) or the sentence the tool said, then the state.
 */
function dataOf(task: TrackedTask, first: { answer?: string; message?: string } = {}): Record<string, unknown> {
  return {
    ...(first.answer !== undefined ? { answer: first.answer } : {}),
    ...(first.message !== undefined ? { message: first.message } : {}),
    ...taskData(task),
    title: task.title,
    progress: task.progress,
    agents: (task.agents ?? []).map(a => ({ agent: a.id, status: a.status, progress: a.progress, model: a.model })),
    model: modelOf(task),
    threadId: task.conversationId ?? task.threadId,
    error: task.error,
    ...checkData(task),
  };
}

/** The newest check of the task's proposal (issue 37): what ran and what it found, as data. */
function checkData(task: TrackedTask): Record<string, unknown> {
  const check = latestCheck(task);
  if (!check) return {};
  return {
    check: {
      verdict: check.verdict,
      summary: checkSentence(check),
      command: check.command,
      newlyFailing: check.newlyFailing,
      durationMs: Math.round(check.after.durationMs),
      checkedAt: new Date(check.startedAt).toISOString(),
    },
  };
}

/** A task as text: its state, its agents, what it produced, its result or why it ended. */
function describeTask(task: TrackedTask, result: string | undefined): string {
  const lines = [
    vscode.l10n.t('Task {0}: "{1}"', task.id, task.title),
    vscode.l10n.t('Status: {0}', taskStatusText(task)),
    task.progress !== undefined && !isFinished(task) ? vscode.l10n.t('Progress: {0}%', Math.round(task.progress * 100)) : '',
    task.agents?.length ? describeAgents(task.agents) : '',
    modelOf(task) ? vscode.l10n.t('Model: {0}', modelOf(task)!) : '',
    task.conversationId ?? task.threadId ? vscode.l10n.t('Thread: {0}', (task.conversationId ?? task.threadId)!) : '',
    task.files?.length ? vscode.l10n.t('Produced files: {0}', task.files.map(f => f.filename).join(', ')) : '',
    task.sources?.length ? vscode.l10n.t('Sources: {0}', task.sources.map(s => s.url).join(' ')) : '',
    task.error && task.status !== 'completed' ? vscode.l10n.t('Why it ended: {0}', inert(task.error)) : '',
    latestCheck(task) ? vscode.l10n.t('Checked on the user\'s machine: {0}', checkSentence(latestCheck(task)!)) : '',
    task.fixOf ? vscode.l10n.t('A fix asked of the team (round {0}) for task {1}.', task.fixOf.round, task.fixOf.of) : '',
  ].filter(Boolean);
  if (result !== undefined) lines.push('', result);
  else if (!isFinished(task)) lines.push('', vscode.l10n.t('Still running: read it again later.'));
  return lines.join('\n');
}

