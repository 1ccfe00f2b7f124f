/**
 * The words for every condition the user meets in more than one place: a rate limit (by scope), the earlier
 * API form, a size or count limit (the numbers come from the api layer's LIMITS), a missing or rejected key,
 * an unreachable service, why a task ended, the buttons offered with an error. Localized here, once.
 * errors.ts decides which of these sentences an error gets; views, commands, chat and the poller's status
 * call them and never word these conditions themselves.
 */
import * as vscode from 'vscode';
import { type RateLimitScope, isBudgetExceeded } from './api/conditions';
import { LIMITS } from './api/requests';
import { PLATFORM_BODY_LIMIT_BYTES } from './api/uploads';
import { SENT_TEXT_LIMITS } from './constants';
import { formatBytes, formatUsd } from './format';

// Buttons -------------------------------------------------------------------------------------------

/** Buttons offered with an error; each is a function so the label is localized at run time. */
export const Actions = {
  setApiKey: () => vscode.l10n.t('Set API Key'),
  openSettings: () => vscode.l10n.t('Open Settings'),
  showLog: () => vscode.l10n.t('Show Log'),
  selectModel: () => vscode.l10n.t('Select Model'),
} as const;
export type Action = ReturnType<(typeof Actions)[keyof typeof Actions]>;

// Rate limits ---------------------------------------------------------------------------------------

export type { RateLimitScope };

/** `hh:mm` in local time, and the same moment as `hh:mm UTC`. */
function clockTimes(at: number): [string, string] {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return [`${two(date.getHours())}:${two(date.getMinutes())}`, `${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`];
}

/** Why polling waits after a 429, for the status bar; `untilMs` is ms since epoch. */
export function rateLimitPause(scope: RateLimitScope, untilMs: number): string {
  const at = new Date(untilMs).toLocaleTimeString();
  switch (scope) {
    case 'monthly':
      return vscode.l10n.t('The monthly quota of this key is used up: polling stopped until {0}. Tasks are kept; a new key resumes at once.', at);
    case 'hourly':
      return vscode.l10n.t('The hourly rate limit is reached: polling resumes at {0}.', at);
    case 'capacity':
      return vscode.l10n.t('The service is at capacity: polling resumes at {0}.', at);
    case 'plan':
      return vscode.l10n.t("Your plan's limit on new tasks is reached: polling resumes at {0}.", at);
    case 'attachments':
      return vscode.l10n.t('Too many attachment uploads: polling resumes at {0}.', at);
    case 'unknown':
      return vscode.l10n.t('Rate limited: polling resumes at {0}.', at);
  }
}

/**
 * A request refused with a 429: `serviceText` is the service's words, `retryAfterMs` when it said how long,
 * `nextHourMs` when the service's hourly windows end (the full hour, UTC). The plan's limit on new tasks and
 * the monthly quota never say "in a moment": waiting seconds cannot lift them.
 */
export function rateLimitRefusal(serviceText: string, retryAfterMs: number | undefined, scope: RateLimitScope, nextHourMs: number): string {
  const seconds = retryAfterMs ? Math.ceil(retryAfterMs / 1000) : undefined;
  const [local, utc] = clockTimes(nextHourMs);
  switch (scope) {
    case 'plan':
      // The client does not know the plan: both windows are named.
      return seconds
        ? vscode.l10n.t("Your plan's limit on new tasks is reached ({0}): the service takes a new task in {1} min. Trying again sooner will not help, so it was not sent again.", serviceText, Math.ceil(seconds / 60))
        : vscode.l10n.t(
            "Your plan's limit on new tasks is reached ({0}). On Pro and Super it resets at the full hour, {1} ({2}); on the free plan (1 task per 7 days), 7 days after your last task. Trying again sooner will not help, so it was not sent again.",
            serviceText,
            local,
            utc,
          );
    case 'hourly':
      return seconds
        ? vscode.l10n.t("The API key's hourly rate limit is reached ({0}). Try again in {1} s.", serviceText, seconds)
        : vscode.l10n.t("The API key's hourly rate limit is reached ({0}). It resets at the full hour, {1} ({2}).", serviceText, local, utc);
    case 'monthly':
      return vscode.l10n.t(
        "The API key's monthly request quota is used up ({0}). The service refuses this key's requests until the quota period ends (the web console shows it).",
        serviceText,
      );
    case 'capacity':
      return seconds
        ? vscode.l10n.t('The service is at capacity ({0}). Try again in {1} s.', serviceText, seconds)
        : vscode.l10n.t('The service is at capacity ({0}). Try again in a moment.', serviceText);
    case 'attachments':
      return vscode.l10n.t('Too many attachment uploads ({0}): the service takes 30 a minute. Wait a minute, then send again.', serviceText);
    case 'unknown':
      return seconds
        ? vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in {1} s.', serviceText, seconds)
        : vscode.l10n.t('The service is busy or your rate limit is reached: {0}. Try again in a moment.', serviceText);
  }
}

