// Case 1: every error status on every call the extension makes.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { useExtensionWithEmulator, waitFor, workspaceUri } from '../helpers';
import { type Ctx, completedWithResult, finished, orchestrate, requestsTo, runPosts, shownMessage, sleep, statusGets, useSettings } from './common';
import { kase } from './table';

import { GATEWAY_KEY } from './common';
const STATUSES = [400, 401, 403, 404, 413, 422, 429, 500, 502, 503] as const;
type Status = (typeof STATUSES)[number];

const FIELD_ERRORS = {
  title: 'Unprocessable Entity',
  status: 422,
  detail: 'validation failed',
  errors: [{ location: 'body.prompt', message: 'must not contain control characters' }],
};

function fault(status: Status, path: string | RegExp, method?: string, times = 1) {
  return { kind: 'status' as const, status, path, method, times, body: status === 422 ? FIELD_ERRORS : undefined, retryAfter: status === 429 ? '1' : undefined };
}

/** What the user must read for each status: the server's words, and what to do. */
const SUBMIT_MESSAGE: Record<Status, RegExp> = {
  400: /Bad request/,
  401: /rejected the API key/,
  403: /forbidden/,
  404: /Not found \(HTTP 404 from POST \/run\)/,
  413: /too large/i,
  422: /validation failed: body\.prompt: must not contain control characters/,
  // The emulator's default 429 is the capacity one: its own words, and when to try again.
  429: /at capacity \(Task execution capacity reached, retry later\)\. Try again in \d+ s/,
  500: /Internal server error.*not sent again/,
  502: /Bad gateway.*not sent again/,
  503: /unavailable.*not sent again/,
};
const UPLOAD_MESSAGE: Record<Status, RegExp> = {
  ...SUBMIT_MESSAGE,
  404: /Not found \(HTTP 404 from POST \/api\/v1\/attachments\/upload\)/,
  500: /Internal server error \(HTTP 500/,
  502: /Bad gateway \(HTTP 502/,
  503: /unavailable \(HTTP 503/,
};

/** After a 401 the poller waits for a new key: the user enters it again. */
async function answer401(ctx: Ctx): Promise<void> {
  const shown = await shownMessage(ctx, /rejected the API key/);
  assert.deepStrictEqual(shown.actions, ['Set API Key']);
  assert.match(ctx.api.statusBar.item.text, /waiting/, 'the status bar says the task waits');
  await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
}

describe('faults: 1 every status on every call', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 600 });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250 });
  before(async () => {
    // Goes with every submission as vercelAiKey: the secrets scan at the end looks for it everywhere.
    await ctx.api.keys.setGatewayKey(GATEWAY_KEY);
    await vscode.workspace.fs.createDirectory(workspaceUri('fixtures'));
    await vscode.workspace.fs.writeFile(workspaceUri('fixtures', 'large.txt'), Buffer.from('large attachment line\n'.repeat(1200)));
  });

  describe('POST /run', () => {
    for (const status of STATUSES) {
      kase(`1 POST /run ${status}: one request, a clear message, nothing tracked`, async () => {
        ctx.emulator.addFault(fault(status, /\/run$/, 'POST'));
        const task = await orchestrate(ctx, `Run ${status}`);
        assert.strictEqual(task, undefined);
        assert.strictEqual(runPosts(ctx).length, 1, 'exactly one POST /run: never a duplicate submission');
        const shown = await shownMessage(ctx, SUBMIT_MESSAGE[status]);
        if (status === 401) assert.deepStrictEqual(shown.actions, ['Set API Key']);
        assert.ok(!shown.message.includes(ctx.emulator.apiKey));
        assert.strictEqual(ctx.api.store.all().length, 0, 'nothing tracked');
        assert.strictEqual((runPosts(ctx)[0].body as { vercelAiKey?: string }).vercelAiKey, GATEWAY_KEY);
      });
    }
  });

  describe('GET /status/{id}', () => {
    for (const status of STATUSES) {
      kase(`1 GET /status ${status}: the task is kept, polled again, completes`, async () => {
        ctx.emulator.addFault(fault(status, '/status/', 'GET', status === 401 ? 1 : 2));
        const task = await orchestrate(ctx, `Status ${status}`);
        assert.ok(task);
        await waitFor(() => statusGets(ctx).some(r => r.status === status), `a ${status} answer`);
        assert.ok(ctx.api.store.get(task.id), 'kept while the service fails');
        if (status === 401) await answer401(ctx);
        await completedWithResult(ctx, task.id);
        if (process.env.FAULTS_DEBUG) console.log(ctx.emulator.requests.map(r => `${r.method} ${r.path.slice(0, 40)} ${r.status} +${r.startedAt - ctx.emulator.requests[0].startedAt}..${(r.endedAt ?? 0) - ctx.emulator.requests[0].startedAt}`).join('\n'), 'done at', Date.now() - ctx.emulator.requests[0].startedAt);
        assert.strictEqual(runPosts(ctx).length, 1);
        // A 413 means "too large to inline": /results is read instead.
        if (status === 413) assert.ok(requestsTo(ctx, 'GET', '/results/').length >= 1, '/results read after the 413');
        else assert.ok(statusGets(ctx).filter(r => r.status === 200).length >= 1, 'polled again after the fault');
      });
    }

    kase('1 GET /status 429 Retry-After: polling pauses for the whole window, resumes without a burst', async () => {
      ctx.emulator.setTaskDuration(6000);
      const tasks: { id: string }[] = [];
      for (let i = 0; i < 5; i++) tasks.push((await orchestrate(ctx, `Rate limited ${i}`))!);
      await waitFor(() => tasks.every(t => statusGets(ctx).some(r => r.path.includes(t.id) && r.status === 200)), 'every task polled once');
      ctx.emulator.addFault({ kind: 'status', status: 429, path: '/status/', retryAfter: '2' });
      const limited = await waitFor(() => statusGets(ctx).find(r => r.status === 429 && r.endedAt), 'the 429');
      await waitFor(() => /5 tasks waiting/.test(ctx.api.statusBar.item.text), 'the status bar to say the tasks wait', 1000);
      const tooltip = ctx.api.statusBar.item.tooltip as vscode.MarkdownString;
      assert.match(tooltip.value.replace(/&nbsp;/g, ' '), /(Rate limited|at capacity|rate limit is reached): polling resumes at/);
      const end = limited.endedAt! + 2000;
      await sleep(end + 1500 - Date.now());
      const during = statusGets(ctx).filter(r => r.startedAt > limited.endedAt! + 100 && r.startedAt < end - 50);
      assert.deepStrictEqual(during.map(r => `${r.path} at +${r.startedAt - limited.endedAt!} ms`), [], 'no status request during the Retry-After window');
      const resumed = statusGets(ctx).filter(r => r.startedAt >= end - 50).sort((a, b) => a.startedAt - b.startedAt);
      assert.ok(resumed.length >= 3, `polling resumed (${resumed.length} requests)`);
      const burst = resumed.filter(r => r.startedAt < resumed[0].startedAt + 150);
      assert.ok(burst.length <= 4, `no burst after the pause: ${burst.length} requests in the first 150 ms`);
      for (const t of tasks) await completedWithResult(ctx, t.id);
      assert.strictEqual(runPosts(ctx).length, 5);
    });
  });

  describe('GET /results/{id} (a result too large to inline in the status)', () => {
    afterEach(() => ctx.emulator.configure({ resultsLimitBytes: 3 * 1024 * 1024 }));
    for (const status of STATUSES) {
      kase(`1 GET /results ${status}: ${status === 413 ? 'completed, told to open it in the web console' : 'the result is fetched again and cached'}`, async () => {
        // Deliberately kinder: the live /results refuses a result this size; the fault decides here.
        ctx.emulator.configure({ resultsLimitBytes: 0 });
        ctx.emulator.setNextTask({ resultBytes: 3_300_000, durationMs: 400 });
        ctx.emulator.addFault(fault(status, '/results/', 'GET'));
        const task = await orchestrate(ctx, `Results ${status}`);
        assert.ok(task);
        await waitFor(() => requestsTo(ctx, 'GET', '/results/').some(r => r.status === status), `a ${status} answer`, 15_000);
        if (status === 401) await answer401(ctx);
        if (status === 413) {
          const done = await finished(ctx, task.id);
          assert.strictEqual(done.status, 'completed');
          assert.match(done.error ?? '', /too large.*web console/);
          await shownMessage(ctx, /has no result: The result is too large/);
        } else {
          const text = await completedWithResult(ctx, task.id);
          assert.ok(text.length > 3_000_000);
        }
        assert.strictEqual(runPosts(ctx).length, 1);
      });
    }
  });

  describe('POST /api/v1/attachments/upload', () => {
    afterEach(() => ctx.api.attachments.clear());
    for (const status of STATUSES) {
      kase(`1 POST attachments/upload ${status}: one upload, no task, the file stays attached`, async () => {
        await ctx.api.attachments.add([workspaceUri('fixtures', 'large.txt')]);
        ctx.emulator.addFault(fault(status, '/attachments/upload', 'POST'));
        const task = await orchestrate(ctx, `Upload ${status}`);
        assert.strictEqual(task, undefined);
        assert.strictEqual(requestsTo(ctx, 'POST', '/attachments/upload').length, 1, 'one upload, not retried');
        assert.strictEqual(runPosts(ctx).length, 0, 'no task without its attachment');
        const shown = await shownMessage(ctx, UPLOAD_MESSAGE[status]);
        if (status === 401) assert.deepStrictEqual(shown.actions, ['Set API Key']);
        assert.strictEqual(ctx.api.attachments.count, 1, 'the file is still attached for the next try');
      });
    }
  });

  describe('GET /api/v1/stream/{id}', () => {
    useSettings({ useStream: true });
    beforeEach(() => ctx.api.poller.resume()); // as a settings change does: try the stream again
    for (const status of STATUSES) {
      kase(`1 GET stream ${status}: falls back to polling, completes`, async () => {
        ctx.emulator.addFault(fault(status, '/stream/', 'GET'));
        const task = await orchestrate(ctx, `Stream ${status}`);
        assert.ok(task);
        await waitFor(() => requestsTo(ctx, 'GET', '/stream/').some(r => r.status === status), `a ${status} answer`);
        await completedWithResult(ctx, task.id);
        assert.strictEqual(runPosts(ctx).length, 1);
        assert.deepStrictEqual(ctx.user.messages('error'), [], 'a missing stream is not the user\'s problem');
      });
    }
  });
});
