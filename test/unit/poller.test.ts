import * as assert from 'node:assert/strict';
import { type ObservedState, type TrackedTask, isFinished } from '../../src/tasks/model';
import { FakeClock } from './fakeClock';
import { APPROVAL_POLL_MS, MONTHLY_QUOTA_PAUSE_MS, type PollerApi, type PollerEvent, type PollerSettings, type PollerStore, TaskPoller, rateLimitScope } from '../../src/tasks/tracking/poller';

class MemoryStore implements PollerStore {
  tasks = new Map<string, TrackedTask>();
  finished: { id: string; state: ObservedState }[] = [];
  add(id: string, submittedAt: number) {
    this.tasks.set(id, { id, title: id, instruction: id, promptChars: 1, submittedAt, updatedAt: submittedAt, status: 'processing' });
  }
  running() {
    return [...this.tasks.values()].filter(t => !isFinished(t));
  }
  get(id: string) {
    return this.tasks.get(id);
  }
  observe(id: string, state: ObservedState) {
    const t = this.tasks.get(id)!;
    const p = state.agentStatuses?.map(a => a.progress ?? 0);
    this.tasks.set(id, { ...t, status: state.status, progress: p?.length ? p.reduce((a, b) => a + b, 0) / p.length : undefined });
  }
  async finish(id: string, state: ObservedState) {
    this.finished.push({ id, state });
    const t = this.tasks.get(id)!;
    this.tasks.set(id, { ...t, status: state.status });
  }
}

/** A scripted service: each task completes at a set time; errors can be queued per call. */
class FakeApi implements PollerApi {
  calls: { kind: 'status' | 'result'; id: string; at: number }[] = [];
  completesAt = new Map<string, number>();
  errors: unknown[] = [];
  inFlight = 0;
  peak = 0;
  withResultInline = true;
  /** Answers instead of the default processing/completed ones, by task (e.g. awaiting_approval, staggered agents). */
  script = new Map<string, (now: number) => ObservedState | undefined>();
  constructor(
    private readonly clock: FakeClock,
    private readonly latencyMs = 0,
  ) {}
  async getTaskStatus(id: string): Promise<ObservedState> {
    this.calls.push({ kind: 'status', id, at: this.clock.now() });
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      if (this.latencyMs) await new Promise<void>(r => this.clock.setTimeout(r, this.latencyMs));
      const error = this.errors.shift();
      if (error) throw error;
      const scripted = this.script.get(id)?.(this.clock.now());
      if (scripted) return scripted;
      const done = this.clock.now() >= (this.completesAt.get(id) ?? Infinity);
      if (done) return { status: 'completed', result: this.withResultInline ? `result of ${id}` : undefined };
      return { status: 'processing', agentStatuses: [{ progress: 0.5 }] };
    } finally {
      this.inFlight--;
    }
  }
  async getTaskResult(id: string) {
    this.calls.push({ kind: 'result', id, at: this.clock.now() });
    return { status: 'completed', result: `full result of ${id}` };
  }
}

const apiError = (kind: string, extra: object = {}) => Object.assign(new Error(kind), { kind, ...extra });

const SETTINGS: PollerSettings = {
  minIntervalMs: 1000,
  maxIntervalMs: 8000,
  unfocusedIntervalMs: 30_000,
  maxInFlight: 3,
  useStream: false,
  maxStreams: 0,
};

function setup(settings: Partial<PollerSettings> = {}, latencyMs = 0) {
  const clock = new FakeClock();
  const store = new MemoryStore();
  const api = new FakeApi(clock, latencyMs);
  const events: string[] = [];
  const fullEvents: PollerEvent[] = [];
  const poller = new TaskPoller({
    api: () => api,
    store,
    clock,
    settings: () => ({ ...SETTINGS, ...settings }),
    onEvent: e => {
      events.push(e.kind);
      fullEvents.push(e);
    },
    random: () => 0.5,
  });
  return { clock, store, api, poller, events, fullEvents };
}

