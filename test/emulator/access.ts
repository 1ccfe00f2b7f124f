// Who may do what, how often: key states, the key quota (requests per clock hour per key, per month per user),
// the plan's task limit per user, the attachment upload limit, and a test override of all of these.
import type { KeyState, Plan, RateLimit } from './types';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const MONTH_MS = 30 * DAY_MS;

/** Task submissions per user by plan (sliding windows); 'unlimited' has none. */
export const PLAN_TASK_LIMITS: Record<Plan, { limit: number; windowMs: number } | undefined> = {
  free: { limit: 1, windowMs: 7 * DAY_MS },
  pro: { limit: 2, windowMs: HOUR_MS },
  super: { limit: 20, windowMs: HOUR_MS },
  enterprise: { limit: 20, windowMs: HOUR_MS },
  unlimited: undefined,
};

/** Plans that include the paid models. */
export const PAID_PLANS: readonly Plan[] = ['pro', 'super', 'enterprise', 'unlimited'];

/** An answer instead of the route: the auth layer's `{status, detail}` or a problem+json. */
export interface Refusal {
  status: number;
  detail: string;
  shape: 'auth' | 'problem';
  /** Kinder `rateLimitHeaders` only. */
  headers?: Record<string, string>;
}

export const KEY_STATE_REFUSALS: Record<Exclude<KeyState, 'active'>, Refusal> = {
  disabled: { status: 403, detail: 'Account disabled', shape: 'auth' },
  authUnavailable: { status: 503, detail: 'Authentication backend unavailable', shape: 'auth' },
  limiterUnavailable: { status: 503, detail: 'Developer API rate limiter unavailable', shape: 'auth' },
};

export const HOURLY_DETAIL = 'Developer API hourly rate limit exceeded';
export const MONTHLY_DETAIL = 'Developer API monthly quota exceeded';
export const CAPACITY_DETAIL = 'Task execution capacity reached, retry later';
export const PLAN_DETAIL = 'User rate limit exceeded';
export const UPLOAD_DETAIL = 'Attachment upload rate limit exceeded';

/** Keeps the timestamps inside the window; true (and counted) when another one fits. */
function slide(list: number[], now: number, limit: number, windowMs: number): boolean {
  while (list.length > 0 && list[0] <= now - windowMs) {
    list.shift();
  }
  if (list.length >= limit) {
    return false;
  }
  list.push(now);
  return true;
}

export interface QuotaSubject {
  key: string;
  userId: number;
  hourlyLimit: number;
  monthlyQuota: number;
}

export class Access {
  readonly keyStates = new Map<string, KeyState>();
  readonly userPlans = new Map<number, Plan>();
  /** Test override of the key quota (see RateLimit). */
  override: RateLimit | undefined;
  private readonly hourly = new Map<string, { windowStart: number; count: number }>();
  private readonly sliding = new Map<string, number[]>();
  private readonly monthly = new Map<number, { periodEnd: number; used: number }>();
  private readonly taskRuns = new Map<number, number[]>();
  private readonly uploads = new Map<number, number[]>();
  private capacityRuns: number[] = [];

  constructor(public defaultPlan: Plan) {}

  planOf(userId: number): Plan {
    return this.userPlans.get(userId) ?? this.defaultPlan;
  }

  keyState(key: string): KeyState {
    return this.keyStates.get(key) ?? 'active';
  }

  /** When the clock hour of `now` ends (the hourly window's reset). */
  static hourEnd(now: number): number {
    return Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  }

