// Case 9: a hostile or broken server can neither leak the key nor trick the user through the UI.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { describeError } from '../../../src/errors';
import { McpTools, type McpToolDeps } from '../../../src/mcp/tools';
import { useExtensionWithEmulator, waitFor } from '../helpers';
import { historyChart } from '../../../src/views/pages/usagePanel';
import { GATEWAY_KEY, finished, noKeyIn, orchestrate, requestsTo, shownMessage, sleep, useSettings } from './common';
import { kase } from './table';

/** What VS Code's notifications turn into a clickable link: `[label](target)`. */
const LINK = /\[[^\]]*\]\s*\(/;
const COMMAND_LINK = '[Click to fix](command:workbench.action.openSettings)';

describe('faults: 9 hostile server', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 400, strictRunRequest: false });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250 });

  before(async () => {
    await ctx.api.keys.setGatewayKey(GATEWAY_KEY);
  });
  after(async () => {
    await ctx.api.keys.setGatewayKey(undefined);
  });

  kase('9 a failed task whose reason holds a command link and both keys: shown inert, stored and logged without the keys', async () => {
    ctx.emulator.setNextTask({ outcome: 'failed', durationMs: 300, error: `${COMMAND_LINK} key=${ctx.emulator.apiKey} gw=${GATEWAY_KEY}` });
    const task = await orchestrate(ctx, 'Hostile failure reason');
    assert.ok(task);
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'failed');
    assert.ok(done.error?.includes('[redacted]'), `the stored reason: ${done.error}`);
    noKeyIn(done.error ?? '', ctx.emulator.apiKey, GATEWAY_KEY);
    const shown = await shownMessage(ctx, /Hostile failure reason/);
    assert.ok(!LINK.test(shown.message), `no link in the notification: ${shown.message}`);
    assert.ok(shown.message.includes('Click to fix'), 'the text itself is still shown');
    noKeyIn(shown.message, ctx.emulator.apiKey, GATEWAY_KEY);
  });

  kase('9 an error answer to POST /run that echoes the keys and offers a command link: shown inert, without the keys', async () => {
    ctx.emulator.addFault({
      kind: 'status',
      method: 'POST',
      path: /\/run$/,
      status: 400,
      body: { status: 400, title: 'Bad Request', detail: `${COMMAND_LINK} your key ${ctx.emulator.apiKey} and ${GATEWAY_KEY} are wrong` },
    });
    const task = await orchestrate(ctx, 'Hostile error body');
    assert.strictEqual(task, undefined);
    const shown = await shownMessage(ctx, /are wrong/);
    assert.ok(!LINK.test(shown.message), `no link in the notification: ${shown.message}`);
    noKeyIn(shown.message, ctx.emulator.apiKey, GATEWAY_KEY);
    for (const s of ctx.user.shown) noKeyIn(s.message, ctx.emulator.apiKey, GATEWAY_KEY);
  });

  kase('9 an error answer to GET /status that echoes the key: the task is kept and completes; nothing shown holds the key', async () => {
    ctx.emulator.addFault({
      kind: 'status',
      method: 'GET',
      path: '/status/',
      status: 500,
      times: 2,
      body: { status: 500, detail: `upstream said x-api-key: ${ctx.emulator.apiKey}` },
    });
    const task = await orchestrate(ctx, 'Echo on status');
    assert.ok(task);
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'completed', done.error);
    for (const s of ctx.user.shown) noKeyIn(s.message, ctx.emulator.apiKey, GATEWAY_KEY);
  });

  kase('9 a service that echoes the key into everything it says of a task (issue 35): the trace cache on disk, the result view, read_trace, the task kept hold none of it', async () => {
    const key = ctx.emulator.apiKey;
    ctx.emulator.setNextTask({ echoKey: true, files: 2 });
    const task = await orchestrate(ctx, 'Echo everywhere');
    assert.ok(task);
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'completed', done.error);
    assert.ok(ctx.emulator.task(task.id)?.result?.includes(key), 'the emulator echoes the key');
    const kept = await waitFor(() => {
      const t = ctx.api.store.get(task.id);
      return t?.files?.length && t.sources?.length ? t : undefined;
    }, 'the files and sources of the task');
    assert.ok(kept.files!.every(f => f.filename.startsWith('[redacted]-')), JSON.stringify(kept.files));
    noKeyIn(JSON.stringify(kept), key);
    noKeyIn((await ctx.api.store.readResult(task.id)) ?? '', key);
    // The trace cache on disk.
    await vscode.commands.executeCommand('multiAgent.showTrace', task.id);
    const cache = fs.readFileSync(ctx.api.traces.uriOf(task.id).fsPath, 'utf8');
    assert.match(cache, /Key: \[redacted\]/, 'the cached trace holds the agents’ answers');
    noKeyIn(cache, key);
    // What the result view's trace section gets.
    ctx.api.resultPanels.loaded?.panelOf(task.id)?.dispose();
    await ctx.api.resultPanels.page.show(ctx.api.store.get(task.id)!);
    const html = ctx.api.resultPanels.loaded!.panelOf(task.id)!.webview.html;
    const trace = html.slice(html.indexOf('<details id="trace"'));
    assert.match(trace, /\[redacted\]/, 'the trace section shows the agents’ answers');
    noKeyIn(html, key);
    ctx.api.resultPanels.loaded?.panelOf(task.id)?.dispose();
    // What the MCP server's read_trace returns (the tools over the same stores).
    const tools = new McpTools({ store: ctx.api.store, traces: ctx.api.traces } as unknown as McpToolDeps);
    const reply = await tools.readTrace(task.id);
    assert.ok(!reply.isError, reply.text);
    assert.match(reply.text, /\[redacted\]/);
    noKeyIn(`${reply.text}${JSON.stringify(reply.data)}`, key);
  });

  kase('9 a tool call that names a file that may hold secrets (.git/config, .envrc, .pypirc, .git-credentials) is refused with the reason; nothing is sent', async () => {
    const tools = new McpTools({
      log: ctx.api.log,
      keys: ctx.api.keys,
      ui: ctx.api.ui,
      store: ctx.api.store,
      pipeline: ctx.api.pipeline,
      describeError,
    } as unknown as McpToolDeps);
    const before = requestsTo(ctx, 'POST', /\/run$/).length;
    const asked = ctx.user.shown.filter(m => m.kind === 'confirm').length;
    for (const file of ['.git/config', '.envrc', '.pypirc', '.git-credentials', '.git./config']) {
      const reply = await tools.runTask({ instruction: 'Review this', files: [file] }, { signal: new AbortController().signal });
      assert.strictEqual(reply.isError, true, `${file}: ${reply.text}`);
      assert.match(reply.text, /may hold secrets.*Attach Files….*Nothing was sent/s, file);
    }
    assert.strictEqual(requestsTo(ctx, 'POST', /\/run$/).length, before, 'no task was sent');
    assert.strictEqual(ctx.user.shown.filter(m => m.kind === 'confirm').length, asked, 'no question a tool call cannot answer');
  });

  kase('9 a flood of progress events costs a bounded number of state writes', async () => {
    const now = Date.now();
    const task = { id: 'task_flood', title: 'Flood', instruction: 'Flood', promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' };
    await ctx.api.store.add(task);
    ctx.api.poller.forget(task.id);
    const before = ctx.api.store.stats.writes;
    const t0 = Date.now();
    for (let i = 0; i < 50_000; i++) {
      ctx.api.store.observe(task.id, { status: 'processing', agentStatuses: [{ agent_id: 1, status: 'running', progress: (i % 1000) / 1000 }] });
    }
    await sleep(1500);
    const writes = ctx.api.store.stats.writes - before;
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(writes <= Math.ceil(seconds) + 2, `${writes} writes for 50,000 progress events in ${seconds.toFixed(1)} s`);
    assert.ok(writes >= 1, 'the latest progress is written');
    const saved = ctx.api.context.globalState.get<{ id: string; progress?: number }[]>('multiAgent.tasks.v1', []).find(t => t.id === task.id);
    assert.strictEqual(saved?.progress, 0.999, 'the last state is what was written');
  });

  kase('9 a flood of progress events costs a bounded number of change events (redraws), the latest state last, the end at once', async () => {
    const now = Date.now();
    const task = { id: 'task_redraws', title: 'Redraws', instruction: 'Redraws', promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' };
    await ctx.api.store.add(task);
    ctx.api.poller.forget(task.id);
    const seen: { kind: string; progress?: number; status: string }[] = [];
    const listener = ctx.api.store.onDidChange(e => e.task.id === task.id && seen.push({ kind: e.kind, progress: e.task.progress, status: e.task.status }));
    try {
      // 20,000 progress events over about a second, in batches, as a server pushing without pause would.
      const agents = (i: number) => [{ agent_id: 1, status: 'running', progress: (i % 1000) / 1000 }, { agent_id: 2, status: 'running', progress: 0.5 }];
      const t0 = Date.now();
      for (let i = 1; i <= 20_000; i++) {
        ctx.api.store.observe(task.id, { status: 'processing', agentStatuses: agents(i) });
        if (i % 200 === 0) await sleep(10);
      }
      const seconds = (Date.now() - t0) / 1000;
      await sleep(400);
      const progress = seen.filter(e => e.kind === 'progress');
      assert.ok(progress.length <= Math.ceil(seconds / 0.2) + 3, `${progress.length} change events for 20,000 progress events in ${seconds.toFixed(1)} s`);
      assert.ok(progress.length >= 2, 'the first and the latest are told');
      assert.strictEqual(progress[progress.length - 1].progress, (0 + 0.5) / 2, 'the latest state is the last one told');
      // A pause for approval and the end are told at once, never held back.
      ctx.api.store.observe(task.id, { status: 'processing', agentStatuses: agents(7) });
      ctx.api.store.observe(task.id, { status: 'awaiting_approval', agentStatuses: agents(8), pendingApproval: { agentName: 'Agent 2' } });
      assert.strictEqual(seen[seen.length - 1].status, 'awaiting_approval', 'the pause is told at once');
      const finishing = ctx.api.store.finish(task.id, { status: 'completed', result: 'done' });
      await finishing;
      assert.strictEqual(seen[seen.length - 1].kind, 'finished');
      const count = seen.length;
      await sleep(400);
      assert.strictEqual(seen.length, count, 'no progress event after the end');
    } finally {
      listener.dispose();
    }
  });

  kase('9 task ids that differ only in unsafe characters keep separate cached results', async () => {
    const now = Date.now();
    for (const id of ['task:1', 'task_1', 'task?1']) {
      await ctx.api.store.add({ id, title: id, instruction: id, promptChars: 1, submittedAt: now, updatedAt: now, status: 'processing' });
      ctx.api.poller.forget(id);
      await ctx.api.store.finish(id, { status: 'completed', result: `result of ${id}` });
    }
    for (const id of ['task:1', 'task_1', 'task?1']) assert.strictEqual(await ctx.api.store.readResult(id), `result of ${id}`);
  });

  kase('9 a usage history of 100,000 days renders (the latest year), without throwing', async () => {
    const history = Array.from({ length: 100_000 }, (_, i) => ({ date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, count: i }));
    const svg = historyChart(history);
    assert.strictEqual((svg.match(/<rect class="bar"/g) ?? []).length, 366);
    assert.match(svg, /busiest day had 99,999/);
  });
});
