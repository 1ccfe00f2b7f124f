/**
 * The execution trace over real HTTP to the emulator (live defaults; issue 18): its error codes, agent statuses as
 * the live service writes them, a result over the limit, and the tolerant readers of the trace and tool events.
 */
import * as assert from 'node:assert/strict';
import { AuthenticationError, NotFoundError, PermissionError, TooLargeError, UnsupportedError, readTrace, readToolEvents } from '../../src/api';
import { detailsOf } from '../../src/tasks/tracking/activity';
import { agentsOf, isFinished } from '../../src/tasks/model';
import { answerInThread } from '../../src/tasks/tracking/threadAnswer';
import { SECOND_API_KEY } from '../emulator/server';
import { clientFor, rejectsWith, tracked, useEmulator, waitFor } from './helpers';

describe('team: the execution trace over HTTP', function () {
  this.timeout(20_000);
  // Live defaults: agent statuses in the tracker's words, traces without a report, /results 413 over 3 MiB.
  const emulator = useEmulator({ agentStatusForm: 'live', traceReport: 'none', resultsLimitBytes: 3 * 1024 * 1024 });

  async function completed(prompt: string, options: Record<string, unknown> = {}) {
    const client = clientFor(emulator());
    const { taskId } = await client.submitTask({ prompt, ...options });
    const state = await waitFor(async () => {
      const s = await client.getTaskStatus(taskId);
      return isFinished(s) ? s : undefined;
    }, 10_000);
    return { client, taskId, state };
  }

  it('reads the trace: goal, plan, each step with its subtask (plan[i]) and answer, self-evaluation, no report, the final answer', async () => {
    const { client, taskId, state } = await completed('Trace the work', { agentCount: 3 });
    const raw = await client.getTaskTrace(taskId);
    const trace = readTrace(raw.trace);
    assert.equal(trace.goal, 'Trace the work');
    assert.equal(trace.plan.length, 3);
    assert.deepEqual(trace.steps.map(s => s.agent), ['Agent-1', 'Agent-2', 'Agent-3']);
    assert.deepEqual(trace.steps.map(s => s.subtask), trace.plan);
    assert.deepEqual(trace.steps.map(s => s.status), ['success', 'success', 'success']);
    assert.ok(trace.steps[0].tools.some(t => t.tool === 'search_web' && t.sources.length === 3), 'the first agent’s web search, with its sources');
    assert.equal(trace.selfEval, 'completed');
    assert.equal(trace.report, undefined, 'the live store keeps no report');
    assert.equal(trace.finalAnswer, state.result?.trim());
    assert.deepEqual(trace.cut, { steps: 0, plan: 0, chars: 0 });
  });

  it('each refusal is its own typed error: 401 a wrong key, 403 another user’s task, 404 no trace, 413 too large; the earlier form has none', async () => {
    const emu = emulator();
    const { taskId } = await completed('Mine');
    await rejectsWith(clientFor(emu, { apiKey: 'tfai_wrong_key_000000' }).getTaskTrace(taskId), AuthenticationError);
    const foreign = await rejectsWith(clientFor(emu, { apiKey: SECOND_API_KEY }).getTaskTrace(taskId), PermissionError);
    assert.match(foreign.message, /Unauthorized/);
    await rejectsWith(clientFor(emu).getTaskTrace('task_unknown'), NotFoundError);
    const big = await completed('Big [emulator traceBytes=3300000]');
    const tooLarge = await rejectsWith(big.client.getTaskTrace(big.taskId), TooLargeError);
    assert.match(tooLarge.message, /too large for inline retrieval/);
    await rejectsWith(clientFor(emu, { baseUrl: emu.legacyBaseUrl }).getTaskTrace(taskId), UnsupportedError);
  });

  it('agent statuses as the live tracker writes them read as one word each, numbered 1…n whatever the order', async () => {
    const { state } = await completed('Agents', { agentCount: 3 });
    assert.deepEqual(
      state.agentStatuses?.map(a => [a.agent_id, a.status]),
      [
        [0, 'COMPLETED'],
        [1, 'COMPLETED'],
        [2, 'COMPLETED'],
      ],
    );
    const shuffled = { ...state, agentStatuses: [...(state.agentStatuses ?? [])].reverse() };
    const agents = agentsOf(shuffled)!;
    assert.deepEqual(agents.map(a => [a.id, a.status, a.progress]), [
      ['1', 'completed', 1],
      ['2', 'completed', 1],
      ['3', 'completed', 1],
    ]);
    assert.equal(agents[0].model, 'zai/glm-5.2');
    const details = detailsOf(state);
    assert.equal(details.files?.[0]?.filename, 'findings.csv');
    assert.match(details.files?.[0]?.fileId ?? '', /^file-/);
    assert.equal(details.sources?.length, 3);
    assert.ok(details.activity?.every(a => a.status === 'completed'));
    assert.equal(details.activity?.find(a => a.tool === 'search_web')?.agent, 1, 'agentId 0 is Agent 1');
  });

  it('a result over 3 MiB: /results answers 413, the thread’s copy is over the limit too (the answer is left out)', async () => {
    const { client, taskId } = await completed('Huge [emulator resultBytes=3300000]');
    await rejectsWith(client.getTaskResult(taskId), TooLargeError);
    const state = await client.getTaskStatus(taskId);
    assert.equal(state.result, undefined);
    const conversationId = await waitFor(async () => (await client.getTaskStatus(taskId)).conversationId ?? undefined);
    const { state: found, truncated } = await answerInThread(client, tracked(taskId, 'Huge [emulator resultBytes=3300000]', { conversationId: String(conversationId) }), String(conversationId));
    assert.equal(found, undefined, 'no answer that fits');
    assert.equal(truncated, true);
  });
});

