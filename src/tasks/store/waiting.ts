/**
 * Whether the tasks kept from the last session want the team at once: one still running (to follow), or one
 * that ended or began waiting for approval while the window was closed (to announce). Read as the task store
 * keeps them, without building the store: the shell asks this at activation (extension.ts).
 */
import type * as vscode from 'vscode';
import { StateKeys } from '../../constants';
import { type TrackedTask, isFinished } from '../model';

export function tasksWantTheTeam(memento: vscode.Memento): boolean {
  const tasks = memento.get<unknown>(StateKeys.tasks);
  if (!Array.isArray(tasks)) return false;
  return tasks.some((task: TrackedTask | undefined) => task && typeof task.id === 'string' && (!isFinished(task) || (task.finishedAt !== undefined && !task.notified)));
}