// Refusals that are not a wrong key -----------------------------------------------------------------

/** 403 "Account disabled": the key is known, its account may not run tasks. */
export function accountDisabled(detail: string): string {
  return vscode.l10n.t('The service says this account is disabled ({0}). The API key itself was accepted; the web console says why.', detail);
}

/** 503 from the service's authentication or rate-limit backend: passing, and not the key's fault. */
export function authBackendUnavailable(detail: string): string {
  return vscode.l10n.t('The service could not check the API key just now ({0}). This is a passing trouble of the service, not of your key: try again in a moment.', detail);
}

/** 403 for a model the plan does not include; `model` when the service named it. */
export function modelNeedsPlan(detail: string, model?: string): string {
  return model
    ? vscode.l10n.t('The model {0} needs a Pro or Super subscription ({1}). Choose another model, or upgrade in the web console.', model, detail)
    : vscode.l10n.t('This model needs a Pro or Super subscription ({0}). Choose another model, or upgrade in the web console.', detail);
}

/** 403 "Storage quota exceeded" on an upload. */
export function storageFull(detail: string): string {
  return vscode.l10n.t('Your storage on the service is full ({0}). Delete files you no longer need (Files view), then upload again. Nothing was stored.', detail);
}

// The earlier API form ------------------------------------------------------------------------------

/** A tree notice: the earlier API form (…/api/developer) has no threads or no files. */
export function notOnEarlierForm(what: 'threads' | 'files'): string {
  return what === 'threads'
    ? vscode.l10n.t('Threads are not available on the earlier API form (…/api/developer)')
    : vscode.l10n.t('Files are not available on the earlier API form (…/api/developer)');
}

/** The same as an error, with the fix. */
export function threadsNeedCurrentForm(): string {
  return vscode.l10n.t('Threads are not available on the earlier API form (…/api/developer): set multiAgent.baseUrl to …/api/v1/developer.');
}

export function cannotCancelOnEarlierForm(): string {
  return vscode.l10n.t('The earlier API form (…/api/developer) cannot cancel tasks on the service.');
}

/** The api layer refused a call the earlier form does not have; `detail` is its message. */
export function earlierFormRefused(detail: string): string {
  return vscode.l10n.t('This is not available on the earlier API form (…/api/developer): set multiAgent.baseUrl to …/api/v1/developer. ({0})', detail);
}

// Size and count limits -----------------------------------------------------------------------------

/** The upload limit as shown, from the one constant. */
const uploadLimit = () => formatBytes(LIMITS.maxUploadBytes);
/** The attachment limit as the service states it: 4,500,000 bytes per request, 4.5 MB. */
const attachmentLimit = () => vscode.l10n.t('{0} MB ({1} bytes)', PLATFORM_BODY_LIMIT_BYTES / 1e6, PLATFORM_BODY_LIMIT_BYTES.toLocaleString('en-US'));
/** A size over a limit: always megabytes, one decimal, so "10.0 MB" never reads as within "10 MB". */
const overLimitSize = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** The prompt limit as shown (characters), from the one constant. */
const promptLimit = () => LIMITS.promptMaxChars.toLocaleString('en-US');
const characters = (n: number) => n.toLocaleString('en-US');

/**
 * A file over its limit; `use`: sent as the prompt or uploaded to Files (10 MB), or attached to a task (one
 * request of at most 4,500,000 bytes with its envelope).
 */
