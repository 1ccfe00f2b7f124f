/** Which task a command is about: its argument (an id, a tree node, a result URI), the active result tab, or a pick. */
import * as vscode from 'vscode';
import { taskIdOfResult } from '../documents/uris';
import { UserFacingError } from '../errors';
import type { TrackedTask } from '../tasks/model';
import { type OfferContext, type OfferId, isOffered } from '../tasks/offers';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { taskStatusText } from '../vocabulary';

/** Tree items pass their node; the palette passes nothing; code passes an id or a result URI. */
export function taskIdFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return taskIdOfResult(arg);
  const id = (arg as { task?: { id?: unknown } } | undefined)?.task?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The task a command is about: its argument, the active result tab, or one the user picks among the tasks
 * that offer the action (tasks/offers.ts, the `picker` surface), or that match a filter of the command's own.
 * With none that fits, a passing note says so (`none`, e.g. "No task is waiting to be checked"; it is not an
 * error) and the command does nothing. `context` is what the offers table needs to know of the command's place.
 */
export async function resolveTask(
  d: { ui: UserInterface; store: TaskStore },
  arg: unknown,
  offered: OfferId | ((t: TrackedTask) => boolean),
  placeHolder: string,
  { context, none }: { context?: OfferContext; none?: string } = {},
): Promise<TrackedTask | undefined> {
  const filter = typeof offered === 'function' ? offered : (t: TrackedTask) => isOffered(t, offered, 'picker', context);
  const active = vscode.window.activeTextEditor?.document.uri;
  const id = taskIdFrom(arg) ?? (active && taskIdOfResult(active));
  if (id) {
    const task = d.store.get(id);
    if (!task) throw new UserFacingError(vscode.l10n.t('That task is no longer tracked.'));
    return task;
  }
  const candidates = d.store.all().filter(filter);
  if (!candidates.length) {
    d.ui.note(d.store.all().length ? (none ?? vscode.l10n.t('No task fits: nothing to do.')) : vscode.l10n.t('No tasks yet: orchestrate a selection first.'));
    return undefined;
  }
  const picked = await d.ui.pick(
    candidates.map(t => ({ label: t.title, description: taskStatusText(t), detail: t.source?.label, task: t })),
    { placeHolder },
  );
  return picked?.task;
}

