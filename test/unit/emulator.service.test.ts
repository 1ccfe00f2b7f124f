// The service's own cases, read from its server code (issue 17): plan limits, key failures, attachments,
// sniffing, the blob store, storage quota, the stream, size limits, results, transcripts and saved threads.
// Each is asserted over HTTP against the emulator's live defaults.
import * as assert from 'assert';
import { DEMO_API_KEY, SECOND_API_KEY } from '../emulator/server';
import { call, control, readEvents, sleep, submit, upload, uploadAttachment, useLiveEmulator, waitForStatus, withEmulator, type Json } from './emulatorHttp';

const HOUR = 60 * 60 * 1000;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png body')]);

function assertProblem(r: { status: number; headers: Headers; json: Json }, status: number, detail: string) {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(r.json.status, status);
  assert.equal(r.json.detail, detail);
  assert.ok(typeof r.json.title === 'string');
}

function assertAuthShape(r: { status: number; json: Json }, status: number, detail: string) {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.deepEqual(r.json, { status, detail });
}

describe('emulator: plan limits and the key quota', function () {
  this.timeout(20_000);

  it('pro: two tasks an hour on /run, thread runs and the engine run alike; 429 problem+json "User rate limit exceeded" without Retry-After; refused submissions use none', async () => {
    await withEmulator({ plans: { [DEMO_API_KEY]: 'pro' } }, async emu => {
      await submit(emu, 'one');
      const thread = await call(emu, 'POST', '/threads', { title: 't' });
      assert.equal((await call(emu, 'POST', `/threads/${thread.json.id}/runs`, { prompt: 'two' })).status, 200);
      for (const refused of [
        await call(emu, 'POST', '/run', { prompt: 'three' }),
        await call(emu, 'POST', `/threads/${thread.json.id}/runs`, { prompt: 'three' }),
        await call(emu, 'POST', '/api/v1/run', { prompt: 'three' }),
      ]) {
        assertProblem(refused, 429, 'User rate limit exceeded');
        assert.equal(refused.headers.get('retry-after'), null);
      }
      assert.equal(emu.tasks().length, 2, 'refused submissions made no task');
      // Another user has their own allowance.
      await submit(emu, 'other user', {}, SECOND_API_KEY);

      // An hour after the first two, both slots are free again: the refused attempts were not counted.
      emu.advanceClock(HOUR + 1);
      await submit(emu, 'four');
      await submit(emu, 'five');
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'six' }), 429, 'User rate limit exceeded');
    });
  });

  it('free: one task per seven days; super: twenty an hour; the default plan has no task limit', async () => {
    await withEmulator({ plans: { [DEMO_API_KEY]: 'free', [SECOND_API_KEY]: 'super' } }, async emu => {
      await submit(emu, 'free one');
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'free two' }), 429, 'User rate limit exceeded');
      emu.advanceClock(6 * 24 * HOUR);
      assert.equal((await call(emu, 'POST', '/run', { prompt: 'free two' })).status, 429);
      emu.advanceClock(24 * HOUR);
      await submit(emu, 'free again');

      for (let i = 0; i < 20; i++) await submit(emu, `super ${i}`, {}, SECOND_API_KEY);
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'super 21' }, SECOND_API_KEY), 429, 'User rate limit exceeded');
    });
    await withEmulator({}, async emu => {
      for (let i = 0; i < 25; i++) await submit(emu, `unlimited ${i}`);
    });
  });

  it('the plan is set per key at run time (POST /__emulator/plan); unknown plans and keys are refused', async () => {
    await withEmulator({}, async emu => {
      assert.equal((await control(emu, 'plan', { key: DEMO_API_KEY, plan: 'pro' })).status, 200);
      await submit(emu, 'a');
      await submit(emu, 'b');
      assert.equal((await call(emu, 'POST', '/run', { prompt: 'c' })).status, 429);
      const state = await call(emu, 'GET', '/__emulator/state', undefined, undefined);
      const mine = (state.json.keys as Json[]).find(k => k.userId === 1)!;
      assert.equal(mine.plan, 'pro');
      assert.equal(mine.taskWindow.used, 2);
      assert.equal((await control(emu, 'plan', { key: DEMO_API_KEY, plan: 'platinum' })).status, 422);
      assert.equal((await control(emu, 'plan', { key: 'nope', plan: 'pro' })).status, 422);
    });
  });

  it('the hourly key quota is the clock hour in UTC: 429 {status, detail} "Developer API hourly rate limit exceeded" until the full hour; a refused request uses none', async () => {
    await withEmulator({}, async emu => {
      // Move to 2 s before a full hour.
      const now = emu.now();
      emu.advanceClock(Math.ceil(now / HOUR) * HOUR - now - 2000);
      emu.setRateLimit({ limit: 2 });
      assert.equal((await call(emu, 'GET', '/storage')).status, 200);
      assert.equal((await call(emu, 'GET', '/storage')).status, 200);
      for (let i = 0; i < 3; i++) {
        const refused = await call(emu, 'GET', '/storage');
        assertAuthShape(refused, 429, 'Developer API hourly rate limit exceeded');
        assert.equal(refused.headers.get('retry-after'), null);
        assert.ok(![...refused.headers.keys()].some(h => h.startsWith('x-ratelimit')));
      }
      const state = await call(emu, 'GET', '/__emulator/state', undefined, undefined);
      const use = (state.json.keys as Json[]).find(k => k.userId === 1)!.hourlyUse;
      assert.equal(use.count, 2, 'the refused requests were not counted');
      assert.equal(use.resetsAt % HOUR, 0, 'the window ends at a full hour');
      assert.equal(use.resetsAt, Math.ceil(emu.now() / HOUR) * HOUR);
      // Engine routes count against the same key quota.
      assertAuthShape(await call(emu, 'GET', '/api/v1/tasks/task_x/trace'), 429, 'Developer API hourly rate limit exceeded');

      emu.advanceClock(2000);
      assert.equal((await call(emu, 'GET', '/storage')).status, 200, 'a new clock hour, a new window');
    });
  });

  it('kinder rateLimitHeaders: Retry-After and X-RateLimit-Reset name the end of the clock hour', async () => {
    await withEmulator({ rateLimitHeaders: true }, async emu => {
      emu.setRateLimit({ limit: 1 });
      await call(emu, 'GET', '/storage');
      const refused = await call(emu, 'GET', '/storage');
      assert.equal(refused.status, 429);
      const end = Math.ceil(emu.now() / HOUR) * HOUR;
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(end / 1000));
      const retry = Number(refused.headers.get('retry-after'));
      assert.ok(Math.abs(retry - (end - emu.now()) / 1000) <= 2, `${retry}`);
    });
  });

  it('monthly quota and capacity: the verbatim texts', async () => {
    await withEmulator({}, async emu => {
      emu.setRateLimit({ limit: 1, reason: 'monthly' });
      await call(emu, 'GET', '/storage');
      assertAuthShape(await call(emu, 'GET', '/storage'), 429, 'Developer API monthly quota exceeded');
      emu.setRateLimit({ limit: 1, reason: 'capacity' });
      await submit(emu, 'fits');
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'full' }), 429, 'Task execution capacity reached, retry later');
    });
  });
});