export function fileTooLarge(name: string, bytes: number, use: 'send' | 'attach' | 'upload'): string {
  switch (use) {
    case 'send':
      return vscode.l10n.t('{0} is {1}; files up to {2} can be sent.', name, overLimitSize(bytes), uploadLimit());
    case 'attach':
      return vscode.l10n.t('{0} is {1}; the service takes attachments up to {2}, sent in one request. Nothing was uploaded.', name, overLimitSize(bytes), attachmentLimit());
    case 'upload':
      return vscode.l10n.t('{0} is {1}; the service accepts files up to {2}. Nothing was uploaded.', name, overLimitSize(bytes), uploadLimit());
  }
}

/**
 * Why Review Changes merges a file against the file as it is now (two ways, nothing can conflict) instead of
 * three ways: no text of it was kept when the task was sent (SENT_TEXT_LIMITS), or it was not sent at all.
 */
export function mergedTwoWay(reason: 'fileBound' | 'taskBound' | 'notText' | 'unreadable' | 'notSent' | undefined): string {
  switch (reason) {
    case 'fileBound':
      return vscode.l10n.t('merged against the file as it is now: it was over {0} when sent, so its text was not kept', formatBytes(SENT_TEXT_LIMITS.fileMaxBytes));
    case 'taskBound':
      return vscode.l10n.t("merged against the file as it is now: the task's files were over {0} together, so its text was not kept", formatBytes(SENT_TEXT_LIMITS.taskMaxBytes));
    case 'notText':
      return vscode.l10n.t('merged against the file as it is now: it was not read as text when sent');
    case 'notSent':
      return vscode.l10n.t('merged against the file as it is now: it was not sent with the task');
    default:
      return vscode.l10n.t('merged against the file as it is now: the text kept of it could not be read');
  }
}

/** What in a file's first bytes makes the service read it as `type`, for the types people do not expect. */
function whyType(type: string): string {
  if (type === 'text/html') return vscode.l10n.t(' (it starts like a web page: <html, <!DOCTYPE, <!--, <script, <div, <p…)');
  if (type === 'text/xml') return vscode.l10n.t(' (it starts with <?xml)');
  if (type === 'image/bmp') return vscode.l10n.t(' (it starts with "BM")');
  if (type === 'application/octet-stream') return vscode.l10n.t(' (binary bytes, or text in an encoding without a byte order mark)');
  return '';
}

/** A file whose type (as the service sniffs it) the service refuses; `use`: uploaded to Files, or attached. */
export function fileTypeRefused(name: string, type: string, use: 'attach' | 'upload'): string {
  return use === 'upload'
    ? vscode.l10n.t(
        "{0} reads as {1}{2}, a type the service does not store. It stores text, JSON, CSV, Markdown, SVG, PDF, PNG, JPEG, GIF and WebP, judged by the file's first bytes. Nothing was uploaded.",
        name,
        type,
        whyType(type),
      )
    : vscode.l10n.t(
        "{0} reads as {1}{2}, a type the service refuses as an attachment. It takes text, Markdown, JSON, CSV, PDF, PNG, JPEG, GIF, WebP, audio, and Word, Excel or PowerPoint documents, judged by the file's first bytes. Nothing was uploaded.",
        name,
        type,
        whyType(type),
      );
}

/** An empty file to store. */
export function fileEmpty(name: string): string {
  return vscode.l10n.t('{0} is empty: the service stores no empty files. Nothing was uploaded.', name);
}

/** A video attached for a model without video. */
export function videoNeedsModel(name: string, type: string): string {
  return vscode.l10n.t('{0} is a video ({1}): only a video-capable (Gemini) model takes video attachments. Choose one, or leave the video out. Nothing was uploaded.', name, type);
}

/** A folder chosen where files are needed. */
export function isFolder(name: string): string {
  return vscode.l10n.t('{0} is a folder: choose files.', name);
}

/** The file picker's hint: how many more files may be attached, and how large each. */
export function attachableFiles(left: number): string {
  return left === 1
    ? vscode.l10n.t('Choose up to 1 file ({0} each)', attachmentLimit())
    : vscode.l10n.t('Choose up to {0} files ({1} each)', left, attachmentLimit());
}

