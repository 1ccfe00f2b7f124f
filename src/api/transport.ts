/**
 * The one place that talks HTTP: adds the key and User-Agent, bounds every call in time and every body in
 * size, follows redirects only where the key stays private, retries by the policy, maps every failure to
 * the typed error family, redacts secrets from whatever the server says, and validates every JSON body.
 */
import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import type * as z from 'zod/mini';
import { checkedUrl, isLoopbackHost } from './addresses';
import { BODY_LIMITS, readBody } from './bodies';
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  RedirectError,
  ResponseFormatError,
  ResponseTooLargeError,
  errorForStatus,
  errorForTransport,
  redactError,
} from './errors';
import { redactJson, redactSecrets } from './redact';
import { DEFAULT_RETRY, NO_RETRY, type RetryPolicy, isRetryable, retryDelayMs, sleep } from './retry';
import { describeMismatch } from './schemas';

/**
 * The extension's one logger shape (the api layer, the poller, every service): structural, so VS Code's
 * LogOutputChannel fits, and so does a test's array logger.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  debug(message: string): void;
}

export type ApiKeySource = string | (() => string | undefined | Promise<string | undefined>);

export interface TransportOptions {
  apiKey: ApiKeySource;
  /**
   * Other secrets to keep out of error messages and log lines, read at call time (e.g. the AI gateway key).
   * The API key is always redacted; so is a gateway key sent in a submission.
   */
  secrets?: () => readonly (string | undefined)[] | Promise<readonly (string | undefined)[]>;
  /** Sent as User-Agent, e.g. `multi-agent-tasks-vscode/0.1.0`. */
  userAgent?: string;
  logger?: Logger;
  /** Default per-call timeout, ms. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Timeout of this call, ms: until the whole body is read (JSON) or the headers arrive (streams). */
  timeoutMs?: number;
  /** Overrides the retry policy for this call; `false` = no retry. */
  retry?: Partial<RetryPolicy> | false;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** `METHOD /path/{param}`: names the endpoint in errors and logs. */
  endpoint: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON value, or a stream sent as is (multipart uploads, with their headers in `headers`). */
  body?: unknown;
  /** Safe to send twice. Submissions are not: they are retried only when they never left this machine. */
  idempotent: boolean;
  headers?: Record<string, string>;
  /** Secrets this request carries besides the key (a gateway key in the body): redacted like the key. */
  secrets?: readonly (string | undefined)[];
}

export interface StreamResponse {
  stream: Readable;
  headers: Record<string, string | undefined>;
  status: number;
}

/** What one try of a call knows: the key and secrets read at call time, its abort signal. */
interface Attempt {
  key: string;
  secrets: readonly string[];
  signal: AbortSignal;
  /** The headers are in: the call's timeout stops here for streams. */
  headersArrived: () => void;
}

const MAX_REDIRECTS = 5;
/**
 * How long an idle kept-alive connection waits for the next request: longer than the poll intervals (10 s
 * focused, 30 s in the background), so that polls reuse one connection instead of opening one each. A
 * server that says it closes sooner (`Keep-Alive: timeout=5` from Node) is believed (Node's agent does);
 * one that closes without saying so costs one resend (`staleConnection`).
 */
