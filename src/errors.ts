/**
 * The one vocabulary for errors above the api layer: the user-facing error type, readers of the api
 * layer's typed errors (without loading that bundle for an `instanceof`), and `describeError()`, which
 * turns any error into the sentence and the action a user sees. Commands, the poller's status and the
 * webviews all word errors through here; nobody else writes error wording.
 */
import * as vscode from 'vscode';
import type { ApiErrorKind } from './api';
import { type ServiceCondition, nextUtcHour, serviceCondition } from './api/conditions';
import { PLATFORM_BODY_LIMIT_BYTES, type UploadVerdict } from './api/uploads';
import { formatBytes } from './format';

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
  selectModel: () => vscode.l10n.t('Select Model'),
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
  const condition = serviceCondition(kind, rawMessage);
  const special = condition && describeCondition(condition, message, extra.retryAfterMs);
  if (special) return special;
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

/** `hh:mm` in local time, and the same moment as `hh:mm UTC`. */
function clockTimes(at: number): [string, string] {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return [`${two(date.getHours())}:${two(date.getMinutes())}`, `${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`];
}

/**
 * The conditions a status alone does not name (service/conditions.ts reads them from the service's words):
 * which limit a 429 hit and when it lifts, a disabled account or a passing authentication outage (neither
 * is a wrong key), a model the plan lacks, a full storage. Undefined when the generic wording fits.
 */
function describeCondition(found: ServiceCondition, message: string, retryAfterMs: number | undefined): Described | undefined {
  const warning = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'warning', actions });
  const error = (text: string, ...actions: Action[]): Described => ({ message: text, severity: 'error', actions });
  const seconds = retryAfterMs ? Math.ceil(retryAfterMs / 1000) : undefined;
  switch (found.condition) {
    case 'rateLimit':
      switch (found.scope) {
        case 'plan': {
          // The client does not know the plan: name both windows. Waiting seconds cannot help, so nothing retries.
          if (seconds) return warning(vscode.l10n.t("Your plan's task limit is reached ({0}). The service takes a new task in {1} min; it was not sent again.", message, Math.ceil(seconds / 60)));
          const [local, utc] = clockTimes(nextUtcHour());
          return warning(
            vscode.l10n.t(
              "Your plan's task limit is reached ({0}). On Pro and Super it resets at the full hour, {1} ({2}); on the free plan (1 task per 7 days), 7 days after your last task. The task was not sent again: until then the service refuses new tasks.",
              message,
              local,
              utc,
            ),
          );
        }
        case 'hourly': {
          if (seconds) return warning(vscode.l10n.t("The API key's hourly request limit is reached ({0}). Try again in {1} s.", message, seconds));
          const [local, utc] = clockTimes(nextUtcHour());
          return warning(vscode.l10n.t("The API key's hourly request limit is reached ({0}). It resets at the full hour, {1} ({2}).", message, local, utc));
        }
        case 'monthly':
          return warning(
            vscode.l10n.t(
              "The API key's monthly request quota is used up ({0}). The service refuses this key's requests until the quota period ends (the web console shows it).",
              message,
            ),
          );
        case 'capacity':
          return warning(
            seconds
              ? vscode.l10n.t('The service is at capacity ({0}). Try again in {1} s.', message, seconds)
              : vscode.l10n.t('The service is at capacity ({0}). Try again in a moment.', message),
          );
        case 'attachments':
          return warning(vscode.l10n.t('Too many attachment uploads ({0}): the service takes 30 a minute. Wait a minute, then send again.', message));
        default:
          return undefined;
      }
    case 'accountDisabled':
      return error(vscode.l10n.t('The service says this account is disabled ({0}). The API key itself was accepted; the web console says why.', message));
    case 'authUnavailable':
      return warning(vscode.l10n.t('The service could not check the API key just now ({0}). This is a passing trouble of the service, not of your key: try again in a moment.', message));
    case 'modelNeedsPlan':
      return error(
        found.model
          ? vscode.l10n.t('The model {0} needs a Pro or Super subscription ({1}). Choose another model, or upgrade in the web console.', inert(found.model), message)
          : vscode.l10n.t('This model needs a Pro or Super subscription ({0}). Choose another model, or upgrade in the web console.', message),
        Actions.selectModel(),
      );
    case 'storageQuota':
      return error(vscode.l10n.t('Your storage on the service is full ({0}). Delete files you no longer need (Files view), then upload again. Nothing was stored.', message));
  }
}