  /**
   * The key quota of an authenticated request: a refused request uses none of it. `headers` adds the kinder
   * Retry-After / X-RateLimit-* to refusals and successes alike.
   */
  consume(s: QuotaSubject, now: number, headers: boolean): { refusal?: Refusal; headers: Record<string, string> } {
    const o = this.override;
    const hourlyLimit = o && (o.reason ?? 'hourly') === 'hourly' ? o.limit : s.hourlyLimit;
    const monthlyQuota = o && o.reason === 'monthly' ? o.limit : s.monthlyQuota;

    const month = this.monthly.get(s.userId);
    const period = month && now <= month.periodEnd ? month : { periodEnd: now + MONTH_MS, used: 0 };
    const slidingWindow = o && (o.reason ?? 'hourly') === 'hourly' ? o.windowMs : undefined;
    let reset: number;
    let remaining: number;
    let hourlyOk: boolean;
    if (slidingWindow !== undefined) {
      const list = (this.sliding.get(s.key) ?? []).filter((t) => t > now - slidingWindow);
      this.sliding.set(s.key, list);
      hourlyOk = list.length < hourlyLimit;
      reset = (list[0] ?? now) + slidingWindow;
      remaining = Math.max(0, hourlyLimit - list.length - (hourlyOk ? 1 : 0));
    } else {
      const start = Access.hourEnd(now) - HOUR_MS;
      const current = this.hourly.get(s.key);
      const count = current && current.windowStart === start ? current.count : 0;
      hourlyOk = count < hourlyLimit;
      reset = start + HOUR_MS;
      remaining = Math.max(0, hourlyLimit - count - (hourlyOk ? 1 : 0));
    }
    const extra: Record<string, string> = headers
      ? { 'x-ratelimit-limit': String(hourlyLimit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(Math.ceil(reset / 1000)) }
      : {};
    const refuse = (detail: string): { refusal: Refusal; headers: Record<string, string> } => ({
      refusal: {
        status: 429,
        detail,
        shape: 'auth',
        headers: headers ? { ...extra, 'retry-after': String(Math.max(1, Math.ceil((reset - now) / 1000))) } : {},
      },
      headers: extra,
    });
    if (period.used >= monthlyQuota) {
      return refuse(MONTHLY_DETAIL);
    }
    if (!hourlyOk) {
      return refuse(HOURLY_DETAIL);
    }
    period.used++;
    this.monthly.set(s.userId, period);
    if (slidingWindow !== undefined) {
      this.sliding.get(s.key)?.push(now);
    } else {
      const start = reset - HOUR_MS;
      const current = this.hourly.get(s.key);
      this.hourly.set(s.key, { windowStart: start, count: (current && current.windowStart === start ? current.count : 0) + 1 });
    }
    return { headers: extra };
  }

  /** Requests of this key counted in the current clock hour, and when that hour ends. */
  hourlyUse(key: string, now: number): { count: number; resetsAt: number } {
    const end = Access.hourEnd(now);
    const current = this.hourly.get(key);
    return { count: current && current.windowStart === end - HOUR_MS ? current.count : 0, resetsAt: end };
  }

  /** The plan's task limit at a submission (/run, thread runs, engine run); a refused one uses none. */
  submitTask(userId: number, now: number): Refusal | undefined {
    const rule = PLAN_TASK_LIMITS[this.planOf(userId)];
    if (!rule) {
      return undefined;
    }
    const list = this.taskRuns.get(userId) ?? [];
    this.taskRuns.set(userId, list);
    return slide(list, now, rule.limit, rule.windowMs) ? undefined : { status: 429, detail: PLAN_DETAIL, shape: 'problem' };
  }

  /** Submissions counted against the plan limit right now, and when the oldest leaves the window. */
  taskWindow(userId: number, now: number): { used: number; limit?: number; freesAt?: number } {
    const rule = PLAN_TASK_LIMITS[this.planOf(userId)];
    if (!rule) {
      return { used: 0 };
    }
    const list = (this.taskRuns.get(userId) ?? []).filter((t) => t > now - rule.windowMs);
    return { used: list.length, limit: rule.limit, freesAt: list.length > 0 ? list[0] + rule.windowMs : undefined };
  }

  /** The override's execution capacity, checked when a task is about to start. */
  capacity(now: number): Refusal | undefined {
    const o = this.override;
    if (!o || o.reason !== 'capacity') {
      return undefined;
    }
    const window = o.windowMs ?? HOUR_MS;
    return slide(this.capacityRuns, now, o.limit, window) ? undefined : { status: 429, detail: CAPACITY_DETAIL, shape: 'problem' };
  }

  /** Fresh windows for a new override (the plan's task limit is kept). */
  resetCounters(): void {
    this.hourly.clear();
    this.sliding.clear();
    this.monthly.clear();
    this.capacityRuns = [];
  }

  /** Attachment uploads per user per minute (0 = unlimited). */
  upload(userId: number, now: number, perMinute: number): Refusal | undefined {
    if (perMinute <= 0) {
      return undefined;
    }
    const list = this.uploads.get(userId) ?? [];
    this.uploads.set(userId, list);
    return slide(list, now, perMinute, MINUTE_MS) ? undefined : { status: 429, detail: UPLOAD_DETAIL, shape: 'problem' };
  }
}
