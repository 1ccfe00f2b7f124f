import * as assert from 'node:assert/strict';
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RedirectError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  TooLargeError,
  ValidationError,
} from '../../src/api';
import { clientFor, rejectsWith, seen, useEmulator } from './helpers';

describe('api: errors', () => {
  const emulator = useEmulator();

  const byStatus: [number, new (...a: never[]) => ApiError][] = [
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [413, TooLargeError],
    [422, ValidationError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
  ];
  for (const [status, type] of byStatus) {
    it(`maps ${status} to ${type.name} with the server's detail`, async () => {
      emulator().addFault({
        kind: 'status',
        status,
        path: '/usage',
        times: Infinity,
        body: { title: 'Title text', status, detail: `Detail for ${status}` },
        retryAfter: '0',
      });
      const error = await rejectsWith(clientFor(emulator(), { retry: { maxRetries: 0 } }).getUsage(), type);
      assert.equal(error.status, status);
      assert.equal(error.endpoint, 'GET /usage');
      assert.match(error.message, new RegExp(`Detail for ${status}`));
    });
  }

  it('a wrong key is an AuthenticationError with the auth layer message', async () => {
    const error = await rejectsWith(clientFor(emulator(), { apiKey: 'tfai_wrong' }).getUsage(), AuthenticationError);
    assert.equal(error.message, 'Invalid or missing API key');
  });

  it('reads the message from detail, then title, error, message', async () => {
    const bodies: [unknown, string][] = [
      [{ title: 'T', detail: 'D', error: 'E', message: 'M' }, 'D'],
      [{ title: 'T', error: 'E', message: 'M' }, 'T'],
      [{ error: 'E', message: 'M' }, 'E'],
      [{ message: 'M' }, 'M'],
      [{}, 'Not allowed'], // nothing to read: the status's own words
    ];
    for (const [body, expected] of bodies) {
      emulator().addFault({ kind: 'status', status: 403, path: '/storage', body });
      const error = await rejectsWith(clientFor(emulator()).getStorage(), PermissionError);
      assert.equal(error.message, expected);
    }
  });

  it('422 keeps the field details the server sent', async () => {
    const error = await rejectsWith(clientFor(emulator()).submitTask({ prompt: 'p', modelId: 'nobody/unknown-model' }), ValidationError);
    assert.equal(error.status, 422);
    assert.ok(error.fieldErrors.length >= 1);
    assert.ok(error.fieldErrors.some(f => f.location === 'body.modelId'), JSON.stringify(error.fieldErrors));
    assert.match(error.message, /body\.modelId/);
  });

  it('429 carries the Retry-After delay in ms', async () => {
    emulator().addFault({ kind: 'status', status: 429, path: '/usage', retryAfter: '7' });
    const error = await rejectsWith(clientFor(emulator()).getUsage({ retry: false }), RateLimitError);
    assert.equal(error.retryAfterMs, 7000);
  });

  it('malformed JSON names the endpoint', async () => {
    emulator().addFault({ kind: 'malformedJson', path: '/usage' });
    const error = await rejectsWith(clientFor(emulator()).getUsage(), ResponseFormatError);
    assert.match(error.message, /GET \/usage.*not valid JSON/);
  });

  it('a schema-invalid body names the endpoint and the field', async () => {
    const client = clientFor(emulator());
    const { taskId } = await client.submitTask({ prompt: 'p' });
    emulator().addFault({ kind: 'schemaInvalid', path: '/status/' });
    const error = await rejectsWith(client.getTaskStatus(taskId), ResponseFormatError);
    assert.match(error.message, /GET \/status\/\{taskId\}: field "[a-zA-Z]+"/);
  });

  it('keeps unknown fields and an unknown status value as they are', async () => {
    emulator().addFault({
      kind: 'status',
      status: 200,
      path: '/status/',
      body: { taskId: 'task_x', status: 'queued_for_review', userId: 1, options: {}, novelField: { a: 1 } },
    });
    const state = await clientFor(emulator()).getTaskStatus('task_x');
    assert.equal(state.status, 'queued_for_review');
    assert.deepEqual((state as Record<string, unknown>).novelField, { a: 1 });
  });

  it('a response slower than the timeout is a TimeoutError', async () => {
    emulator().addFault({ kind: 'delay', ms: 1_000, path: '/usage', times: Infinity });
    const started = Date.now();
    await rejectsWith(clientFor(emulator()).getUsage({ timeoutMs: 150, retry: false }), TimeoutError);
    assert.ok(Date.now() - started < 900, 'gave up at the timeout');
  });

  it('an AbortSignal cancels the call with an AbortedError', async () => {
    emulator().addFault({ kind: 'delay', ms: 1_000, path: '/usage' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await rejectsWith(clientFor(emulator()).getUsage({ signal: controller.signal }), AbortedError);
    assert.ok(Date.now() - started < 900);
  });

  it('a dropped connection is a ConnectionError', async () => {
    emulator().addFault({ kind: 'drop', path: '/usage', times: Infinity });
    await rejectsWith(clientFor(emulator()).getUsage({ retry: false }), ConnectionError);
  });

  it('a connection reset mid-body is a ConnectionError', async () => {
    emulator().addFault({ kind: 'dropMidBody', path: '/usage', times: Infinity });
    await rejectsWith(clientFor(emulator()).getUsage({ retry: false }), ConnectionError);
  });

  it('a refused connection is a ConnectionError that says the request was not sent', async () => {
    const client = clientFor(emulator(), { baseUrl: 'http://127.0.0.1:1/api/v1/developer' });
    const error = await rejectsWith(client.getUsage({ retry: false }), ConnectionError);
    assert.equal(error.notSent, true);
    assert.match(error.message, /connection refused/);
  });

  describe('redirects', () => {
    it('never follows a redirect to another origin with the key', async () => {
      emulator().addFault({ kind: 'redirect', to: 'otherOrigin', path: '/usage' });
      const error = await rejectsWith(clientFor(emulator()).getUsage(), RedirectError);
      assert.match(error.message, /another origin/);
      assert.ok(!error.message.includes(emulator().apiKey));
      assert.equal(emulator().otherOriginRequests.filter(r => r.headers['x-api-key']).length, 0);
    });

    it('follows a download redirect to another origin without the key', async () => {
      const client = clientFor(emulator());
      const file = await client.uploadFile({ data: Buffer.from('hello'), filename: 'r.txt' });
      emulator().addFault({ kind: 'redirect', to: 'otherOrigin', path: '/content' });
      // The other origin serves the same API, so without the key it answers 401: proof the key stayed home.
      // (Not followed would be a RedirectError; followed with the key would succeed.)
      const error = await rejectsWith(client.downloadFile(file.id), AuthenticationError);
      assert.equal(error.status, 401);
      const there = emulator().otherOriginRequests;
      assert.equal(there.length, 1, 'the redirect was followed');
      assert.equal(there[0].headers['x-api-key'], undefined);
    });

    it('follows a redirect within the same origin, with the key', async () => {
      emulator().addFault({ kind: 'redirect', to: 'sameOrigin', path: '/usage', status: 307 });
      const usage = await clientFor(emulator()).getUsage();
      assert.ok(usage.usageHistory);
      const hops = seen(emulator(), '/usage');
      assert.equal(hops.length, 2);
      assert.equal(hops[1].headers['x-api-key'], emulator().apiKey);
    });

    it('does not follow a redirect of a submission', async () => {
      emulator().addFault({ kind: 'redirect', to: 'sameOrigin', path: '/run', status: 307 });
      await rejectsWith(clientFor(emulator()).submitTask({ prompt: 'p' }), RedirectError);
      assert.equal(seen(emulator(), '/run').length, 1);
    });
  });
});
