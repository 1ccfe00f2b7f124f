/**
 * Errors above the api layer: the user-facing error type, readers of the api layer's typed errors (without
 * loading that bundle for an `instanceof`), `describeError()`, which picks the sentence (from vocabulary.ts)
 * and the buttons a user sees for any error, and the one map from a button to the command it runs.
 * Commands, chat, the poller's status and the webviews all describe errors through here.
 */
import * as vscode from 'vscode';
import type { ApiErrorKind } from './api';
import { Commands } from './constants';
import {
  type Action,
  Actions,
  earlierFormRefused,
  failure,
  keyRejected,
  maybeSubmitted,
  type RateLimitScope,
  rateLimitRefusal,
  unreachable,
} from './vocabulary';

/** A problem the user can fix, shown as is (no "Show Log"). */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly actions: Action[] = [],
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}

/** The command an error's button runs (the one map: notifications and chat buttons both use it). */
export function commandOfAction(action: string | undefined): vscode.Command | undefined {
  if (action === undefined) return undefined;
  if (action === Actions.setApiKey()) return { title: action, command: Commands.setApiKey };
  if (action === Actions.openSettings()) return { title: action, command: 'workbench.action.openSettings', arguments: ['multiAgent'] };
  if (action === Actions.showLog()) return { title: action, command: Commands.showLog };
  return undefined;
}

/** The typed error's kind (`authentication`, `rateLimit`, …), or undefined for anything else. */
export function errorKind(error: unknown): ApiErrorKind | undefined {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' && error instanceof Error ? (kind as ApiErrorKind) : undefined;
}

/** How long the service asked us to wait (Retry-After), ms. */
function retryAfterOf(error: unknown): number | undefined {
  const ms = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' ? ms : undefined;
}

/** True when the request certainly never left this machine (connection refused, host not found). */
function wasNotSent(error: unknown): boolean {
  return (error as { notSent?: unknown } | undefined)?.notSent === true;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The user canceled: nothing to report. */
function isCancellation(error: unknown): boolean {
  return errorKind(error) === 'aborted' || error instanceof vscode.CancellationError;
}

/**
 * Server text shown as plain text: VS Code turns `[label](target)` in a notification into a link (and a
 * `command:` target runs a command); bare URLs stay text. A zero-width space between `]` and `(` keeps
 * any such pair from being read as a link, and changes nothing a user reads.
 */
export function inert(text: string): string {
  return text.replace(/\](\s*)\(/g, ']\u200B$1(');
}

export interface Described {
  message: string;
  severity: 'error' | 'warning';
  actions: Action[];
}

/** What to tell the user about `error`, in words that help them act. Undefined for a cancellation. */
export function describeError(error: unknown): Described | undefined {
  if (isCancellation(error)) return undefined;
  if (error instanceof UserFacingError) return { message: error.message, severity: 'error', actions: error.actions };
  const { status, endpoint } = error as { status?: unknown; endpoint?: unknown };
  return describeProblem(errorKind(error), messageOf(error), {
    retryAfterMs: retryAfterOf(error),
    status: typeof status === 'number' ? status : undefined,
    endpoint: typeof endpoint === 'string' ? endpoint : undefined,
  });
}

/** The same wording from a kind and a message (the poller reports problems this way, not as errors). */
export function describeProblem(
  kind: ApiErrorKind | undefined,
  rawMessage: string,
  extra: { retryAfterMs?: number; status?: number; endpoint?: string; scope?: RateLimitScope } = {},
): Described {
  const message = inert(rawMessage);
  const error = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'error', actions });
  switch (kind) {
    case 'authentication':
      return error(keyRejected(message), Actions.setApiKey());
    case 'rateLimit':
      return { severity: 'warning', actions: [], message: rateLimitRefusal(message, extra.retryAfterMs, extra.scope) };
    case 'configuration':
      return error(message, Actions.openSettings());
    case 'connection':
    case 'timeout':
      return error(unreachable(message), Actions.showLog());
    case 'invalidRequest':
    case 'tooLarge':
    case 'unsupported':
    case 'validation':
    case 'permission':
      return error(message, Actions.showLog());
    default:
      return error(failure(message, extra.status, extra.endpoint), Actions.showLog());
  }
}

/** A short, inline description for views (tree notices, the usage panel): no actions. */
export function describeForView(error: unknown): string {
  const message = inert(messageOf(error));
  switch (errorKind(error)) {
    case 'authentication':
      return keyRejected(message, 'view');
    case 'unsupported':
      return earlierFormRefused(message);
    case 'connection':
    case 'timeout':
      return unreachable(message, 'view');
    default:
      return message;
  }
}

/**
 * A submission that failed after it may have reached the service (a 5xx, a reset or timed-out answer, a
 * garbled body) is never sent again, because a duplicate task costs money. The user must hear that.
 */
export function submissionMayHaveArrived(error: unknown): UserFacingError | undefined {
  const kind = errorKind(error);
  const unsure = kind === 'server' || kind === 'timeout' || kind === 'responseFormat' || (kind === 'connection' && !wasNotSent(error));
  if (!unsure) return undefined;
  return new UserFacingError(maybeSubmitted(inert(messageOf(error)).replace(/\.$/, '')), [Actions.showLog()]);
}
