// Case 2: the network fails: refused, reset mid-body, too slow, and a 20 s outage while 5 tasks run.
import * as assert from 'assert';
import * as net from 'net';
import * as vscode from 'vscode';
import { resultTabs, useExtensionWithEmulator, waitFor } from '../helpers';
import { completedWithResult, orchestrate, runPosts, shownMessage, sleep, statusGets, useSettings, withSetting } from './common';
import { kase } from './table';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise(r => server.close(r));
  return port;
}

describe('faults: 2 network', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 600 });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250, requestTimeoutSeconds: 1 });

  kase('2 connection refused on submit: retried (never sent), then a clear message, nothing tracked', async () => {
    const undo = await withSetting('baseUrl', `http://127.0.0.1:${await closedPort()}/api/v1/developer`);
    try {
      const task = await orchestrate(ctx, 'Refused');
      assert.strictEqual(task, undefined);
      const shown = await shownMessage(ctx, /Could not reach the service \(connection refused\).*nothing was lost/);
      assert.deepStrictEqual(shown.actions, ['Show Log']);
      assert.strictEqual(ctx.api.store.all().length, 0);
      assert.strictEqual(ctx.emulator.requests.length, 0);
    } finally {
      await undo();
    }
  });

  for (const kind of ['dropMidBody', 'drop'] as const) {
    kase(`2 connection reset (${kind === 'drop' ? 'no answer' : 'mid-body'}) on POST /run: one request, told it was not sent again`, async () => {
      ctx.emulator.addFault({ kind, method: 'POST', path: /\/run$/ });
      const task = await orchestrate(ctx, `Reset ${kind}`);
      assert.strictEqual(task, undefined);
      assert.strictEqual(runPosts(ctx).length, 1, 'never a duplicate submission');
      await shownMessage(ctx, /connection reset.*not sent again/);
      assert.strictEqual(ctx.api.store.all().length, 0);
    });
  }

  kase('2 connection reset mid-body on GET /status: the task is kept and completes', async () => {
    ctx.emulator.addFault({ kind: 'dropMidBody', method: 'GET', path: '/status/', times: 2 });
    const task = await orchestrate(ctx, 'Reset status');
    await completedWithResult(ctx, task!.id);
    assert.strictEqual(runPosts(ctx).length, 1);
  });

  kase('2 POST /run slower than the timeout: one request, told it was not sent again', async () => {
    ctx.emulator.addFault({ kind: 'delay', ms: 1600, method: 'POST', path: /\/run$/ });
    const task = await orchestrate(ctx, 'Slow submit');
    assert.strictEqual(task, undefined);
    assert.strictEqual(runPosts(ctx).length, 1, 'a timed-out submission is not sent again');
    await shownMessage(ctx, /did not answer in time.*not sent again/);
    assert.strictEqual(ctx.api.store.all().length, 0);
  });

  kase('2 GET /status slower than the timeout: the task is kept and completes', async () => {
    ctx.emulator.addFault({ kind: 'delay', ms: 1600, method: 'GET', path: '/status/', times: 2 });
    const task = await orchestrate(ctx, 'Slow status');
    await completedWithResult(ctx, task!.id);
  });

  describe('outage', () => {
    useSettings({ useStream: true, openResultOnCompletion: true });
    kase('2 emulator stopped 20 s while 5 tasks run: all 5 complete, each result opens once', async function () {
      this.timeout(60_000);
      ctx.emulator.setTaskDuration(3000);
      const tasks = [];
      for (let i = 0; i < 5; i++) tasks.push((await orchestrate(ctx, `Outage ${i}`))!);
      await sleep(500);
      await ctx.emulator.stop();
      const stoppedAt = Date.now();
      try {
        await waitFor(() => /5 tasks waiting/.test(ctx.api.statusBar.item.text), 'the status bar to say the tasks wait', 10_000);
        const tooltip = (ctx.api.statusBar.item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
        // The api layer's words, then the vocabulary's, once each (issue 20: no "Cannot reach (Could not reach (…))").
        assert.match(tooltip.replace(/\\/g, ''), /Could not reach the service \([^()]+\): retrying\. Nothing is lost\./);
        assert.doesNotMatch(tooltip, /reach the service.*reach the service/);
        await sleep(20_000 - (Date.now() - stoppedAt));
        assert.strictEqual(ctx.api.store.running().length, 5, 'all 5 still tracked after 20 s offline');
      } finally {
        await ctx.emulator.start();
      }
      for (const t of tasks) await completedWithResult(ctx, t.id);
      await waitFor(() => resultTabs().length === 5 && ctx.user.messages('info').filter(m => m.includes('task done')).length === 5, 'five result tabs');
      await sleep(1500); // nothing opens twice later
      const uris = resultTabs().map(t => (t.input as vscode.TabInputText).uri.toString());
      assert.strictEqual(uris.length, 5, `five result tabs, none twice: ${uris.join(', ')}`);
      assert.strictEqual(new Set(uris).size, 5, `each result opens once: ${uris.join(', ')}`);
      assert.strictEqual(ctx.user.messages('info').filter(m => m.includes('task done')).length, 5, 'one notification per task');
      assert.strictEqual(runPosts(ctx).length, 5);
      assert.ok(statusGets(ctx).length + ctx.emulator.requests.filter(r => r.path.includes('/stream/')).length > 5);
      await waitFor(() => !/waiting/.test(ctx.api.statusBar.item.text), 'the status bar to recover');
    });
  });
});
