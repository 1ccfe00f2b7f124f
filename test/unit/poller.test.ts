import * as assert from 'node:assert/strict';
import type { ObservedState, TrackedTask } from '../../src/tasks/model';
import { type Clock, type PollerApi, type PollerSettings, type PollerStore, TaskPoller } from '../../src/tasks/poller';

/** A manual clock: timers fire only when the test advances time. */
class FakeClock implements Clock {
  private t = 1_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers = this.timers.filter(t => t.id !== handle);
  }
  get pending() {
    return this.timers.length;
  }
  /** Advances time, firing due timers in order and letting promises settle between them. */
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const next = this.timers.filter(t => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter(t => t !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
    await flush();
  }
}
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

class MemoryStore implements PollerStore {
  tasks = new Map<string, TrackedTask>();
  finished: { id: string; state: ObservedState }[] = [];
  add(id: string, submittedAt: number) {
    this.tasks.set(id, { id, title: id, instruction: id, promptChars: 1, submittedAt, updatedAt: submittedAt, status: 'processing' });
  }
  running() {
    return [...this.tasks.values()].filter(t => t.status === 'processing' || !['completed', 'failed', 'canceled', 'awaiting_approval'].includes(t.status));
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
  const poller = new TaskPoller({ api: () => api, store, clock, settings: () => ({ ...SETTINGS, ...settings }), onEvent: e => events.push(e.kind) });
  return { clock, store, api, poller, events };
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
    assert.match(String(second.store.finished[0].state.error), /no longer knows/);
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
    assert.match(String(store.finished[0].state.error), /keeps answering/);
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

    const pushed = setup({ useStream: true, maxStreams: 4 });
    (pushed.api as PollerApi).streamTask = async (id, { onState }) => {
      onState({ status: 'processing', agentStatuses: [{ progress: 0.5 }] });
      return { status: 'completed', result: `streamed ${id}` };
    };
    pushed.store.add('s1', pushed.clock.now());
    pushed.poller.wake();
    await pushed.clock.advance(5_000);
    assert.equal(pushed.store.finished[0].state.result, 'streamed s1');
    assert.equal(pushed.api.calls.length, 0, 'no polling while the stream works');
  });
});
