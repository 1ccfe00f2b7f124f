// The emulator's defaults are the live service's behaviour (issue 11). Plain HTTP with Node's fetch, never the
// extension's client, so these tests do not move with client changes.
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import { DEMO_API_KEY, SECOND_API_KEY, type Emulator, type EmulatorOptions, startEmulator } from '../emulator/server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** A live emulator of its own for one test, closed after it. */
async function withEmulator<T>(options: EmulatorOptions, fn: (emu: Emulator) => Promise<T>): Promise<T> {
  const emu = await startEmulator({ quiet: true, taskDurationMs: 300, pulseIntervalMs: 100, ...options });
  try {
    return await fn(emu);
  } finally {
    await emu.close();
  }
}

function useLiveEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator({ quiet: true, taskDurationMs: 300, pulseIntervalMs: 100, ...options });
  });
  beforeEach(() => {
    emulator?.clearFaults();
    emulator?.setRateLimit(undefined);
  });
  after(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
}

async function call(emu: Emulator, method: string, path: string, body?: unknown, key = DEMO_API_KEY) {
  const url = path.startsWith('http') ? path : path.startsWith('/api/') || path.startsWith('/__') ? emu.origin + path : emu.baseUrl + path;
  const res = await fetch(url, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, json, text };
}

async function submit(emu: Emulator, prompt = 'Live behaviour', extra: Json = {}, key = DEMO_API_KEY): Promise<string> {
  const r = await call(emu, 'POST', '/run', { prompt, ...extra }, key);
  assert.equal(r.status, 200, r.text);
  return r.json.taskId as string;
}

async function upload(emu: Emulator, bytes: Buffer, filename: string, type = 'text/plain') {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), filename);
  const res = await fetch(`${emu.baseUrl}/files`, { method: 'POST', headers: { 'x-api-key': DEMO_API_KEY }, body: form });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Json };
}

