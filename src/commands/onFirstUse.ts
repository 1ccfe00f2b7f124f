/**
 * The action commands' handlers (`index.ts`, a part of its own: lazy.ts), loaded on the first call of any of
 * them. The shell registered every id at activation (standIns.ts); the core asks here for the one called.
 */
import type { ActionCommandId } from '../constants';
import { lazy } from '../lazy';
import type * as Handlers from './index';

const handlersModule = lazy<typeof Handlers>('commands');

export function commandsOnFirstUse(d: Handlers.CommandDeps): (id: ActionCommandId) => Handlers.CommandHandler {
  let handlers: ReturnType<typeof Handlers.commandHandlers> | undefined;
  return id => (handlers ??= handlersModule().commandHandlers(d))[id];
}
