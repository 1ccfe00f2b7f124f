/** Messages the result view's page may post. Pure: checked in unit tests. */

const BLOCK_ACTIONS = new Set(['copy', 'apply']);
const TASK_ACTIONS = new Set(['applyAny', 'copyAll', 'prompt', 'raw', 'source']);

/** A message from the page, checked: a known type, this panel's task, a block index in range. */
export function validMessage(
  message: unknown,
  taskId: string,
  blockCount: number,
): { type: string; block?: number } | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const m = message as { type?: unknown; taskId?: unknown; block?: unknown };
  if (typeof m.type !== 'string' || m.taskId !== taskId) return undefined;
  if (TASK_ACTIONS.has(m.type)) return { type: m.type };
  if (BLOCK_ACTIONS.has(m.type) && typeof m.block === 'number' && Number.isInteger(m.block) && m.block >= 0 && m.block < blockCount) {
    return { type: m.type, block: m.block };
  }
  return undefined;
}