describe('emulator: key failures', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  afterEach(() => emulator().setKeyState(DEMO_API_KEY, 'active'));

  it('a disabled account: 403 {status, detail: "Account disabled"} on Developer and engine routes', async () => {
    const emu = emulator();
    const taskId = await submit(emu);
    assert.equal((await control(emu, 'key-state', { key: DEMO_API_KEY, state: 'disabled' })).status, 200);
    for (const [method, path] of [['GET', `/status/${taskId}`], ['POST', `/api/v1/tasks/${taskId}/cancel`], ['GET', `/api/v1/stream/${taskId}`], ['GET', `/api/v1/tasks/${taskId}/trace`]] as const) {
      assertAuthShape(await call(emu, method, path), 403, 'Account disabled');
    }
  });

  it('the auth backend or the rate limiter down: 503 with the service’s words', async () => {
    const emu = emulator();
    emu.setKeyState(DEMO_API_KEY, 'authUnavailable');
    assertAuthShape(await call(emu, 'GET', '/storage'), 503, 'Authentication backend unavailable');
    emu.setKeyState(DEMO_API_KEY, 'limiterUnavailable');
    assertAuthShape(await call(emu, 'POST', '/run', { prompt: 'x' }), 503, 'Developer API rate limiter unavailable');
    assert.equal((await control(emu, 'key-state', { key: DEMO_API_KEY, state: 'sleepy' })).status, 422);
  });

  it('a wrong key: 401 "Invalid or missing API key" on the Developer API, 401 "Unauthorized" on engine routes', async () => {
    const emu = emulator();
    const taskId = await submit(emu);
    assertAuthShape(await call(emu, 'GET', `/status/${taskId}`, undefined, 'tfai_wrong'), 401, 'Invalid or missing API key');
    for (const [method, path] of [['POST', `/api/v1/tasks/${taskId}/cancel`], ['GET', `/api/v1/tasks/${taskId}/trace`], ['POST', '/api/v1/run']] as const) {
      assertProblem(await call(emu, method, path, method === 'POST' ? { prompt: 'x' } : undefined, 'tfai_wrong'), 401, 'Unauthorized');
    }
    assertAuthShape(await call(emu, 'GET', `/api/v1/stream/${taskId}`, undefined, 'tfai_wrong'), 401, 'Unauthorized');
    const noKey = await uploadAttachment(emu, Buffer.from('x'), 'a.txt', 'text/plain', 'tfai_wrong');
    assert.equal(noKey.status, 401);
    assert.equal(noKey.json.detail, 'Unauthorized');
  });

  it('a model the plan lacks: 403 `model "…" requires a Pro or Super subscription` (per role model on the engine run)', async () => {
    await withEmulator({ plans: { [DEMO_API_KEY]: 'free' } }, async emu => {
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'x', modelId: 'anthropic/claude-sonnet-4.5' }), 403, 'model "anthropic/claude-sonnet-4.5" requires a Pro or Super subscription');
      // The plan's task limit comes first and the refused submission used the free week's one task.
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'x' }), 429, 'User rate limit exceeded');
      emu.advanceClock(7 * 24 * HOUR);
      assertProblem(
        await call(emu, 'POST', '/api/v1/run', { prompt: 'x', role_models: { 'Agent-2': 'openai/gpt-5.1' } }),
        403,
        'model "openai/gpt-5.1" for role "Agent-2" requires a Pro or Super subscription',
      );
    });
  });
});

