/** Actions on tracked tasks: stop tracking, reveal the source, run again, remove, clear finished. */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { UserFacingError, errorKind } from '../errors';
import type { CancelOutcome, TaskCanceller } from '../tasks/canceller';
import { type SourceRef, type TrackedTask, isFinished } from '../tasks/model';
import type { TaskPoller } from '../tasks/poller';
import type { SubmissionPipeline } from '../tasks/submission';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';
import { sendOrOfferAttachment } from './ask';
import { codeFrom } from './code';
import { resolveTask } from './results';

export interface TaskActionDeps {
  ui: UserInterface;
  store: TaskStore;
  poller: Pick<TaskPoller, 'forget'>;
}

/** A tree node (`{task}`), a task id, or nothing. */
function taskOf(store: TaskStore, arg: unknown): TrackedTask {
  const id = typeof arg === 'string' ? arg : (arg as { task?: { id?: unknown } } | undefined)?.task?.id;
  const task = typeof id === 'string' ? store.get(id) : undefined;
  if (!task) throw new UserFacingError(vscode.l10n.t('Choose a task in the Tasks view.'));
  return task;
}

function rangeOf(source: SourceRef): vscode.Range | undefined {
  const r = source.range;
  return r && new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter);
}

async function openSource(source: SourceRef): Promise<vscode.TextDocument> {
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
  const task = await resolveTask(d, arg, t => !isFinished(t), vscode.l10n.t('Cancel which task?'));
  if (!task) return undefined;
  let outcome: CancelOutcome;
  try {
    outcome = await d.canceller.cancel(task.id);
  } catch (e) {
    if (errorKind(e) !== 'notFound') throw e;
    return offerStopTracking(d, task, vscode.l10n.t('The service no longer knows "{0}", so it cannot be canceled there.', task.title));
  }
  if (outcome === 'unsupported') {
    return offerStopTracking(d, task, vscode.l10n.t('The earlier API form (…/api/developer) cannot cancel tasks on the service.'));
  }
  if (outcome === 'alreadyFinished') void d.ui.info(vscode.l10n.t('"{0}" had already finished on the service; its outcome shows as usual.', task.title));
  return outcome;
}

async function offerStopTracking(d: TaskActionDeps, task: TrackedTask, why: string): Promise<undefined> {
  const stop = vscode.l10n.t('Stop Tracking');
  if ((await d.ui.warn(vscode.l10n.t('{0} Stop tracking it instead? The service may still finish it.', why), stop)) === stop) {
    await stopTracking(d, task.id);
  }
  return undefined;
}

export async function stopTracking(d: TaskActionDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, t => !isFinished(t), vscode.l10n.t('Stop tracking which task?'));
  if (!task) return;
  d.poller.forget(task.id);
  await d.store.markNotified(task.id); // the user's own action: no "task canceled" popup
  await d.store.finish(task.id, {
    status: 'canceled',
    error: vscode.l10n.t('Tracking stopped; the task may still run on the service. Its result can be fetched again from the Tasks view (Run Again) or the web console.'),
  });
}

export async function revealSource(d: Pick<TaskActionDeps, 'store'>, arg: unknown): Promise<vscode.TextEditor> {
  const task = taskOf(d.store, arg);
  if (!task.source) throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file.', task.title));
  const document = await openSource(task.source);
  const range = rangeOf(task.source);
  const selection = range && document.validateRange(range);
  const editor = await vscode.window.showTextDocument(document, { selection, preview: false });
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
  const document = await openSource(task.source);
  const range = rangeOf(task.source);
  const code = codeFrom(document, range && document.validateRange(range), task.source.label);
  if (!code.context.code.trim()) throw new UserFacingError(vscode.l10n.t('{0} has nothing there any more to send.', task.source.label));
  const next = await sendOrOfferAttachment(
    d.ui,
    d.pipeline,
    { instruction: task.instruction, code: { context: code.context, source: { ...task.source, languageId: document.languageId, range: code.source.range } }, threadId: task.threadId },
    settings,
  );
  return next;
}

export async function removeTask(d: Pick<TaskActionDeps, 'store' | 'poller'>, arg: unknown): Promise<void> {
  const task = taskOf(d.store, arg);
  d.poller.forget(task.id);
  await d.store.remove(task.id);
}

/** Removes every finished task and its cached result; running ones stay. Returns how many went. */
export async function clearFinished(d: Pick<TaskActionDeps, 'store'>): Promise<number> {
  const finished = d.store.all().filter(isFinished);
  for (const task of finished) await d.store.remove(task.id);
  return finished.length;
}
