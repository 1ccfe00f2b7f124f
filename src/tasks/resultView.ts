/**
 * The rendered result view as the code that asks for it sees it (a port): commands, the completion
 * notification and the offers ask it to show a task; `views/pages/resultPanel.ts` (`ResultPanels`) implements it.
 * Declared here, below both, because commands and views do not import each other.
 */
import type { TrackedTask } from './model';

export interface ResultView {
  /** Opens (or reveals) the task's view. `fromChat`: asked by a button under a chat answer (no third column). */
  show(task: TrackedTask, options?: { preserveFocus?: boolean; fromChat?: boolean }): Promise<unknown>;
  /** Opens it with "How the team worked" open and loaded. */
  showTrace(task: TrackedTask): Promise<unknown>;
  /** The task of the focused result view, if one is focused. */
  activeTaskId(): string | undefined;
  /** The task's open view, if there is one. */
  panelOf(taskId: string): unknown;
}
