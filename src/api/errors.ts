/**
 * One error family for every way a call to the Developer API can fail. All of them are made here,
 * from an HTTP status (`errorForStatus`) or a transport failure (`errorForTransport`), so callers can
 * branch on `instanceof` or on `kind` and never on message text.
 */
import { type RateLimitScope, isLastingScope, rateLimitScope } from './conditions';
import { redactSecrets } from './redact';

export type ApiErrorKind =
  | 'authentication'
  | 'permission'
  | 'notFound'
  | 'tooLarge'
  | 'validation'
  | 'rateLimit'
  | 'server'
  | 'http'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'responseFormat'
  | 'unsupported'
  | 'invalidRequest'
  | 'configuration'
  | 'redirect'
  | 'streamEnded';

export interface FieldError {
  /** Where the server located the problem, e.g. `body.prompt`. */
  location?: string;
  message: string;
}

export interface ApiErrorInit {
  /** `METHOD /path` of the call, with ids replaced by placeholders, e.g. `GET /status/{taskId}`. */
  endpoint?: string;
  status?: number;
  /** How long the server asked us to wait before trying again, ms (Retry-After). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind = 'http';
  readonly endpoint?: string;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: safeCause(init.cause, 0) });
    this.name = new.target.name;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** True when trying the same read again later may succeed. */
  get transient(): boolean {
    return false;
  }
}

export class AuthenticationError extends ApiError {
  override readonly kind = 'authentication';
}
export class PermissionError extends ApiError {
  override readonly kind = 'permission';
}
export class NotFoundError extends ApiError {
  override readonly kind = 'notFound';
}
export class TooLargeError extends ApiError {
  override readonly kind = 'tooLarge';
}
/**
 * The server sent more bytes than this client reads for that kind of answer (counted after decompression).
 * Never retried: the same server would send the same flood again.
 */
export class ResponseTooLargeError extends TooLargeError {
  constructor(
    message: string,
    /** The cap that was exceeded, bytes. */
    readonly limitBytes: number,
    init: ApiErrorInit = {},
  ) {
    super(message, init);
  }
}
export class ValidationError extends ApiError {
  override readonly kind = 'validation';
  constructor(message: string, readonly fieldErrors: FieldError[], init: ApiErrorInit = {}) {
    super(message, init);
  }
}
export class RateLimitError extends ApiError {
  override readonly kind = 'rateLimit';
  /** Which limit, read from the service's text (its 429s carry no header that says). */
  readonly scope: RateLimitScope;
  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init);
    this.scope = rateLimitScope(message);
  }
  /** Not for the plan's task limit or the monthly quota: trying again in seconds cannot lift them. */
  override get transient(): boolean {
    return !isLastingScope(this.scope);
  }
}
export class ServerError extends ApiError {
  override readonly kind = 'server';
  override get transient(): boolean {
    return true;
  }
}
export class ConnectionError extends ApiError {
  override readonly kind = 'connection';
  /** True when the request certainly never reached the server (refused, host unknown). */
  constructor(message: string, readonly notSent: boolean, init: ApiErrorInit = {}) {
    super(message, init);
  }
  override get transient(): boolean {
    return true;
  }
}
export class TimeoutError extends ApiError {
  override readonly kind = 'timeout';
  override get transient(): boolean {
    return true;
  }
}
export class AbortedError extends ApiError {
  override readonly kind = 'aborted';
}
/** The server answered, but not with what the API promises (not JSON, or a field of the wrong shape). */
export class ResponseFormatError extends ApiError {
  override readonly kind = 'responseFormat';
}
/** The call does not exist on the configured (earlier) API form; nothing was sent. */
export class UnsupportedError extends ApiError {
  override readonly kind = 'unsupported';
}
/** A check before sending failed (prompt length, agent count…); nothing was sent. */
export class InvalidRequestError extends ApiError {
  override readonly kind = 'invalidRequest';
}
/** The configured address cannot be used (not a URL, plain http to a remote host…); nothing was sent. */
export class ConfigurationError extends ApiError {
  override readonly kind = 'configuration';
}
/** The server redirected somewhere the request may not follow (another origin). */
export class RedirectError extends ApiError {
  override readonly kind = 'redirect';
}
/** The task stream sent its `error` event (failed, canceled, not found or unauthorized): read /status for which. */
export class StreamEndedError extends ApiError {
  override readonly kind = 'streamEnded';
}

/** How deep a cause chain is kept: the HTTP library's error and what it wrapped are enough to debug with. */
const MAX_CAUSE_DEPTH = 4;
/** The facts of a low-level error worth keeping: what kind of failure, never from which request. */
const CAUSE_FIELDS = ['code', 'errno', 'syscall'] as const;

/**
 * What an error keeps of its cause: the name, message, stack frames and error code of each error in the
 * chain, copied into plain Errors. Never the original objects: an HTTP library's error holds the request
 * (its headers carry the API key) and the response, so a later `console.error(e)` or `util.inspect(e)`
 * would print the key. An ApiError is kept as is, its own cause having been cleaned when it was made.
 */