/**
 * A download the api layer stopped: it made no progress within the request timeout, or took too long in
 * all; `detail` is its words.
 */
export function downloadStopped(name: string, detail: string): string {
  return vscode.l10n.t(
    'The download of {0} was stopped: {1}. The service or the connection is too slow; multiAgent.requestTimeoutSeconds bounds the wait. Try again later.',
    name,
    detail,
  );
}

/** The basket refuses more files than a task takes. */
export function tooManyAttachments(attached: number, chosen: number): string {
  return vscode.l10n.t('At most {0} files can go with a task: {1} attached already, {2} more chosen.', LIMITS.maxAttachments, attached, chosen);
}

/** A submission with more uploads than a task takes. */
export function tooManyUploads(): string {
  return vscode.l10n.t('At most {0} attachments can go with a task; remove one and try again.', LIMITS.maxAttachments);
}

/**
 * A prompt over the service's limit (`length` in characters as the service counts them). `context`: the
 * instruction alone is too long; a selection that cannot go as an attachment; the offer to attach it; a chat
 * request; the language model tool's input.
 */
export function promptTooLong(length: number, context: 'instruction' | 'selection' | 'offerAttachment' | 'chat' | 'toolInput'): string {
  switch (context) {
    case 'instruction':
      return vscode.l10n.t('The instruction alone is over {0} characters: shorten it. Nothing was sent.', promptLimit());
    case 'selection':
      return vscode.l10n.t('The prompt would be {0} characters; the service accepts at most {1}. Select less code and try again.', characters(length), promptLimit());
    case 'offerAttachment':
      return vscode.l10n.t(
        'The prompt would be {0} characters; the service accepts at most {1}. Nothing was sent. Send the code as an attachment instead?',
        characters(length),
        promptLimit(),
      );
    case 'chat':
      return vscode.l10n.t(
        'The request would be {0} characters; the service accepts at most {1}. Send a smaller selection or fewer files. Nothing was sent.',
        characters(length),
        promptLimit(),
      );
    case 'toolInput':
      return vscode.l10n.t('"prompt" has {0} characters; at most {1} are accepted.', characters(length), promptLimit());
  }
}

/** A service file too large for an API key to download (`limitBytes`: the service's inline limit). */
export function tooLargeToDownload(name: string, limitBytes: number): string {
  return vscode.l10n.t('{0} is larger than the service lets an API key download ({1} at a time): download it from the web console.', name, formatBytes(limitBytes));
}

// Keys ----------------------------------------------------------------------------------------------

/** The service rejected the stored key; `detail` is its words. `where`: a notification, or inline in a view. */
export function keyRejected(detail: string, where: 'notification' | 'view' = 'notification'): string {
  return where === 'view'
    ? vscode.l10n.t('The service rejected the API key ({0}). Set a valid key with "Multi-Agent: Set API Key".', detail)
    : vscode.l10n.t('The service rejected the API key ({0}). Set a valid key and try again.', detail);
}

/** Why polling waits: the key was rejected. */
export function keyRejectedPause(): string {
  return vscode.l10n.t('Paused: the service rejected the API key.');
}

/** A new key the service refused when it was checked: in a notification, or in the key's input box. */
export function newKeyRejected(where: 'notification' | 'box' = 'notification'): string {
  return where === 'box'
    ? vscode.l10n.t('The service rejected this key; it was not saved. Correct it, or press Escape.')
    : vscode.l10n.t('The service rejected this key; it was not saved.');
}

/** No key is set. `where`: the chat participant, the language model tool (a model reads it), the usage panel, the key prompt. */
export function keyNeeded(where: 'chat' | 'tool' | 'usage' | 'prompt'): string {
  switch (where) {
    case 'chat':
      return vscode.l10n.t('The multi-agent service needs your Developer API key first.');
    case 'tool':
      return vscode.l10n.t('No Developer API key is set. Ask the user to run "Multi-Agent: Set API Key", then try again.');
    case 'usage':
      return vscode.l10n.t('Set an API key to see your usage.');
    case 'prompt':
      return vscode.l10n.t('An API key is needed first. Enter your Developer API key:');
  }
}

// Reaching the service ------------------------------------------------------------------------------

