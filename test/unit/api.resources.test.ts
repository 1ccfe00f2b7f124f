import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  AbortedError,
  InvalidRequestError,
  NotFoundError,
  TimeoutError,
  TooLargeError,
  filenameFromDisposition,
  isTerminalStatus,
} from '../../src/api';
import { clientFor, rejectsWith, seen, useEmulator, waitFor } from './helpers';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('api: files, threads, account', () => {
  const emulator = useEmulator();
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mat-unit-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('files', () => {
    it('uploads from disk, lists, gets, downloads the exact bytes with the name, and deletes', async () => {
      const client = clientFor(emulator());
      // A PNG by its first bytes (the service judges types by content), binary after that.
      const bytes = Buffer.concat([PNG_SIGNATURE, randomBytes(1024 * 1024 + 17)]);
      const file = path.join(dir, 'données é.bin');
      writeFileSync(file, bytes);
      let progress = 0;
      const uploaded = await client.uploadFile({ path: file }, { onProgress: sent => (progress = sent) });
      assert.equal(uploaded.filename, 'données é.bin');
      assert.equal(uploaded.bytes, bytes.length);
      assert.equal(uploaded.purpose, 'assistants');
      assert.ok(progress >= bytes.length, `progress reported ${progress}`);

      const listed = await client.listFiles({ limit: 10, offset: 0 });
      assert.ok(listed.files?.some(f => f.id === uploaded.id));
      assert.equal(seen(emulator(), '/files?limit=10&offset=0', 'GET').length, 1);

      assert.equal((await client.getFile(uploaded.id)).bytes, bytes.length);

      const download = await client.downloadFile(uploaded.id);
      assert.equal(download.filename, 'données é.bin');
      assert.equal(download.contentLength, bytes.length);
      assert.ok((await readAll(download.stream)).equals(bytes));

      const deleted = await client.deleteFile(uploaded.id);
      assert.equal(deleted.deleted, true);
      await rejectsWith(client.getFile(uploaded.id), NotFoundError);
    });

    it('pages with limit and offset', async () => {
      const client = clientFor(emulator());
      for (let i = 0; i < 3; i++) await client.uploadFile({ data: Buffer.from(`f${i}`), filename: `page${i}.txt` });
      const first = await client.listFiles({ limit: 2, offset: 0 });
      const second = await client.listFiles({ limit: 2, offset: 2 });
      assert.equal(first.files?.length, 2);
      assert.equal(first.limit, 2);
      assert.ok((second.files?.length ?? 0) >= 1);
      const ids = new Set([...(first.files ?? []), ...(second.files ?? [])].map(f => f.id));
      assert.equal(ids.size, (first.files?.length ?? 0) + (second.files?.length ?? 0), 'pages do not overlap');
    });

    it('refuses a type the service does not store, judged by the bytes, before sending anything', async () => {
      const file = path.join(dir, 'archive.txt');
      writeFileSync(file, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 1, 2, 3]));
      // A check before sending (not an "earlier API form" refusal, which UnsupportedError means).
      const error = await rejectsWith(clientFor(emulator()).uploadFile({ path: file }), InvalidRequestError);
      assert.match(error.message, /archive\.txt reads as application\/zip, a type the service does not store.*Nothing was uploaded/);
      assert.equal(emulator().requests.length, 0);
    });

    it('uploads a file over the platform request limit through the direct flow, without the key at the blob store', async () => {
      const emu = emulator();
      emu.configure({ bodyLimitBytes: 4_500_000, sniffUploads: true });
      const client = clientFor(emu);
      const bytes = Buffer.from('0123456789abcdef\n'.repeat(500_000)); // 8.5 MB of text
      const file = path.join(dir, 'large notes.txt');
      writeFileSync(file, bytes);
      let progress = 0;
      const uploaded = await client.uploadFile({ path: file }, { onProgress: sent => (progress = sent) });
      assert.equal(uploaded.bytes, bytes.length);
      assert.equal(progress, bytes.length);
      assert.deepStrictEqual(
        emu.requests.filter(r => r.method !== 'GET').map(r => `${r.method} ${r.path}`),
        ['POST /api/v1/developer/files/upload-token', 'POST /api/v1/developer/files/complete'],
      );
      const put = emu.otherOriginRequests.find(r => r.method === 'PUT');
      assert.ok(put, 'the bytes went to the blob store');
      assert.equal(put.headers['x-api-key'], undefined, 'never the API key to the blob store');
      assert.match(String(put.headers.authorization), /^Bearer /);
      // What the blob store needs to keep the blob at exactly the pathname that files/complete looks up.
      assert.equal(put.headers['x-api-version'], '9');
      assert.equal(put.headers['x-add-random-suffix'], '0');
      assert.equal(put.headers['x-content-type'], 'text/plain');
      assert.equal(put.headers['x-access'], 'private');
      assert.ok(emu.files().find(f => f.id === uploaded.id)?.bytes.equals(bytes), 'the service stored exactly these bytes');
    });

    it('refuses a file over 10 MB before sending anything', async () => {
      const big = path.join(dir, 'big.bin');
      writeFileSync(big, Buffer.alloc(11 * 1024 * 1024));
      const error = await rejectsWith(clientFor(emulator()).uploadFile({ path: big }), TooLargeError);
      assert.match(error.message, /big\.bin is 11\.0 MB.*10 MB/);
      await rejectsWith(clientFor(emulator()).uploadAttachment({ path: big }), TooLargeError);
      assert.equal(emulator().requests.length, 0);
    });

    it('reads file names from Content-Disposition safely', () => {
      assert.equal(filenameFromDisposition(`attachment; filename="a b.txt"`), 'a b.txt');
      assert.equal(filenameFromDisposition(`attachment; filename="x.txt"; filename*=UTF-8''%C3%A9t%C3%A9.md`), 'été.md');
      assert.equal(filenameFromDisposition(`attachment; filename="../../etc/passwd"`), 'passwd');
      assert.equal(filenameFromDisposition(`attachment; filename=plain.csv`), 'plain.csv');
      assert.equal(filenameFromDisposition('inline'), undefined);
      assert.equal(filenameFromDisposition(undefined), undefined);
    });
  });

  describe('attachments', () => {
    it('uploads attachments and sends their ids with a task that the service resolves', async () => {
      const client = clientFor(emulator());
      const a = await client.uploadAttachment({ data: Buffer.from('alpha'), filename: 'alpha.txt' });
      const b = await client.uploadAttachment({ data: Buffer.from('# beta'), filename: 'beta.md' });
      assert.equal(a.size, 5);
      assert.equal(a.mime_type, 'text/plain');
      const { taskId } = await client.submitTask({ prompt: 'use the files', attachmentIds: [a.id, b.id] });
      assert.deepEqual((seen(emulator(), '/run', 'POST')[0].body as { attachment_ids: string[] }).attachment_ids, [a.id, b.id]);
      const done = await waitFor(async () => {
        const s = await client.getTaskStatus(taskId);
        return isTerminalStatus(s.status) ? s : undefined;
      });
      assert.match(done.result ?? '', /alpha\.txt/);
      assert.match(done.result ?? '', /beta\.md/);
    });
  });

  describe('threads', () => {
    it('creates, lists, gets, runs in a thread and lists the new messages', async () => {
      const client = clientFor(emulator());
      const thread = await client.createThread({ title: 'Refactoring chat' });
      const list = await client.listThreads({ limit: 50 });
      assert.ok(list.conversations?.some(t => t.id === thread.id));
      assert.equal(typeof list.has_more, 'boolean');
      assert.equal((await client.getThread(thread.id)).id, thread.id);

      const run = await client.runInThread(thread.id, { prompt: 'Rename the variables' });
      assert.match(run.taskId, /^task_/);
      assert.equal(String(run.threadId), String(thread.id));
      await waitFor(async () => {
        const s = await client.getTaskStatus(run.taskId);
        return isTerminalStatus(s.status) ? s : undefined;
      });
      const messages = await waitFor(async () => {
        const m = (await client.listThreadMessages(thread.id)).messages ?? [];
        return m.some(x => x.role === 'assistant') ? m : undefined;
      });
      assert.equal(messages[0].role, 'user');
      assert.equal(messages[0].content, 'Rename the variables');
      assert.ok(messages.find(m => m.role === 'assistant')?.content?.includes('Rename the variables'));
    });

    it('another user cannot see the thread', async () => {
      const mine = await clientFor(emulator()).createThread({ title: 'private' });
      const other = clientFor(emulator(), { apiKey: 'tfai_other_0123456789abcdef' });
      await rejectsWith(other.getThread(mine.id), NotFoundError);
    });
  });

  describe('account', () => {
    it('reads usage with history and per-key rows, and storage', async () => {
      const client = clientFor(emulator());
      const usage = await client.getUsage();
      assert.ok((usage.usageHistory?.length ?? 0) > 0);
      assert.ok(usage.usageHistory?.every(h => typeof h.date === 'string' && typeof h.count === 'number'));
      assert.ok((usage.apiKeys?.length ?? 0) >= 1);
      assert.equal(typeof usage.monthlyQuota, 'number');
      await client.uploadFile({ data: Buffer.from('x'.repeat(1000)), filename: 'storage.txt' });
      const storage = await client.getStorage();
      assert.ok(storage.usedBytes >= 1000);
      assert.ok(storage.quotaBytes > storage.usedBytes);
    });

    it('lists models from the platform address', async () => {
      const models = await clientFor(emulator()).listModels();
      assert.ok((models.options?.length ?? 0) >= 2);
      assert.ok(models.options?.every(m => m.id.includes('/')));
      assert.ok(models.options?.some(m => m.id === models.defaultModelId));
      assert.equal(seen(emulator(), '/api/v1/models').length, 1);
    });
  });

  describe('task stream', () => {
    it('follows a task over Server-Sent Events to its terminal state', async () => {
      const client = clientFor(emulator());
      const { taskId } = await client.submitTask({ prompt: 'stream me' });
      const states: string[] = [];
      const final = await client.streamTask(taskId, { onState: s => states.push(s.status) });
      assert.equal(final.status, 'completed');
      assert.ok(final.result?.includes('stream me'));
      assert.ok(states.length >= 2, `states: ${states}`);
      assert.equal(states[states.length - 1], 'completed');
      const [req] = seen(emulator(), '/api/v1/stream/');
      assert.equal(req.headers['x-api-key'], emulator().apiKey);
    });

    it('gives up on a stream that goes quiet, with a TimeoutError', async () => {
      const client = clientFor(emulator());
      emulator().setNextTask({ durationMs: 10_000 });
      const { taskId } = await client.submitTask({ prompt: 'quiet stream' });
      const started = Date.now();
      const error = await rejectsWith(client.streamTask(taskId, { idleTimeoutMs: 300 }), TimeoutError);
      assert.match(error.message, /went quiet/);
      assert.ok(Date.now() - started < 1_500, 'at the idle timeout, not at the next event (2 s later)');
    });

    it('an abort ends a stream at once', async () => {
      const client = clientFor(emulator());
      emulator().setNextTask({ durationMs: 10_000 });
      const { taskId } = await client.submitTask({ prompt: 'abort the stream' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await rejectsWith(client.streamTask(taskId, { signal: controller.signal }), AbortedError);
      assert.ok(Date.now() - started < 1_500, 'not at the next event (2 s later)');
    });

    it('fails with NotFoundError when the service does not offer the stream', async () => {
      emulator().setStreamEnabled(false);
      const client = clientFor(emulator());
      const { taskId } = await client.submitTask({ prompt: 'no stream' });
      await rejectsWith(client.streamTask(taskId), NotFoundError);
    });
  });
});