describe('poller', () => {
  it('polls a running task until it completes, then stops with no timer left', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now() + 5_000);
    poller.wake();
    await clock.advance(20_000);
    assert.deepEqual(store.finished.map(f => [f.id, f.state.status, f.state.result]), [['t1', 'completed', 'result of t1']]);
    assert.equal(clock.pending, 0, 'no timer once nothing runs');
    assert.ok(poller.isIdle);
    const polls = api.calls.filter(c => c.kind === 'status').length;
    assert.ok(polls >= 3 && polls <= 6, `polls: ${polls}`);
  });

  it('starts short and backs off while a task runs', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    poller.wake();
    await clock.advance(60_000);
    const gaps = api.calls.slice(1).map((c, i) => c.at - api.calls[i].at);
    assert.equal(api.calls[0].at - 1_000_000, 1000, 'first poll after the shortest interval');
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i] >= gaps[i - 1] || gaps[i] === SETTINGS.maxIntervalMs);
    assert.ok(gaps.some(g => g > 1000), `backs off: ${gaps}`);
    assert.ok(Math.max(...gaps) <= SETTINGS.maxIntervalMs);
  });

  it('reads /results when the status says completed without a result', async () => {
    const { clock, store, api, poller } = setup();
    api.withResultInline = false;
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now());
    poller.wake();
    await clock.advance(2_000);
    assert.equal(store.finished[0].state.result, 'full result of t1');
    assert.deepEqual(api.calls.map(c => c.kind), ['status', 'result']);
  });

  it('reads /results after a 413 on /status', async () => {
    const { clock, store, api, poller } = setup();
    api.errors.push(apiError('tooLarge'));
    store.add('t1', clock.now());
    poller.wake();
    await clock.advance(2_000);
    assert.equal(store.finished[0].state.result, 'full result of t1');
  });

  it('keeps at most maxInFlight requests in flight for 100 tasks, and loses none', async () => {
    const { clock, store, api, poller } = setup({}, 300);
    for (let i = 0; i < 100; i++) {
      store.add(`t${i}`, clock.now());
      api.completesAt.set(`t${i}`, clock.now() + 3_000 + i * 10);
    }
    poller.wake();
    await clock.advance(120_000);
    assert.equal(store.finished.length, 100);
    assert.equal(new Set(store.finished.map(f => f.id)).size, 100, 'each finished once');
    assert.ok(api.peak <= SETTINGS.maxInFlight, `peak ${api.peak}`);
    assert.equal(poller.stats.peakInFlight, api.peak);
  });

  it('pauses all polling for Retry-After on a 429, then resumes without a burst', async () => {
    const { clock, store, api, poller, events } = setup();
    for (const id of ['a', 'b', 'c', 'd', 'e']) store.add(id, clock.now());
    api.errors.push(apiError('rateLimit', { retryAfterMs: 10_000 }));
    poller.wake();
    await clock.advance(1_000); // first round: one 429, others may be in flight
    const pausedAt = clock.now();
    const before = api.calls.length;
    await clock.advance(9_500);
    assert.equal(api.calls.length, before, 'nothing sent during the pause');
    assert.deepEqual(events, ['rateLimited']);
    await clock.advance(5_000);
    const after = api.calls.filter(c => c.at >= pausedAt + 10_000);
    assert.ok(after.length >= 1, 'polling resumed');
    const firstSecond = after.filter(c => c.at < pausedAt + 10_000 + 300).length;
    assert.ok(firstSecond <= 1, `no burst at resume: ${firstSecond} in the first 300 ms`);
  });

  it('keeps a task through connection errors, backing off, and reports trouble and recovery once', async () => {
    const { clock, store, api, poller, events } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now() + 30_000);
    for (let i = 0; i < 4; i++) api.errors.push(apiError('connection'));
    poller.wake();
    await clock.advance(60_000);
    assert.equal(store.finished[0]?.state.status, 'completed');
    assert.deepEqual(events, ['connectionTrouble', 'recovered']);
    const gaps = api.calls.slice(1, 5).map((c, i) => c.at - api.calls[i].at);
    assert.ok(gaps[1] > gaps[0] && gaps[2] > gaps[1], `backoff: ${gaps}`);
  });

  it('stops polling on a 401 until resume()', async () => {
    const { clock, store, api, poller, events } = setup();
    store.add('t1', clock.now());
    api.errors.push(apiError('authentication'));
    poller.wake();
    await clock.advance(30_000);
    assert.equal(api.calls.length, 1);
    assert.deepEqual(events, ['authenticationFailed']);
    api.completesAt.set('t1', clock.now());
    poller.resume();
    await clock.advance(1_000);
    assert.equal(store.finished.length, 1);
  });

  it('follows its inputs: a new API key resumes polling stopped by a 401 (the status told first), a gateway key does not, new settings do', async () => {
    const { clock, store, api, poller } = setup();
    const listeners = { keys: [] as ((which: 'apiKey' | 'gatewayKey') => unknown)[], config: [] as (() => unknown)[], focus: [] as ((f: boolean) => unknown)[] };
    const resets: string[] = [];
    const on = <L>(list: L[]) => ({ onDidChange: (l: L) => (list.push(l), { dispose: () => list.splice(list.indexOf(l), 1) }) });
    const following = poller.follow({ keys: on(listeners.keys), config: on(listeners.config), focus: on(listeners.focus), status: { reset: o => void resets.push(o?.keyChanged ? 'key' : 'settings') } });
    store.add('t1', clock.now());
    api.errors.push(apiError('authentication'));
    poller.wake();
    await clock.advance(30_000);
    api.completesAt.set('t1', clock.now());
    listeners.keys.forEach(l => l('gatewayKey'));
    await clock.advance(5_000);
    assert.equal(store.finished.length, 0, 'a gateway key is not the key the service refused');
    listeners.keys.forEach(l => l('apiKey'));
    await clock.advance(1_000);
    assert.equal(store.finished.length, 1, 'a new API key resumed polling');
    assert.deepEqual(resets, ['key']);
    listeners.config.forEach(l => l());
    assert.deepEqual(resets, ['key', 'settings']);
    following.dispose();
    assert.deepEqual([listeners.keys.length, listeners.config.length, listeners.focus.length], [0, 0, 0], 'disposed: nothing listens');
  });

  it('gives a task up only after repeated 404s', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    api.errors.push(apiError('notFound'));
    api.completesAt.set('t1', clock.now() + 3_000);
    poller.wake();
    await clock.advance(20_000);
    assert.equal(store.finished[0].state.status, 'completed', 'one 404 is not the end');

    const second = setup();
    second.store.add('t2', second.clock.now());
    for (let i = 0; i < 3; i++) second.api.errors.push(apiError('notFound'));
    second.poller.wake();
    await second.clock.advance(60_000);
    assert.equal(second.store.finished[0].state.status, 'failed');
    assert.deepEqual(second.store.finished[0].state.reason, { kind: 'unknownTask', detail: 'notFound' }, 'the reason as data, worded by the store');
  });

  it('reports a 403 (disabled account, quota), keeps the task and backs off', async () => {
    const { clock, store, api, poller, events } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now() + 20_000);
    for (let i = 0; i < 3; i++) api.errors.push(apiError('permission'));
    poller.wake();
    await clock.advance(60_000);
    assert.deepEqual(events, ['permissionDenied', 'permissionDenied', 'permissionDenied']);
    const gaps = api.calls.slice(1, 4).map((c, i) => c.at - api.calls[i].at);
    assert.ok(gaps[1] > gaps[0], `backs off: ${gaps}`);
    assert.equal(store.finished[0]?.state.status, 'completed');
  });

  it('gives a task up after repeated malformed or invalid answers, with the reason', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    for (let i = 0; i < 5; i++) api.errors.push(apiError('responseFormat'));
    poller.wake();
    await clock.advance(120_000);
    assert.equal(store.finished[0]?.state.status, 'failed');
    assert.deepEqual(store.finished[0].state.reason, { kind: 'statusKeepsFailing', detail: 'responseFormat' });
  });

  it('a Retry-After weeks away pauses without spinning, and a settings change keeps the pause', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    api.errors.push(apiError('rateLimit', { retryAfterMs: 30 * 24 * 3600 * 1000 }));
    poller.wake();
    await clock.advance(1_000);
    assert.equal(api.calls.length, 1);
    poller.resume(); // e.g. the user picked another model
    await clock.advance(60_000);
    assert.equal(api.calls.length, 1, 'still paused');
    assert.ok(clock.pending <= 1, 'one timer, not a busy loop');
    poller.resume({ keyChanged: true }); // a new key has its own limit
    await clock.advance(1_000);
    assert.equal(api.calls.length, 2);
  });

  it('polls slower in the background and at once when focus returns', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    poller.wake();
    await clock.advance(1_000);
    poller.setFocused(false);
    await clock.advance(60_000);
    const background = api.calls.filter(c => c.at > 1_000_000 + 20_000);
    const gaps = background.slice(1).map((c, i) => c.at - background[i].at);
    assert.ok(gaps.every(g => g >= SETTINGS.unfocusedIntervalMs), `background gaps ${gaps}`);
    const count = api.calls.length;
    poller.setFocused(true);
    await clock.advance(10);
    assert.equal(api.calls.length, count + 1, 'an immediate poll on focus');
  });

  it('dispose clears the timer and sends nothing more', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    poller.wake();
    await clock.advance(1_500);
    poller.dispose();
    const count = api.calls.length;
    await clock.advance(60_000);
    assert.equal(api.calls.length, count);
    assert.equal(clock.pending, 0);
  });

  it('follows the stream when offered and falls back to polling when it is not', async () => {
    const { clock, store, api, poller, events } = setup({ useStream: true, maxStreams: 4 });
    let streams = 0;
    (api as PollerApi).streamTask = async () => {
      streams++;
      throw apiError('notFound');
    };
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now() + 3_000);
    poller.wake();
    await clock.advance(20_000);
    assert.equal(streams, 1, 'the stream is not tried again once unsupported');
    assert.deepEqual(events, ['streamUnavailable']);
    assert.equal(store.finished[0].state.status, 'completed');

  });

  it('opens maxStreams streams and not one more: the other running tasks are polled', async () => {
    const { clock, store, api, poller } = setup({ useStream: true, maxStreams: 4 });
    let open = 0;
    let peak = 0;
    const opened: string[] = [];
    (api as PollerApi).streamTask = id =>
      new Promise(resolve => {
        open++;
        peak = Math.max(peak, open);
        opened.push(id);
        // Open for 30 s, then the task completes on it.
        clock.setTimeout(() => {
          open--;
          resolve({ status: 'completed', result: `streamed ${id}` });
        }, 30_000);
      });
    for (let i = 0; i < 6; i++) {
      store.add(`t${i}`, clock.now());
      api.completesAt.set(`t${i}`, clock.now() + 60_000);
    }
    poller.wake();
    await clock.advance(10_000);
    assert.equal(open, 4, 'four streams open');
    assert.deepEqual(opened, ['t0', 't1', 't2', 't3']);
    const polled = new Set(api.calls.filter(c => c.kind === 'status').map(c => c.id));
    assert.deepEqual([...polled].sort(), ['t4', 't5'], 'the two beyond the limit are polled');
    await clock.advance(60_000);
    assert.equal(peak, 4, `at most four at once (peak ${peak})`);
    assert.equal(store.finished.length, 6);
  });

  it('sends no status poll while an open stream works, across many poll intervals', async () => {
    const pushed = setup({ useStream: true, maxStreams: 4 });
    let states = 0;
    (pushed.api as PollerApi).streamTask = (id, { onState }) =>
      new Promise(resolve => {
        // The stream stays open for 60 s (60 shortest intervals), pushing a state every 5 s, then completes.
        const push = () => {
          if (pushed.clock.now() >= 1_000_000 + 60_000) return resolve({ status: 'completed', result: `streamed ${id}` });
          states++;
          onState({ status: 'processing', agentStatuses: [{ progress: 0.5 }, { progress: 0.5 }] });
          pushed.clock.setTimeout(push, 5_000);
        };
        push();
      });
    pushed.store.add('s1', pushed.clock.now());
    pushed.poller.wake();
    await pushed.clock.advance(59_000);
    assert.equal(pushed.store.finished.length, 0, 'still open');
    assert.ok(states >= 11, `states pushed: ${states}`);
    assert.equal(pushed.api.calls.length, 0, 'no polling while the stream works');
    await pushed.clock.advance(2_000);
    assert.equal(pushed.store.finished[0]?.state.result, 'streamed s1');
    assert.equal(pushed.api.calls.length, 0, 'no polling at the end either');
    assert.equal(pushed.poller.stats.streamsOpened, 1);
  });

  it('keeps a task awaiting approval tracked, polls it slowly, and resumes normal pace when it runs again', async () => {
    const { clock, store, api, poller } = setup();
    const start = clock.now();
    let approvedAt = Infinity;
    store.add('a1', start);
    api.script.set('a1', now => {
      if (now >= approvedAt + 45_000) return { status: 'completed', result: 'approved result' };
      if (now >= approvedAt) return { status: 'processing', agentStatuses: [{ progress: 0.5 }] };
      if (now >= start + 3_000) return { status: 'awaiting_approval', pendingApproval: { agentName: 'Agent 2' } };
      return undefined;
    });
    poller.wake();
    await clock.advance(5_000);
    assert.equal(store.get('a1')?.status, 'awaiting_approval');
    assert.equal(store.finished.length, 0, 'a pause is not an end');
    const pausedCalls = api.calls.length;
    await clock.advance(120_000);
    const during = api.calls.length - pausedCalls;
    assert.ok(during >= 3 && during <= 5, `about one poll per ${APPROVAL_POLL_MS} ms while waiting: ${during}`);
    const gaps = api.calls.slice(pausedCalls).map((c, i, all) => (i ? c.at - all[i - 1].at : APPROVAL_POLL_MS));
    assert.ok(gaps.every(g => g >= APPROVAL_POLL_MS), `gaps ${gaps}`);

    approvedAt = clock.now(); // the user approves in the web console
    await clock.advance(APPROVAL_POLL_MS + 30_000);
    assert.deepEqual(store.finished.map(f => [f.id, f.state.status, f.state.result]), [['a1', 'completed', 'approved result']]);
    // The next slow poll sees it running again; from there the normal pace.
    const resumedCalls = api.calls.filter(c => c.at > approvedAt).slice(1);
    const resumedGaps = resumedCalls.slice(1).map((c, i) => c.at - resumedCalls[i].at);
    assert.ok(resumedGaps.length >= 3 && resumedGaps.every(g => g < 5_000), `normal pace after approval: ${resumedGaps}`);
    const doneAt = approvedAt + 45_000;
    const seen = api.calls.find(c => c.at >= doneAt)!;
    assert.ok(seen.at - doneAt <= SETTINGS.minIntervalMs * 3, `result soon after it is ready: ${seen.at - doneAt} ms`);
  });

  it('a stream that ends at a pause leaves the task tracked and polled slowly', async () => {
    const { clock, store, api, poller } = setup({ useStream: true, maxStreams: 4 });
    (api as PollerApi).streamTask = async () => ({ status: 'awaiting_approval', pendingApproval: { agentName: 'Agent 2' } });
    store.add('a2', clock.now());
    api.script.set('a2', () => ({ status: 'awaiting_approval' }));
    poller.wake();
    await clock.advance(100);
    assert.equal(store.get('a2')?.status, 'awaiting_approval');
    assert.equal(store.finished.length, 0);
    await clock.advance(APPROVAL_POLL_MS - 1_000);
    assert.equal(api.calls.length, 0, 'nothing sent before the slow interval');
  });

  it('tells hourly, monthly and capacity 429s apart by their text', () => {
    assert.equal(rateLimitScope('Rate limit exceeded: hourly request limit reached for this API key'), 'hourly');
    assert.equal(rateLimitScope('Monthly quota exceeded for this API key'), 'monthly');
    assert.equal(rateLimitScope('Service capacity reached, retry later'), 'capacity');
    assert.equal(rateLimitScope('Too Many Requests'), 'unknown');
  });

  it('a 429 without Retry-After backs off from half a second, doubling, and says when it retries', async () => {
    const { clock, store, api, poller, fullEvents } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now());
    for (let i = 0; i < 3; i++) api.errors.push(apiError('rateLimit', { message: 'Rate limit exceeded: hourly request limit reached for this API key' }));
    poller.wake();
    await clock.advance(20_000);
    assert.equal(store.finished[0]?.state.status, 'completed');
    const gaps = api.calls.slice(1).map((c, i) => c.at - api.calls[i].at);
    assert.deepEqual(gaps, [375, 750, 1500], '0.5 s, 1 s, 2 s less a quarter (jitter fixed at its middle)');
    const limited = fullEvents.filter(e => e.kind === 'rateLimited');
    assert.equal(limited.length, 3);
    for (const e of limited) if (e.kind === 'rateLimited') assert.deepEqual([e.scope, e.retryAfter], ['hourly', false]);
    const first = limited[0];
    assert.ok(first.kind === 'rateLimited' && first.untilMs === api.calls[0].at + 375, 'untilMs is when polling retries');
  });

  it('the backoff starts again at half a second after a success', async () => {
    const { clock, store, api, poller } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now() + 60_000);
    api.errors.push(apiError('rateLimit', { message: 'Service capacity reached, retry later' }), apiError('rateLimit', { message: 'Service capacity reached, retry later' }));
    poller.wake();
    await clock.advance(10_000);
    api.errors.push(apiError('rateLimit', { message: 'Service capacity reached, retry later' }));
    const before = api.calls.length;
    await clock.advance(10_000);
    const i = before;
    const gapAfterThird = api.calls[i + 1].at - api.calls[i].at;
    assert.equal(gapAfterThird, 375, 'the first step again, not the third');
  });

  it('a monthly-quota 429 stops polling for a long time and says so; a new key resumes at once', async () => {
    const { clock, store, api, poller, fullEvents } = setup();
    store.add('t1', clock.now());
    api.completesAt.set('t1', clock.now());
    api.errors.push(apiError('rateLimit', { message: 'Monthly quota exceeded for this API key' }));
    poller.wake();
    await clock.advance(MONTHLY_QUOTA_PAUSE_MS - 60_000);
    assert.equal(api.calls.length, 1, 'no request during the quota pause');
    const e = fullEvents[0];
    assert.ok(e.kind === 'rateLimited' && e.scope === 'monthly' && e.untilMs >= 1_000_000 + MONTHLY_QUOTA_PAUSE_MS, JSON.stringify(e));
    poller.resume({ keyChanged: true });
    await clock.advance(1_000);
    assert.equal(store.finished[0]?.state.status, 'completed');
  });

  it('reads the end from agents finishing one by one, not from progress values', async () => {
    // Four agents at 0.5 while working; agent i done at (0.7 + 0.3 (i + 1) / 4) of a 60 s run; the last one's finish is the completion.
    const { clock, store, api, poller } = setup({ maxIntervalMs: 10_000 });
    const start = clock.now();
    const runMs = 60_000;
    store.add('t1', start);
    api.completesAt.set('t1', start + runMs);
    api.script.set('t1', now => {
      const f = (now - start) / runMs;
      if (f >= 1) return undefined;
      return { status: 'processing', agentStatuses: [0, 1, 2, 3].map(i => ({ progress: i < 3 && f >= 0.7 + (0.3 * (i + 1)) / 4 ? 1 : 0.5 })) };
    });
    poller.wake();
    await clock.advance(90_000);
    assert.equal(store.finished[0]?.state.status, 'completed');
    const last = api.calls[api.calls.length - 1];
    assert.ok(last.at - (start + runMs) < SETTINGS.minIntervalMs, `result within a shortest interval: ${last.at - start - runMs} ms`);
    assert.ok(api.calls.length <= 18, `at most 60 % of the SDK's ~31 reads: ${api.calls.length}`);
  });
});