describe('emulator: attachments', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  it('types are checked at /run: HTML, XML, BMP, zip and binary are refused with 422; text, JSON, PDF, images, CSV, Markdown and Office pass', async () => {
    const emu = emulator();
    const cases: [string, Buffer, string, string | undefined][] = [
      ['page.html', Buffer.from('<!DOCTYPE html><html><body>x</body></html>'), 'text/html', 'unsupported attachment type "text/html"'],
      ['notes.md', Buffer.from('<!-- a comment first -->\n# Title\n'), 'text/html', 'unsupported attachment type "text/html"'],
      ['feed.xml', Buffer.from('<?xml version="1.0"?><feed/>'), 'text/xml', 'unsupported attachment type "text/xml"'],
      ['bm.txt', Buffer.from('BM is how this line starts'), 'image/bmp', 'unsupported image type "image/bmp"; allowed: image/jpeg, image/png, image/gif, image/webp'],
      ['a.zip', Buffer.from('PK\x03\x04zipped', 'latin1'), 'application/zip', 'unsupported attachment type "application/zip"'],
      ['blob.bin', Buffer.from([0, 1, 2, 3, 4]), 'application/octet-stream', 'unsupported attachment type "application/octet-stream"'],
      ['notes.txt', Buffer.from('plain text\n'), 'text/plain', undefined],
      ['data.json', Buffer.from('{"a": 1}'), 'text/plain', undefined],
      ['readme.md', Buffer.from('# Title\n'), 'text/plain', undefined],
      ['table.csv', Buffer.from('a,b\n1,2\n'), 'text/csv', undefined],
      ['doc.pdf', Buffer.from('%PDF-1.4\n'), 'application/pdf', undefined],
      ['pic.png', PNG, 'image/png', undefined],
      ['report.docx', Buffer.from('PK\x03\x04word', 'latin1'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', undefined],
    ];
    for (const [name, bytes, type, refusal] of cases) {
      const up = await uploadAttachment(emu, bytes, name);
      assert.equal(up.status, 200, `${name}: any type is taken at upload`);
      assert.equal(up.json.mime_type, type, name);
      const run = await call(emu, 'POST', '/run', { prompt: `with ${name}`, attachment_ids: [up.json.id] });
      if (refusal) {
        assertProblem(run, 422, refusal);
      } else {
        assert.equal(run.status, 200, `${name}: ${run.text}`);
      }
    }
  });

  it('an id lives ten minutes: expired ids are skipped, none left is 400; another user\'s id is 403', async () => {
    await withEmulator({}, async emu => {
      const old = await uploadAttachment(emu, Buffer.from('old'), 'old.txt');
      emu.advanceClock(10 * 60 * 1000);
      const fresh = await uploadAttachment(emu, Buffer.from('fresh'), 'fresh.txt');
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'x', attachment_ids: [old.json.id] }), 400, 'None of the provided attachments could be resolved');
      const run = await call(emu, 'POST', '/run', { prompt: 'x', attachment_ids: [old.json.id, fresh.json.id] });
      assert.equal(run.status, 200);
      assert.deepEqual(emu.task(run.json.taskId as string)?.attachmentIds, [fresh.json.id], 'the expired one was skipped silently');

      const theirs = await uploadAttachment(emu, Buffer.from('theirs'), 'theirs.txt', 'text/plain', SECOND_API_KEY);
      assertProblem(await call(emu, 'POST', '/run', { prompt: 'x', attachment_ids: [fresh.json.id, theirs.json.id] }), 403, 'One or more attachments are not accessible');
      assertProblem(await call(emu, 'POST', '/api/v1/run', { prompt: 'x', attachment_ids: ['made-up'] }), 403, 'One or more attachments are not accessible');
    });
  });

  it('the upload is on the engine ({engine}/api/v1/attachments/upload), behind the 4,500,000-byte request limit, 30 a minute', async () => {
    await withEmulator({}, async emu => {
      assert.equal((await call(emu, 'POST', '/attachments/upload', {})).status, 404, 'not under /api/v1/developer');
      const big = await uploadAttachment(emu, Buffer.alloc(4_600_000, 'a'), 'big.txt');
      assert.equal(big.status, 413);
      assert.equal(big.headers.get('x-vercel-error'), 'FUNCTION_PAYLOAD_TOO_LARGE');
      assert.equal((await uploadAttachment(emu, Buffer.alloc(4_000_000, 'a'), 'fits.txt')).status, 200);

      for (let i = 0; i < 29; i++) assert.equal((await uploadAttachment(emu, Buffer.from(`n${i}`), `n${i}.txt`)).status, 200);
      const refused = await uploadAttachment(emu, Buffer.from('31st'), 'late.txt');
      assert.equal(refused.status, 429);
      assert.equal(refused.json.detail, 'Attachment upload rate limit exceeded');
      assert.equal((await uploadAttachment(emu, Buffer.from('other user'), 'o.txt', 'text/plain', SECOND_API_KEY)).status, 200, 'per user');
      emu.advanceClock(60_001);
      assert.equal((await uploadAttachment(emu, Buffer.from('later'), 'later.txt')).status, 200);
    });
  });
});

