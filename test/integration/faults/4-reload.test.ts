// Case 4, the part an extension host can test about itself. The real window reload is the e2e test
// test/e2e/faults-reload.e2e.ts (a mocha test cannot survive restarting its own extension host).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { TaskPoller } from '../../../src/tasks/tracking/poller';
import { TaskStore } from '../../../src/tasks/store/taskStore';
import { resultTabs, useExtensionWithEmulator, waitFor } from '../helpers';
import { completedWithResult, orchestrate, useSettings } from './common';
import { kase } from './table';

describe('faults: 4 reload (in-host)', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 600 });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250 });

  kase('4 in-host: running tasks persisted in globalState resume in a rebuilt store and poller', async () => {
    // Held until the rebuilt store has read them as running (nothing races the emulator's clock).
    ctx.emulator.setNextTask({ hold: true });
    ctx.emulator.setNextTask({ hold: true });
    const tasks = [(await orchestrate(ctx, 'Before reload 1'))!, (await orchestrate(ctx, 'Before reload 2'))!];
    for (const t of tasks) ctx.api.poller.forget(t.id); // the old window stops polling
    const reloaded = new TaskStore(ctx.api.context.globalState, ctx.api.context.globalStorageUri);
    const client = ctx.api.api.client();
    const poller = new TaskPoller({
      api: () => client,
      store: reloaded,
      settings: () => ({ minIntervalMs: 250, firstPollMs: 250, maxIntervalMs: 500, unfocusedIntervalMs: 500, maxInFlight: 2, useStream: false, maxStreams: 0 }),
    });
    try {
      assert.deepStrictEqual(reloaded.running().map(t => t.id).sort(), tasks.map(t => t.id).sort());
      assert.strictEqual(ctx.emulator.release(), 2);
      poller.wake();
      for (const t of tasks) await waitFor(() => reloaded.get(t.id)?.status === 'completed', `${t.id} to complete`);
      for (const t of tasks) assert.strictEqual(await reloaded.readResult(t.id), ctx.emulator.task(t.id)?.result);
    } finally {
      poller.dispose();
      reloaded.dispose();
    }
  });

  kase('4 in-host: a finished result opens from the cache with the emulator stopped', async () => {
    const task = (await orchestrate(ctx, 'Open me offline'))!;
    const text = await completedWithResult(ctx, task.id);
    await ctx.emulator.stop();
    try {
      ctx.emulator.resetStats();
      ctx.user.picks = [(_: unknown, items: unknown) => (items as { task: { id: string } }[]).find(i => i.task.id === task.id)];
      await vscode.commands.executeCommand('multiAgent.openResult');
      const tab = await waitFor(() => resultTabs()[0], 'the result tab');
      const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === (tab.input as vscode.TabInputText).uri.toString());
      assert.strictEqual(doc?.getText(), text);
      assert.deepStrictEqual(ctx.user.messages('error'), []);
    } finally {
      await ctx.emulator.start();
    }
  });
});
