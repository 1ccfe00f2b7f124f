/**
 * One wrapper for every command handler: a failure becomes a message the user can act on ("Set API Key"
 * for a rejected key, "Open Settings" for a bad setting, "Show Log" otherwise), never an unhandled error.
 */
import { type Described, describeError, messageOf, runAction } from '../errors';
import type { Logger } from '../log';
import type { UserInterface } from '../ui';

export interface CommandHost {
  ui: UserInterface;
  log: Logger;
}

/** The handler, with its failures shown to the user and logged instead of thrown. */
export function guarded(host: CommandHost, id: string, handler: (...args: never[]) => unknown): (...args: unknown[]) => Promise<unknown> {
  return async (...args: unknown[]) => {
    try {
      return await (handler as (...a: unknown[]) => unknown)(...args);
    } catch (e) {
      reportError(host, e, id);
      return undefined;
    }
  };
}

/** Shows `error` to the user in the words that help them act; logs it. Never throws, never blocks. */
function reportError(host: CommandHost, error: unknown, context?: string): void {
  const described = describeError(error);
  if (!described) return;
  host.log.error(`${context ? `${context}: ` : ''}${messageOf(error)}`);
  showDescribed(host.ui, described);
}

/** Shows a described problem with its buttons and runs the one the user picks. */
export function showDescribed(ui: UserInterface, described: Described): void {
  const shown = described.severity === 'warning' ? ui.warn(described.message, ...described.actions) : ui.error(described.message, ...described.actions);
  void Promise.resolve(shown).then(action => runAction(action));
}