describe('emulator: file uploads, the blob store and the storage quota', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  it('uploads are sniffed like the service: <!--, <?xml, "BM" refused (415); Latin-1 and UTF-16 with a BOM pass as text', async () => {
    const emu = emulator();
    const cases: [string, Buffer, number, string][] = [
      ['notes.md', Buffer.from('<!-- draft -->\n# Notes'), 415, 'Unsupported file type: text/html'],
      ['icon.svg', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 415, 'Unsupported file type: text/xml'],
      ['script.txt', Buffer.from('<script>alert(1)</script>'), 415, 'Unsupported file type: text/html'],
      ['bm.txt', Buffer.from('BMW and BMX'), 415, 'Unsupported file type: image/bmp'],
      ['latin1.txt', Buffer.from('caf\xe9 na\xefve', 'latin1'), 200, 'text/plain'],
      ['utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello', 'utf16le')]), 200, 'text/plain'],
    ];
    for (const [name, bytes, status, what] of cases) {
      const r = await upload(emu, bytes, name, 'text/plain');
      assert.equal(r.status, status, name);
      assert.equal(status === 200 ? r.json.mime_type : r.json.detail, what, name);
    }
  });

  it('the blob store renames a blob unless X-Add-Random-Suffix: 0 is sent; complete then answers 404 "Uploaded blob not found"', async () => {
    const emu = emulator();
    const token = await call(emu, 'POST', '/files/upload-token', { filename: 'notes.txt', mime_type: 'text/plain' });
    const put = await fetch(token.json.upload_url as string, { method: 'PUT', headers: { authorization: `Bearer ${token.json.upload_token}` }, body: 'hello' });
    assert.equal(put.status, 200);
    const stored = (await put.json()) as Json;
    assert.notEqual(stored.pathname, token.json.pathname);
    assert.match(stored.pathname as string, /\/notes-[A-Za-z0-9]{30}\.txt$/);
    assertProblem(await call(emu, 'POST', '/files/complete', { file_id: token.json.file_id, pathname: token.json.pathname, filename: 'notes.txt' }), 404, 'Uploaded blob not found');
  });

  it('the blob store reads the vendor client’s headers: X-Content-Type, the access (private store), x-api-version; the token is bound to its pathname', async () => {
    const emu = emulator();
    const token = await call(emu, 'POST', '/files/upload-token', { filename: 'data.csv', mime_type: 'text/csv' });
    const url = token.json.upload_url as string;
    const auth = { authorization: `Bearer ${token.json.upload_token}`, 'x-add-random-suffix': '0' };
    const put = (headers: Record<string, string>, target = url) => fetch(target, { method: 'PUT', headers: { ...auth, ...headers }, body: 'a,b\n1,2\n' });
    const publicAccess = await put({ 'x-access': 'public' });
    assert.equal(publicAccess.status, 400);
    assert.match(((await publicAccess.json()) as Json).error.message, /public access on a private store/);
    assert.equal((await put({ 'x-api-version': 'nine' })).status, 400);
    assert.equal((await put({}, url.replace('data.csv', 'other.csv'))).status, 403, 'the token allows one pathname');
    const ok = await put({ 'x-api-version': '9', 'x-content-type': 'text/plain', 'x-access': 'private' });
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as Json;
    assert.equal(body.pathname, token.json.pathname);
    assert.equal(body.contentType, 'text/plain');
    assert.equal((await put({ 'x-api-version': '9' })).status, 400, 'an existing blob is not overwritten');
    const done = await call(emu, 'POST', '/files/complete', { file_id: token.json.file_id, pathname: token.json.pathname, filename: 'data.csv' });
    assert.equal(done.status, 200, done.text);
    const recorded = emu.otherOriginRequests.filter(r => r.method === 'PUT').pop()!;
    assert.equal(recorded.headers['x-api-key'], undefined, 'no API key at the blob store');
  });

  it('storage quota: 403 "Storage quota exceeded" on POST /files and upload-token, which reserves 10 MB for 15 minutes', async () => {
    await withEmulator({}, async emu => {
      emu.setStorage(DEMO_API_KEY, { quotaBytes: 25 * 1024 * 1024 });
      const first = await call(emu, 'POST', '/files/upload-token', { filename: 'a.txt', mime_type: 'text/plain' });
      assert.equal(first.status, 200);
      assert.equal((await call(emu, 'POST', '/files/upload-token', { filename: 'b.txt', mime_type: 'text/plain' })).status, 200);
      const storage = await call(emu, 'GET', '/storage');
      assert.equal(storage.json.usedBytes, 20 * 1024 * 1024);
      assert.deepEqual((storage.json.categories as Json[]).find(c => c.id === 'pending_uploads'), { id: 'pending_uploads', label: 'Pending uploads', bytes: 20 * 1024 * 1024, count: 0 });
      assertProblem(await call(emu, 'POST', '/files/upload-token', { filename: 'c.txt', mime_type: 'text/plain' }), 403, 'Storage quota exceeded');
      // 5 MB left: a 4 MB upload fits, another does not.
      assert.equal((await upload(emu, Buffer.alloc(4 * 1024 * 1024, 'x'), 'four.txt')).status, 200);
      const over = await upload(emu, Buffer.alloc(2 * 1024 * 1024, 'y'), 'two.txt');
      assert.equal(over.status, 403);
      assert.equal(over.json.detail, 'Storage quota exceeded');
      // After 15 minutes the reservations lapse; asking for a token releases them.
      emu.advanceClock(15 * 60 * 1000 + 1);
      assert.equal((await call(emu, 'POST', '/files/upload-token', { filename: 'd.txt', mime_type: 'text/plain' })).status, 200);
      assert.equal((await call(emu, 'GET', '/storage')).json.usedBytes, 14 * 1024 * 1024);
      assert.equal((await control(emu, 'storage', { key: DEMO_API_KEY, quotaBytes: 'lots' })).status, 422);
    });
  });
});

