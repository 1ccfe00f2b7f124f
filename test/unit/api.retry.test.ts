import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConnectionError,
  DEFAULT_RETRY,
  RateLimitError,
  ServerError,
  parseRetryAfter,
  retryDelayMs,
} from '../../src/api';
import { MemoryLogger, clientFor, rejectsWith, seen, useEmulator } from './helpers';

describe('api: retries', () => {
  const emulator = useEmulator();

  for (const status of [408, 429, 500, 502, 503]) {
    it(`retries a read after ${status} and succeeds`, async () => {
      emulator().addFault({ kind: 'status', status, path: '/usage', times: 2, retryAfter: '0' });
      await clientFor(emulator()).getUsage();
      assert.equal(seen(emulator(), '/usage').length, 3);
    });
  }

  it('retries a read after a dropped connection', async () => {
    emulator().addFault({ kind: 'drop', path: '/usage', times: 1 });
    await clientFor(emulator()).getUsage();
    assert.equal(seen(emulator(), '/usage').length, 2);
  });

  it('gives up after maxRetries', async () => {
    emulator().addFault({ kind: 'status', status: 503, path: '/usage', times: Infinity });
    await rejectsWith(clientFor(emulator()).getUsage(), ServerError);
    assert.equal(seen(emulator(), '/usage').length, 1 + 3);
  });

  it('does not retry 4xx other than 408 and 429', async () => {
    emulator().addFault({ kind: 'status', status: 404, path: '/usage', times: Infinity });
    await rejectsWith(clientFor(emulator()).getUsage(), Error);
    assert.equal(seen(emulator(), '/usage').length, 1);
  });

  for (const fault of [
    { kind: 'status', status: 503 },
    { kind: 'status', status: 429, retryAfter: '0' },
    { kind: 'drop' },
    { kind: 'dropMidBody' },
  ] as const) {
    it(`never repeats a submission after ${fault.kind}${'status' in fault ? ` ${fault.status}` : ''}`, async () => {
      emulator().addFault({ ...fault, path: '/run', times: Infinity });
      await rejectsWith(clientFor(emulator()).submitTask({ prompt: 'costs money' }), Error);
      assert.equal(seen(emulator(), '/run').length, 1);
    });
  }

  it('never repeats a thread run or an upload after a 503', async () => {
    const client = clientFor(emulator());
    const thread = await client.createThread({ title: 'r' });
    emulator().addFault({ kind: 'status', status: 503, path: '/runs', times: Infinity });
    emulator().addFault({ kind: 'status', status: 503, path: '/files', method: 'POST', times: Infinity });
    await rejectsWith(client.runInThread(thread.id, { prompt: 'p' }), ServerError);
    await rejectsWith(client.uploadFile({ data: Buffer.from('x'), filename: 'x.txt' }), ServerError);
    assert.equal(seen(emulator(), '/runs').length, 1);
    assert.equal(seen(emulator(), '/files', 'POST').length, 1);
  });

  it('retries a submission whose connection was refused (it never reached the server)', async () => {
    // A port nobody listens on; the service comes up there only after the first attempt was refused.
    const probe = http.createServer();
    await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise(resolve => probe.close(resolve));
    const runs: string[] = [];
    const late = http.createServer((req, res) => {
      runs.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ taskId: 'task_late', status: 'processing' }));
    });
    const logger = new MemoryLogger();
    let refused: string | undefined;
    logger.warn = message => {
      refused = message;
      late.listen(port, '127.0.0.1');
    };
    const client = clientFor(emulator(), {
      baseUrl: `http://127.0.0.1:${port}/api/v1/developer`,
      logger,
      retry: { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 300, maxTotalMs: 5_000 },
    });
    try {
      const submitted = await client.submitTask({ prompt: 'p' });
      assert.equal(submitted.taskId, 'task_late');
      assert.match(refused ?? '', /connection refused\); retry 1\/3/);
      assert.deepEqual(runs, ['POST /api/v1/developer/run']);
    } finally {
      await new Promise(resolve => late.close(resolve));
    }
  });

  it('a refused submission that stays refused ends as a ConnectionError that was not sent', async () => {
    const client = clientFor(emulator(), { baseUrl: 'http://127.0.0.1:1/api/v1/developer' });
    const error = await rejectsWith(client.submitTask({ prompt: 'p' }), ConnectionError);
    assert.equal(error.notSent, true);
  });

  it('honours Retry-After in seconds between attempts', async () => {
    emulator().addFault({ kind: 'status', status: 429, path: '/usage', retryAfter: '1' });
    await clientFor(emulator()).getUsage();
    const [first, second] = seen(emulator(), '/usage');
    const waited = second.startedAt - first.startedAt;
    assert.ok(waited >= 950 && waited < 2_000, `waited ${waited} ms`);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 2_000).toUTCString(); // second precision: 1 to 2 s ahead
    emulator().addFault({ kind: 'status', status: 503, path: '/usage', headers: { 'Retry-After': at } });
    await clientFor(emulator()).getUsage();
    const [first, second] = seen(emulator(), '/usage');
    const waited = second.startedAt - first.startedAt;
    assert.ok(waited >= 900 && waited < 2_500, `waited ${waited} ms for the date`);
  });

  it('gives up at once when Retry-After is beyond the total retry budget', async () => {
    emulator().addFault({ kind: 'status', status: 429, path: '/usage', retryAfter: '3600' });
    const started = Date.now();
    const error = await rejectsWith(clientFor(emulator()).getUsage(), RateLimitError);
    assert.equal(error.retryAfterMs, 3_600_000);
    assert.ok(Date.now() - started < 1_000);
    assert.equal(seen(emulator(), '/usage').length, 1);
  });

  describe('policy', () => {
    it('backs off exponentially with jitter, capped', () => {
      const err = new ServerError('x');
      const low = [1, 2, 3, 4, 5, 6].map(n => retryDelayMs(DEFAULT_RETRY, n, err, () => 0));
      const high = [1, 2, 3, 4, 5, 6].map(n => retryDelayMs(DEFAULT_RETRY, n, err, () => 1));
      assert.deepEqual(low, [250, 500, 1000, 2000, 4000, 4000]);
      assert.deepEqual(high, [500, 1000, 2000, 4000, 8000, 8000]);
    });
    it('parses Retry-After seconds and dates', () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      assert.equal(parseRetryAfter('5', now), 5000);
      assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now), 10_000);
      assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
      assert.equal(parseRetryAfter('soon', now), undefined);
      assert.equal(parseRetryAfter(undefined, now), undefined);
    });
  });
});