describe('team: tolerant readers of the live shapes', () => {
  it('readTrace takes Go field names, zero-valued steps, odd types and a missing report', () => {
    const trace = readTrace({
      goal: '',
      plan: ['Look', 42, null],
      steps: [
        { AgentID: 0, AgentName: 'Agent-1', Status: 'success', Response: 'found it', ExecutionTime: 1200, ToolEvents: [{ toolName: 'search_web', agentId: 0, status: 'completed' }] },
        { AgentID: 0, AgentName: '', Status: '', Response: '', ExecutionTime: 0, ToolEvents: null },
        { agent_id: 2, agent_name: 'critic', status: 'error', response: 'Error: budget exceeded' },
        'not a step',
      ],
      self_eval: { status: 'completed' },
      artifacts: { final_answer: '' },
    });
    assert.equal(trace.goal, undefined);
    assert.deepEqual(trace.plan, ['Look', '', '']);
    assert.deepEqual(trace.steps.map(s => [s.index, s.agent, s.status, s.subtask]), [
      [1, 'Agent-1', 'success', 'Look'],
      [2, undefined, 'pending', undefined],
      [3, 'critic', 'error', undefined],
    ]);
    assert.equal(trace.steps[0].executionMs, 1200);
    assert.equal(trace.steps[0].tools[0].agent, 1);
    assert.equal(trace.report, undefined);
    assert.equal(trace.finalAnswer, undefined);
    assert.deepEqual(readTrace(null), { id: undefined, goal: undefined, plan: [], steps: [], selfEval: undefined, report: undefined, finalAnswer: undefined, createdAt: undefined, cut: { steps: 0, plan: 0, chars: 0 } });
  });

  it('readToolEvents takes camelCase and snake_case, skips garbage, keeps the newest and cuts texts', () => {
    const events = readToolEvents([
      null,
      42,
      { tool_name: 'execute_code', agent_label: 'agent-2 (critic)', status: 'running', tool_output: { stdout: 'x'.repeat(5000) } },
      { toolName: 'create_csv', agentId: '3', success: false, error: 'disk full', generated_file: { file_name: 'a.csv', size: '12' } },
      { toolName: 'search_web', sources: [{ url: 'https://example.com/a', title: 'A' }, { title: 'no url' }, 'x'] },
      ...Array.from({ length: 500 }, (_, i) => ({ toolName: `t${i}` })),
    ]);
    assert.equal(events.length, 200, 'the newest 200');
    assert.equal(events.at(-1)?.tool, 't499');
    const all = readToolEvents([
      { tool_name: 'execute_code', agent_label: 'agent-2 (critic)', status: 'running', tool_output: { stdout: 'x'.repeat(5000) } },
      { toolName: 'create_csv', agentId: '3', success: false, error: 'disk full', generated_file: { file_name: 'a.csv', size: '12' } },
      { toolName: 'search_web', sources: [{ url: 'https://example.com/a', title: 'A' }, { title: 'no url' }, 'x'] },
    ]);
    assert.deepEqual(all.map(e => [e.tool, e.agent, e.status]), [
      ['execute_code', 2, 'running'],
      ['create_csv', 4, 'failed'],
      ['search_web', undefined, 'completed'],
    ]);
    assert.ok((all[0].preview ?? '').length <= 300);
    assert.deepEqual(all[1].file, { filename: 'a.csv', fileId: undefined, mimeType: undefined, bytes: 12, toolName: undefined });
    assert.deepEqual(all[2].sources, [{ url: 'https://example.com/a', title: 'A', snippet: undefined }]);
  });

  it('detailsOf keeps a bounded activity however many events come', () => {
    const flood = Array.from({ length: 100_000 }, (_, i) => ({ toolName: 'search_web', agentId: i % 4, status: 'running', resultPreview: 'p'.repeat(10_000), sources: [{ url: `https://s${i}.example/` }] }));
    const details = detailsOf({ status: 'processing', toolEvents: flood });
    assert.equal(details.activity?.length, 12);
    assert.ok(details.activity!.every(a => (a.preview ?? '').length <= 160));
    assert.equal(details.sources?.length, 20);
  });
});