/** A short, inline description for views (tree notices, the usage panel): no actions. */
export function describeForView(error: unknown): string {
  const message = inert(messageOf(error));
  const condition = serviceCondition(errorKind(error), messageOf(error));
  const special = condition && describeCondition(condition, message, retryAfterOf(error));
  if (special) return special.message;
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
  // The authentication layer answered 503 before the task was looked at: nothing arrived.
  if (serviceCondition(kind, messageOf(error))?.condition === 'authUnavailable') return undefined;
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

/** Why a file cannot go to the service: a folder, or the service's own rule refused it (api/uploads.ts). */
export type UploadRefusal = Exclude<UploadVerdict, { ok: true }> | { ok: false; problem: 'folder' };

/** A size limit as the service states it: 10 MB is 10 MiB; the platform's 4,500,000 bytes are 4.5 MB. */
function limitText(bytes: number): string {
  return bytes === PLATFORM_BODY_LIMIT_BYTES ? vscode.l10n.t('4.5 MB ({0} bytes)', bytes.toLocaleString('en-US')) : formatBytes(bytes);
}

/** What in a file's first bytes makes the service read it as `type`, for the types people do not expect. */
function whyType(type: string): string {
  if (type === 'text/html') return vscode.l10n.t(' (it starts like a web page: <html, <!DOCTYPE, <!--, <script, <div, <p…)');
  if (type === 'text/xml') return vscode.l10n.t(' (it starts with <?xml)');
  if (type === 'image/bmp') return vscode.l10n.t(' (it starts with "BM")');
  if (type === 'application/octet-stream') return vscode.l10n.t(' (binary bytes, or text in an encoding without a byte order mark)');
  return '';
}

/**
 * The words for an upload the service would refuse, told before anything is sent: a folder, a file too
 * large for what it is sent as, an empty file, a type the service refuses (as it sniffs it), a video for
 * a model without video.
 */
export function uploadRefusal(name: string, kind: 'file' | 'attachment' | 'prompt', refusal: UploadRefusal): UserFacingError {
  const what = inert(name);
  switch (refusal.problem) {
    case 'folder':
      return new UserFacingError(vscode.l10n.t('{0} is a folder: choose files.', what));
    case 'tooLarge':
      if (kind === 'prompt') return new UserFacingError(vscode.l10n.t('{0} is {1}; files up to {2} can be sent.', what, formatBytes(refusal.size), limitText(refusal.limitBytes)));
      return new UserFacingError(
        kind === 'file'
          ? vscode.l10n.t('{0} is {1}; the service stores files up to {2}. Nothing was uploaded.', what, formatBytes(refusal.size), limitText(refusal.limitBytes))
          : vscode.l10n.t('{0} is {1}; the service takes attachments up to {2}, sent in one request. Nothing was uploaded.', what, formatBytes(refusal.size), limitText(refusal.limitBytes)),
      );
    case 'empty':
      return new UserFacingError(vscode.l10n.t('{0} is empty: the service stores no empty files. Nothing was uploaded.', what));
    case 'videoModel':
      return new UserFacingError(
        vscode.l10n.t('{0} is a video ({1}): only a video-capable (Gemini) model takes video attachments. Choose one, or leave the video out. Nothing was uploaded.', what, refusal.type),
        [Actions.selectModel()],
      );
    case 'type':
      return new UserFacingError(
        kind === 'file'
          ? vscode.l10n.t(
              "{0} reads as {1}{2}, a type the service does not store. It stores text, JSON, CSV, Markdown, SVG, PDF, PNG, JPEG, GIF and WebP, judged by the file's first bytes. Nothing was uploaded.",
              what,
              refusal.type,
              whyType(refusal.type),
            )
          : vscode.l10n.t(
              "{0} reads as {1}{2}, a type the service refuses as an attachment. It takes text, Markdown, JSON, CSV, PDF, PNG, JPEG, GIF, WebP, audio, and Word, Excel or PowerPoint documents, judged by the file's first bytes. Nothing was uploaded.",
              what,
              refusal.type,
              whyType(refusal.type),
            ),
      );
  }
}

/**
 * A download the api layer stopped because it made no progress within the request timeout (a server that
 * sends a byte every few seconds) or took too long in all: say so, and which setting bounds the wait.
 */
export function downloadStopped(name: string, error: unknown): UserFacingError | undefined {
  if (errorKind(error) !== 'timeout') return undefined;
  return new UserFacingError(
    vscode.l10n.t(
      'The download of {0} was stopped: {1}. The service or the connection is too slow; multiAgent.requestTimeoutSeconds bounds the wait. Try again later.',
      inert(name),
      inert(messageOf(error)).replace(/\.$/, ''),
    ),
    [Actions.openSettings()],
  );
}