describe('emulator: the stream', function () {
  this.timeout(20_000);

  it('hold/release: a held task keeps processing past its duration (status and stream) until released, then completes at once', async () => {
    await withEmulator({ taskDurationMs: 100 }, async emu => {
      await control(emu, 'next-task', { hold: true });
      const held = await submit(emu, 'Held');
      const free = await submit(emu, 'Not held');
      assert.equal((await waitForStatus(emu, free)).status, 'completed', 'the next task is not held');
      // Well past its 100 ms: the held one has not moved on. (Waiting is fine here: nothing races it.)
      await sleep(400);
      const status = (await call(emu, 'GET', `/status/${held}`)).json;
      assert.equal(status.status, 'processing');
      // It worked through its duration as any task does and waits at its last step (not at its start: a view
      // shows agents at work), with its last agent still running.
      const agents = (status.agentStatuses as { status: string }[]).map(a => a.status);
      assert.ok(agents.includes('COMPLETED'), `agents moved on: ${agents}`);
      assert.ok(agents.includes('PROCESSING...'), `others still work: ${agents}`);
      const streamed = readEvents(emu, held);
      await sleep(200);
      assert.deepEqual((await control(emu, 'release', { taskId: 'task_unknown' })).json, { ok: true, released: 0 });
      assert.deepEqual((await control(emu, 'release', { taskId: held })).json, { ok: true, released: 1 });
      const { events, ended } = await streamed;
      assert.ok(ended, 'the open stream ended on the release');
      assert.equal(events[events.length - 1]?.type, 'complete');
      assert.equal((await call(emu, 'GET', `/status/${held}`)).json.status, 'completed');
      assert.equal(emu.release(held), 0, 'released once');
    });
  });

  it('keep-alive pulses at their own interval even while progress changes; unchanged-progress pulses too', async () => {
    await withEmulator({ keepAliveIntervalMs: 120, pulseIntervalMs: 60_000, taskDurationMs: 1000, progressSteps: 10 }, async emu => {
      const taskId = await submit(emu);
      const { events, ended } = await readEvents(emu, taskId);
      assert.ok(ended);
      const keepAlives = events.filter(e => e.type === 'pulse' && e.reason === 'keep-alive');
      assert.ok(keepAlives.length >= 5, `${keepAlives.length} keep-alive pulses in a 1 s task`);
      assert.deepEqual(keepAlives[0], { type: 'pulse', reason: 'keep-alive' });
      assert.ok(events.filter(e => e.type === 'progress').length >= 5, 'while progress kept changing');
    });
  });

  it('the platform cuts the stream at streamCutMs without a terminal event; a new stream continues', async () => {
    await withEmulator({ streamCutMs: 300, taskDurationMs: 1500 }, async emu => {
      const taskId = await submit(emu);
      const first = await readEvents(emu, taskId);
      assert.ok(first.ended, 'the stream ended');
      assert.ok(!first.events.some(e => e.type === 'complete' || e.type === 'error'), 'without a terminal event');
      let last: Json = {};
      for (let i = 0; i < 10 && last.type !== 'complete'; i++) {
        const again = await readEvents(emu, taskId);
        last = again.events[again.events.length - 1] ?? {};
      }
      assert.equal(last.type, 'complete');
    });
  });

  it('agent_statuses: [] while planning; agent results cut to 600 bytes + "..." in progress events, whole in /status and complete', async () => {
    // Two minutes on the emulator's clock, moved on by each progress event: the stream opens while the team is
    // planned however slow the machine is (a 1.2 s task on a loaded machine was past planning when it opened).
    await withEmulator({ taskDurationMs: 120_000, progressSteps: 12 }, async emu => {
      const taskId = await submit(emu, 'Explain the cut', { options: { agentCount: 2 } });
      const { events } = await readEvents(emu, taskId, { onEvent: e => void (e.type === 'progress' && emu.advanceClock(10_000)) });
      const progress = events.filter(e => e.type === 'progress');
      assert.deepEqual(progress[0].agent_statuses, []);
      // ("Using search web..." while a tool runs ends with dots too, and is short.)
      const cut = progress.flatMap(e => e.agent_statuses as Json[]).filter(a => typeof a.result === 'string' && a.result.endsWith('...') && a.result.length > 100);
      assert.ok(cut.length > 0, 'a long agent result was cut');
      for (const a of cut) assert.equal(Buffer.byteLength((a.result as string).slice(0, -3)), 600);
      const status = await call(emu, 'GET', `/status/${taskId}`);
      const full = (status.json.agentStatuses as Json[])[0].result as string;
      assert.ok(Buffer.byteLength(full) > 600);
      const complete = events[events.length - 1];
      assert.equal(complete.type, 'complete');
      assert.equal((complete.agent_statuses as Json[])[0].result, full);
    });
  });

  it('a failed task may carry error "": the stream says so, /status leaves it out', async () => {
    await withEmulator({}, async emu => {
      const taskId = await submit(emu, 'Fail quietly [emulator outcome=failed error=empty durationMs=50]');
      const { events } = await readEvents(emu, taskId);
      assert.deepEqual(events[events.length - 1], { type: 'error', error: '' });
      const status = await call(emu, 'GET', `/status/${taskId}`);
      assert.equal(status.json.status, 'failed');
      assert.ok(!('error' in status.json));
    });
  });
});

