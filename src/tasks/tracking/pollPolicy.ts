/**
 * The scheduling policy as pure functions of a task's schedule, the settings and the time: when to ask
 * about a task next, how long a 429 pauses everything, how tasks come back after a pause, how soon a
 * dropped stream is tried again. No timers and no I/O: unit tests call it with plain numbers.
 */
import { type ObservedState, type TrackedTask, agentsOf, isAgentDone, isAwaitingApproval } from '../model';
import { isLastingScope } from '../../api/conditions';
import type { PollerSettings, RateLimitScope, TaskSchedule } from './pollTypes';

/** Consecutive 404s before a task is given up: one may be a glitch, three over time are not. */
export const NOT_FOUND_LIMIT = 3;
/** Consecutive answers of the same lasting kind (403, 400/422, a malformed body) before a task is given up. */
export const LASTING_ERROR_LIMIT = 5;
/** A task waiting for a human to approve in the web console is asked about this often (focused), ms. */
export const APPROVAL_POLL_MS = 30_000;
/**
 * A 429 without Retry-After: back off from half a second, as the official SDK does (0.5-8 s), doubling. A
 * refused request uses no quota, and "capacity reached" clears in moments.
 */
const RATE_LIMIT_FIRST_MS = 500;
/** Backoff ceilings: capacity clears in seconds; an hourly limit may need minutes. */
const RATE_LIMIT_MAX_MS: Record<RateLimitScope, number> = { hourly: 10 * 60_000, capacity: 60_000, attachments: 60_000, unknown: 60_000, monthly: 0, plan: 0 };
/** A monthly quota (or the plan's limit) does not come back by waiting minutes: stop asking for an hour (a new key resumes at once). */
export const MONTHLY_QUOTA_PAUSE_MS = 60 * 60_000;
/** The shortest pause after a 429, ms. */
const MIN_RATE_LIMIT_PAUSE_MS = 250;
/** A dropped stream is tried again after 1 s, doubling per failure in a row, at most this long, ms. */
const STREAM_RETRY_MAX_MS = 60_000;
/**
 * The live service's agents finish one by one over the last part of a run, and the last agent's finish is
 * the completion: with k of n agents done, the run is at least FINISH_PHASE_START + (1 - it) * k / n through.
 * Only a lower bound on the run's length is taken from this, so a service whose agents finish earlier costs
 * a few extra polls, never a late result.
 */
const FINISH_PHASE_START = 0.7;
/** Before any agent has finished, the next poll comes this share of the elapsed time later (geometric). */
const WORKING_GROWTH = 0.5;
/** Before any agent has finished, a poll comes at most this many shortest intervals after the earliest possible end. */
const OVERSHOOT_INTERVALS = 2;
/** With nothing to read (one agent, or no agent statuses), the interval grows more slowly and stops at 3 x the shortest. */
const BLIND_GROWTH = 0.5;
const BLIND_CEILING_FACTOR = 3;

/** Which limit a 429 hit, from the service's words: the api layer's one rule. */
export { rateLimitScope } from '../../api/conditions';

/**
 * The pause after a 429 that did not say how long (no Retry-After): half a second, doubling per 429 in a
 * row (`streak` before this one), of which the jitter (`random` in 0..1) takes off up to half, so that
 * windows do not come back in step and no pause is longer than its step.
 */
export function rateLimitBackoff(scope: RateLimitScope, streak: number, random: number): number {
  if (isLastingScope(scope)) return MONTHLY_QUOTA_PAUSE_MS;
  const base = Math.min(RATE_LIMIT_MAX_MS[scope], RATE_LIMIT_FIRST_MS * 2 ** streak);
  return Math.round(base * (0.5 + 0.5 * random));
}

/** How often a task paused for approval is asked about, ms. */
export function approvalInterval(settings: PollerSettings, focused: boolean): number {
  return Math.max(APPROVAL_POLL_MS, settings.minIntervalMs, focused ? 0 : settings.unfocusedIntervalMs);
}

/** The schedule of a task seen for the first time: first asked about `firstPollMs` after its submission. */
export function firstSchedule(task: TrackedTask, settings: PollerSettings, now: number): TaskSchedule {
  const first = Math.max(settings.minIntervalMs, settings.firstPollMs ?? 0);
  const awaiting = isAwaitingApproval(task);
  return {
    nextAt: awaiting ? now : Math.max(now, task.submittedAt + first),
    intervalMs: first,
    originAt: task.submittedAt,
    lowRunMs: 0,
    awaiting,
    failures: 0,
    notFound: 0,
    lasting: 0,
    inFlight: false,
    streamFailures: 0,
    streamRetryAt: 0,
  };
}

type Stretch = Pick<TaskSchedule, 'awaiting' | 'originAt' | 'lowRunMs'>;

/** A task that was paused for approval and runs again starts a new working stretch: normal pace again. */
export function workingStretch(s: Stretch, state: ObservedState, now: number): Stretch {
  const awaiting = isAwaitingApproval(state);
  return s.awaiting && !awaiting ? { awaiting, originAt: now, lowRunMs: 0 } : { awaiting, originAt: s.originAt, lowRunMs: s.lowRunMs };
}

