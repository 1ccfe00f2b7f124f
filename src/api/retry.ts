/**
 * When and how long to wait before trying a call again. Reads are retried on 408, 429 (not the plan's task
 * limit nor the monthly quota, which waiting seconds cannot lift), 5xx and connection errors; a submission only when it certainly never reached the server, because a
 * duplicate task costs the user money.
 */
import { ApiError, ConnectionError, RateLimitError, ServerError, TimeoutError } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step, ms; doubles each retry. */
  baseDelayMs: number;
  /** Largest backoff step, ms (a longer Retry-After is still honoured within `maxTotalMs`). */
  maxDelayMs: number;
  /** Give up when the next wait would end later than this after the first attempt, ms. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000, maxTotalMs: 30_000 };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxTotalMs: 0 };

/** Whether `error` may be retried for a call that is (`idempotent`) or is not safe to repeat. */
export function isRetryable(error: ApiError, idempotent: boolean): boolean {
  if (error instanceof ConnectionError) return idempotent || error.notSent;
  if (!idempotent) return false;
  return (error instanceof RateLimitError && error.transient) || error instanceof ServerError || (error instanceof TimeoutError && error.status === 408);
}

/**
 * Wait before retry number `attempt` (1-based): the server's Retry-After when given, otherwise
 * exponential backoff with jitter (half fixed, half random, so clients that failed together spread out).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: ApiError, random = Math.random): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
