// Case 3: bodies that are not what the API promises, and results that are large or unusual.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { resultTabs, useExtensionWithEmulator, waitFor } from '../helpers';
import { completedWithResult, finished, orchestrate, runPosts, shownMessage, statusGets, useSettings } from './common';
import { kase } from './table';

describe('faults: 3 payloads', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 600 });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250 });

  for (const kind of ['malformedJson', 'schemaInvalid'] as const) {
    const what = kind === 'malformedJson' ? /the body is not valid JSON/ : /Unexpected response from POST \/run: .*taskId/;
    kase(`3 ${kind} on POST /run: one request, a message naming the problem`, async () => {
      ctx.emulator.addFault({ kind, method: 'POST', path: /\/run$/ });
      const task = await orchestrate(ctx, `Bad body ${kind}`);
      assert.strictEqual(task, undefined);
      assert.strictEqual(runPosts(ctx).length, 1);
      const shown = await shownMessage(ctx, what);
      assert.match(shown.message, /not sent again/);
      assert.strictEqual(ctx.api.store.all().length, 0);
    });
    kase(`3 ${kind} on GET /status: the task is kept and completes`, async () => {
      ctx.emulator.addFault({ kind, method: 'GET', path: '/status/', times: 2 });
      const task = await orchestrate(ctx, `Bad status ${kind}`);
      await completedWithResult(ctx, task!.id);
    });
  }

  kase('3 unknown status value: shown as running, then completes', async () => {
    ctx.emulator.setTaskDuration(1500);
    ctx.emulator.addFault({ kind: 'status', status: 200, method: 'GET', path: '/status/', times: 2, body: { status: 'thinking_hard', agentStatuses: [] } });
    const task = await orchestrate(ctx, 'Unknown status');
    await waitFor(() => ctx.api.store.get(task!.id)?.status === 'thinking_hard', 'the unknown status recorded');
    assert.match(ctx.api.statusBar.item.text, /Agents (working|\d+%) · /);
    assert.match(ctx.api.statusBar.item.accessibilityInformation?.label ?? '', /1 task running/);
    await completedWithResult(ctx, task!.id);
  });

  kase('3 a failure with error: "" is told with a reason in words, never an empty one', async () => {
    ctx.emulator.setNextTask({ outcome: 'failed', durationMs: 300, error: '' });
    const task = await orchestrate(ctx, 'Fails without words');
    const done = await finished(ctx, task!.id);
    assert.strictEqual(done.status, 'failed');
    assert.match(done.error ?? '', /\w{4,}/, `the stored reason: ${JSON.stringify(done.error)}`);
    const shown = await shownMessage(ctx, /Fails without words/);
    assert.ok(!/:\s*$/.test(shown.message) && shown.message.includes(done.error!), shown.message);
  });

  kase('3 agent_statuses: [] keeps the agents known (no blank progress)', async () => {
    const now = Date.now();
    const task = { id: 'task_no_agents', title: 'No agents', instruction: 'No agents', promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' };
    await ctx.api.store.add(task);
    ctx.api.poller.forget(task.id);
    const agents = [{ agent_id: 1, status: 'completed', progress: 1 }, { agent_id: 2, status: 'running', progress: 0.5 }];
    ctx.api.store.observe(task.id, { status: 'processing', agentStatuses: agents });
    ctx.api.store.observe(task.id, { status: 'processing', agentStatuses: [] });
    ctx.api.store.observe(task.id, { status: 'processing' });
    const kept = ctx.api.store.get(task.id)!;
    assert.strictEqual(kept.agents?.length, 2);
    assert.strictEqual(kept.progress, 0.75);
    await ctx.api.store.finish(task.id, { status: 'completed', result: 'r', agentStatuses: [] });
    assert.strictEqual(ctx.api.store.get(task.id)?.agents?.length, 2);
  });

  kase('3 a 5 MB result opens without freezing the window', async () => {
    await vscode.workspace.getConfiguration('multiAgent').update('openResultOnCompletion', true, vscode.ConfigurationTarget.Global);
    // Deliberately kinder: the live /results refuses a result this size (413); here it must come through.
    ctx.emulator.configure({ resultsLimitBytes: 0 });
    try {
      ctx.emulator.setNextTask({ resultBytes: 5_000_000, durationMs: 400 });
      let last = Date.now();
      let worst = 0;
      const probe = setInterval(() => {
        worst = Math.max(worst, Date.now() - last - 20);
        last = Date.now();
      }, 20);
      try {
        const task = await orchestrate(ctx, 'Big result');
        const text = await completedWithResult(ctx, task!.id);
        assert.ok(text.length >= 4_900_000, `${text.length} characters`);
        const tab = await waitFor(() => resultTabs()[0], 'the result tab');
        const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === (tab.input as vscode.TabInputText).uri.toString());
        assert.strictEqual(doc?.getText().length, text.length);
      } finally {
        clearInterval(probe);
      }
      // A freeze, not the 50 ms goal (speed is `npm run bench`'s): parsing 5 MB in a quadratic step stalls for tens of
      // seconds; a second suite beside this one on 2 cores once delayed the timer by 1.5 s (its scheduler, not ours).
      assert.ok(worst < 5000, `the extension host stalled ${worst} ms`);
    } finally {
      ctx.emulator.configure({ resultsLimitBytes: 3 * 1024 * 1024 });
      await vscode.workspace.getConfiguration('multiAgent').update('openResultOnCompletion', false, vscode.ConfigurationTarget.Global);
    }
  });

  kase('3 unusual Unicode, very long lines and a hostile title round-trip exactly', async () => {
    const weird = [
      '# Ünïcödé ✓ 漢字 مرحبا עברית',
      'ZWJ family 👩‍👩‍👧‍👦, flag 🇺🇳, skin tone 👍🏽, combining e\u0301 a\u0308\u0304, zero width \u200b\u200c\u200d, BOM \ufeff mid-text',
      'Bidi override \u202eevil.exe\u202c and isolate \u2067rtl\u2069, math 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛, tag chars \u{e0041}\u{e0042}',
      `Long line: ${'λ'.repeat(50_000)}${'x'.repeat(200_000)} end`,
      '```ts',
      'const s = "tab\there";',
      '```',
      '',
    ].join('\n');
    ctx.emulator.setNextTask({ result: weird, durationMs: 300 });
    const task = await orchestrate(ctx, 'Ünïcödé ../../etc/passwd "q" <b>#1 %20 \u202etxt.exe');
    const cached = await completedWithResult(ctx, task!.id);
    assert.strictEqual(cached, weird);
    await vscode.commands.executeCommand('multiAgent.openResult', task!.id);
    const tab = await waitFor(() => resultTabs()[0], 'the result tab');
    const uri = (tab.input as vscode.TabInputText).uri;
    assert.ok(!uri.path.slice(1).split('/').slice(1).join('/').includes('/'), `the title stays one path segment: ${uri.path}`);
    const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
    assert.strictEqual(doc?.getText(), weird);
    assert.ok(statusGets(ctx).length >= 1);
  });
});
