/**
 * One wrapper for every command handler: a failure becomes a message the user can act on ("Set API Key"
 * for a rejected key, "Open Settings" for a bad setting, "Show Log" otherwise), never an unhandled error.
 */
import * as vscode from 'vscode';
import { Actions } from '../actions';
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
      if (action === Actions.setApiKey()) await vscode.commands.executeCommand(Commands.setApiKey);
      else if (action === Actions.openSettings()) await vscode.commands.executeCommand('workbench.action.openSettings', 'multiAgent');
      else if (action === Actions.showLog()) await vscode.commands.executeCommand(Commands.showLog);
    });

  if (error instanceof UserFacingError) return offer(host.ui.error(message, ...error.actions));
  switch (kind) {
    case 'authentication':
      return offer(host.ui.error(vscode.l10n.t('The service rejected the API key ({0}). Set a valid key and try again.', message), Actions.setApiKey()));
    case 'rateLimit': {
      const wait = retryAfterOf(error);
      return offer(
        host.ui.warn(
          wait
            ? vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in {1} s.', message, Math.ceil(wait / 1000))
            : vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in a moment.', message),
        ),
      );
    }
    case 'configuration':
      return offer(host.ui.error(message, Actions.openSettings()));
    case 'connection':
    case 'timeout':
      return offer(host.ui.error(vscode.l10n.t('{0}. Check your connection and the multiAgent.baseUrl setting; nothing was lost.', message), Actions.showLog()));
    case 'invalidRequest':
    case 'tooLarge':
    case 'unsupported':
    case 'validation':
    case 'permission':
      return offer(host.ui.error(message, Actions.showLog()));
    default: {
      // A bare "Not found" or "Bad gateway" does not say what failed: name the status and the call.
      const { status, endpoint } = error as { status?: unknown; endpoint?: unknown };
      const shown =
        typeof status !== 'number'
          ? vscode.l10n.t('Multi-Agent Tasks: {0}', message)
          : typeof endpoint === 'string'
            ? vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1} from {2})', message, status, endpoint)
            : vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1})', message, status);
      return offer(host.ui.error(shown, Actions.showLog()));
    }
  }
}