/** Reads a stream's `data:` events until it ends or `stopAfterMs`; `onEvent` may act on each one. */
async function readEvents(emu: Emulator, taskId: string, opts: { stopAfterMs?: number; key?: string; onEvent?: (e: Json) => void } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${emu.origin}/api/v1/stream/${taskId}`, { headers: { 'x-api-key': opts.key ?? DEMO_API_KEY }, signal: controller.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const events: Json[] = [];
  const timer = opts.stopAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), opts.stopAfterMs);
  let ended = false;
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) {
            const event = JSON.parse(line.slice(6)) as Json;
            events.push(event);
            opts.onEvent?.(event);
          }
        }
      }
    }
    ended = true;
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { events, ended };
}

describe('emulator: live behaviour by default', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  describe('typed stream events', () => {
    it('start, progress, then complete with the result as message; no status; the stream ends', async () => {
      // Two minutes on the emulator's clock, moved on by each progress event: the stream opens while the team is
      // planned however slow the machine is (a 300 ms task on a loaded machine was past planning when it opened).
      const { events, ended, result } = await withEmulator({ taskDurationMs: 120_000, progressSteps: 12 }, async emu => {
        const id = await submit(emu, 'Stream typed events', { options: { agentCount: 3 } });
        const read = await readEvents(emu, id, { onEvent: e => void (e.type === 'progress' && emu.advanceClock(10_000)) });
        return { ...read, result: emu.task(id)?.result };
      });
      assert.ok(ended, 'the stream ends after complete');
      // Opened at once, the stream sees the team still being planned: no agents yet.
      assert.deepEqual(events[0], { type: 'start', model_id: 'zai/glm-5.2', agent_count: 0 });
      const last = events[events.length - 1];
      assert.equal(last.type, 'complete');
      assert.equal(last.message, result);
      assert.equal(last.agent_statuses.length, 3);
      assert.ok(events.slice(1, -1).some(e => e.type === 'progress'));
      assert.deepEqual(events[1].agent_statuses, [], 'the first progress event has agent_statuses: []');
      for (const e of events) {
        assert.ok(['start', 'progress', 'pulse', 'complete'].includes(e.type), JSON.stringify(e));
        assert.ok(!('status' in e), `no event carries status: ${JSON.stringify(e)}`);
      }
      for (const e of events.filter(e => e.type === 'progress')) {
        assert.ok(Array.isArray(e.agent_statuses));
        assert.ok('pending_approval' in e);
      }
    });

    it('error event for a failed, a canceled, an unknown and a foreign task', async () => {
      const emu = emulator();
      emu.setNextTask({ outcome: 'failed', error: 'Upstream exploded', durationMs: 50 });
      const failed = await submit(emu);
      const a = await readEvents(emu, failed);
      assert.ok(a.ended);
      assert.deepEqual(a.events[a.events.length - 1], { type: 'error', error: 'Upstream exploded' });

      emu.setNextTask({ durationMs: 5_000 });
      const canceled = await submit(emu);
      const b = await readEvents(emu, canceled, {
        onEvent: e => {
          if (e.type === 'start') void call(emu, 'POST', `/api/v1/tasks/${canceled}/cancel`);
        },
      });
      assert.ok(b.ended);
      assert.equal(b.events[b.events.length - 1].type, 'error');

      const unknown = await readEvents(emu, 'task_00000000-0000-0000-0000-000000000000');
      assert.deepEqual(unknown.events, [{ type: 'error', error: 'Task not found' }]);

      const foreign = await readEvents(emu, await submit(emu), { key: SECOND_API_KEY });
      assert.deepEqual(foreign.events, [{ type: 'error', error: 'Unauthorized' }]);
    });

    it('pulses while nothing changes (interval configurable), then resumes after approval', async () => {
      const emu = emulator();
      emu.setNextTask({ outcome: 'awaiting_approval', durationMs: 50 });
      const taskId = await submit(emu, 'Needs approval');
      let approved = false;
      let pulses = 0;
      const started = Date.now();
      const { events, ended } = await readEvents(emu, taskId, {
        onEvent: e => {
          if (e.type === 'pulse') pulses++;
          if (pulses >= 2 && !approved) {
            assert.ok(Date.now() - started >= 150, 'pulses come at the configured interval');
            approved = true;
            void fetch(`${emu.origin}/__emulator/approve/${taskId}`, { method: 'POST' });
          }
        },
      });
      assert.ok(ended);
      const paused = events.find(e => e.type === 'progress' && e.pending_approval);
      assert.ok(paused, 'a progress event carries pending_approval');
      assert.deepEqual(events.filter(e => e.type === 'pulse')[0], { type: 'pulse', reason: 'unchanged-progress' });
      assert.equal(events[events.length - 1].type, 'complete');
    });
  });

  it('agent progress: 0.05 queued, 0.5..0.95 working, 1 done; not rising evenly', async () => {
    const emu = emulator();
    emu.setNextTask({ durationMs: 1_200 });
    const taskId = await submit(emu, 'Progress values', { options: { agentCount: 4 } });
    const seen = new Set<number>();
    for (;;) {
      const r = await call(emu, 'GET', `/status/${taskId}`);
      for (const a of r.json.agentStatuses as Json[]) seen.add(a.progress as number);
      if (r.json.status !== 'processing') {
        assert.equal(r.json.status, 'completed');
        assert.ok((r.json.agentStatuses as Json[]).every(a => a.progress === 1));
        break;
      }
      await sleep(40);
    }
    for (const p of seen) {
      assert.ok(p === 0.05 || p === 1 || (p >= 0.5 && p <= 0.95), `unexpected progress ${p}`);
    }
    assert.ok(seen.has(0.05), 'queued agents read 0.05');
    assert.ok([...seen].some(p => p >= 0.5 && p <= 0.95), 'working agents read 0.5..0.95');
  });

  it('awaiting_approval is a pause: approval resumes the same task to completion', async () => {
    const emu = emulator();
    // Minutes on the emulator's clock, moved on rather than waited for: the machine's own time (the clock is
    // wall time plus the offset) is a rounding error beside them, however loaded the machine.
    emu.setNextTask({ outcome: 'awaiting_approval', durationMs: 60_000 });
    const taskId = await submit(emu, 'Pause me');
    emu.advanceClock(90_000);
    const paused = await call(emu, 'GET', `/status/${taskId}`);
    assert.equal(paused.json.status, 'awaiting_approval');
    assert.ok(paused.json.pendingApproval?.approvalId);
    const notYet = await call(emu, 'GET', `/results/${taskId}`);
    assert.deepEqual(notYet.json, { status: 'awaiting_approval' });

    const approve = await fetch(`${emu.origin}/__emulator/approve/${taskId}`, { method: 'POST' });
    assert.equal(approve.status, 200);
    assert.equal((await call(emu, 'GET', `/status/${taskId}`)).json.status, 'processing');
    const again = await fetch(`${emu.origin}/__emulator/approve/${taskId}`, { method: 'POST' });
    assert.equal(again.status, 409, 'only a paused task can be approved');
    emu.advanceClock(60_000);
    const done = await call(emu, 'GET', `/results/${taskId}`);
    assert.equal(done.json.status, 'completed');
    assert.match(done.json.result as string, /Pause me/);
    assert.ok(emu.task(taskId)?.approvedAt);
  });

  it('autoApproveMs approves a paused task by itself', async () => {
    // Minutes on the emulator's clock, moved on: the machine's own time cannot reach the next step.
    const emu = await startEmulator({ quiet: true, autoApproveMs: 60_000, approvalResumeMs: 60_000 });
    try {
      emu.setNextTask({ outcome: 'awaiting_approval', durationMs: 60_000 });
      const taskId = await submit(emu);
      emu.advanceClock(90_000);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).json.status, 'awaiting_approval');
      emu.advanceClock(100_000);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).json.status, 'completed');
    } finally {
      await emu.close();
    }
  });

  it('cancel: POST {engine}/api/v1/tasks/{id}/cancel with the key; 404 unknown, 403 foreign, finished unchanged', async () => {
    const emu = emulator();
    const before = emu.stats.canceled;
    emu.setNextTask({ durationMs: 10_000 });
    const taskId = await submit(emu, 'Cancel me');
    const r = await call(emu, 'POST', `/api/v1/tasks/${taskId}/cancel`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { task_id: taskId, status: 'canceled' });
    assert.equal((await call(emu, 'GET', `/status/${taskId}`)).json.status, 'canceled');
    assert.equal(emu.task(taskId)?.status, 'canceled');
    assert.ok(emu.task(taskId)?.canceledAt);
    assert.equal(emu.stats.canceled, before + 1);

    assert.equal((await call(emu, 'POST', '/api/v1/tasks/task_unknown/cancel')).status, 404);
    const other = await submit(emu, 'Not yours', {}, DEMO_API_KEY);
    const foreign = await call(emu, 'POST', `/api/v1/tasks/${other}/cancel`, undefined, SECOND_API_KEY);
    assert.equal(foreign.status, 403);
    assert.equal(emu.task(other)?.status, 'processing', 'a foreign cancel changes nothing');
    const noKey = await fetch(`${emu.origin}/api/v1/tasks/${other}/cancel`, { method: 'POST' });
    assert.equal(noKey.status, 401);

    emu.setNextTask({ durationMs: 10 });
    const finished = await submit(emu);
    await sleep(40);
    const late = await call(emu, 'POST', `/api/v1/tasks/${finished}/cancel`);
    assert.equal(late.status, 200);
    assert.equal(late.json.status, 'completed');
    assert.equal(emu.stats.canceled, before + 1);
  });

  it('429 carries no Retry-After and no X-RateLimit-*; the detail follows the chosen reason', async () => {
    const emu = emulator();
    for (const [reason, path, detail] of [
      ['hourly', '/storage', 'Developer API hourly rate limit exceeded'],
      ['monthly', '/storage', 'Developer API monthly quota exceeded'],
    ] as const) {
      emu.setRateLimit({ limit: 1, windowMs: 60_000, reason });
      await call(emu, 'GET', path, undefined, SECOND_API_KEY);
      const limited = await call(emu, 'GET', path, undefined, SECOND_API_KEY);
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.json, { status: 429, detail });
      assert.equal(limited.headers.get('retry-after'), null);
      assert.ok(![...limited.headers.keys()].some(h => h.startsWith('x-ratelimit')), 'no X-RateLimit-*');
    }
    // Capacity is a task submission's answer (problem+json).
    emu.setRateLimit({ limit: 0, reason: 'capacity' });
    const full = await call(emu, 'POST', '/run', { prompt: 'x' }, SECOND_API_KEY);
    assert.equal(full.status, 429);
    assert.equal(full.json.detail, 'Task execution capacity reached, retry later');
    assert.equal(full.headers.get('retry-after'), null);
    emu.setRateLimit(undefined);

    emu.addFault({ kind: 'status', status: 429, path: '/storage' });
    const fault = await call(emu, 'GET', '/storage');
    assert.equal(fault.status, 429);
    assert.equal(fault.headers.get('retry-after'), null);
    assert.deepEqual(Object.keys(fault.json).sort(), ['detail', 'status']);
  });

  it('/usage and /keys refuse the key with 401 {status, detail}; /storage takes it', async () => {
    const emu = emulator();
    for (const [method, path] of [['GET', '/usage'], ['GET', '/keys'], ['POST', '/keys']] as const) {
      const r = await call(emu, method, path, method === 'POST' ? {} : undefined);
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.deepEqual(r.json, { status: 401, detail: 'Unauthorized' });
    }
    assert.equal((await call(emu, 'GET', '/storage')).status, 200);
  });

  it('GET /threads ignores limit and offset: always the newest 20', async () => {
    const emu = await startEmulator({ quiet: true });
    try {
      for (let i = 1; i <= 25; i++) await call(emu, 'POST', '/threads', { title: `Thread ${i}` });
      const r = await call(emu, 'GET', '/threads?limit=5&offset=10');
      assert.equal(r.status, 200);
      const ids = (r.json.conversations as Json[]).map(c => c.id as number);
      assert.deepEqual(ids, Array.from({ length: 20 }, (_, i) => 25 - i));
      assert.equal(r.json.total, 25);
    } finally {
      await emu.close();
    }
  });

  describe('sizes and types', () => {
    it('refuses a request body over 4,500,000 bytes before the service sees it (413 FUNCTION_PAYLOAD_TOO_LARGE)', async () => {
      const emu = emulator();
      const pad = (n: number) => JSON.stringify({ prompt: 'x', pad: 'y'.repeat(n) });
      const over = pad(4_500_001 - pad(0).length);
      assert.equal(Buffer.byteLength(over), 4_500_001);
      const res = await fetch(`${emu.baseUrl}/run`, { method: 'POST', headers: { 'x-api-key': DEMO_API_KEY, 'content-type': 'application/json' }, body: over });
      assert.equal(res.status, 413);
      assert.equal(res.headers.get('x-vercel-error'), 'FUNCTION_PAYLOAD_TOO_LARGE');
      assert.match(await res.text(), /FUNCTION_PAYLOAD_TOO_LARGE/);
      assert.equal(emu.tasks().filter(t => (t.body as Json)?.pad).length, 0);

      const exact = pad(4_500_000 - pad(0).length);
      const ok = await fetch(`${emu.baseUrl}/run`, { method: 'POST', headers: { 'x-api-key': DEMO_API_KEY, 'content-type': 'application/json' }, body: exact });
      assert.equal(ok.status, 422, 'exactly 4,500,000 bytes reaches the service (which refuses the unknown field)');

      const big = await upload(emu, Buffer.alloc(4_600_000, 'a'), 'big.txt');
      assert.equal(big.status, 413, 'a multipart upload over the limit too');
    });

    it('GET /files/{id}/content answers 413 above 4 MiB', async () => {
      const emu = emulator();
      const up = await upload(emu, Buffer.alloc(4 * 1024 * 1024 + 1, 'b'), 'just-over.txt');
      assert.equal(up.status, 200);
      const r = await call(emu, 'GET', `/files/${up.json.id}/content`);
      assert.equal(r.status, 413);
      assert.match(r.json.detail as string, /File is too large for inline download/);
      const fits = await upload(emu, Buffer.alloc(4 * 1024 * 1024, 'c'), 'fits.txt');
      assert.equal((await call(emu, 'GET', `/files/${fits.json.id}/content`)).status, 200);
    });

    it('sniffs the type from the bytes: 415 for an unsupported type even when declared text; stores the sniffed type', async () => {
      const emu = emulator();
      const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(64)]);
      const refused = await upload(emu, zip, 'notes.txt', 'text/plain');
      assert.equal(refused.status, 415);
      assert.match(refused.json.detail as string, /^Unsupported file type/);
      const binary = await upload(emu, randomBytes(256).fill(0, 0, 4), 'data.json', 'application/json');
      assert.equal(binary.status, 415);
      const png = await upload(emu, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(32)]), 'pic.bin', 'application/octet-stream');
      assert.equal(png.status, 200);
      assert.equal(png.json.mime_type, 'image/png');
      const json = await upload(emu, Buffer.from('{"a": 1}'), 'a.json', 'application/json');
      assert.equal(json.status, 200);
      assert.equal(json.json.mime_type, 'text/plain', 'JSON sniffs as text');
      const empty = await upload(emu, Buffer.alloc(0), 'empty.txt');
      assert.equal(empty.status, 400);
    });

    it('download names are ASCII only: other characters as _, no filename*', async () => {
      const emu = emulator();
      const up = await upload(emu, Buffer.from('bonjour'), 'données é (1).txt');
      const res = await fetch(`${emu.baseUrl}/files/${up.json.id}/content`, { headers: { 'x-api-key': DEMO_API_KEY } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename=donn_es____1_.txt');
      assert.equal(await res.text(), 'bonjour');
    });

    it('direct upload: upload-token, PUT the bytes to the URL (no key, the token as Bearer), complete creates the file', async () => {
      const emu = emulator();
      const unsupported = await call(emu, 'POST', '/files/upload-token', { filename: 'x.bin' });
      assert.equal(unsupported.status, 415, 'the declared type defaults to application/octet-stream, which is refused');

      const token = await call(emu, 'POST', '/files/upload-token', { filename: 'big notes.txt', mime_type: 'text/plain' });
      assert.equal(token.status, 200, token.text);
      const { file_id, upload_url, upload_token, pathname, expires_at, max_bytes } = token.json;
      assert.match(file_id as string, /^file-/);
      assert.equal(pathname, `developer-files/u1/${file_id}/big_notes.txt`);
      assert.ok((upload_url as string).startsWith(emu.otherOrigin), 'the blob store is another origin');
      assert.ok((upload_url as string).endsWith(pathname as string));
      assert.ok(expires_at > Date.now() / 1000);
      assert.equal(max_bytes, 10 * 1024 * 1024);

      const bytes = Buffer.alloc(6_000_000, 'z');
      const denied = await fetch(upload_url as string, { method: 'PUT', body: bytes });
      assert.equal(denied.status, 403, 'the PUT needs the upload token');
      const put = await fetch(upload_url as string, {
        method: 'PUT',
        headers: { authorization: `Bearer ${upload_token}`, 'x-api-version': '9', 'x-add-random-suffix': '0', 'x-content-type': 'text/plain' },
        body: bytes,
      });
      assert.equal(put.status, 200);
      assert.equal(((await put.json()) as Json).pathname, pathname);
      const putReq = emu.otherOriginRequests.find(r => r.method === 'PUT');
      assert.equal(putReq?.headers['x-api-key'], undefined);

      const wrongPath = await call(emu, 'POST', '/files/complete', { file_id, pathname: 'developer-files/u2/elsewhere', filename: 'big notes.txt' });
      assert.equal(wrongPath.status, 403);
      const done = await call(emu, 'POST', '/files/complete', { file_id, pathname, filename: 'big notes.txt' });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.json.id, file_id);
      assert.equal(done.json.bytes, bytes.length);
      assert.equal(done.json.mime_type, 'text/plain');
      assert.ok(emu.files().find(f => f.id === file_id)?.bytes.equals(bytes));
      assert.equal((await call(emu, 'POST', '/files/complete', { file_id, pathname, filename: 'big notes.txt' })).status, 409);

      const noBlob = await call(emu, 'POST', '/files/upload-token', { filename: 'never.txt', mime_type: 'text/plain' });
      const missing = await call(emu, 'POST', '/files/complete', { file_id: noBlob.json.file_id, pathname: noBlob.json.pathname, filename: 'never.txt' });
      assert.equal(missing.status, 404);
    });
  });

  it('run body: role_models and vercelAiKey are refused with 422; mock, silent and budget are accepted', async () => {
    const emu = emulator();
    const refused = await call(emu, 'POST', '/run', { prompt: 'x', role_models: { critic: 'openai/gpt-5.1' }, vercelAiKey: 'k' });
    assert.equal(refused.status, 422);
    const fields = (refused.json.errors as Json[]).map(e => e.location).sort();
    assert.deepEqual(fields, ['body.role_models', 'body.vercelAiKey']);
    const ok = await call(emu, 'POST', '/run', { prompt: 'x', options: { mock: true, silent: true, budget: 1.5 } });
    assert.equal(ok.status, 200);
  });
});

describe('emulator: task state lives for taskTtlMs (live: one hour)', function () {
  this.timeout(10_000);
  it('/status answers 404 once the state expired', async () => {
    const emu = await startEmulator({ quiet: true, taskDurationMs: 60_000, taskTtlMs: 600_000, conversationDelayMs: 0 });
    try {
      const taskId = await submit(emu);
      // Minutes on the emulator's clock, moved on (a slow machine's own time cannot pass the TTL meanwhile).
      emu.advanceClock(90_000);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).json.status, 'completed');
      emu.advanceClock(700_000);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).status, 404);
      assert.equal((await call(emu, 'GET', `/results/${taskId}`)).status, 404);
    } finally {
      await emu.close();
    }
  });

  it('defaults to one hour', async () => {
    const emu = await startEmulator({ quiet: true, taskDurationMs: 10 });
    try {
      const taskId = await submit(emu);
      await sleep(30);
      const t = emu.task(taskId);
      assert.ok(t?.expiresAt);
      // The last change is the completed task's saving to its thread, 250 ms after completion.
      assert.ok(Math.abs(t.expiresAt - t.completesAt - 250 - 3_600_000) < 5);
    } finally {
      await emu.close();
    }
  });
});