/** The share of a run after which `done` of `agents` have finished (1 once all have). */
function finishedShare(done: number, agents: number): number {
  return done >= agents ? 1 : FINISH_PHASE_START + ((1 - FINISH_PHASE_START) * done) / agents;
}

/**
 * The interval before the next poll after a processing answer, and the stretch's new lower bound. Progress
 * values do not tell time (0.5 while working), but agents finishing do: before the first agent is done the
 * interval grows with the elapsed time; once agents finish, each answer bounds the run's length from below
 * (see FINISH_PHASE_START) and the next poll comes at the earliest moment the task can be complete, then at
 * the shortest interval. Every poll counts against the user's hourly rate limit.
 */
export function nextInterval(
  s: Pick<TaskSchedule, 'originAt' | 'lowRunMs'>,
  state: ObservedState,
  settings: PollerSettings,
  focused: boolean,
  now: number,
): { intervalMs: number; lowRunMs: number } {
  const { minIntervalMs: min, maxIntervalMs: max } = settings;
  const keep = (intervalMs: number) => ({ intervalMs, lowRunMs: s.lowRunMs });
  if (isAwaitingApproval(state)) return keep(approvalInterval(settings, focused));
  if (!focused) return keep(Math.max(min, settings.unfocusedIntervalMs));
  const elapsed = Math.max(0, now - s.originAt);
  const clamp = (ms: number, ceiling = max) => Math.round(Math.max(min, Math.min(ceiling, ms)));
  const agents = agentsOf(state) ?? [];
  if (agents.length < 2) {
    // One agent's finish is the completion itself: nothing to read, so stay closer.
    return keep(clamp(elapsed * BLIND_GROWTH, Math.max(min, Math.min(max, min * BLIND_CEILING_FACTOR))));
  }
  // The live service writes COMPLETED / FAILED (agentsOf() makes one word of them); progress 1 says the same.
  const done = agents.filter(isAgentDone).length;
  // The next agent has not finished yet, so the run is longer than this.
  const lowRunMs = Math.max(s.lowRunMs, elapsed / finishedShare(done + 1, agents.length));
  // Growing by half the elapsed time may jump far past the earliest possible end (runs of 15-45 s): never
  // more than OVERSHOOT_INTERVALS shortest intervals past it.
  if (done === 0) return { intervalMs: clamp(Math.min(elapsed * WORKING_GROWTH, s.originAt + lowRunMs - now + OVERSHOOT_INTERVALS * min)), lowRunMs };
  return { intervalMs: clamp(s.originAt + lowRunMs - now), lowRunMs };
}

/** After a failed status read (connection trouble, 5xx, timeouts): double from the shortest interval, to a ceiling. */
export function errorBackoff(failures: number, settings: PollerSettings): number {
  const ceiling = Math.max(settings.maxIntervalMs, settings.minIntervalMs * 4);
  return Math.min(ceiling, settings.minIntervalMs * 2 ** failures);
}

/** A stream dropped `failures` times in a row is tried again after this long, ms. */
export function streamRetryDelay(failures: number): number {
  return Math.min(STREAM_RETRY_MAX_MS, 1000 * 2 ** (failures - 1));
}

/**
 * One pause for every task after a 429, and the slots the tasks come back in: spread out by the shortest
 * interval over the in-flight limit, so the end of a pause is not a burst. Holds times and a count, no clock.
 */
export class RateLimitPause {
  private until = 0;
  private nextSlot = 0;
  /** Consecutive 429s without a success between them, for the backoff. */
  private streak = 0;

  /** Nothing is sent before this time, ms since epoch (0: no pause). */
  get pausedUntil(): number {
    return this.until;
  }

  isPaused(now: number): boolean {
    return this.until > now;
  }

  /**
   * A 429 at `now`: pauses for the server's Retry-After, or else for the backoff of its scope (`random` in
   * 0..1 for the jitter), never shorter than MIN_RATE_LIMIT_PAUSE_MS nor shorter than a pause already running.
   */
  limited(scope: RateLimitScope, retryAfterMs: number | undefined, now: number, random: () => number): { waitMs: number } {
    const waitMs = retryAfterMs ?? rateLimitBackoff(scope, this.streak, random());
    this.streak++;
    this.until = Math.max(this.until, now + Math.max(waitMs, MIN_RATE_LIMIT_PAUSE_MS));
    this.nextSlot = this.until;
    return { waitMs };
  }

  /** A read went through: the next 429 backs off from the start again. */
  succeeded(): void {
    this.streak = 0;
  }

  /** A new key has its own limit: the pause ends now. */
  reset(): void {
    this.until = 0;
    this.streak = 0;
  }

  /** `at` if it is outside the pause; otherwise the next free slot after the pause. */
  slot(at: number, now: number, settings: PollerSettings): number {
    if (at >= this.nextSlot || this.until <= now) return at;
    const slot = Math.max(this.nextSlot, this.until);
    this.nextSlot = slot + settings.minIntervalMs / Math.max(1, settings.maxInFlight);
    return slot;
  }
}
