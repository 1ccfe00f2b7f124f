/**
 * The one vocabulary for errors above the api layer: the user-facing error type, readers of the api
 * layer's typed errors (without loading that bundle for an `instanceof`), and `describeError()`, which
 * turns any error into the sentence and the action a user sees. Commands, the poller's status and the
 * webviews all word errors through here; nobody else writes error wording.
 */
import * as vscode from 'vscode';
import type { ApiErrorKind } from './api';

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

/** Buttons offered with an error; each is a function so the label is localized at run time. */
export const Actions = {
  setApiKey: () => vscode.l10n.t('Set API Key'),
  openSettings: () => vscode.l10n.t('Open Settings'),
  showLog: () => vscode.l10n.t('Show Log'),
} as const;
export type Action = ReturnType<(typeof Actions)[keyof typeof Actions]>;

/** The typed error's kind (`authentication`, `rateLimit`, …), or undefined for anything else. */
export function errorKind(error: unknown): ApiErrorKind | undefined {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' && error instanceof Error ? (kind as ApiErrorKind) : undefined;
}

/** How long the service asked us to wait (Retry-After), ms. */
export function retryAfterOf(error: unknown): number | undefined {
  const ms = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' ? ms : undefined;
}

/** True when the request certainly never left this machine (connection refused, host not found). */
export function wasNotSent(error: unknown): boolean {
  return (error as { notSent?: unknown } | undefined)?.notSent === true;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The user canceled: nothing to report. */
export function isCancellation(error: unknown): boolean {
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
  extra: { retryAfterMs?: number; status?: number; endpoint?: string } = {},
): Described {
  const message = inert(rawMessage);
  const error = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'error', actions });
  switch (kind) {
    case 'authentication':
      return error(vscode.l10n.t('The service rejected the API key ({0}). Set a valid key and try again.', message), Actions.setApiKey());
    case 'rateLimit':
      return {
        severity: 'warning',
        actions: [],
        message: extra.retryAfterMs
          ? vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in {1} s.', message, Math.ceil(extra.retryAfterMs / 1000))
          : vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in a moment.', message),
      };
    case 'configuration':
      return error(message, Actions.openSettings());
    case 'connection':
    case 'timeout':
      return error(vscode.l10n.t('{0}. Check your connection and the multiAgent.baseUrl setting; nothing was lost.', message), Actions.showLog());
    case 'invalidRequest':
    case 'tooLarge':
    case 'unsupported':
    case 'validation':
    case 'permission':
      return error(message, Actions.showLog());
    default:
      // A bare "Not found" or "Bad gateway" does not say what failed: name the status and the call.
      return error(
        extra.status === undefined
          ? vscode.l10n.t('Multi-Agent Tasks: {0}', message)
          : extra.endpoint
            ? vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1} from {2})', message, extra.status, extra.endpoint)
            : vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1})', message, extra.status),
        Actions.showLog(),
      );
  }
}

/** A short, inline description for views (tree notices, the usage panel): no actions. */
export function describeForView(error: unknown): string {
  const message = inert(messageOf(error));
  switch (errorKind(error)) {
    case 'authentication':
      return vscode.l10n.t('The service rejected the API key ({0}). Set a valid key with "Multi-Agent: Set API Key".', message);
    case 'unsupported':
      return vscode.l10n.t('This is not available on the earlier API form (…/api/developer): set multiAgent.baseUrl to …/api/v1/developer. ({0})', message);
    case 'connection':
    case 'timeout':
      return vscode.l10n.t('The service could not be reached: {0}. Check your connection and the multiAgent.baseUrl setting.', message);
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
  return new UserFacingError(
    vscode.l10n.t(
      'Sending the task failed ({0}). It was not sent again, so there is no duplicate; if it reached the service it is listed in the web console.',
      inert(messageOf(error)).replace(/\.$/, ''),
    ),
    [Actions.showLog()],
  );
}
