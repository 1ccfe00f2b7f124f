/**
 * The service's own words for its conditions, read into codes: which limit a 429 hit, and the refusals
 * that a status alone does not tell apart (a disabled account and a wrong key are both "not allowed").
 * Read from the verbatim texts of the service, with looser patterns after them for older wordings.
 * No dependencies: the upper floors word these conditions without loading the api bundle.
 */

/**
 * Which limit a 429 hit. The service's 429s carry no headers that say, only their text:
 * - `plan`: the plan's task limit ("User rate limit exceeded", on `/run` and thread runs): 1 task per
 *   7 days on the free plan, a number per clock hour (UTC) on Pro and Super. Retrying in seconds cannot help.
 * - `hourly`: the key's hourly request limit, reset at the full hour (UTC).
 * - `monthly`: the key's monthly quota.
 * - `capacity`: the service is busy; retry later.
 * - `attachments`: 30 attachment uploads a minute.
 */
export type RateLimitScope = 'plan' | 'hourly' | 'monthly' | 'capacity' | 'attachments' | 'unknown';

const VERBATIM_SCOPES: Readonly<Record<string, RateLimitScope>> = {
  'user rate limit exceeded': 'plan',
  'developer api hourly rate limit exceeded': 'hourly',
  'developer api monthly quota exceeded': 'monthly',
  'task execution capacity reached, retry later': 'capacity',
  'attachment upload rate limit exceeded': 'attachments',
};

/** The scope of a 429 from its text. */
export function rateLimitScope(message: string): RateLimitScope {
  const text = message.trim().replace(/\.$/, '').toLowerCase();
  const verbatim = VERBATIM_SCOPES[text];
  if (verbatim) return verbatim;
  if (/\buser rate limit\b/.test(text)) return 'plan';
  if (/attachment/.test(text)) return 'attachments';
  if (/month|quota/.test(text)) return 'monthly';
  if (/hour/.test(text)) return 'hourly';
  if (/capacity|retry later|overloaded/.test(text)) return 'capacity';
  return 'unknown';
}

/** Scopes that waiting seconds or minutes does not lift: such a 429 is never retried. */
export function isLastingScope(scope: RateLimitScope): boolean {
  return scope === 'plan' || scope === 'monthly';
}

/** A refusal the status alone does not name. */
export type ServiceCondition =
  /** 403 "Account disabled": the key is known, its account is not allowed to run. Not a wrong key. */
  | { condition: 'accountDisabled' }
  /** 403 `model "…" requires a Pro or Super subscription`. */
  | { condition: 'modelNeedsPlan'; model?: string }
  /** 403 "Storage quota exceeded" (`POST /files`, `upload-token`). */
  | { condition: 'storageQuota' }
  /** 503 "Authentication backend unavailable" / "Developer API rate limiter unavailable": transient, not the key. */
  | { condition: 'authUnavailable' }
  /** A 429, with its scope. */
  | { condition: 'rateLimit'; scope: RateLimitScope };

/** The condition behind an error of this kind (the api layer's `kind`) and text, if it is one of the above. */
export function serviceCondition(kind: string | undefined, message: string): ServiceCondition | undefined {
  switch (kind) {
    case 'rateLimit':
      return { condition: 'rateLimit', scope: rateLimitScope(message) };
    case 'permission': {
      if (/^\s*account disabled\b/i.test(message)) return { condition: 'accountDisabled' };
      if (/storage quota exceeded/i.test(message)) return { condition: 'storageQuota' };
      const model = /model\s+"([^"]{0,200})"\s+requires a pro or super subscription/i.exec(message);
      if (model || /requires a pro or super subscription/i.test(message)) return { condition: 'modelNeedsPlan', model: model?.[1] };
      return undefined;
    }
    case 'server':
      return /authentication backend unavailable|rate limiter unavailable/i.test(message) ? { condition: 'authUnavailable' } : undefined;
    default:
      return undefined;
  }
}

/** The next full hour in UTC after `now` (ms since epoch): when an hourly window of the service ends. */
export function nextUtcHour(now = Date.now()): number {
  const hour = 60 * 60_000;
  return Math.floor(now / hour) * hour + hour;
}

/**
 * An engine run's budget ran out: the service's words for a refused call (`Organization USD budget exceeded`,
 * inside an agent's `Error: OrchestrationError[agent-3]: …` or the task's error when every agent was refused).
 */
export function isBudgetExceeded(text: string | undefined | null): boolean {
  return typeof text === 'string' && /\bbudget exceeded\b/i.test(text.slice(0, 4000));
}
