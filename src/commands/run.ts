/**
 * One wrapper for every command handler: a failure becomes a message the user can act on ("Set API Key"
 * for a rejected key, "Open Settings" for a bad setting, "Show Log" otherwise), never an unhandled error.
 */
import * as vscode from 'vscode';
import { errorKind, retryAfterOf } from '../apiService';
import { Commands } from '../constants';
import type { Logger } from '../log';
import { UserFacingError } from '../tasks/submitter';
import type { UserInterface } from '../ui';

export interface CommandHost {
  ui: UserInterface;
  log: Logger;
}

export function registerCommand(
  host: CommandHost,
  id: string,
  handler: (...args: never[]) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await (handler as (...a: unknown[]) => unknown)(...args);
    } catch (e) {
      reportError(host, e, id);
      return undefined;
    }
  });
}

/** Shows `error` to the user in the words that help them act; logs it. Never throws, never blocks. */
export function reportError(host: CommandHost, error: unknown, context?: string): void {
  const kind = errorKind(error);
  if (kind === 'aborted' || error instanceof vscode.CancellationError) return;
  const message = error instanceof Error ? error.message : String(error);
  host.log.error(`${context ? `${context}: ` : ''}${message}`);
  const offer = (shown: Thenable<string | undefined>) =>
    void Promise.resolve(shown).then(async action => {
      if (action === 'Set API Key') await vscode.commands.executeCommand(Commands.setApiKey);
      else if (action === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'multiAgent');
      else if (action === 'Show Log') await vscode.commands.executeCommand(Commands.showLog);
    });

  if (error instanceof UserFacingError) return offer(host.ui.error(message, ...error.actions));
  switch (kind) {
    case 'authentication':
      return offer(host.ui.error(`The service rejected the API key (${message}). Set a valid key and try again.`, 'Set API Key'));
    case 'rateLimit': {
      const wait = retryAfterOf(error);
      const when = wait ? ` Try again in ${Math.ceil(wait / 1000)} s.` : ' Try again in a moment.';
      return offer(host.ui.warn(`The service is busy or your rate limit is reached: ${message}.${when}`));
    }
    case 'configuration':
      return offer(host.ui.error(message, 'Open Settings'));
    case 'connection':
    case 'timeout':
      return offer(host.ui.error(`${message}. Check your connection and the multiAgent.baseUrl setting; nothing was lost.`, 'Show Log'));
    case 'invalidRequest':
    case 'tooLarge':
    case 'unsupported':
    case 'validation':
    case 'permission':
      return offer(host.ui.error(message, 'Show Log'));
    default: {
      // A bare "Not found" or "Bad gateway" does not say what failed: name the status and the call.
      const { status, endpoint } = error as { status?: unknown; endpoint?: unknown };
      const where = typeof status === 'number' ? ` (HTTP ${status}${typeof endpoint === 'string' ? ` from ${endpoint}` : ''})` : '';
      return offer(host.ui.error(`Multi-Agent Tasks: ${message}${where}`, 'Show Log'));
    }
  }
}