function safeCause(cause: unknown, depth: number): unknown {
  if (cause === undefined || cause === null || depth >= MAX_CAUSE_DEPTH) return undefined;
  if (cause instanceof ApiError) return cause;
  const source = typeof cause === 'object' ? (cause as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown }) : {};
  const message = typeof source.message === 'string' ? source.message : String(typeof cause === 'object' ? Object.prototype.toString.call(cause) : cause);
  const copy = new Error(message.slice(0, 1000));
  copy.name = typeof source.name === 'string' ? source.name : 'Error';
  const frames = typeof source.stack === 'string' ? source.stack.split('\n').filter(line => /^\s+at /.test(line)) : [];
  copy.stack = [`${copy.name}: ${copy.message}`, ...frames].join('\n');
  for (const field of CAUSE_FIELDS) {
    const value = (cause as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'string' || typeof value === 'number') Object.defineProperty(copy, field, { value, enumerable: true });
  }
  const inner = safeCause(source.cause, depth + 1);
  if (inner !== undefined) Object.defineProperty(copy, 'cause', { value: inner, configurable: true, writable: true });
  return copy;
}

/**
 * Takes every secret out of an error's words, wherever they are kept: its message and stack (which V8
 * writes once, with the first message), its field errors, and the same in every error of its cause chain.
 */
export function redactError<E>(error: E, secrets: readonly string[]): E {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth <= MAX_CAUSE_DEPTH; depth++) {
    for (const field of ['message', 'stack'] as const) {
      const text = current[field];
      if (typeof text !== 'string') continue;
      const clean = redactSecrets(text, secrets);
      if (clean !== text) Object.defineProperty(current, field, { value: clean, configurable: true, writable: true });
    }
    if (current instanceof ValidationError) {
      for (const field of current.fieldErrors) field.message = redactSecrets(field.message, secrets);
    }
    current = current.cause;
  }
  return error;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Invalid or missing API key',
  403: 'Not allowed',
  404: 'Not found',
  408: 'Request timed out',
  413: 'Request or response too large',
  415: 'Unsupported media type',
  422: 'Invalid request',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** Reads the message the server sent, whatever of its three error shapes it used: detail, title, error, message. */
export function messageFromBody(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    return text && text.length <= 300 && !text.startsWith('<') ? text : undefined;
  }
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['detail', 'title', 'error', 'message']) {
    const value = b[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
      return (value as { message: string }).message;
    }
  }
  return undefined;
}

function fieldErrorsFromBody(body: unknown): FieldError[] {
  if (!body || typeof body !== 'object') return [];
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e): FieldError[] => {
    if (typeof e === 'string') return [{ message: e }];
    if (!e || typeof e !== 'object') return [];
    const { location, message, field } = e as Record<string, unknown>;
    const where = typeof location === 'string' ? location : typeof field === 'string' ? field : undefined;
    return [{ location: where, message: typeof message === 'string' ? message : 'is invalid' }];
  });
}

/**
 * Parses `Retry-After` (delta seconds or an HTTP date) into ms from `now`.
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Makes the typed error for an HTTP error status. */
export function errorForStatus(
  status: number,
  body: unknown,
  headers: Record<string, string | undefined>,
  endpoint: string,
): ApiError {
  const fromServer = messageFromBody(body);
  const message = fromServer ?? STATUS_TEXT[status] ?? `HTTP ${status}`;
  const init = { endpoint, status, retryAfterMs: parseRetryAfter(headers['retry-after']) };
  switch (true) {
    case status === 401:
      return new AuthenticationError(message, init);
    case status === 403:
      return new PermissionError(message, init);
    case status === 404:
      return new NotFoundError(message, init);
    case status === 413:
      return new TooLargeError(message, init);
    case status === 400 || status === 422: {
      const fields = fieldErrorsFromBody(body);
      const detail = fields.length
        ? `${message}: ${fields.map(f => (f.location ? `${f.location}: ${f.message}` : f.message)).join('; ')}`
        : message;
      return new ValidationError(detail, fields, init);
    }
    case status === 429:
      return new RateLimitError(message, init);
    case status === 408:
      return new TimeoutError(message, init);
    case status >= 500:
      return new ServerError(message, init);
    default:
      return new ApiError(message, init);
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Makes the typed error for a request that got no usable HTTP response. */
export function errorForTransport(error: unknown, endpoint: string, how: { timedOut: boolean; aborted: boolean }): ApiError {
  if (error instanceof ApiError) return error;
  if (how.timedOut) return new TimeoutError('The service did not answer in time', { endpoint, cause: error });
  if (how.aborted) return new AbortedError('The request was canceled', { endpoint, cause: error });
  const code = (error as { code?: string } | undefined)?.code;
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === 'ECONNRESET' || code === 'ERR_BAD_RESPONSE' || code === 'ECONNABORTED'
          ? 'connection reset'
          : (code ?? 'network error');
  return new ConnectionError(`Could not reach the service (${reason})`, notSent, { endpoint, cause: error });
}