describe('emulator: sizes, results, transcripts and saved threads', function () {
  this.timeout(30_000);
  const emulator = useLiveEmulator();

  it('/status over 3 MiB comes without result, agentStatuses, toolEvents; beyond even that 413 "Task status is too large for inline retrieval"; /results 413 "Task result is too large for inline retrieval"', async () => {
    const emu = emulator();
    const big = await submit(emu, 'Big [emulator resultBytes=3300000 durationMs=50]');
    const done = await waitForStatus(emu, big);
    assert.equal(done.status, 'completed');
    for (const field of ['result', 'agentStatuses', 'toolEvents']) assert.ok(!(field in done), field);
    assertProblem(await call(emu, 'GET', `/results/${big}`), 413, 'Task result is too large for inline retrieval');
    emu.configure({ resultsLimitBytes: 0 });
    try {
      const results = await call(emu, 'GET', `/results/${big}`);
      assert.ok((results.json.result as string).length >= 3_300_000, 'kinder resultsLimitBytes: 0 serves it');
    } finally {
      emu.configure({ resultsLimitBytes: 3 * 1024 * 1024 });
    }

    const huge = await submit(emu, 'Huge error [emulator outcome=failed errorBytes=3300000 durationMs=50]');
    await sleep(120);
    assertProblem(await call(emu, 'GET', `/status/${huge}`), 413, 'Task status is too large for inline retrieval');
  });

  it('/results answers {status} alone for every status but completed', async () => {
    const emu = emulator();
    const processing = await submit(emu, 'Still running [emulator durationMs=5000]');
    assert.deepEqual((await call(emu, 'GET', `/results/${processing}`)).json, { status: 'processing' });
    await call(emu, 'POST', `/api/v1/tasks/${processing}/cancel`);
    assert.deepEqual((await call(emu, 'GET', `/results/${processing}`)).json, { status: 'canceled' });
    const failed = await submit(emu, 'Fails [emulator outcome=failed durationMs=20]');
    const paused = await submit(emu, 'Pauses [emulator outcome=awaiting_approval durationMs=20]');
    await sleep(80);
    assert.deepEqual((await call(emu, 'GET', `/results/${failed}`)).json, { status: 'failed' });
    assert.deepEqual((await call(emu, 'GET', `/results/${paused}`)).json, { status: 'awaiting_approval' });
    const done = await submit(emu, 'Done [emulator durationMs=20]');
    await sleep(60);
    const r = await call(emu, 'GET', `/results/${done}`);
    assert.deepEqual(Object.keys(r.json).sort(), ['result', 'status', 'taskId']);
  });

  it('a transcript over 3 MiB leaves out the newest messages and says truncated: true', async () => {
    const emu = emulator();
    const thread = await call(emu, 'POST', '/threads', { title: 'Long' });
    const id = thread.json.id as number;
    for (let i = 1; i <= 3; i++) {
      const run = await call(emu, 'POST', `/threads/${id}/runs`, { prompt: `Run ${i} [emulator resultBytes=1200000 durationMs=20]` });
      await waitForStatus(emu, run.json.taskId as string, s => s.conversationId !== undefined);
    }
    const r = await call(emu, 'GET', `/threads/${id}/messages`);
    assert.equal(r.json.truncated, true);
    const messages = r.json.messages as Json[];
    assert.deepEqual(messages.map(m => m.role), ['user', 'assistant', 'user', 'assistant', 'user']);
    assert.ok((messages[0].content as string).startsWith('Run 1'), 'the oldest are kept');
    assert.ok(r.text.length <= 3 * 1024 * 1024);

    const short = await call(emu, 'POST', '/threads', { title: 'Short' });
    assert.ok(!('truncated' in (await call(emu, 'GET', `/threads/${short.json.id}/messages`)).json), 'absent when nothing was left out');
  });

  it('every completed task is saved to a thread: conversationId (the first complete may lack it), a thread with the prompt and the result, continuable, readable after the task expired', async () => {
    await withEmulator({}, async emu => {
      const taskId = await submit(emu, 'Save me to a thread');
      const { events } = await readEvents(emu, taskId);
      const complete = events[events.length - 1];
      assert.equal(complete.type, 'complete');
      assert.equal(complete.trace_id, `trace_${taskId}`);
      assert.ok(!('conversation_id' in complete), 'the first complete lacks the id');
      const state = await waitForStatus(emu, taskId, s => s.conversationId !== undefined);
      const conversationId = state.conversationId as number;
      const thread = await call(emu, 'GET', `/threads/${conversationId}`);
      assert.equal(thread.json.user_input, 'Save me to a thread');
      assert.equal(thread.json.result, state.result);
      assert.ok((thread.json.sources as Json[]).length > 0, 'with the sources the agents found');
      const messages = (await call(emu, 'GET', `/threads/${conversationId}/messages`)).json.messages as Json[];
      assert.deepEqual(messages.map(m => m.role), ['assistant']);
      assert.equal(messages[0].content, state.result);
      assert.ok((messages[0].sources as Json[]).every(s => typeof s.title === 'string' && typeof s.url === 'string'));

      const next = await call(emu, 'POST', `/threads/${conversationId}/runs`, { prompt: 'And continue' });
      assert.equal(next.status, 200);
      await waitForStatus(emu, next.json.taskId as string, s => s.conversationId === conversationId);
      assert.deepEqual(((await call(emu, 'GET', `/threads/${conversationId}/messages`)).json.messages as Json[]).map(m => m.role), ['assistant', 'user', 'assistant']);

      emu.advanceClock(HOUR + 1000);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).status, 404, 'the task state is gone');
      assert.equal(((await call(emu, 'GET', `/threads/${conversationId}/messages`)).json.messages as Json[]).length, 3, 'the thread stays');
    });
  });
});
