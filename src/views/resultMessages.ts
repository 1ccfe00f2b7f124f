/** Messages the result view's page may post. Pure: checked in unit tests. */

const BLOCK_ACTIONS = ['copy', 'apply'] as const;
const TASK_ACTIONS = ['applyAny', 'copyAll', 'prompt', 'raw', 'source', 'review', 'allChanges', 'cancel'] as const;
export type ResultAction = (typeof BLOCK_ACTIONS)[number] | (typeof TASK_ACTIONS)[number];

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** A message from the page, checked: a known type, this panel's task, a block index in range. */
export function validMessage(
  message: unknown,
  taskId: string,
  blockCount: number,
): { type: ResultAction; block?: number } | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const m = message as { type?: unknown; taskId?: unknown; block?: unknown };
  if (typeof m.type !== 'string' || m.taskId !== taskId) return undefined;
  if (isOneOf(TASK_ACTIONS, m.type)) return { type: m.type };
  if (isOneOf(BLOCK_ACTIONS, m.type) && typeof m.block === 'number' && Number.isInteger(m.block) && m.block >= 0 && m.block < blockCount) {
    return { type: m.type, block: m.block };
  }
  return undefined;
}
