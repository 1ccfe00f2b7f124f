/**
 * The one place that talks HTTP: adds the key and User-Agent, enforces the per-call timeout and abort
 * signal, follows redirects only where the key stays private, retries by the policy, maps every failure
 * to the typed error family and validates every body against its schema.
 */
import axios, { type AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import type * as z from 'zod/mini';
import { checkedUrl } from './addresses';
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  RedirectError,
  ResponseFormatError,
  errorForStatus,
  errorForTransport,
} from './errors';
import { DEFAULT_RETRY, NO_RETRY, type RetryPolicy, isRetryable, retryDelayMs, sleep } from './retry';
import { describeMismatch } from './schemas';

/** Structural: VS Code's LogOutputChannel fits, and so does a test's array logger. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug?(message: string): void;
}

export type ApiKeySource = string | (() => string | undefined | Promise<string | undefined>);

export interface TransportOptions {
  apiKey: ApiKeySource;
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
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** `METHOD /path/{param}`: names the endpoint in errors and logs. */
  endpoint: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON value, or a stream sent as is (multipart uploads, with their headers in `headers`). */
  body?: unknown;
  /** Safe to send twice. Submissions are not: they are retried only when they never left this machine. */
  idempotent: boolean;
  headers?: Record<string, string>;
}

export interface StreamResponse {
  stream: Readable;
  headers: Record<string, string | undefined>;
  status: number;
}

const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export class Transport {
  private readonly http = axios.create();
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;

  constructor(private readonly options: TransportOptions) {
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Sends a request and returns its JSON body, validated by `schema`. */
  async json<S extends z.ZodMiniType>(spec: RequestSpec, schema: S, call: CallOptions = {}): Promise<z.infer<S>> {
    const body = await this.withRetry(spec, call, async signal => {
      const response = await this.send(spec, 'text', signal, false);
      return parseJson(spec, response.data as string);
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ResponseFormatError(`Unexpected response from ${spec.endpoint}: ${describeMismatch(parsed.error)}`, {
        endpoint: spec.endpoint,
      });
    }
    return parsed.data;
  }

  /** Sends a request and returns the response body as a stream once the headers are in. */
  async stream(spec: RequestSpec, call: CallOptions = {}): Promise<StreamResponse> {
    return this.withRetry(spec, call, async (signal, done) => {
      const response = await this.send(spec, 'stream', signal, true);
      done(); // the timeout covers the wait for headers; the body may flow for as long as it needs
      return { stream: response.data as Readable, headers: flatHeaders(response.headers), status: response.status };
    });
  }

  private async withRetry<T>(
    spec: RequestSpec,
    call: CallOptions,
    attempt: (signal: AbortSignal, headersArrived: () => void) => Promise<T>,
  ): Promise<T> {
    const policy = call.retry === false ? NO_RETRY : { ...this.policy, ...call.retry };
    const started = Date.now();
    for (let retry = 0; ; retry++) {
      try {
        return await this.once(spec, call, attempt);
      } catch (e) {
        const error = e as ApiError;
        const delay = retryDelayMs(policy, retry + 1, error);
        const canRetry =
          retry < policy.maxRetries &&
          isRetryable(error, spec.idempotent) &&
          Date.now() - started + delay <= policy.maxTotalMs &&
          !call.signal?.aborted;
        if (!canRetry) throw error;
        this.options.logger?.warn(
          `${spec.endpoint}: ${error.message}; retry ${retry + 1}/${policy.maxRetries} in ${delay} ms`,
        );
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

  private async send(
    spec: RequestSpec,
    responseType: 'text' | 'stream',
    signal: AbortSignal,
    crossOriginRedirectAllowed: boolean,
  ): Promise<AxiosResponse> {
    const key = await this.apiKey();
    let url = new URL(spec.url);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      const sameOrigin = url.origin === origin;
      const t0 = Date.now();
      const response = await this.http.request({
        method: spec.method,
        url: url.toString(),
        data: hop === 0 ? spec.body : undefined,
        headers: {
          ...(sameOrigin ? { 'x-api-key': key } : {}),
          'User-Agent': this.options.userAgent ?? 'multi-agent-tasks',
          Accept: responseType === 'stream' ? '*/*' : 'application/json',
          ...spec.headers,
        },
        responseType,
        transformResponse: [data => data],
        // Redirects are handled below: the key must never follow one to another origin.
        maxRedirects: 0,
        validateStatus: () => true,
        signal,
        maxBodyLength: Infinity,
        maxContentLength: Infinity,
      });
      this.options.logger?.info(`${spec.method} ${url.pathname}${url.search} → ${response.status} (${Date.now() - t0} ms)`);
      const status = response.status;
      const location = headerOf(response.headers, 'location');
      if (status >= 300 && status < 400 && location) {
        discard(response, responseType);
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
        const text = responseType === 'stream' ? await readCapped(response.data as Readable) : String(response.data ?? '');
        throw errorForStatus(status, tryParse(text), flatHeaders(response.headers), spec.endpoint);
      }
      return response;
    }
  }

  private async apiKey(): Promise<string> {
    const source = this.options.apiKey;
    const key = typeof source === 'function' ? await source() : source;
    if (!key || !key.trim()) throw new AuthenticationError('No API key is set.');
    if (/[\r\n]/.test(key)) throw new AuthenticationError('The API key contains a line break; set it again.');
    return key.trim();
  }
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

function discard(response: AxiosResponse, responseType: 'text' | 'stream'): void {
  if (responseType === 'stream') (response.data as Readable).resume();
}

async function readCapped(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buf.length;
      if (size > MAX_ERROR_BODY_BYTES) break;
      chunks.push(buf);
    }
  } catch {
    // A body cut short still tells us the status; the message falls back to the status text.
  }
  stream.destroy();
  return Buffer.concat(chunks).toString('utf8');
}