const FREE_SOCKET_TIMEOUT_MS = 50_000;
/** Requests that change nothing: the only ones a stale connection's resend may repeat. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export class Transport {
  private readonly http = axios.create();
  private readonly policy: RetryPolicy;
  /** The default per-call timeout, ms (the request timeout setting). */
  readonly timeoutMs: number;
  /**
   * Kept-alive connections for loopback addresses (emulator, local gateway): VS Code's proxy support keeps an
   * extension's own agent for `localhost` and `127.0.0.1` and never proxies them. Remote origins use Node's
   * default agents, which VS Code's proxy support replaces with its own (proxy, CONNECT, certificates).
   */
  private readonly loopbackAgents = {
    httpAgent: new http.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS }),
    httpsAgent: new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS }),
  };

  /**
   * `keyOrigins`: the only origins the API key may be sent to (the configured base, platform and engine
   * addresses). Without it, a request's own origin.
   */
  constructor(
    private readonly options: TransportOptions,
    private readonly keyOrigins?: ReadonlySet<string>,
  ) {
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Sends a request and returns its JSON body (at most 16 MiB), without the secrets, validated by `schema`. */
  async json<S extends z.ZodMiniType>(spec: RequestSpec, schema: S, call: CallOptions = {}): Promise<z.infer<S>> {
    const body = await this.withRetry(spec, call, async attempt => {
      const response = await this.send(spec, attempt, false);
      const bytes = await readBody(response.data as Readable, BODY_LIMITS.jsonBytes, `The answer of ${spec.endpoint}`, spec.endpoint);
      // The one redaction of what the server says: every text of the body (a result, a trace, tool events,
      // file names, sources, thread messages) is clean before anyone reads, caches, shows or returns it.
      return redactJson(parseJson(spec, bytes.toString('utf8')), attempt.secrets);
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ResponseFormatError(`Unexpected response from ${spec.endpoint}: ${describeMismatch(parsed.error)}`, {
        endpoint: spec.endpoint,
      });
    }
    return parsed.data;
  }

  /**
   * Sends a request and returns the response body as a stream once the headers are in. The call's timeout
   * covers the wait for headers; bounding the body in size and time is the caller's job (see bodies.ts).
   */
  async stream(spec: RequestSpec, call: CallOptions = {}): Promise<StreamResponse> {
    return this.withRetry(spec, call, async attempt => {
      const response = await this.send(spec, attempt, true);
      attempt.headersArrived();
      return { stream: response.data as Readable, headers: flatHeaders(response.headers), status: response.status };
    });
  }

  /** Every secret a message about this request must not contain, read at call time. */
  async secretsFor(spec: Pick<RequestSpec, 'secrets'> = {}): Promise<string[]> {
    const extra = await Promise.resolve()
      .then(() => this.options.secrets?.())
      .catch(() => undefined);
    const key = await this.apiKey().catch(() => undefined);
    return [key, ...(spec.secrets ?? []), ...(extra ?? [])].filter((s): s is string => typeof s === 'string' && s.length > 0);
  }

  private async withRetry<T>(
    spec: RequestSpec,
    call: CallOptions,
    attempt: (attempt: Attempt) => Promise<T>,
  ): Promise<T> {
    const policy = call.retry === false ? NO_RETRY : { ...this.policy, ...call.retry };
    const key = await this.apiKey();
    const secrets = await this.secretsFor(spec);
    const started = Date.now();
    for (let retry = 0; ; retry++) {
      try {
        return await this.once(spec, call, (signal, headersArrived) => attempt({ key, secrets, signal, headersArrived }));
      } catch (e) {
        const error = redactError(e as ApiError, secrets);
        const delay = retryDelayMs(policy, retry + 1, error);
        const canRetry =
          retry < policy.maxRetries &&
          isRetryable(error, spec.idempotent) &&
          Date.now() - started + delay <= policy.maxTotalMs &&
          !call.signal?.aborted;
        if (!canRetry) throw error;
        this.log('warn', `${spec.endpoint}: ${error.message}; retry ${retry + 1}/${policy.maxRetries} in ${delay} ms`, secrets);
        try {
          await sleep(delay, call.signal);
        } catch {
          throw new AbortedError('The request was canceled', { endpoint: spec.endpoint });
        }
      }
    }
  }

  /** One attempt with its own timeout, linked to the caller's signal. */
  private async once<T>(
    spec: RequestSpec,
    call: CallOptions,
    attempt: (signal: AbortSignal, headersArrived: () => void) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, call.timeoutMs ?? this.timeoutMs);
    const onAbort = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) onAbort();
    else call.signal?.addEventListener('abort', onAbort, { once: true });
    let streaming = false;
    try {
      return await attempt(controller.signal, () => {
        streaming = true;
        clearTimeout(timer);
      });
    } catch (e) {
      throw errorForTransport(e, spec.endpoint, { timedOut, aborted: controller.signal.aborted });
    } finally {
      clearTimeout(timer);
      // A streaming body keeps listening to the caller's signal so that aborting it stops the download.
      if (!streaming) call.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async send(spec: RequestSpec, attempt: Attempt, crossOriginRedirectAllowed: boolean): Promise<AxiosResponse> {
    const { key, secrets, signal } = attempt;
    let url = new URL(spec.url);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      const sameOrigin = url.origin === origin;
      const t0 = Date.now();
      const config: AxiosRequestConfig = {
        method: spec.method,
        url: url.toString(),
        data: hop === 0 ? spec.body : undefined,
        headers: {
          // The key goes only to the configured service's own addresses, never to any other origin (a blob
          // store of the direct upload, a redirect target), whatever the request.
          ...(sameOrigin && (!this.keyOrigins || this.keyOrigins.has(url.origin)) ? { 'x-api-key': key } : {}),
          'User-Agent': this.options.userAgent ?? 'multi-agent-tasks',
          Accept: 'application/json',
          // Without it Node says `Connection: close` whenever the agent in use (VS Code's proxy agent) is not
          // keep-alive, even when the socket comes from a keep-alive pool behind it.
          Connection: 'keep-alive',
          ...spec.headers,
        },
        responseType: 'stream',
        transformResponse: [data => data],
        // Redirects are handled below: the key must never follow one to another origin.
        maxRedirects: 0,
        validateStatus: () => true,
        signal,
        maxBodyLength: Infinity,
        maxContentLength: Infinity,
        // axios's own proxy support would send https requests to an http proxy in plain text, and loopback
        // requests with the key through any proxy. VS Code's proxy support (which patches Node's http and
        // https) proxies remote origins properly.
        proxy: false,
        ...(isLoopbackHost(url.hostname) ? this.loopbackAgents : {}),
      };
      const response = await this.http.request(config).catch((e: unknown) => {
        // The kept-alive connection was closed by the server as this request went out: nothing was read, a
        // safe request (a read) goes once more on a new connection. A keyed submission is not resent here: its
        // one resend is the retry's (issue 25: a stale connection's resend on top made it three sends).
        if (!staleConnection(e) || !spec.idempotent || !SAFE_METHODS.has(spec.method) || isStream(config.data) || signal.aborted) throw e;
        return this.http.request(config);
      });
      // axios destroys this body when `signal` aborts (timeout or caller), also after the headers.
      const body = response.data as Readable;
      // A followed redirect to storage may carry a signed URL: its query is never logged.
      const shown = sameOrigin ? `${url.pathname}${url.search}` : `${url.host}${url.pathname}`;
      this.log('info', `${spec.method} ${shown} → ${response.status} (${Date.now() - t0} ms)`, secrets);
      const status = response.status;
      const location = headerOf(response.headers, 'location');
      if (status >= 300 && status < 400 && location) {
        body.destroy();
        const next = new URL(location, url);
        const cross = next.origin !== origin;
        if (spec.method !== 'GET' || hop >= MAX_REDIRECTS || (cross && !crossOriginRedirectAllowed)) {
          throw new RedirectError(
            cross
              ? `The service redirected ${spec.endpoint} to another origin (${next.host}); it was not followed, so the API key stays private.`
              : `The service redirected ${spec.endpoint} too often or for a ${spec.method} request.`,
            { endpoint: spec.endpoint, status },
          );
        }
        // Downloads may be served from storage on another origin: follow there without the key.
        url = checkedUrl(next.toString(), 'redirect target');
        continue;
      }
      if (status >= 400 || status < 200) {
        // Secrets the server echoed are taken out of the finished error (message and field errors) in withRetry.
        const text = (await readPrefix(body, BODY_LIMITS.errorBytes)).toString('utf8');
        throw errorForStatus(status, tryParse(text), flatHeaders(response.headers), spec.endpoint);
      }
      return response;
    }
  }

  private log(level: 'info' | 'warn', line: string, secrets: readonly string[]): void {
    this.options.logger?.[level](redactSecrets(line, secrets));
  }

  private async apiKey(): Promise<string> {
    const source = this.options.apiKey;
    const key = typeof source === 'function' ? await source() : source;
    if (!key || !key.trim()) throw new AuthenticationError('No API key is set.');
    if (/[\r\n]/.test(key)) throw new AuthenticationError('The API key contains a line break; set it again.');
    return key.trim();
  }
}

