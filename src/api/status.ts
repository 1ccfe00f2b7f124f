/**
 * Task statuses and which of them end a task for a client. No dependencies, so the upper floors can import
 * it (`../api/status`) without loading the api bundle.
 */

export const KNOWN_TASK_STATUSES = ['processing', 'completed', 'failed', 'canceled', 'awaiting_approval'] as const;
/** A known status, or whatever new value the service sends (kept as is, treated as unfinished). */
export type TaskStatus = (typeof KNOWN_TASK_STATUSES)[number] | (string & {});
/**
 * The one list of end states. `awaiting_approval` is not one: it is a pause, and the service resumes the same
 * task after the user approves in the web console.
 */
export const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'canceled']);

export function isTerminalStatus(status: string): boolean {
  return TERMINAL_TASK_STATUSES.has(status);
}
