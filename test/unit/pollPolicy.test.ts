/**
 * The scheduling policy on its own: pure functions and two small stateful helpers, driven with plain
 * numbers and a fake clock, without a poller, a service or a store.
 */
import * as assert from 'node:assert/strict';
import type { ObservedState, TrackedTask } from '../../src/tasks/model';
import {
  APPROVAL_POLL_MS,
  MONTHLY_QUOTA_PAUSE_MS,
  RateLimitPause,
  approvalInterval,
  errorBackoff,
  firstSchedule,
  nextInterval,
  rateLimitBackoff,
  streamRetryDelay,
  workingStretch,
} from '../../src/tasks/tracking/pollPolicy';
import { EarliestTimer, type PollerSettings } from '../../src/tasks/tracking/pollTypes';
import { FakeClock } from './fakeClock';

const SETTINGS: PollerSettings = { minIntervalMs: 1000, firstPollMs: 3000, maxIntervalMs: 10_000, unfocusedIntervalMs: 30_000, maxInFlight: 4, useStream: false, maxStreams: 0 };
const T0 = 1_000_000;

function task(extra: Partial<TrackedTask> = {}): TrackedTask {
  return { id: 't', title: 't', instruction: 't', promptChars: 1, submittedAt: T0, updatedAt: T0, status: 'processing', ...extra };
}

/** n agents of which `done` have finished (the others working at 0.5). */
function agents(n: number, done: number): ObservedState {
  return { status: 'processing', agentStatuses: Array.from({ length: n }, (_, i) => ({ agent_id: i + 1, progress: i < done ? 1 : 0.5 })) };
}

