/** Open, copy or insert a task's result; each takes a task id, a tree node, the active result tab or a pick. */
import * as vscode from 'vscode';
import { RESULT_SCHEME } from '../constants';
import { showResult } from '../documents/results';
import { taskIdOfResult } from '../documents/uris';
import { UserFacingError } from '../errors';
import type { TrackedTask } from '../tasks/model';
import { insertableText } from '../tasks/resultText';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';

export interface ResultDeps {
  ui: UserInterface;
  store: TaskStore;
}

/** Tree items pass their node; the palette passes nothing; code passes an id or a result URI. */
export function taskIdFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return taskIdOfResult(arg);
  const id = (arg as { task?: { id?: unknown } } | undefined)?.task?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The task a command is about: its argument, the active result tab, or one the user picks. */
export async function resolveTask(
  d: ResultDeps,
  arg: unknown,
  filter: (t: TrackedTask) => boolean,
  placeHolder: string,
): Promise<TrackedTask | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const id = taskIdFrom(arg) ?? (active && taskIdOfResult(active));
  if (id) {
    const task = d.store.get(id);
    if (!task) throw new UserFacingError(vscode.l10n.t('That task is no longer tracked.'));
    return task;
  }
  const candidates = d.store.all().filter(filter);
  if (!candidates.length) throw new UserFacingError(vscode.l10n.t('There is no such task yet. Orchestrate a selection first.'));
  const picked = await d.ui.pick(
    candidates.map(t => ({ label: t.title, description: t.status, detail: t.source?.label, task: t })),
    { placeHolder },
  );
  return picked?.task;
}

const completed = (t: TrackedTask) => t.status === 'completed';

async function readResult(d: ResultDeps, taskId: string): Promise<string> {
  const text = await d.store.readResult(taskId);
  if (text === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
  return text;
}

export async function openResult(d: ResultDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const task = await resolveTask(d, arg, t => completed(t) || t.status === 'failed', vscode.l10n.t('Which result?'));
  if (!task) return undefined;
  if (task.status !== 'completed') {
    throw new UserFacingError(task.error ? `"${task.title}": ${task.error}` : vscode.l10n.t('"{0}" is still running.', task.title));
  }
  return showResult(task);
}

export async function copyResult(d: ResultDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, completed, vscode.l10n.t('Copy which result?'));
  if (!task) return;
  await vscode.env.clipboard.writeText(await readResult(d, task.id));
  void d.ui.info(vscode.l10n.t('Result copied.'));
}

export async function insertResult(d: ResultDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, completed, vscode.l10n.t('Insert which result?'));
  if (!task) return;
  const text = insertableText(await readResult(d, task.id));
  const editor =
    vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === task.source?.uri) ?? vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme === RESULT_SCHEME) {
    throw new UserFacingError(vscode.l10n.t('Open the file to insert into and place the cursor first.'));
  }
  await editor.edit(edit => edit.replace(editor.selection, text));
}