/** The service could not be reached; `detail` is the error. `where`: a notification, a view, or the polling status. */
export function unreachable(detail: string, where: 'notification' | 'view' | 'polling' = 'notification'): string {
  switch (where) {
    case 'notification':
      return vscode.l10n.t('{0}. Check your connection and the multiAgent.baseUrl setting; nothing was lost.', detail);
    case 'view':
      return vscode.l10n.t('{0}. Check your connection and the multiAgent.baseUrl setting.', sentence(detail));
    case 'polling':
      return vscode.l10n.t('{0}: retrying. Nothing is lost.', sentence(detail));
  }
}

/**
 * The api layer's own words already say what failed ("Could not reach the service (connection refused)",
 * "The service did not answer in time"): the sentences above follow them instead of wrapping them again.
 */
function sentence(detail: string): string {
  return detail.trim().replace(/\.$/, '');
}

/** Why a running task shows no fresh progress: polling waits (no connection, a rate limit, a rejected key). */
export function taskWaiting(): string {
  return vscode.l10n.t('waiting for the service');
}

/**
 * A new key could not be checked (the service could not be reached, or its authentication was briefly
 * unavailable): the question whether to keep it anyway, or the note that it was kept.
 */
export function keyUncheckedUnreachable(saved: boolean): string {
  return saved
    ? vscode.l10n.t('Key saved, not yet checked: the service could not check it.')
    : vscode.l10n.t('The service could not check this key just now (it could not be reached, or was briefly unavailable). Save it anyway?');
}

/** A new key the service knows, whose account is disabled: the question, or the note that it was kept. */
export function keyAccountDisabled(saved: boolean): string {
  return saved
    ? vscode.l10n.t('Key saved. Its account is disabled: tasks will be refused until it is enabled again.')
    : vscode.l10n.t('The service knows this key, but says its account is disabled (the web console says why). Save it anyway?');
}

/** Why polling waits: the service refused access (a disabled account, an exhausted quota). */
export function accessRefusedPause(detail: string): string {
  return vscode.l10n.t('The service refused access ({0}); retrying slowly.', detail);
}

/** Why polling waits: a setting cannot be used. */
export function settingPause(detail: string): string {
  return vscode.l10n.t('Paused: {0}', detail);
}

/** Any other failure, naming the status and the call when known (a bare "Not found" does not say what failed). */
export function failure(detail: string, status?: number, endpoint?: string): string {
  return status === undefined
    ? vscode.l10n.t('Multi-Agent Tasks: {0}', detail)
    : endpoint
      ? vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1} from {2})', detail, status, endpoint)
      : vscode.l10n.t('Multi-Agent Tasks: {0} (HTTP {1})', detail, status);
}

/**
 * A submission that failed after it may have reached the service: it is never sent twice, except the engine
 * run, which was sent once more with the same idempotency key (`keyed`): the service makes one task per key.
 */
export function maybeSubmitted(detail: string, keyed = false): string {
  return keyed
    ? vscode.l10n.t(
        'Sending the task failed ({0}), also when it was sent once more with the same idempotency key. The service makes at most one task per key, so there is no duplicate; if it reached the service it is listed in the web console.',
        detail,
      )
    : vscode.l10n.t(
        'Sending the task failed ({0}). It was not sent again, so there is no duplicate; if it reached the service it is listed in the web console.',
        detail,
      );
}

// Why a task ended ----------------------------------------------------------------------------------

/**
 * Why the client (not the service) ended a task, as data: the poller, which has no vscode, hands one to the
 * task store, and `endReason()` words it when it is stored.
 */
export type EndReason =
  /** The service said completed, and /results has no result. */
  | { kind: 'noResult' }
  /** The result is over what the service serves inline. */
  | { kind: 'resultTooLarge' }
  /** The status check failed the same lasting way several times in a row; `detail` is the last error. */
  | { kind: 'statusKeepsFailing'; detail: string }
  /** The service answered 404 for the task several times; `detail` is its words. */
  | { kind: 'unknownTask'; detail: string };

