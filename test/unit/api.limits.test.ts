/**
 * The service's limits and refusals as the client reads them (issue 17, item 2), over HTTP to the emulator:
 * the plan's task limit and the verbatim 429s by scope (never retried when waiting cannot help), a disabled
 * account, a passing authentication outage, a model the plan lacks, a full storage; attachments judged
 * before any byte is sent and uploaded to the engine address.
 */
import * as assert from 'node:assert/strict';
import {
  InvalidRequestError,
  PLATFORM_BODY_LIMIT_BYTES,
  PermissionError,
  RateLimitError,
  ServerError,
  TooLargeError,
  ValidationError,
  isTerminalStatus,
  judgeUpload,
  multipartBytes,
  rateLimitScope,
  serviceCondition,
} from '../../src/api';
import { SECOND_API_KEY } from '../emulator/server';
import { clientFor, rejectsWith, seen, useEmulator, waitFor } from './helpers';

const problem = (status: number, detail: string) => ({ status, detail });


describe('api: limits and refusals of the live service', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  describe('429 by scope', () => {
    it('reads each verbatim 429 text as its scope', () => {
      assert.equal(rateLimitScope('User rate limit exceeded'), 'plan');
      assert.equal(rateLimitScope('Developer API hourly rate limit exceeded'), 'hourly');
      assert.equal(rateLimitScope('Developer API monthly quota exceeded'), 'monthly');
      assert.equal(rateLimitScope('Task execution capacity reached, retry later'), 'capacity');
      assert.equal(rateLimitScope('Attachment upload rate limit exceeded'), 'attachments');
      // Older wordings (and the emulator's) still land in the right scope.
      assert.equal(rateLimitScope('Rate limit exceeded: hourly request limit reached for this API key'), 'hourly');
      assert.equal(rateLimitScope('Monthly quota exceeded for this API key'), 'monthly');
      assert.equal(rateLimitScope('Rate limit exceeded: capacity reached, retry later'), 'capacity');
      assert.equal(rateLimitScope('Too Many Requests'), 'unknown');
    });

    it("the plan limit (the emulator's free plan: 1 task per 7 days) on /run and a thread run: its own scope, one request each, never retried", async () => {
      const emu = emulator();
      emu.setPlan(emu.apiKey, 'free');
      try {
        const client = clientFor(emu);
        await client.submitTask({ prompt: 'the one task of the week' });
        const error = await rejectsWith(client.submitTask({ prompt: 'one more task' }), RateLimitError);
        assert.equal(error.message, 'User rate limit exceeded');
        assert.equal(error.scope, 'plan');
        assert.equal(error.transient, false);
        assert.equal(seen(emu, '/run', 'POST').length, 2, 'the refused one was sent once');
        assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'rateLimit', scope: 'plan' });

        const thread = await client.createThread({ title: 'limits' });
        const inThread = await rejectsWith(client.runInThread(thread.id, { prompt: 'again' }), RateLimitError);
        assert.equal(inThread.scope, 'plan');
        assert.equal(seen(emu, '/runs', 'POST').length, 1);
      } finally {
        emu.setPlan(emu.apiKey, 'unlimited');
      }
    });

    it('a read retries a capacity or hourly 429, not a plan limit or a monthly quota', async () => {
      const emu = emulator();
      const { taskId } = await clientFor(emu).submitTask({ prompt: 'status reads' });
      const cases = [
        ['Task execution capacity reached, retry later', 4],
        ['Developer API hourly rate limit exceeded', 4],
        ['User rate limit exceeded', 1],
        ['Developer API monthly quota exceeded', 1],
      ] as const;
      for (const [detail, requests] of cases) {
        emu.clearFaults();
        emu.resetStats();
        emu.addFault({ kind: 'status', status: 429, path: '/status/', times: Infinity, body: problem(429, detail) });
        await rejectsWith(clientFor(emu).getTaskStatus(taskId), RateLimitError);
        assert.equal(seen(emu, '/status/', 'GET').length, requests, detail);
      }
    });

    it('the attachment upload limit (30 a minute): its own scope, not retried', async () => {
      const emu = emulator();
      const client = clientFor(emu);
      for (let i = 0; i < 30; i++) await client.uploadAttachment({ data: Buffer.from(`note ${i}`), filename: `n${i}.txt` });
      const error = await rejectsWith(client.uploadAttachment({ data: Buffer.from('one too many'), filename: 'n.txt' }), RateLimitError);
      assert.equal(error.message, 'Attachment upload rate limit exceeded');
      assert.equal(error.scope, 'attachments');
      assert.equal(seen(emu, '/attachments/upload', 'POST').length, 31);
      emu.advanceClock(61_000);
    });
  });

  describe('refusals that are not a wrong key', () => {
    it('403 "Account disabled" is a disabled account', async () => {
      const emu = emulator();
      emu.setKeyState(emu.apiKey, 'disabled');
      try {
        const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'p' }), PermissionError);
        assert.equal(error.message, 'Account disabled');
        assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'accountDisabled' });
      } finally {
        emu.setKeyState(emu.apiKey, 'active');
      }
    });

    it('503 from the authentication or rate-limit backend is passing trouble: a read retries it, /run is sent once', async () => {
      const emu = emulator();
      for (const state of ['authUnavailable', 'limiterUnavailable'] as const) {
        emu.resetStats();
        emu.setKeyState(emu.apiKey, state);
        try {
          await rejectsWith(clientFor(emu).listThreads(), ServerError);
          assert.equal(seen(emu, '/threads', 'GET').length, 4, `${state}: a read is retried`);
          const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'p' }), ServerError);
          assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'authUnavailable' }, error.message);
          assert.equal(seen(emu, '/run', 'POST').length, 1, 'a submission is not');
        } finally {
          emu.setKeyState(emu.apiKey, 'active');
        }
      }
    });

    it('403 for a model the plan lacks names the model', async () => {
      // The second user: the first one's free task of the week went to the plan-limit test.
      const emu = emulator();
      emu.setPlan(SECOND_API_KEY, 'free');
      try {
        const error = await rejectsWith(clientFor(emu, { apiKey: SECOND_API_KEY }).submitTask({ prompt: 'p', modelId: 'openai/gpt-5.1' }), PermissionError);
        assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'modelNeedsPlan', model: 'openai/gpt-5.1' });
      } finally {
        emu.setPlan(SECOND_API_KEY, 'unlimited');
      }
    });

    it('403 "Storage quota exceeded" on an upload, multipart and direct', async () => {
      const emu = emulator();
      emu.setStorage(emu.apiKey, { quotaBytes: 1024 });
      try {
        const small = await rejectsWith(clientFor(emu).uploadFile({ data: Buffer.from('x'.repeat(2048)), filename: 'n.txt' }), PermissionError);
        assert.deepEqual(serviceCondition(small.kind, small.message), { condition: 'storageQuota' });
        const large = await rejectsWith(clientFor(emu).uploadFile({ data: Buffer.alloc(5_000_000, 0x61), filename: 'big.txt' }), PermissionError);
        assert.equal(large.endpoint, 'POST /files/upload-token');
        assert.deepEqual(serviceCondition(large.kind, large.message), { condition: 'storageQuota' });
      } finally {
        emu.setStorage(emu.apiKey, { quotaBytes: 40 * 1024 ** 3, usedBytes: 0 });
      }
    });
  });

  describe('attachments', () => {
    it('go to the engine address, with the key, and the task resolves them', async () => {
      const emu = emulator();
      // The engine on its own origin, as in production (the emulator serves the same routes there).
      const client = clientFor(emu, { streamUrl: emu.otherOrigin });
      const attached = await client.uploadAttachment({ data: Buffer.from('# notes\nuse me'), filename: 'notes.md' });
      assert.deepEqual(seen(emu, '/attachments/'), [], 'nothing went to the platform address');
      const upload = emu.otherOriginRequests.find(r => r.path === '/api/v1/attachments/upload');
      assert.ok(upload, 'the upload went to the engine');
      assert.equal(upload.headers['x-api-key'], emu.apiKey, 'the engine is one of the service addresses');
      const { taskId } = await client.submitTask({ prompt: 'read the notes', attachmentIds: [attached.id] });
      const done = await waitFor(async () => {
        const s = await client.getTaskStatus(taskId);
        return isTerminalStatus(s.status) ? s : undefined;
      });
      assert.match(done.result ?? '', /notes\.md/);
    });

    it('a type /run would refuse is refused before anything is sent, with the reason', async () => {
      const emu = emulator();
      const client = clientFor(emu);
      for (const [filename, data, type] of [
        ['page.html', '<!DOCTYPE html>\n<html><body>long page</body></html>', 'text/html'],
        ['feed.xml', '<?xml version="1.0"?><feed/>', 'text/xml'],
        ['notes.md', '<!-- generated -->\n# Notes', 'text/html'],
        ['archive.zip', 'PK\x03\x04rest', 'application/zip'],
        ['blob.bin', '\x00\x01\x02\x03', 'application/octet-stream'],
        ['bmw.txt', 'BMW notes', 'image/bmp'],
      ]) {
        const error = await rejectsWith(client.uploadAttachment({ data: Buffer.from(data, 'latin1'), filename }), InvalidRequestError);
        assert.ok(error.message.includes(`${filename} reads as ${type}`), error.message);
        assert.match(error.message, /Nothing was uploaded/);
      }
      assert.equal(emu.requests.length + emu.otherOriginRequests.length, 0, 'no request at all');
    });

    it('the client refuses exactly what the service refuses at /run (uploaded past the client check, then sent)', async () => {
      const emu = emulator();
      const client = clientFor(emu);
      const cases: [string, string][] = [
        ['page.html', '<!DOCTYPE html><p>x</p>'],
        ['notes.md', '<!-- toc -->\n# Notes'],
        ['plain.md', '# Notes'],
        ['feed.xml', '<?xml version="1.0"?><feed/>'],
        ['logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
        ['bmw.txt', 'BMW notes'],
        ['latin1.txt', 'caf\xe9'],
        ['utf16.txt', '\xff\xfeh\x00i\x00'],
        ['nobom16.txt', 'h\x00i\x00'],
        ['archive.zip', 'PK\x03\x04rest'],
        ['report.docx', 'PK\x03\x04rest'],
        ['table.csv', 'a,b\n1,2'],
        ['blob.bin', '\x00\x01\x02\x03'],
        ['doc.pdf', '%PDF-1.4 x'],
        ['pic.png', '\x89PNG\r\n\x1a\nrest'],
        ['icon.ico', '\x00\x00\x01\x00rest'],
        ['song.mp3', 'ID3\x04\x00rest'],
        ['song.ogg', 'OggS\x00rest'],
        ['js.txt', '<script>x()</script>'],
      ];
      for (const [filename, text] of cases) {
        const bytes = Buffer.from(text, 'latin1');
        const verdict = judgeUpload('attachment', { filename, size: bytes.length, head: bytes });
        // Past the client's own check: the multipart form sent by hand.
        const form = new FormData();
        form.append('file', new Blob([bytes]), filename);
        const response = await fetch(`${emu.origin}/api/v1/attachments/upload`, { method: 'POST', headers: { 'x-api-key': emu.apiKey }, body: form });
        assert.equal(response.status, 200, filename);
        const { id } = (await response.json()) as { id: string };
        const outcome = await client.submitTask({ prompt: `use ${filename}`, attachmentIds: [id] }).then(
          () => 'taken',
          (e: Error) => (e instanceof ValidationError && /unsupported/.test(e.message) ? 'refused' : `failed: ${e.message}`),
        );
        assert.equal(outcome, verdict.ok ? 'taken' : 'refused', `${filename}: the client says ${JSON.stringify(verdict)}`);
      }
    });

    it('the client stores exactly what the service stores (POST /files, past the client check)', async () => {
      const emu = emulator();
      for (const [filename, text] of [
        ['a.txt', 'words'],
        ['a.html', '<html><body>'],
        ['a.svg', '<?xml version="1.0"?><svg/>'],
        ['b.svg', '<svg/>'],
        ['a.docx', 'PK\x03\x04rest'],
        ['a.txt', 'BM bitmap?'],
        ['a.pdf', '%PDF-1.7'],
        ['a.gif', 'GIF89a...'],
        ['a.bin', '\x00\x01'],
      ]) {
        const bytes = Buffer.from(text, 'latin1');
        const verdict = judgeUpload('file', { filename, size: bytes.length, head: bytes });
        const form = new FormData();
        form.append('file', new Blob([bytes]), filename);
        const response = await fetch(`${emu.baseUrl}/files`, { method: 'POST', headers: { 'x-api-key': emu.apiKey }, body: form });
        assert.equal(response.status, verdict.ok ? 200 : 415, `${filename} (${text}): the client says ${JSON.stringify(verdict)}`);
      }
    });

    it('over 4,500,000 bytes with its envelope is refused before sending; one that fits exactly is sent', async () => {
      const emu = emulator();
      const client = clientFor(emu, { timeoutMs: 15_000 });
      const fits = PLATFORM_BODY_LIMIT_BYTES - multipartBytes('big.txt', 0);
      const error = await rejectsWith(client.uploadAttachment({ data: Buffer.alloc(fits + 1, 0x61), filename: 'big.txt' }), TooLargeError);
      assert.match(error.message, /big\.txt is 4\d{6} bytes.*at most 4500000 bytes per request/);
      assert.equal(emu.requests.length, 0);
      const sent = await client.uploadAttachment({ data: Buffer.alloc(fits, 0x61), filename: 'big.txt' });
      assert.equal(sent.size, fits);
      const upload = seen(emu, '/attachments/upload', 'POST')[0];
      assert.equal(Number(upload.headers['content-length']), PLATFORM_BODY_LIMIT_BYTES, 'the request is exactly at the limit');
    });
  });
});