/** A request that failed because the kept-alive connection it reused had been closed by the server. */
function staleConnection(error: unknown): boolean {
  const e = error as { code?: unknown; request?: { reusedSocket?: unknown } } | undefined;
  return e?.request?.reusedSocket === true && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
}

function isStream(body: unknown): boolean {
  return typeof (body as { pipe?: unknown } | undefined)?.pipe === 'function';
}

function parseJson(spec: RequestSpec, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseFormatError(`Unexpected response from ${spec.endpoint}: the body is not valid JSON.`, {
      endpoint: spec.endpoint,
    });
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerOf(headers: AxiosResponse['headers'], name: string): string | undefined {
  const value = (headers as Record<string, unknown>)[name];
  return Array.isArray(value) ? String(value[0]) : value === undefined || value === null ? undefined : String(value);
}

function flatHeaders(headers: AxiosResponse['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value === undefined || value === null ? undefined : String(value);
  }
  return out;
}

/** The first `maxBytes` of an error body: enough for its message; the rest is never read. */
async function readPrefix(stream: Readable, maxBytes: number): Promise<Buffer> {
  try {
    return await readBody(stream, maxBytes, 'error body');
  } catch (e) {
    // Too long, or cut short: the status still tells what happened; the message falls back to the status text.
    if (!(e instanceof ResponseTooLargeError)) stream.destroy();
    return Buffer.alloc(0);
  }
}
