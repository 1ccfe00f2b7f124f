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
  isTerminalStatus,
  multipartBytes,
  rateLimitScope,
  serviceCondition,
} from '../../src/api';
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

    it('the plan limit on /run: its own scope, one request, never retried', async () => {
      const emu = emulator();
      emu.addFault({ kind: 'status', status: 429, path: /\/run$/, method: 'POST', body: problem(429, 'User rate limit exceeded') });
      const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'one more task' }), RateLimitError);
      assert.equal(error.scope, 'plan');
      assert.equal(error.transient, false);
      assert.equal(error.message, 'User rate limit exceeded');
      assert.equal(seen(emu, '/run', 'POST').length, 1);
      assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'rateLimit', scope: 'plan' });
    });

    it('the plan limit on a thread run: the same', async () => {
      const emu = emulator();
      const thread = await clientFor(emu).createThread({ title: 'limits' });
      emu.addFault({ kind: 'status', status: 429, path: /\/runs$/, method: 'POST', body: problem(429, 'User rate limit exceeded') });
      const error = await rejectsWith(clientFor(emu).runInThread(thread.id, { prompt: 'again' }), RateLimitError);
      assert.equal(error.scope, 'plan');
      assert.equal(seen(emu, '/runs', 'POST').length, 1);
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

    it('the attachment upload limit (30 a minute): its own scope', async () => {
      const emu = emulator();
      emu.addFault({ kind: 'status', status: 429, path: '/attachments/upload', body: problem(429, 'Attachment upload rate limit exceeded') });
      const error = await rejectsWith(clientFor(emu).uploadAttachment({ data: Buffer.from('notes'), filename: 'n.txt' }), RateLimitError);
      assert.equal(error.scope, 'attachments');
    });
  });

  describe('refusals that are not a wrong key', () => {
    it('403 "Account disabled" is a disabled account', async () => {
      const emu = emulator();
      emu.addFault({ kind: 'status', status: 403, path: /\/run$/, body: problem(403, 'Account disabled') });
      const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'p' }), PermissionError);
      assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'accountDisabled' });
    });

    it('503 "Authentication backend unavailable" is passing trouble: a read retries it, /run is sent once', async () => {
      const emu = emulator();
      for (const detail of ['Authentication backend unavailable', 'Developer API rate limiter unavailable']) {
        emu.clearFaults();
        emu.resetStats();
        emu.addFault({ kind: 'status', status: 503, path: '/threads', times: 2, body: problem(503, detail) });
        await clientFor(emu).listThreads();
        assert.equal(seen(emu, '/threads', 'GET').length, 3, `${detail}: retried until it passed`);
        emu.addFault({ kind: 'status', status: 503, path: /\/run$/, body: problem(503, detail) });
        const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'p' }), ServerError);
        assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'authUnavailable' });
        assert.equal(seen(emu, '/run', 'POST').length, 1);
      }
    });

    it('403 for a model the plan lacks names the model', async () => {
      const emu = emulator();
      emu.addFault({ kind: 'status', status: 403, path: /\/run$/, body: problem(403, 'model "openai/gpt-5-pro" requires a Pro or Super subscription') });
      const error = await rejectsWith(clientFor(emu).submitTask({ prompt: 'p', modelId: 'openai/gpt-5-pro' }), PermissionError);
      assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'modelNeedsPlan', model: 'openai/gpt-5-pro' });
    });

    it('403 "Storage quota exceeded" on an upload', async () => {
      const emu = emulator();
      emu.addFault({ kind: 'status', status: 403, path: '/files', method: 'POST', body: problem(403, 'Storage quota exceeded') });
      const error = await rejectsWith(clientFor(emu).uploadFile({ data: Buffer.from('notes'), filename: 'n.txt' }), PermissionError);
      assert.deepEqual(serviceCondition(error.kind, error.message), { condition: 'storageQuota' });
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