describe('poll policy', () => {
  it('a new task is first asked about firstPollMs after its submission; one awaiting approval at once', () => {
    assert.equal(firstSchedule(task(), SETTINGS, T0 + 500).nextAt, T0 + 3000);
    assert.equal(firstSchedule(task(), SETTINGS, T0 + 9000).nextAt, T0 + 9000, 'never in the past');
    assert.equal(firstSchedule(task({ status: 'awaiting_approval' }), SETTINGS, T0 + 500).nextAt, T0 + 500);
    assert.equal(firstSchedule(task(), { ...SETTINGS, firstPollMs: 100 }, T0).nextAt, T0 + 1000, 'not sooner than the shortest interval');
  });

  it('before any agent finishes, the interval grows with the elapsed time, between the shortest and the longest', () => {
    const s = { originAt: T0, lowRunMs: 0 };
    const at = (elapsed: number) => nextInterval(s, agents(4, 0), SETTINGS, true, T0 + elapsed).intervalMs;
    assert.equal(at(1000), 1000);
    assert.equal(at(6000), 3000);
    assert.equal(at(60_000), 10_000);
  });

  it('before any agent finishes, a poll comes at most two shortest intervals after the earliest possible end', () => {
    // After 15.2 s with no agent done the run is > 15.2 / 0.775 = 19.6 s: growing by half (7.6 s) would ask
    // at 22.8 s, up to 3 s after a 20 s run ended; the cap asks at 21.6 s.
    const s = { originAt: T0, lowRunMs: 0 };
    const next = nextInterval(s, agents(4, 0), SETTINGS, true, T0 + 15_200);
    assert.equal(next.intervalMs, Math.round(15_200 / 0.775 - 15_200 + 2 * SETTINGS.minIntervalMs));
    assert.equal(nextInterval(s, agents(4, 0), SETTINGS, true, T0 + 6000).intervalMs, 3000, 'early on, growth is the smaller step');
  });

  it('once agents finish, the next poll is the earliest moment the run can be complete, and the bound only grows', () => {
    const s = { originAt: T0, lowRunMs: 0 };
    // 2 of 4 done after 51 s: the third finishes at 0.925 of the run at the earliest, so the run is > 51 / 0.925 s.
    const first = nextInterval(s, agents(4, 2), SETTINGS, true, T0 + 51_000);
    assert.equal(first.lowRunMs, 51_000 / 0.925);
    assert.equal(first.intervalMs, Math.round(51_000 / 0.925 - 51_000));
    // 3 of 4 done: the run may end any moment; the shortest interval.
    const next = nextInterval({ ...s, lowRunMs: first.lowRunMs }, agents(4, 3), SETTINGS, true, T0 + 56_000);
    assert.equal(next.intervalMs, 1000);
    assert.ok(next.lowRunMs >= first.lowRunMs);
    const earlier = nextInterval({ originAt: T0, lowRunMs: 90_000 }, agents(4, 1), SETTINGS, true, T0 + 50_000);
    assert.equal(earlier.lowRunMs, 90_000, 'an answer never lowers the bound');
  });

  it('with nothing to read (one agent, no statuses) the interval stays within three shortest intervals', () => {
    const s = { originAt: T0, lowRunMs: 0 };
    assert.equal(nextInterval(s, { status: 'processing' }, SETTINGS, true, T0 + 60_000).intervalMs, 3000);
    assert.equal(nextInterval(s, { status: 'processing', agentStatuses: [] }, SETTINGS, true, T0 + 60_000).intervalMs, 3000);
    assert.equal(nextInterval(s, agents(1, 0), SETTINGS, true, T0 + 2000).intervalMs, 1000);
  });

  it('in the background and while awaiting approval the task is asked about slowly', () => {
    const s = { originAt: T0, lowRunMs: 0 };
    assert.equal(nextInterval(s, agents(4, 3), SETTINGS, false, T0 + 60_000).intervalMs, 30_000);
    assert.equal(nextInterval(s, { status: 'awaiting_approval' }, SETTINGS, true, T0).intervalMs, APPROVAL_POLL_MS);
    assert.equal(approvalInterval(SETTINGS, false), 30_000);
    assert.equal(approvalInterval({ ...SETTINGS, unfocusedIntervalMs: 120_000 }, false), 120_000);
  });

  it('a task that runs again after approval starts a new working stretch', () => {
    const paused = workingStretch({ awaiting: false, originAt: T0, lowRunMs: 5000 }, { status: 'awaiting_approval' }, T0 + 10_000);
    assert.deepEqual(paused, { awaiting: true, originAt: T0, lowRunMs: 5000 });
    assert.deepEqual(workingStretch(paused, { status: 'processing' }, T0 + 70_000), { awaiting: false, originAt: T0 + 70_000, lowRunMs: 0 });
  });

  it('failed reads back off from the shortest interval, doubling, to a ceiling', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 9].map(f => errorBackoff(f, SETTINGS)), [2000, 4000, 8000, 10_000, 10_000, 10_000]);
    assert.equal(errorBackoff(9, { ...SETTINGS, maxIntervalMs: 1000 }), 4000, 'at least four shortest intervals');
    assert.deepEqual([1, 2, 3, 7, 20].map(streamRetryDelay), [1000, 2000, 4000, 60_000, 60_000]);
  });

  it('a 429 without Retry-After backs off by scope, doubling, with bounded jitter', () => {
    assert.deepEqual([0, 1, 2].map(streak => rateLimitBackoff('capacity', streak, 1)), [500, 1000, 2000], 'as the official SDK: from half a second');
    assert.equal(rateLimitBackoff('capacity', 20, 1), 60_000);
    assert.equal(rateLimitBackoff('hourly', 20, 1), 10 * 60_000);
    assert.equal(rateLimitBackoff('monthly', 0, 0.5), MONTHLY_QUOTA_PAUSE_MS);
    assert.equal(rateLimitBackoff('capacity', 0, 0), 250, 'the jitter takes off at most half');
    assert.equal(rateLimitBackoff('capacity', 0, 0.5), 375);
  });

  it('one pause for every task: never shortened, tasks come back in spaced slots, a new key ends it', () => {
    const pause = new RateLimitPause();
    const random = () => 0.5;
    assert.equal(pause.slot(T0, T0, SETTINGS), T0, 'no pause, no change');
    pause.limited('capacity', 10_000, T0, random);
    assert.equal(pause.pausedUntil, T0 + 10_000);
    pause.limited('capacity', 2_000, T0 + 1000, random);
    assert.equal(pause.pausedUntil, T0 + 10_000, 'a shorter pause does not shorten a running one');
    const slots = [0, 1, 2, 3].map(() => pause.slot(T0 + 500, T0 + 1000, SETTINGS));
    assert.deepEqual(slots, [T0 + 10_000, T0 + 10_250, T0 + 10_500, T0 + 10_750], 'a quarter of the shortest interval apart (4 in flight)');
    assert.equal(pause.slot(T0 + 20_000, T0 + 1000, SETTINGS), T0 + 20_000, 'times after the pause are kept');
    assert.ok(pause.isPaused(T0 + 9_999) && !pause.isPaused(T0 + 10_000));
    pause.reset();
    assert.ok(!pause.isPaused(T0 + 1000));
  });

  it('the backoff grows with 429s in a row and starts again after a success', () => {
    const pause = new RateLimitPause();
    const waits = [0, 1, 2].map(i => pause.limited('capacity', undefined, T0 + i * 100_000, () => 1).waitMs);
    assert.deepEqual(waits, [500, 1000, 2000]);
    pause.succeeded();
    assert.equal(pause.limited('capacity', undefined, T0 + 500_000, () => 1).waitMs, 500);
    assert.equal(pause.limited('capacity', 0, T0 + 600_000, () => 0.5).waitMs, 0);
    assert.equal(pause.pausedUntil, T0 + 600_000 + 250, 'at least a quarter second');
  });

  it('the timer keeps the earliest time asked for, and a far date does not fire at once', async () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    const timer = new EarliestTimer(clock, () => fired.push(clock.now()));
    const start = clock.now();
    timer.arm(5000);
    timer.arm(8000);
    timer.arm(2000);
    assert.equal(clock.pending, 1);
    await clock.advance(10_000);
    assert.deepEqual(fired, [start + 2000]);
    assert.ok(!timer.armed);
    timer.arm(40 * 24 * 3600 * 1000);
    await clock.advance(1000);
    assert.equal(fired.length, 1, 'clamped, not overflowed to 1 ms');
    timer.clear();
    assert.equal(clock.pending, 0);
  });

  it('on a fake clock, the policy alone follows a 60 s run of 4 agents to its end within the shortest interval', () => {
    // The emulator's live model: agent i of n done at 0.7 + 0.3 i / n of the run, the last one's finish is the completion.
    const runMs = 60_000;
    const observe = (elapsed: number): ObservedState => {
      const f = elapsed / runMs;
      if (f >= 1) return { status: 'completed' };
      return agents(4, [1, 2, 3].filter(i => f >= 0.7 + (0.3 * i) / 4).length);
    };
    let s = { originAt: T0, lowRunMs: 0 };
    let now = firstSchedule(task(), SETTINGS, T0).nextAt;
    let polls = 1;
    for (let state = observe(now - T0); state.status !== 'completed'; state = observe(now - T0), polls++) {
      const next = nextInterval(s, state, SETTINGS, true, now);
      s = { ...s, lowRunMs: next.lowRunMs };
      now += next.intervalMs;
    }
    assert.ok(now - (T0 + runMs) <= SETTINGS.minIntervalMs, `seen ${now - T0 - runMs} ms after the end`);
    assert.ok(polls <= 18, `at most 60 % of the SDK's ~31 reads: ${polls}`);
  });
});
