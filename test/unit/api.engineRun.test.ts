/** The engine's run over real HTTP to the emulator (issue 18): budget, role models, an idempotent retry after a dropped answer. */
import * as assert from 'node:assert/strict';
import { ConnectionError } from '../../src/api';
import { detailsOf } from '../../src/tasks/tracking/activity';
import { agentsOf, isFinished } from '../../src/tasks/model';
import { clientFor, rejectsWith, useEmulator, waitFor } from './helpers';

describe('team: the engine run over HTTP', function () {
  this.timeout(20_000);
  const emulator = useEmulator({ agentStatusForm: 'live', strictRunRequest: true });

  it('sends budget, role_models, reasoningEffort and the idempotency key; reports what it spent', async () => {
    const emu = emulator();
    const client = clientFor(emu);
    const sent = await client.runOnEngine({
      prompt: 'Spend a little',
      modelId: 'openai/gpt-5.1',
      reasoningEffort: 'High',
      budgetUsd: 1,
      roleModels: { 'Agent-2': 'zai/glm-5.2' },
      agentCount: 2,
      idempotencyKey: 'key-1',
    });
    assert.match(sent.taskId, /^task_/);
    const body = emu.requests.find(r => r.path === '/api/v1/run')!.body as Record<string, unknown>;
    assert.deepEqual(body, {
      prompt: 'Spend a little',
      modelId: 'openai/gpt-5.1',
      reasoningEffort: 'high',
      budget: 1,
      role_models: { 'Agent-2': 'zai/glm-5.2' },
      options: { agentCount: 2, idempotencyKey: 'key-1' },
    });
    const done = await waitFor(async () => {
      const s = await client.getTaskStatus(sent.taskId);
      return isFinished(s) ? s : undefined;
    }, 10_000);
    assert.equal(done.status, 'completed');
    const spent = detailsOf(done).budget!;
    assert.equal(spent.initialUsd, 1);
    assert.ok(Math.abs(spent.consumedUsd - 0.05) < 1e-9 && Math.abs(spent.remainingUsd! - 0.95) < 1e-9, JSON.stringify(spent));
    assert.deepEqual(agentsOf(done)?.map(a => a.model), ['openai/gpt-5.1', 'zai/glm-5.2']);
  });

  it('every answer lost (five dropped): the run is sent once more with the same key, and no further: 2 POSTs, one task, a connection error', async () => {
    const emu = emulator();
    emu.addFault({ kind: 'dropAnswer', method: 'POST', path: '/api/v1/run', times: 5 });
    const before = emu.tasks().length;
    const client = clientFor(emu);
    // A kept-alive connection first (the way the extension's client always has one): a dropped answer on it
    // looks like a stale connection, whose own resend must not come on top of the one resend.
    const { taskId } = await client.submitTask({ prompt: 'Warm the connection' });
    await client.getTaskStatus(taskId);
    await rejectsWith(client.runOnEngine({ prompt: 'Lost every time', idempotencyKey: 'lost-key-5' }), ConnectionError);
    const posts = emu.requests.filter(r => r.method === 'POST' && r.path === '/api/v1/run');
    assert.deepEqual(
      posts.map(p => (p.body as { options?: { idempotencyKey?: string } }).options?.idempotencyKey),
      ['lost-key-5', 'lost-key-5'],
      'the first try and one resend, with the same key',
    );
    assert.equal(emu.tasks().length, before + 2, 'the warm-up and one run: the resend was answered with the task the first try made');
  });

  it('a dropped answer is retried once with the same key: one task, not two', async () => {
    const emu = emulator();
    // One answer dropped: the resend is answered. (That it is one resend and no more: the test above.)
    emu.addFault({ kind: 'dropAnswer', method: 'POST', path: '/api/v1/run', times: 1 });
    const before = emu.tasks().length;
    const sent = await clientFor(emu).runOnEngine({ prompt: 'Dropped once', idempotencyKey: 'retry-key-7' });
    const posts = emu.requests.filter(r => r.method === 'POST' && r.path === '/api/v1/run');
    assert.equal(posts.length, 2, 'sent twice');
    assert.deepEqual(
      posts.map(p => (p.body as { options?: { idempotencyKey?: string } }).options?.idempotencyKey),
      ['retry-key-7', 'retry-key-7'],
    );
    assert.equal(emu.tasks().length, before + 1, 'one task');
    assert.equal(emu.tasks().at(-1)?.id, sent.taskId, 'the retry answered with the task the first try made');
  });

  it('without a key a dropped answer is not retried (it may have arrived)', async () => {
    const emu = emulator();
    emu.addFault({ kind: 'dropAnswer', method: 'POST', path: '/api/v1/run' });
    await rejectsWith(clientFor(emu).runOnEngine({ prompt: 'No key' }), ConnectionError);
    assert.equal(emu.requests.filter(r => r.method === 'POST' && r.path === '/api/v1/run').length, 1);
  });

  it('a budget the agents cross ends the task as the service says, with budget_usage', async () => {
    const client = clientFor(emulator());
    const sent = await client.runOnEngine({ prompt: 'Nothing to spend', budgetUsd: 0 });
    const done = await waitFor(async () => {
      const s = await client.getTaskStatus(sent.taskId);
      return isFinished(s) ? s : undefined;
    }, 10_000);
    assert.equal(done.status, 'failed');
    assert.match(done.error ?? '', /^OrchestrationError\[orchestration\]: All agents failed to provide results: .*Organization USD budget exceeded$/);
    assert.equal(detailsOf(done).budget?.consumedUsd, 0);
  });
});

