/**
 * The poller with the real client over real HTTP and Server-Sent Events, against a small local service that
 * behaves as the live one does in the cases its own server code shows (issue 17): a stream the platform cuts
 * without a terminal event, 503s of the authentication backend, 401 "Unauthorized" on the engine's routes,
 * `agent_statuses: []`, a failure with `error: ""`, and a 413 on /status.
 */
import * as assert from 'node:assert/strict';
import type * as http from 'node:http';
import { DeveloperApiClient } from '../../src/api';
import { type ObservedState, type TrackedTask, isFinished } from '../../src/tasks/model';
import { type PollerEvent, type PollerSettings, type PollerStore, TaskPoller } from '../../src/tasks/tracking/poller';
import { waitFor } from './helpers';
import { type HostileServer, startHostile } from './hostileServer';

const KEY = 'tfai_live_like_0123456789';
const TASK = 'task_5f0c1a2b-live';
/** Short intervals so that a test takes a second, not minutes; the stream counts as cut after maxIntervalMs. */
const SETTINGS: PollerSettings = { minIntervalMs: 50, firstPollMs: 50, maxIntervalMs: 200, unfocusedIntervalMs: 1000, maxInFlight: 2, useStream: true, maxStreams: 4 };

class MemoryStore implements PollerStore {
  readonly tasks = new Map<string, TrackedTask>();
  readonly observed: ObservedState[] = [];
  finished?: ObservedState;
  add(id: string) {
    const now = Date.now() - 1000;
    this.tasks.set(id, { id, title: id, instruction: id, promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' });
  }
  running() {
    return [...this.tasks.values()].filter(t => !isFinished(t));
  }
  get(id: string) {
    return this.tasks.get(id);
  }
  observe(id: string, state: ObservedState) {
    this.observed.push(state);
    this.tasks.set(id, { ...this.tasks.get(id)!, status: state.status });
  }
  async finish(id: string, state: ObservedState) {
    this.finished = state;
    this.tasks.set(id, { ...this.tasks.get(id)!, status: state.status });
  }
}

type Route = (req: http.IncomingMessage, res: http.ServerResponse, nth: number) => void;

/** Routes by kind of request; `nth` counts the requests of that kind, from 1. */
function serve(server: HostileServer, routes: { status?: Route; results?: Route; stream?: Route }) {
  const counts = { status: 0, results: 0, stream: 0 };
  const at: { kind: keyof typeof counts; time: number; ended?: number }[] = [];
  server.handle = (req, res) => {
    const url = req.url ?? '';
    const kind = url.startsWith('/api/v1/stream/') ? 'stream' : url.includes('/status/') ? 'status' : url.includes('/results/') ? 'results' : undefined;
    const route = kind && routes[kind];
    if (!kind || !route) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"detail":"Not found"}');
    const entry: (typeof at)[number] = { kind, time: Date.now() };
    at.push(entry);
    res.on('close', () => (entry.ended = Date.now()));
    route(req, res, ++counts[kind]);
  };
  return { counts, at };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const openSse = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
const event = (res: http.ServerResponse, data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
const progress = (agents = [{ agent_id: 1, status: 'running', progress: 0.5 }, { agent_id: 2, status: 'running', progress: 0.5 }]) => ({ type: 'progress', agent_statuses: agents, pending_approval: null });
const processing = { taskId: TASK, status: 'processing', userId: 1, options: {} };

describe('poller against a live-like service (real HTTP and SSE)', function () {
  this.timeout(15_000);
  let server: HostileServer;
  let poller: TaskPoller | undefined;
  before(async () => {
    server = await startHostile();
  });
  afterEach(() => {
    poller?.dispose();
    poller = undefined;
    server.reset();
  });
  after(() => server.close());

  function follow(settings: Partial<PollerSettings> = {}, key = KEY) {
    const store = new MemoryStore();
    store.add(TASK);
    const events: PollerEvent[] = [];
    let apiKey = key;
    const client = () => new DeveloperApiClient({ baseUrl: server.baseUrl, apiKey: () => apiKey, timeoutMs: 5_000, retry: { maxRetries: 0 } });
    let current = client();
    poller = new TaskPoller({ api: () => current, store, settings: () => ({ ...SETTINGS, ...settings }), onEvent: e => events.push(e) });
    poller.wake();
    const setKey = (next: string) => {
      apiKey = next;
      current = client();
    };
    return { store, events, kinds: () => events.map(e => e.kind), setKey, poller };
  }

  it('a stream the platform cuts without a terminal event is reopened at once, again and again, with no poll between', async () => {
    const { counts, at } = serve(server, {
      status: (_req, res) => json(res, 200, processing),
      stream: (_req, res, nth) => {
        openSse(res);
        event(res, { type: 'start', model_id: 'm', agent_count: 2 });
        event(res, progress());
        // The first three are cut after 300 ms (longer than the longest poll interval here); the fourth completes.
        setTimeout(() => (nth < 4 ? res.end() : res.end(`data: ${JSON.stringify({ type: 'complete', message: 'the result', agent_statuses: [] })}\n\n`)), 300);
      },
    });
    const { store, kinds } = follow();
    await waitFor(() => store.finished, 8_000);
    assert.equal(store.finished?.status, 'completed');
    assert.equal(store.finished?.result, 'the result');
    assert.equal(counts.stream, 4, 'reopened after each cut');
    assert.equal(counts.status, 0, 'no status read between the streams: the reopened stream sends the state first');
    const streams = at.filter(a => a.kind === 'stream');
    const gaps = streams.slice(1).map((s, i) => s.time - streams[i].ended!);
    assert.ok(gaps.every(g => g < 150), `reopened at once, not after a growing backoff: ${gaps} ms`);
    assert.deepEqual(kinds(), [], 'nothing to report: not "stream unavailable"');
  });

  it('a stream that ends at once is a failure: the task is polled and the stream tried again only after a backoff', async () => {
    const { counts, at } = serve(server, {
      status: (_req, res) => json(res, 200, processing),
      stream: (_req, res) => {
        openSse(res);
        res.end();
      },
    });
    follow();
    await new Promise(r => setTimeout(r, 900));
    assert.equal(counts.stream, 1, `no reconnect loop: ${at.map(a => a.kind)}`);
    assert.ok(counts.status >= 1, 'the task is polled meanwhile');
  });

  it('a 503 of the authentication backend on the stream neither switches the stream off nor blames the key', async () => {
    const { counts } = serve(server, {
      status: (_req, res) => json(res, 200, processing),
      stream: (_req, res, nth) => {
        if (nth === 1) return json(res, 503, { status: 503, detail: 'Authentication backend unavailable' });
        openSse(res);
        event(res, progress());
        res.end(`data: ${JSON.stringify({ type: 'complete', message: 'after the 503', agent_statuses: [] })}\n\n`);
      },
    });
    const { store, kinds } = follow();
    await waitFor(() => store.finished, 8_000);
    assert.equal(store.finished?.result, 'after the 503');
    assert.equal(counts.stream, 2, 'the stream was tried again');
    assert.deepEqual(kinds(), []);
  });

  it('503s on /status ("rate limiter unavailable") back off and complete; the key is not blamed', async () => {
    serve(server, {
      status: (_req, res, nth) =>
        nth <= 2 ? json(res, 503, { status: 503, detail: 'Developer API rate limiter unavailable' }) : json(res, 200, { ...processing, status: 'completed', result: 'done' }),
    });
    const { store, kinds } = follow({ useStream: false });
    await waitFor(() => store.finished, 8_000);
    assert.equal(store.finished?.result, 'done');
    assert.ok(!kinds().includes('authenticationFailed') && !kinds().includes('permissionDenied'), `events: ${kinds()}`);
  });

  it('401 "Unauthorized" on the engine stream: polled instead; with a wrong key polling pauses until a new key, which brings the stream back', async () => {
    let good = KEY;
    const authorized = (req: http.IncomingMessage) => req.headers['x-api-key'] === good;
    const { counts } = serve(server, {
      status: (req, res) => (authorized(req) ? json(res, 200, processing) : json(res, 401, { status: 401, detail: 'Invalid or missing API key' })),
      stream: (req, res) => {
        if (!authorized(req)) return json(res, 401, { status: 401, detail: 'Unauthorized' });
        openSse(res);
        res.end(`data: ${JSON.stringify({ type: 'complete', message: 'streamed', agent_statuses: [] })}\n\n`);
      },
    });
    good = 'tfai_the_other_key_0000000';
    const { store, kinds, setKey, poller: p } = follow();
    await waitFor(() => kinds().includes('authenticationFailed'), 5_000);
    assert.deepEqual(kinds(), ['streamUnavailable', 'authenticationFailed'], 'the stream is off for this key, and /status says the key is wrong');
    const polls = counts.status;
    await new Promise(r => setTimeout(r, 400));
    assert.equal(counts.status, polls, 'paused until the key changes');
    setKey(good);
    p.resume({ keyChanged: true });
    await waitFor(() => store.finished, 5_000);
    assert.equal(store.finished?.result, 'streamed', 'the new key gets the stream again');
  });

  it('agent_statuses: [] in progress and complete events is read as "no agents known", not as an error', async () => {
    serve(server, {
      status: (_req, res) => json(res, 200, processing),
      stream: (_req, res) => {
        openSse(res);
        event(res, progress([]));
        event(res, progress());
        event(res, progress([]));
        res.end(`data: ${JSON.stringify({ type: 'complete', message: 'r', agent_statuses: [] })}\n\n`);
      },
    });
    const { store, kinds } = follow();
    await waitFor(() => store.finished, 5_000);
    assert.equal(store.finished?.result, 'r');
    assert.deepEqual(kinds(), []);
    assert.ok(store.observed.length >= 2);
  });

  it('a failure with error: "" on the stream and /status is recorded as failed, with no words of its own (the store words it)', async () => {
    serve(server, {
      status: (_req, res) => json(res, 200, { ...processing, status: 'failed', error: '' }),
      stream: (_req, res) => {
        openSse(res);
        res.end(`data: ${JSON.stringify({ type: 'error', error: '' })}\n\n`);
      },
    });
    const { store } = follow();
    await waitFor(() => store.finished, 5_000);
    assert.equal(store.finished?.status, 'failed');
    assert.ok(!store.finished?.error?.trim() && !store.finished?.reason, 'the service gave no reason: the store says "failed on the service" (integration case 3)');
  });

  it('a 413 on /status reads /results: still running, then completed with the result', async () => {
    const { counts } = serve(server, {
      status: (_req, res) => json(res, 413, { status: 413, detail: 'Task status is too large for inline retrieval' }),
      results: (_req, res, nth) => json(res, 200, nth < 3 ? { status: 'processing' } : { status: 'completed', result: 'the large result' }),
    });
    const { store, kinds } = follow({ useStream: false });
    await waitFor(() => store.finished, 5_000);
    assert.equal(store.finished?.result, 'the large result');
    assert.equal(counts.results, 3);
    assert.deepEqual(kinds(), []);
  });
});
