/** Messages the result view's team sections may post (files, sources, the trace). Pure: checked in unit tests. */

const INDEXED = ['openFile', 'saveFile', 'attachFile', 'openSource'] as const;
const PLAIN = ['loadTrace'] as const;
export type TeamAction = (typeof INDEXED)[number] | (typeof PLAIN)[number];

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** A message from the page, checked: a known type, this panel's task, a file or source index in range. */
export function validTeamMessage(
  message: unknown,
  taskId: string,
  counts: { files: number; sources: number },
): { type: TeamAction; index?: number } | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const m = message as { type?: unknown; taskId?: unknown; index?: unknown };
  if (typeof m.type !== 'string' || m.taskId !== taskId) return undefined;
  if (isOneOf(PLAIN, m.type)) return { type: m.type };
  if (!isOneOf(INDEXED, m.type)) return undefined;
  const count = m.type === 'openSource' ? counts.sources : counts.files;
  if (typeof m.index !== 'number' || !Number.isInteger(m.index) || m.index < 0 || m.index >= count) return undefined;
  return { type: m.type, index: m.index };
}