export function endReason(reason: EndReason): string {
  switch (reason.kind) {
    case 'noResult':
      return vscode.l10n.t('The service reported the task completed but sent no result.');
    case 'resultTooLarge':
      return vscode.l10n.t('The result is too large to download inline; open it in the web console.');
    case 'statusKeepsFailing':
      return vscode.l10n.t('The service keeps answering the status check with an error: {0}', reason.detail);
    case 'unknownTask':
      // The service's words ("Task not found") add nothing to this, and may name the raw task id.
      return vscode.l10n.t('The service no longer knows this task: it was lost or removed there.');
  }
}

/** The reason when the service ended a task without giving one. */
export function serviceEndReason(status: string): string | undefined {
  if (status === 'failed') return vscode.l10n.t('The task failed on the service.');
  if (status === 'canceled') return vscode.l10n.t('The task was canceled on the service.');
  return undefined;
}

/** A task Stop Tracking ended here: the service was not asked to cancel it. */
export function notFollowed(form: 'status' | 'sentence' | 'flash', title = ''): string {
  switch (form) {
    case 'status':
      return vscode.l10n.t('no longer followed — still running on the service');
    case 'sentence':
      return vscode.l10n.t(
        'No longer followed here; the task may still be running (and costing) on the service. Follow Again follows it once more and opens its result.',
      );
    case 'flash':
      return vscode.l10n.t('No longer followed: {0} (still running on the service)', title);
  }
}

/**
 * A task's state in words, for rows, tooltips and pickers: what the service said, except for a task Stop
 * Tracking ended here ("canceled" only when the service confirmed it).
 */
export function taskStatusText(task: { status: string; trackingStopped?: boolean }): string {
  if (task.trackingStopped) return notFollowed('status');
  switch (task.status) {
    case 'completed':
      return vscode.l10n.t('completed');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'canceled':
      return vscode.l10n.t('canceled');
    case 'awaiting_approval':
      return vscode.l10n.t('waiting for your approval');
    case 'processing':
    case 'queued':
    case 'pending':
    case 'running':
      return vscode.l10n.t('running');
    default:
      return task.status.replace(/_/g, ' ');
  }
}

/** Shown after "failed:" and the like when a task carries no reason at all. */
export function noReasonGiven(): string {
  return vscode.l10n.t('no reason given.');
}

// What the team did: agents, trace, budget, thread -------------------------------------------------

/** An agent's state word (tasks/model.ts agentStatusWord) as the user reads it. */
export function agentStatusLabel(status: string): string {
  switch (status) {
    case 'queued':
      return vscode.l10n.t('queued');
    case 'running':
      return vscode.l10n.t('working');
    case 'completed':
      return vscode.l10n.t('done');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'timeout':
      return vscode.l10n.t('timed out');
    default:
      return status;
  }
}

/** An engine run's spending: "$0.03 of $0.05 spent" (or "$0.03 spent" without a budget). */
export function budgetSpent(consumedUsd: number, initialUsd?: number): string {
  return initialUsd === undefined
    ? vscode.l10n.t('{0} spent', formatUsd(consumedUsd))
    : vscode.l10n.t('{0} of {1} spent', formatUsd(consumedUsd), formatUsd(initialUsd));
}

/**
 * A task stopped because the budget of the engine run ran out: "Stopped: budget reached" in plain words, never
 * the engine's "OrchestrationError[agent-3]: …" (issue 26: `detail`, the service's words, is not shown).
 */
export function budgetRanOut(_detail: string, budgetUsd?: number): string {
  return budgetUsd === undefined
    ? vscode.l10n.t('Stopped: budget reached before the agents could answer. Raise multiAgent.budgetUsd, or clear it, and run the task again.')
    : vscode.l10n.t('Stopped: budget of {0} reached before the agents could answer. Raise multiAgent.budgetUsd, or clear it, and run the task again.', formatUsd(budgetUsd));
}

/** What an agent's row says of its last words: a budget stop reads "Stopped: budget reached", else its words. */
export function agentWords(agent: { status: string; preview?: string }): string {
  if (agent.status === 'failed' && isBudgetExceeded(agent.preview)) return vscode.l10n.t('Stopped: budget reached');
  return agent.preview ?? '';
}

