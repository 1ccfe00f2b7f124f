/**
 * The live service's limits on following a task (issue 17), in the extension host against the emulator's
 * live defaults: the platform cuts every stream after a while (here 1.2 s instead of 800 s) without a
 * terminal event, and a task state over 3 MiB comes without its result, or not at all (413).
 */
import * as assert from 'assert';
import { LIVE_EMULATOR, useExtensionWithEmulator } from './helpers';
import { completedWithResult, finished, orchestrate, requestsTo, statusGets, useSettings, withSetting } from './faults/common';

describe('live service: cut streams and large states', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 1500, ...LIVE_EMULATOR, streamCutMs: 1200 });
  useSettings({ openResultOnCompletion: false, firstPollDelayMs: 250 });

  it('a stream the platform cuts is reopened at once, each time, until the task completes: no status polls', async () => {
    const undo = await withSetting('useStream', true);
    try {
      ctx.api.poller.resume();
      ctx.emulator.setNextTask({ durationMs: 4500 });
      const task = (await orchestrate(ctx, 'Across cut streams'))!;
      await completedWithResult(ctx, task.id, 30_000);
      const streams = requestsTo(ctx, 'GET', '/stream/');
      assert.ok(streams.length >= 3, `reopened after each cut: ${streams.length} streams`);
      const gaps = streams.slice(1).map((s, i) => s.startedAt - (streams[i].endedAt ?? s.startedAt));
      assert.ok(gaps.every(g => g < 500), `reopened at once, not after a backoff: ${gaps} ms`);
      assert.strictEqual(statusGets(ctx).length, 0, 'never fell back to polling');
      assert.deepStrictEqual(ctx.user.messages('error'), []);
    } finally {
      await undo();
    }
  });

  it('a task state over the inline limit (413 on /status) is read from /results; the failure is told in words', async () => {
    const undo = await withSetting('useStream', false);
    try {
      ctx.emulator.setNextTask({ outcome: 'failed', durationMs: 600, errorBytes: 3_500_000 });
      const task = (await orchestrate(ctx, 'A state too large'))!;
      const done = await finished(ctx, task.id);
      assert.strictEqual(done.status, 'failed');
      assert.ok(statusGets(ctx).some(r => r.status === 413), 'the service answered 413');
      assert.ok(requestsTo(ctx, 'GET', '/results/').length >= 1, '/results read after the 413');
      assert.match(done.error ?? '', /\w{4,}/, `a reason in words: ${JSON.stringify(done.error?.slice(0, 80))}`);
    } finally {
      await undo();
    }
  });

  it('a result over 3 MiB: /status comes without it, /results brings it', async () => {
    const undo = await withSetting('useStream', false);
    try {
      ctx.emulator.setNextTask({ durationMs: 600, resultBytes: 3_500_000 });
      const task = (await orchestrate(ctx, 'A large result'))!;
      const text = await completedWithResult(ctx, task.id);
      assert.ok(text.length >= 3_400_000, `${text.length} characters`);
      assert.ok(requestsTo(ctx, 'GET', '/results/').length >= 1, 'the result came from /results');
    } finally {
      await undo();
    }
  });
});
