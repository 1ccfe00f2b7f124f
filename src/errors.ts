/**
 * Errors above the api layer: the user-facing error type, readers of the api layer's typed errors (without
 * loading that bundle for an `instanceof`), `describeError()`, which picks the sentence (from vocabulary.ts)
 * and the buttons a user sees for any error, and the one map from a button to the command it runs.
 * Commands, chat, the poller's status and the webviews all describe errors through here.
 */
import * as vscode from 'vscode';
import type { ApiErrorKind } from './api';
import { type ServiceCondition, nextUtcHour, serviceCondition } from './api/conditions';
import type { UploadVerdict } from './api/uploads';
import { Commands } from './constants';
import { inert, messageOf } from './format';
import {
  type Action,
  Actions,
  accountDisabled,
  authBackendUnavailable,
  downloadStopped as downloadStoppedText,
  earlierFormRefused,
  failure,
  fileEmpty,
  fileTooLarge,
  fileTypeRefused,
  isFolder,
  keyRejected,
  maybeSubmitted,
  modelNeedsPlan,
  type RateLimitScope,
  rateLimitRefusal,
  storageFull,
  unreachable,
  videoNeedsModel,
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
  if (action === Actions.selectModel()) return { title: action, command: Commands.selectModel };
  return undefined;
}

/**
 * Runs the button the user picked on a shown problem (nothing for a dismissal). `run` is VS Code's
 * executeCommand, or a test's stand-in where a test watches what runs.
 */
export async function runAction(
  action: string | undefined,
  run: (command: string, ...args: unknown[]) => Thenable<unknown> = vscode.commands.executeCommand,
): Promise<void> {
  const command = commandOfAction(action);
  if (command) await run(command.command, ...(command.arguments ?? []));
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

/** Re-exported: the commands and chat read every error word from here. */
export { messageOf };

/** The user canceled: nothing to report. */
export function isCancellation(error: unknown): boolean {
  return errorKind(error) === 'aborted' || error instanceof vscode.CancellationError;
}

/** Re-exported: server text made inert (format.ts). */
export { inert };

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
  const condition = serviceCondition(kind, rawMessage);
  const special = condition && describeCondition(condition, message, extra.retryAfterMs, extra.scope);
  if (special) return special;
  const error = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'error', actions });
  switch (kind) {
    case 'authentication':
      return error(keyRejected(message), Actions.setApiKey());
    case 'rateLimit':
      return { severity: 'warning', actions: [], message: rateLimitRefusal(message, extra.retryAfterMs, extra.scope ?? 'unknown', nextUtcHour()) };
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

/**
 * The conditions a status alone does not name (api/conditions.ts reads them from the service's words): which
 * limit a 429 hit, a disabled account or a passing authentication outage (neither is a wrong key), a model
 * the plan lacks, a full storage.
 */
function describeCondition(found: ServiceCondition, message: string, retryAfterMs: number | undefined, scope: RateLimitScope | undefined): Described {
  const warning = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'warning', actions });
  const error = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'error', actions });
  switch (found.condition) {
    case 'rateLimit':
      return warning(rateLimitRefusal(message, retryAfterMs, scope && scope !== 'unknown' ? scope : found.scope, nextUtcHour()));
    case 'accountDisabled':
      return error(accountDisabled(message));
    case 'authUnavailable':
      return warning(authBackendUnavailable(message));
    case 'modelNeedsPlan':
      return error(modelNeedsPlan(message, found.model && inert(found.model)), Actions.selectModel());
    case 'storageQuota':
      return error(storageFull(message));
  }
}

/** A short, inline description for views (tree notices, the usage panel): no actions. */
export function describeForView(error: unknown): string {
  const message = inert(messageOf(error));
  const condition = serviceCondition(errorKind(error), messageOf(error));
  if (condition) return describeCondition(condition, message, retryAfterOf(error), undefined).message;
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
export function submissionMayHaveArrived(error: unknown, keyed = false): UserFacingError | undefined {
  const kind = errorKind(error);
  // The authentication layer answered 503 before the task was looked at: nothing arrived.
  if (serviceCondition(kind, messageOf(error))?.condition === 'authUnavailable') return undefined;
  const unsure = kind === 'server' || kind === 'timeout' || kind === 'responseFormat' || (kind === 'connection' && !wasNotSent(error));
  if (!unsure) return undefined;
  return new UserFacingError(maybeSubmitted(inert(messageOf(error)).replace(/\.$/, ''), keyed), [Actions.showLog()]);
}

/** Why a file cannot go to the service: a folder, or the service's own rule refused it (api/uploads.ts). */
export type UploadRefusal = Exclude<UploadVerdict, { ok: true }> | { ok: false; problem: 'folder' };

/**
 * An upload the service would refuse, told before anything is sent: a folder, a file too large for what it
 * is sent as, an empty file, a type the service refuses (as it sniffs it), a video for a model without video.
 */
export function uploadRefusal(name: string, kind: 'file' | 'attachment' | 'prompt', refusal: UploadRefusal): UserFacingError {
  const what = inert(name);
  switch (refusal.problem) {
    case 'folder':
      return new UserFacingError(isFolder(what));
    case 'tooLarge':
      return new UserFacingError(fileTooLarge(what, refusal.size, kind === 'prompt' ? 'send' : kind === 'file' ? 'upload' : 'attach'));
    case 'empty':
      return new UserFacingError(fileEmpty(what));
    case 'videoModel':
      return new UserFacingError(videoNeedsModel(what, refusal.type), [Actions.selectModel()]);
    case 'type':
      return new UserFacingError(fileTypeRefused(what, refusal.type, kind === 'file' ? 'upload' : 'attach'));
  }
}

/**
 * A download the api layer stopped because it made no progress within the request timeout (a server that
 * sends a byte every few seconds) or took too long in all: say so, and which setting bounds the wait.
 */
export function downloadStopped(name: string, error: unknown): UserFacingError | undefined {
  if (errorKind(error) !== 'timeout') return undefined;
  return new UserFacingError(downloadStoppedText(inert(name), inert(messageOf(error)).replace(/\.$/, '')), [Actions.openSettings()]);
}
