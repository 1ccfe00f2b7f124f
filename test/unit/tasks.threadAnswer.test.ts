/** A task read from its thread after its state expired (issue 18), over real HTTP to the emulator; the poller records it. */
import * as assert from 'node:assert/strict';
import { NotFoundError } from '../../src/api';
import type { ObservedState } from '../../src/tasks/model';
import { type PollerStore, TaskPoller } from '../../src/tasks/tracking/poller';
import { recoverFromThread } from '../../src/tasks/tracking/threadAnswer';
import { clientFor, rejectsWith, tracked, useEmulator, waitFor } from './helpers';

const HOUR = 60 * 60_000;

describe('team: a task read from its thread after its state expired', function () {
  this.timeout(20_000);
  const emulator = useEmulator({ agentStatusForm: 'live' });

  it('recoverFromThread finds the thread by the prompt and reads the answer; the poller records it instead of giving up', async () => {
    const emu = emulator();
    const client = clientFor(emu);
    const prompt = 'Remember me after an hour';
    const { taskId } = await client.submitTask({ prompt });
    const done = await waitFor(async () => {
      const s = await client.getTaskStatus(taskId);
      return s.conversationId ? s : undefined;
    }, 10_000);
    emu.advanceClock(2 * HOUR);
    await rejectsWith(client.getTaskStatus(taskId), NotFoundError);

    const found = await recoverFromThread(client, tracked(taskId, prompt));
    assert.equal(found?.status, 'completed');
    assert.equal(found?.result, done.result);
    assert.equal(String(found?.conversationId), String(done.conversationId));

    // The poller: three 404s, then the thread instead of "no longer known".
    let finished: ObservedState | undefined;
    const task = tracked(taskId, prompt);
    const store: PollerStore = {
      running: () => (finished ? [] : [task]),
      get: () => task,
      observe: () => undefined,
      finish: async (_id, state) => void (finished = state),
    };
    const poller = new TaskPoller({
      api: () => client,
      store,
      settings: () => ({ minIntervalMs: 20, firstPollMs: 20, maxIntervalMs: 50, unfocusedIntervalMs: 50, maxInFlight: 2, useStream: false, maxStreams: 0 }),
      recover: (t, signal) => recoverFromThread(client, t, signal),
    });
    try {
      poller.wake();
      const end = await waitFor(() => finished, 10_000);
      assert.equal(end.status, 'completed');
      assert.equal(end.result, done.result);
    } finally {
      poller.dispose();
    }
  });
});

