/**
 * Messages the result view's page may post. Pure: checked in unit tests. A block's Copy, Apply… and Insert… (with a
 * block index in range), or one of the task's offers on this surface now (tasks/offers.ts, `offersOf(task,
 * 'view')`): the page may ask for exactly what it shows, and a page drawn before the task changed (Cancel Task
 * after it ended) asks for nothing.
 */
import type { TaskOffer } from '../../tasks/offers';

const BLOCK_ACTIONS = ['copy', 'apply', 'insert'] as const;
export type BlockAction = (typeof BLOCK_ACTIONS)[number];

/** The longest follow-up the result view's box sends (the prompt's own limit is checked when it is sent). */
export const FOLLOW_UP_MAX_CHARS = 20_000;

/** An offer; `text` only for Continue in Thread (the follow-up typed in the page's box). */
export type ResultMessage = { type: BlockAction; block: number } | { type: 'offer'; offer: TaskOffer; text?: string };

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** A message from the page, checked: this panel's task, and a block index in range or an offer the task makes here. */
export function validMessage(message: unknown, taskId: string, blockCount: number, offers: readonly TaskOffer[]): ResultMessage | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const m = message as { type?: unknown; taskId?: unknown; block?: unknown; offer?: unknown; text?: unknown };
  if (typeof m.type !== 'string' || m.taskId !== taskId) return undefined;
  if (m.type === 'offer') {
    const offer = offers.find(o => o.id === m.offer);
    if (!offer) return undefined;
    if (offer.id !== 'continue' || m.text === undefined) return { type: 'offer', offer };
    const text = typeof m.text === 'string' && m.text.length <= FOLLOW_UP_MAX_CHARS ? m.text.trim() : '';
    return text ? { type: 'offer', offer, text } : undefined;
  }
  if (isOneOf(BLOCK_ACTIONS, m.type) && typeof m.block === 'number' && Number.isInteger(m.block) && m.block >= 0 && m.block < blockCount) {
    return { type: m.type, block: m.block };
  }
  return undefined;
}
