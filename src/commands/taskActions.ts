/** Actions on tracked tasks: stop tracking, reveal the source, run again, remove, clear finished. */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { UserFacingError, errorKind } from '../errors';
import { cannotCancelOnEarlierForm } from '../vocabulary';
import type { CancelOutcome, TaskCanceller } from '../tasks/tracking/canceller';
import { type SourceRef, type TrackedTask, isFinished } from '../tasks/model';
import type { TaskPoller } from '../tasks/tracking/poller';
import type { SubmissionPipeline } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { sendOrOfferAttachment } from './ask';
import { codeColumn } from '../documents/editorGroups';
import { toRange } from '../documents/sourceRanges';
import { codeFrom } from '../tasks/sending/code';
import { lineCount } from '../tasks/resultText';
import { resolveTask, taskIdFrom } from './resolve';

export interface TaskActionDeps {
  ui: UserInterface;
  store: TaskStore;
  poller: Pick<TaskPoller, 'forget' | 'wake'>;
}

/** A tree node (`{task}`), a task id, or nothing. */
function taskOf(store: TaskStore, arg: unknown): TrackedTask {
  const id = taskIdFrom(arg);
  const task = id === undefined ? undefined : store.get(id);
  if (!task) throw new UserFacingError(vscode.l10n.t('Choose a task in the Tasks view.'));
  return task;
}

const rangeOf = (source: SourceRef) => source.range && toRange(source.range);

async function sourceDocument(source: SourceRef): Promise<vscode.TextDocument> {
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.parse(source.uri));
  } catch {
    throw new UserFacingError(vscode.l10n.t('{0} can no longer be opened: it was moved or deleted.', source.label));
  }
}

/**
 * Cancel Task: stops the task on the service. On the earlier API form (no cancel endpoint) or when the
 * service no longer knows the task, Stop Tracking is offered instead.
 */
export async function cancelTask(d: TaskActionDeps & { canceller: TaskCanceller }, arg?: unknown): Promise<CancelOutcome | undefined> {
  const task = await resolveTask(d, arg, 'cancel', vscode.l10n.t('Cancel which task?'), { none: vscode.l10n.t('No task is running.') });
  if (!task) return undefined;
  let outcome: CancelOutcome;
  try {
    outcome = await d.canceller.cancel(task.id);
  } catch (e) {
    if (errorKind(e) !== 'notFound') throw e;
    return offerStopTracking(d, task, vscode.l10n.t('The service no longer knows "{0}", so it cannot be canceled there.', task.title));
  }
  if (outcome === 'unsupported') {
    return offerStopTracking(d, task, cannotCancelOnEarlierForm());
  }
  if (outcome === 'alreadyFinished') void d.ui.info(vscode.l10n.t('"{0}" had already finished on the service; its outcome shows as usual.', task.title));
  return outcome;
}

async function offerStopTracking(d: TaskActionDeps, task: TrackedTask, why: string): Promise<undefined> {
  const stop = vscode.l10n.t('Stop Following');
  if ((await d.ui.warn(vscode.l10n.t('{0} Stop following it here instead? It may keep running, and costing, on the service.', why), stop)) === stop) {
    await stopTracking(d, task.id);
  }
  return undefined;
}

/** Stops following a task here; the service is not asked to cancel it (Cancel Task does that). */
export async function stopTracking(d: TaskActionDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, 'stopFollowing', vscode.l10n.t('Stop following which task? It keeps running on the service.'), { none: vscode.l10n.t('No task is running.') });
  if (!task) return;
  d.poller.forget(task.id);
  await d.store.stopFollowing(task.id);
}

/** Follows a task again that Stop Tracking ended: the service is asked for it, and its result opens as usual. */
export async function followAgain(d: TaskActionDeps & { poller: { wake(): void } }, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, 'followAgain', vscode.l10n.t('Follow which task again?'), { none: vscode.l10n.t('No task waits to be followed again.') });
  if (!task) return;
  if (!(await d.store.reopen(task.id))) {
    throw new UserFacingError(vscode.l10n.t('"{0}" was not stopped by Stop Tracking: there is nothing to check again.', task.title));
  }
  d.poller.wake();
}

