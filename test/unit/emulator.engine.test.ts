// What a task produced, for the key (issue 18 item 7): the execution trace, live tool activity, generated files,
// sources, and the engine's own POST /api/v1/run with an enforced budget, role models, reasoning effort and an
// idempotency key. Plain HTTP against the emulator's live defaults.
import * as assert from 'assert';
import { DEMO_API_KEY, SECOND_API_KEY } from '../emulator/server';
import { call, readEvents, submit, useLiveEmulator, waitForStatus, withEmulator, type Json } from './emulatorHttp';

const HOUR = 60 * 60 * 1000;

async function engineRun(emu: Parameters<typeof call>[0], body: Json, key = DEMO_API_KEY) {
  return call(emu, 'POST', '/api/v1/run', body, key);
}

describe('emulator: the execution trace', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  it('GET {engine}/api/v1/tasks/{id}/trace: goal, plan, one step per agent (its answer), self_eval, artifacts.final_answer; no report (the live store keeps none)', async () => {
    const emu = emulator();
    const taskId = await submit(emu, 'Trace this task', { options: { agentCount: 3 } });
    assert.equal((await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`)).json.detail, 'Trace not found', 'no trace before an agent ended');
    const done = await waitForStatus(emu, taskId);
    const r = await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`);
    assert.equal(r.status, 200, r.text);
    const trace = r.json.trace as Json;
    assert.equal(trace.task_id, taskId);
    assert.equal(trace.user_id, 1);
    assert.equal(trace.goal, 'Trace this task');
    assert.equal((trace.plan as string[]).length, 3);
    assert.ok((trace.plan as string[]).every(p => p.endsWith(': Trace this task')));
    const steps = trace.steps as Json[];
    assert.deepEqual(steps.map(s => s.AgentName), ['Agent-1', 'Agent-2', 'Agent-3']);
    assert.deepEqual(steps.map(s => s.Status), ['success', 'success', 'success']);
    assert.deepEqual(steps.map(s => s.Response), (done.agentStatuses as Json[]).map(a => a.result), 'each step is that agent’s answer');
    assert.deepEqual(trace.self_eval, { status: 'completed' });
    assert.ok(!('report' in trace), 'runrepository.go stores no report');
    assert.deepEqual(trace.artifacts, { final_answer: done.result });
    const reported = await waitForStatus(emu, await submit(emu, 'Report too [emulator report=stored durationMs=20]', { options: { agentCount: 3 } }));
    const report = ((await call(emu, 'GET', `/api/v1/tasks/${reported.taskId}/trace`)).json.trace as Json).report as Json;
    assert.ok(typeof report.summary === 'string' && Array.isArray(report.key_steps) && typeof report.rubric.accuracy === 'number');
    assert.match(trace.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(done.traceId, `trace_${taskId}`);
  });

  it('saved as agents end: partial while running and after a failure (zero-valued slots, no goal, no answer)', async () => {
    await withEmulator({ taskDurationMs: 2000, progressSteps: 20 }, async emu => {
      const taskId = await submit(emu, 'Partial trace', { options: { agentCount: 4 } });
      let partial: Json | undefined;
      for (let i = 0; i < 60 && !partial; i++) {
        const r = await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`);
        if (r.status === 200 && (await call(emu, 'GET', `/status/${taskId}`)).json.status === 'processing') partial = r.json.trace as Json;
        else await new Promise(res => setTimeout(res, 50));
      }
      assert.ok(partial, 'a trace while the task runs');
      assert.equal(partial.goal, '');
      assert.deepEqual(partial.artifacts, { final_answer: '' });
      const steps = partial.steps as Json[];
      assert.equal(steps.length, 4);
      assert.ok(steps.some(s => s.Status === 'success'), 'an ended agent');
      assert.deepEqual(steps[3], { AgentID: 0, AgentName: '', Status: '', Response: '', ExecutionTime: 0, ToolEvents: null }, 'the last agent has not ended');
      const failed = await submit(emu, 'Fails [emulator outcome=failed durationMs=20]');
      await waitForStatus(emu, failed);
      const after = (await call(emu, 'GET', `/api/v1/tasks/${failed}/trace`)).json.trace as Json;
      assert.equal(after.goal, '');
      assert.ok((after.steps as Json[]).some(s => s.Status === 'success'));
    });
  });

  it('401 wrong key, 403 another user’s, 404 unknown or not stored, 413 too large; no report on request; kept beyond the task’s hour', async () => {
    await withEmulator({}, async emu => {
      const taskId = await submit(emu, 'Mine [emulator durationMs=20]');
      await waitForStatus(emu, taskId);
      assert.equal((await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`, undefined, 'tfai_wrong')).status, 401);
      const foreign = await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`, undefined, SECOND_API_KEY);
      assert.equal(foreign.status, 403);
      assert.equal(foreign.json.detail, 'Unauthorized');
      assert.equal((await call(emu, 'GET', '/api/v1/tasks/task_unknown/trace')).status, 404);
      const unstored = await submit(emu, 'No trace store [emulator trace=none durationMs=20]');
      assert.ok((await waitForStatus(emu, unstored)).traceId, 'the state still names a trace id');
      assert.equal((await call(emu, 'GET', `/api/v1/tasks/${unstored}/trace`)).status, 404);
      const noReport = await submit(emu, 'No report [emulator report=none durationMs=20]');
      await waitForStatus(emu, noReport);
      assert.ok(!('report' in ((await call(emu, 'GET', `/api/v1/tasks/${noReport}/trace`)).json.trace as Json)));
      const big = await submit(emu, 'Big [emulator resultBytes=3300000 durationMs=20]');
      await waitForStatus(emu, big);
      const tooLarge = await call(emu, 'GET', `/api/v1/tasks/${big}/trace`);
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.json.detail, 'Execution trace is too large for inline retrieval');

      emu.advanceClock(2 * HOUR);
      assert.equal((await call(emu, 'GET', `/status/${taskId}`)).status, 404);
      assert.equal((await call(emu, 'GET', `/api/v1/tasks/${taskId}/trace`)).status, 200);
    });
  });
});

describe('emulator: tool activity, generated files and sources', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  it('progress events carry tool_usage (tool, agent, status, preview; no generated file; a search’s query only)', async () => {
    await withEmulator({ taskDurationMs: 1500, progressSteps: 15 }, async emu => {
      const taskId = await submit(emu, 'Watch the tools');
      const { events } = await readEvents(emu, taskId);
      const usages = events.filter(e => e.type === 'progress' && Array.isArray(e.tool_usage)).flatMap(e => e.tool_usage as Json[]);
      assert.ok(usages.some(u => u.status === 'running'), 'a tool seen while running');
      const search = usages.find(u => u.toolName === 'search_web' && u.status === 'completed')!;
      assert.ok(search, 'a completed web search');
      assert.equal(search.agentId, 0, '0-based, as agent_runner.go sets it');
      assert.equal(search.agentLabel, 'agent-1');
      assert.equal(search.success, true);
      assert.equal(typeof search.resultPreview, 'string');
      assert.deepEqual(Object.keys(search.arguments as Json), ['query']);
      assert.ok((search.sources as Json[]).length === 3);
      for (const u of usages) assert.ok(!('generatedFile' in u), 'the stream drops generated files');
      const complete = events[events.length - 1];
      assert.ok((complete.tool_usage as Json[]).some(u => u.toolName === 'create_csv'));
    });
  });

  it('/status toolEvents carry generatedFile {fileId, filename, mimeType, bytes, downloadUrl}: an ordinary file; sources [{title, url, snippet}]', async () => {
    const emu = emulator();
    const taskId = await submit(emu, 'Review the code');
    const done = await waitForStatus(emu, taskId);
    const events = done.toolEvents as Json[];
    const fileEvent = events.find(e => e.generatedFile)!;
    const gf = fileEvent.generatedFile as Json;
    assert.equal(gf.filename, 'findings.csv');
    assert.equal(gf.mimeType, 'text/csv');
    assert.match(gf.fileId as string, /^file-/);
    assert.equal(gf.downloadUrl, `/api/v1/developer/files/${gf.fileId}/content`);
    const content = await fetch(emu.origin + (gf.downloadUrl as string), { headers: { 'x-api-key': DEMO_API_KEY } });
    assert.equal(content.status, 200);
    const text = await content.text();
    assert.equal(Buffer.byteLength(text), gf.bytes);
    assert.ok(text.startsWith('agent,focus,finding\n'));
    const listed = await call(emu, 'GET', '/files?limit=100');
    assert.ok((listed.json.files as Json[]).some(f => f.id === gf.fileId && f.filename === 'findings.csv'));
    assert.deepEqual(emu.task(taskId)?.generatedFileIds, [gf.fileId]);
    const sources = events.find(e => e.toolName === 'search_web')!.sources as Json[];
    assert.ok(sources.every(s => typeof s.title === 'string' && /^https:\/\//.test(s.url as string) && typeof s.snippet === 'string'));
    const storage = await call(emu, 'GET', '/storage');
    assert.ok((storage.json.categories as Json[]).find(c => c.id === 'generated_artifacts')!.count >= 1);
  });

  it('steers: the file type a prompt asks for, files=N, sources=N', async () => {
    const emu = emulator();
    const pdf = await waitForStatus(emu, await submit(emu, 'Create a PDF report of the findings'));
    const pdfFile = (pdf.toolEvents as Json[]).find(e => e.generatedFile)!.generatedFile as Json;
    assert.equal(pdfFile.mimeType, 'application/pdf');
    assert.match(pdfFile.filename as string, /\.pdf$/);
    assert.equal(pdfFile.toolName, 'create_pdf');

    const three = await waitForStatus(emu, await submit(emu, 'Many files [emulator files=3 sources=5]'));
    assert.deepEqual((three.toolEvents as Json[]).filter(e => e.generatedFile).map(e => (e.generatedFile as Json).filename), ['findings.csv', 'sources.csv', 'report.pdf']);
    assert.equal(((three.toolEvents as Json[]).find(e => e.toolName === 'search_web')!.sources as Json[]).length, 5);

    const none = await waitForStatus(emu, await submit(emu, 'Nothing [emulator files=0 sources=0]'));
    assert.ok(!(none.toolEvents as Json[]).some(e => e.generatedFile || e.toolName === 'search_web'));
  });
});

describe('emulator: the engine’s POST /api/v1/run', function () {
  this.timeout(20_000);
  const emulator = useLiveEmulator();

  it('answers {task_id, status}; the task is read like any other; unknown fields are refused', async () => {
    const emu = emulator();
    const r = await engineRun(emu, { prompt: 'Engine task', options: { agentCount: 2 } });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['status', 'task_id']);
    assert.equal(r.json.status, 'processing');
    const done = await waitForStatus(emu, r.json.task_id as string);
    assert.equal(done.status, 'completed');
    assert.equal((done.agentStatuses as Json[]).length, 2);
    assert.equal(emu.task(r.json.task_id as string)?.source, 'engineRun');
    assert.equal((await engineRun(emu, { prompt: 'x', surprise: true })).status, 422);
  });

  it('a budget is enforced: budget_usage reported; calls that would cross it are refused like the service’s, agents stop, the answer falls back', async () => {
    const emu = emulator();
    const roomy = await engineRun(emu, { prompt: 'Plenty', budget: 1, options: { agentCount: 4 } });
    const { events } = await readEvents(emu, roomy.json.task_id as string);
    const usages = events.filter(e => e.type === 'progress' && e.budget_usage).map(e => e.budget_usage as Json);
    assert.ok(usages.length > 0, 'progress events carry budget_usage');
    assert.equal(usages[0].initialUsd, 1);
    const roomyDone = await call(emu, 'GET', `/status/${roomy.json.task_id}`);
    assert.ok(Math.abs((roomyDone.json.budgetUsage.consumedUsd as number) - 0.07) < 1e-9, 'planning, four agents, synthesis, validation at $0.01 each');
    assert.ok(Math.abs((roomyDone.json.budgetUsage.remainingUsd as number) - 0.93) < 1e-9);

    const tight = await engineRun(emu, { prompt: 'Tight', budget: 0.035, options: { agentCount: 4 } });
    const tightDone = await waitForStatus(emu, tight.json.task_id as string);
    assert.equal(tightDone.status, 'completed');
    const agents = tightDone.agentStatuses as Json[];
    assert.deepEqual(agents.map(a => a.status), ['COMPLETED', 'COMPLETED', 'FAILED', 'FAILED']);
    assert.equal(agents[2].result, 'Error: OrchestrationError[agent-3]: Organization USD budget exceeded');
    assert.ok(Math.abs((tightDone.budgetUsage.consumedUsd as number) - 0.03) < 1e-9);
    assert.equal(tightDone.result, agents[0].result, 'no budget for the synthesis: the longest agent answer');

    const none = await engineRun(emu, { prompt: 'Nothing to spend', budget: 0 });
    const failed = await waitForStatus(emu, none.json.task_id as string);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, 'OrchestrationError[orchestration]: All agents failed to provide results: OrchestrationError[agent-1]: Organization USD budget exceeded');
    assert.equal(failed.budgetUsage.consumedUsd, 0);

    const developer = await waitForStatus(emu, await submit(emu, 'Developer budget is ignored', { options: { budget: 0 } }));
    assert.equal(developer.status, 'completed');
    assert.ok(!('budgetUsage' in developer));
  });

  it('role_models set the model of that role’s agent; reasoningEffort is checked against the model’s levels', async () => {
    const emu = emulator();
    const roles = await engineRun(emu, { prompt: 'Roles', modelId: 'zai/glm-5.2', role_models: { 'Agent-2': 'openai/gpt-5.1' }, options: { agentCount: 3 } });
    const done = await waitForStatus(emu, roles.json.task_id as string);
    assert.deepEqual((done.agentStatuses as Json[]).map(a => a.model), ['zai/glm-5.2', 'openai/gpt-5.1', 'zai/glm-5.2']);
    assert.deepEqual(emu.task(roles.json.task_id as string)?.roleModels, { 'Agent-2': 'openai/gpt-5.1' });

    const models = await call(emu, 'GET', '/api/v1/models');
    const gpt = (models.json.options as Json[]).find(m => m.id === 'openai/gpt-5.1')!;
    assert.deepEqual(gpt.reasoningEffortLevels, ['low', 'medium', 'high']);
    const effort = await engineRun(emu, { prompt: 'Think hard', modelId: 'openai/gpt-5.1', reasoningEffort: ' HIGH ' });
    assert.equal(effort.status, 200);
    assert.equal(emu.task(effort.json.task_id as string)?.reasoningEffort, 'high');
    assert.match((await waitForStatus(emu, effort.json.task_id as string)).result as string, /Reasoning effort: high/);
    for (const [body, detail] of [
      [{ prompt: 'x', reasoningEffort: 'high' }, 'modelId is required when reasoningEffort is set'],
      [{ prompt: 'x', modelId: 'zai/glm-5.2', reasoningEffort: 'high' }, 'model "zai/glm-5.2" does not support configurable reasoning effort'],
      [{ prompt: 'x', modelId: 'openai/gpt-5.1', reasoningEffort: 'xhigh' }, 'reasoning effort "xhigh" is not supported by model "openai/gpt-5.1"'],
    ] as const) {
      const r = await engineRun(emu, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.detail, detail);
    }
  });

  it('options.idempotencyKey: a retried submission returns the same task (per user, 24 h; a new task once the old state is gone); retries still count against the plan', async () => {
    await withEmulator({ plans: { [DEMO_API_KEY]: 'pro' } }, async emu => {
      const body = { prompt: 'Once only', options: { idempotencyKey: 'retry-123' } };
      const first = await engineRun(emu, body);
      const again = await engineRun(emu, body);
      assert.equal(again.status, 200);
      assert.equal(again.json.task_id, first.json.task_id);
      assert.equal(emu.tasks().length, 1);
      // The plan counted both submissions.
      assert.equal((await engineRun(emu, body)).status, 429);
      emu.setPlan(DEMO_API_KEY, 'unlimited');

      const other = await engineRun(emu, body, SECOND_API_KEY);
      assert.notEqual(other.json.task_id, first.json.task_id, 'keys are per user');

      emu.advanceClock(HOUR / 2);
      await waitForStatus(emu, first.json.task_id as string, s => s.conversationId !== undefined);
      const finished = await engineRun(emu, body);
      assert.equal(finished.json.task_id, first.json.task_id);
      assert.equal(finished.json.status, 'completed');
      assert.equal(finished.json.trace_id, `trace_${first.json.task_id}`);
      assert.equal(typeof finished.json.result, 'string');
      assert.equal(typeof finished.json.conversation_id, 'number');

      emu.advanceClock(2 * HOUR);
      const later = await engineRun(emu, body);
      assert.notEqual(later.json.task_id, first.json.task_id, 'the old task state expired: a new task');
    });
  });
});