/** Agents of a completed task that stopped when the budget ran out. */
export function agentsStoppedByBudget(stopped: number, of: number): string {
  return stopped === 1
    ? vscode.l10n.t('1 of {0} agents stopped when the budget ran out; the answer comes from the others.', of)
    : vscode.l10n.t('{0} of {1} agents stopped when the budget ran out; the answer comes from the others.', stopped, of);
}

/** Why the execution trace cannot be shown; `detail` is the service's words. */
export type TraceProblem = 'authentication' | 'permission' | 'notFound' | 'tooLarge' | 'earlierForm' | 'other';

export function traceUnavailable(problem: TraceProblem, detail: string): string {
  switch (problem) {
    case 'authentication':
      return vscode.l10n.t('The service rejected the API key for the trace ({0}). Set a valid key with "Multi-Agent: Set API Key".', detail);
    case 'permission':
      return vscode.l10n.t('This trace belongs to another account: the API key may not read it ({0}).', detail);
    case 'notFound':
      return vscode.l10n.t('The service has no trace of this task ({0}). It keeps one once an agent has finished, unless tracing is off for the account.', detail);
    case 'tooLarge':
      return vscode.l10n.t('The trace is too large for the service to send to an API key ({0}); the web console shows it.', detail);
    case 'earlierForm':
      return vscode.l10n.t('Traces are not available on the earlier API form (…/api/developer): set multiAgent.baseUrl to …/api/v1/developer.');
    case 'other':
      return vscode.l10n.t('The trace could not be loaded: {0}', detail);
  }
}

/**
 * The result is over what the service sends to an API key inline (3 MiB: its status, its results and its
 * thread's copy all stop there). `triedThread`: the thread was read too.
 */
export function resultBeyondInlineLimit(triedThread: boolean): string {
  return triedThread
    ? vscode.l10n.t('The result is too large to download inline, and so is its copy in the task\'s thread; open it in the web console.')
    : vscode.l10n.t('The result is too large to download inline; open it in the web console.');
}

/** Settings that need the engine run (`names`) are not applied: on the earlier API form, or to a run in a thread. */
export function engineSettingsNotApplied(where: 'earlierForm' | 'thread', names: string): string {
  return where === 'earlierForm'
    ? vscode.l10n.t('The earlier API form (…/api/developer) has no engine run: {0} are not applied there; tasks go through its /run as before.', names)
    : vscode.l10n.t("A run in a thread goes through the thread's own run, which takes no {0}: they are not applied to it.", names);
}

/** Told when multiAgent.reasoningEffort or the model is set and the two do not fit (before any task is refused). */
export function reasoningEffortMisfitOnSet(effort: string, model: string, levels: readonly string[]): string {
  return levels.length === 0
    ? vscode.l10n.t('The model {0} has no configurable reasoning effort, so multiAgent.reasoningEffort ("{1}") cannot go with it: tasks would be refused. Choose another model, or clear the setting.', model, effort)
    : vscode.l10n.t('The model {0} takes a reasoning effort of {1}, not "{2}" (multiAgent.reasoningEffort): tasks would be refused. Choose one of those levels, or another model.', model, levels.join(', '), effort);
}

/** multiAgent.reasoningEffort does not fit the model the task runs on (`levels`: the model's, from the catalog). */
export function reasoningEffortUnsupported(effort: string, model: string, levels: readonly string[]): string {
  return levels.length === 0
    ? vscode.l10n.t('The model {0} has no configurable reasoning effort, so multiAgent.reasoningEffort ("{1}") cannot go with it. Choose another model, or clear the setting. Nothing was sent.', model, effort)
    : vscode.l10n.t('The model {0} takes a reasoning effort of {1}, not "{2}" (multiAgent.reasoningEffort). Nothing was sent.', model, levels.join(', '), effort);
}

/** No thread is known for a task (`why`: the service has not saved it yet, or keeps none that matches). */
export function noThreadOfTask(why: 'notYet' | 'notFound'): string {
  return why === 'notYet'
    ? vscode.l10n.t('The service has not named the thread of this task yet: it saves a completed task to a thread a moment after it completes. Try again in a moment.')
    : vscode.l10n.t('The service keeps no thread for this task that this key can read (only completed tasks are saved to one, and only the newest 20 threads are searched).');
}