export async function revealSource(d: Pick<TaskActionDeps, 'store'>, arg: unknown): Promise<vscode.TextEditor> {
  const task = taskOf(d.store, arg);
  if (!task.source) throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file.', task.title));
  const document = await sourceDocument(task.source);
  const range = rangeOf(task.source);
  const selection = range && document.validateRange(range);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: codeColumn(document.uri), selection, preview: false });
  if (selection) editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

/** The same instruction over the source as it is now (the same lines, re-read), as a new task. */
export async function runAgain(
  d: { ui: UserInterface; store: TaskStore; keys: KeyStore; pipeline: SubmissionPipeline },
  arg: unknown,
): Promise<TrackedTask | undefined> {
  const task = taskOf(d.store, arg);
  if (!task.source) throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file, so it cannot be run again.', task.title));
  const settings = d.pipeline.settings();
  if (!(await d.keys.ensureApiKey())) return undefined;
  const document = await sourceDocument(task.source);
  const range = rangeOf(task.source);
  const code = codeFrom(document, range && document.validateRange(range), task.source.label);
  if (!code.context.code.trim()) throw new UserFacingError(vscode.l10n.t('{0} has nothing there any more to send.', task.source.label));
  if (settings.confirmRunAgain && !(await confirmRunAgain(d.ui, task, code.context, settings))) return undefined;
  const next = await sendOrOfferAttachment(
    d.ui,
    d.pipeline,
    {
      instruction: task.instruction,
      code: { context: code.context, source: { ...task.source, languageId: document.languageId, range: code.source.range }, documentText: code.documentText },
      threadId: task.threadId,
    },
    settings,
  );
  return next;
}

export async function removeTask(d: Pick<TaskActionDeps, 'store' | 'poller'>, arg: unknown): Promise<void> {
  const task = taskOf(d.store, arg);
  d.poller.forget(task.id);
  await d.store.remove(task.id);
}

/** A paid task is not resent without the user seeing what goes: the instruction, the code, the model. */
async function confirmRunAgain(
  ui: UserInterface,
  task: TrackedTask,
  context: { code: string; label: string; lines?: { start: number; end: number } },
  settings: { modelId?: string; agentCount: number },
): Promise<boolean> {
  const where = context.lines ? vscode.l10n.t('{0}, lines {1}–{2}', context.label, context.lines.start, context.lines.end) : context.label;
  // A selection ending at column 1 of a line does not take that line: "lines 1–10" is 10 lines, not 11.
  const lines = context.lines ? context.lines.end - context.lines.start + 1 : lineCount(context.code);
  const detail = [
    vscode.l10n.t('Instruction: {0}', task.instruction),
    lines === 1 ? vscode.l10n.t('Code: {0} (1 line, as it is now)', where) : vscode.l10n.t('Code: {0} ({1} lines, as it is now)', where, lines),
    vscode.l10n.t('Model: {0} · {1} agents', settings.modelId ?? vscode.l10n.t('service default'), settings.agentCount),
    task.threadId ? vscode.l10n.t('In thread {0}', task.threadId) : '',
    vscode.l10n.t('The setting multiAgent.confirmRunAgain turns this question off.'),
  ]
    .filter(Boolean)
    .join('\n');
  return ui.confirm(vscode.l10n.t('Run "{0}" again? This sends a new task to the service.', task.title), detail, vscode.l10n.t('Run Again'));
}

/**
 * Removes every finished task and its cached result, after asking; running ones stay. Returns how many
 * went (0 when the user said no).
 */
export async function clearFinished(d: Pick<TaskActionDeps, 'store'> & { ui?: UserInterface }): Promise<number> {
  const finished = d.store.all().filter(isFinished);
  if (!finished.length) {
    void d.ui?.info(vscode.l10n.t('There are no finished tasks to clear.'));
    return 0;
  }
  if (d.ui) {
    const n = finished.length;
    const ok = await d.ui.confirm(
      n === 1 ? vscode.l10n.t('Clear 1 finished task?') : vscode.l10n.t('Clear {0} finished tasks?', n),
      vscode.l10n.t('Their cached results are deleted; this cannot be undone. Running tasks stay.'),
      vscode.l10n.t('Clear'),
    );
    if (!ok) return 0;
  }
  for (const task of finished) await d.store.remove(task.id);
  return finished.length;
}
