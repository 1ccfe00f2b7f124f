import * as assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConfigurationError,
  DeveloperApiClient,
  InvalidRequestError,
  UnsupportedError,
  isTerminalStatus,
} from '../../src/api';
import { MemoryLogger, clientFor, rejectsWith, seen, useEmulator, waitFor } from './helpers';

describe('api: tasks', () => {
  const emulator = useEmulator();

  it('submits a task, follows it to completed and reads the synthesized result from status and /results', async () => {
    const client = clientFor(emulator());
    const prompt = 'Explain this function\n\n```ts\nexport const add = (a: number, b: number) => a + b;\n```';
    const submitted = await client.submitTask({ prompt, agentCount: 3 });
    assert.match(submitted.taskId, /^task_/);
    assert.equal(submitted.status, 'processing');

    const first = await client.getTaskStatus(submitted.taskId);
    assert.equal(first.status, 'processing');
    assert.equal(first.result ?? undefined, undefined);

    const done = await waitFor(async () => {
      const s = await client.getTaskStatus(submitted.taskId);
      return isTerminalStatus(s.status) ? s : undefined;
    });
    assert.equal(done.status, 'completed');
    assert.ok(done.result?.includes('Explain this function'), `result quotes the prompt: ${done.result}`);

    const result = await client.getTaskResult(submitted.taskId);
    assert.equal(result.status, 'completed');
    assert.equal(result.result, done.result);
  });

  it('answers /results with the status only while the task runs', async () => {
    emulator().setTaskDuration(5_000);
    const client = clientFor(emulator());
    const { taskId } = await client.submitTask({ prompt: 'slow one' });
    const early = await client.getTaskResult(taskId);
    assert.equal(early.status, 'processing');
    assert.equal(early.result ?? undefined, undefined);
  });

  it('sends the current form body: modelId at top level, options, attachment_ids, role_models and the gateway key only when set', async () => {
    const client = clientFor(emulator());
    await client.submitTask({ prompt: 'plain' });
    await client.submitTask({
      prompt: 'full',
      modelId: 'zai/glm-5.2',
      agentCount: 2,
      silent: true,
      mock: true,
      budgetUsd: 1.5,
      roleModels: { critic: 'openai/gpt-5.1' },
      gatewayKey: 'gw-secret',
    });
    const [plain, full] = seen(emulator(), '/api/v1/developer/run', 'POST').map(r => r.body);
    assert.deepEqual(plain, { prompt: 'plain' });
    assert.deepEqual(full, {
      prompt: 'full',
      modelId: 'zai/glm-5.2',
      options: { agentCount: 2, silent: true, mock: true, budget: 1.5 },
      role_models: { critic: 'openai/gpt-5.1' },
      vercelAiKey: 'gw-secret',
    });
  });

  it('sends the x-api-key and a User-Agent naming the extension', async () => {
    await clientFor(emulator()).submitTask({ prompt: 'headers' });
    const [req] = seen(emulator(), '/run', 'POST');
    assert.equal(req.headers['x-api-key'], emulator().apiKey);
    assert.match(String(req.headers['user-agent']), /^multi-agent-tasks-vscode\//);
  });

  it('logs one line per request with method, path, status and ms, never the key', async () => {
    const logger = new MemoryLogger();
    const client = clientFor(emulator(), { logger });
    const { taskId } = await client.submitTask({ prompt: 'log me' });
    await client.getTaskStatus(taskId);
    assert.equal(logger.lines.length, 2);
    assert.match(logger.lines[0], /^info POST \/api\/v1\/developer\/run → 200 \(\d+ ms\)$/);
    assert.match(logger.lines[1], new RegExp(`^info GET /api/v1/developer/status/${taskId} → 200 \\(\\d+ ms\\)$`));
    assert.ok(!logger.lines.join('\n').includes(emulator().apiKey));
  });

  describe('checks before sending (a clear error and no request)', () => {
    const cases: [string, Parameters<DeveloperApiClient['submitTask']>[0], RegExp][] = [
      ['an empty prompt', { prompt: '   ' }, /empty/],
      ['a prompt of 10,001 characters', { prompt: 'x'.repeat(10_001) }, /10,001 characters.*at most 10,000/],
      ['agentCount 0', { prompt: 'p', agentCount: 0 }, /1 to 8/],
      ['agentCount 9', { prompt: 'p', agentCount: 9 }, /1 to 8/],
      ['agentCount 2.5', { prompt: 'p', agentCount: 2.5 }, /1 to 8/],
      ['six attachments', { prompt: 'p', attachmentIds: ['a', 'b', 'c', 'd', 'e', 'f'] }, /At most 5/],
      ['a negative budget', { prompt: 'p', budgetUsd: -1 }, /budget/],
    ];
    for (const [name, request, message] of cases) {
      it(`refuses ${name}`, async () => {
        const error = await rejectsWith(clientFor(emulator()).submitTask(request), InvalidRequestError);
        assert.match(error.message, message);
        assert.equal(emulator().requests.length, 0);
      });
    }

    it('accepts exactly 10,000 characters, counted as code points', async () => {
      const prompt = '😀'.repeat(10_000); // 20,000 UTF-16 units, 10,000 characters
      await clientFor(emulator()).submitTask({ prompt });
      assert.equal(seen(emulator(), '/run').length, 1);
    });

    it('refuses a missing key without a request', async () => {
      const error = await rejectsWith(clientFor(emulator(), { apiKey: '' }).submitTask({ prompt: 'p' }), AuthenticationError);
      assert.match(error.message, /No API key/);
      assert.equal(emulator().requests.length, 0);
    });

    it('reads the key from a provider at call time', async () => {
      let key: string | undefined;
      const client = clientFor(emulator(), { apiKey: () => key });
      await rejectsWith(client.getUsage(), AuthenticationError);
      key = emulator().apiKey;
      await client.getUsage();
      assert.equal(seen(emulator(), '/usage').length, 1);
    });
  });

  describe('addresses', () => {
    it('refuses plain http to a host that is not loopback', () => {
      assert.throws(
        () => new DeveloperApiClient({ baseUrl: 'http://api.example.com/api/v1/developer', apiKey: 'k' }),
        (e: unknown) => e instanceof ConfigurationError && /plain http/.test(e.message),
      );
    });
    it('refuses a base URL that is not a URL', () => {
      assert.throws(() => new DeveloperApiClient({ baseUrl: 'not a url', apiKey: 'k' }), ConfigurationError);
    });
    it('accepts https anywhere and http on loopback, and derives platform and stream addresses', () => {
      const prod = new DeveloperApiClient({ baseUrl: 'https://taskforceai.chat/api/v1/developer/', apiKey: 'k' });
      assert.deepEqual(prod.addresses, {
        form: 'current',
        baseUrl: 'https://taskforceai.chat/api/v1/developer',
        platformUrl: 'https://taskforceai.chat',
        streamUrl: 'https://engine.taskforceai.chat',
      });
      const local = new DeveloperApiClient({ baseUrl: 'http://localhost:9/api/developer', apiKey: 'k' });
      assert.equal(local.addresses.form, 'earlier');
      assert.equal(local.addresses.streamUrl, 'http://localhost:9');
      const custom = new DeveloperApiClient({
        baseUrl: 'https://gw.example/api/v1/developer',
        platformUrl: 'https://platform.example/',
        apiKey: 'k',
      });
      assert.equal(custom.addresses.platformUrl, 'https://platform.example');
      assert.equal(custom.addresses.streamUrl, 'https://platform.example');
    });
  });

  describe('the earlier API form', () => {
    it('sends the model inside options and runs a task to completion', async () => {
      const client = clientFor(emulator(), { baseUrl: emulator().legacyBaseUrl });
      const { taskId } = await client.submitTask({ prompt: 'old form', modelId: 'zai/glm-5.2', agentCount: 2 });
      const [req] = seen(emulator(), '/api/developer/run', 'POST');
      assert.deepEqual(req.body, { prompt: 'old form', options: { agentCount: 2, modelId: 'zai/glm-5.2' } });
      const done = await waitFor(async () => {
        const s = await client.getTaskStatus(taskId);
        return s.status === 'completed' ? s : undefined;
      });
      assert.ok(done.result?.includes('old form'));
      const result = await client.getTaskResult(taskId);
      assert.equal(result.result, done.result);
    });

    it('fails every other call at once with "not available on the earlier API form"', async () => {
      const client = clientFor(emulator(), { baseUrl: emulator().legacyBaseUrl });
      const calls: (() => Promise<unknown>)[] = [
        () => client.listThreads(),
        () => client.createThread({ title: 't' }),
        () => client.getThread(1),
        () => client.listThreadMessages(1),
        () => client.runInThread(1, { prompt: 'p' }),
        () => client.listFiles(),
        () => client.uploadFile({ data: new Uint8Array([1]), filename: 'a.bin' }),
        () => client.getFile('f'),
        () => client.deleteFile('f'),
        () => client.downloadFile('f'),
        () => client.getUsage(),
        () => client.getStorage(),
        () => client.uploadAttachment({ data: new Uint8Array([1]), filename: 'a.bin' }),
      ];
      for (const call of calls) {
        const error = await rejectsWith(Promise.resolve().then(call), UnsupportedError);
        assert.match(error.message, /not available on the earlier API form/);
      }
      assert.equal(emulator().requests.length, 0);
    });
  });
});
