/**
 * A result is announced once. Each guard is tested alone (a test per guard, so removing one is caught
 * even while the others hold): the store finishes a task once; the completion is marked notified and
 * never shown again in this window; a completion another window already showed is not shown here.
 */
import * as assert from 'assert';
import { StateKeys } from '../../src/constants';
import type { TrackedTask } from '../../src/tasks/model';
import { ScriptedUser, activateExtension, setSetting, waitFor } from './helpers';
import type { TestApi } from '../../src/extension';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

describe('announce once', () => {
  let api: TestApi;
  let user: ScriptedUser;
  let n = 0;

  before(async () => {
    api = await activateExtension();
    await setSetting('openResultOnCompletion', false);
  });
  beforeEach(() => {
    user = new ScriptedUser();
    api.ui.target = user;
  });
  afterEach(async () => {
    for (const task of api.store.all()) await api.store.remove(task.id);
  });
  after(async () => {
    await setSetting('openResultOnCompletion', undefined);
  });

  /** A running task that no poller follows (its id is unknown to any service). */
  async function runningTask(): Promise<TrackedTask> {
    const now = Date.now();
    const task: TrackedTask = {
      id: `task_announce_${process.pid}_${++n}`,
      title: `Announce ${n}`,
      instruction: `Announce ${n}`,
      promptChars: 10,
      submittedAt: now,
      updatedAt: now,
      status: 'processing',
    };
    await api.store.add(task);
    api.poller.forget(task.id);
    return task;
  }
  const doneMessages = () => user.messages('info').filter(m => m.includes('task done'));

  it('guard 1: the store finishes a task once (a second terminal state is ignored)', async () => {
    const task = await runningTask();
    const finished: string[] = [];
    const sub = api.store.onDidChange(e => e.kind === 'finished' && finished.push(e.task.id));
    try {
      await api.store.finish(task.id, { status: 'completed', result: 'first' });
      await api.store.finish(task.id, { status: 'completed', result: 'second' });
      await api.store.finish(task.id, { status: 'failed', error: 'late' });
    } finally {
      sub.dispose();
    }
    assert.deepStrictEqual(finished, [task.id]);
    assert.strictEqual(await api.store.readResult(task.id), 'first');
    assert.strictEqual(api.store.get(task.id)?.status, 'completed');
  });

  it('guard 2: marking a completion shown succeeds once, even for two marks at the same moment', async () => {
    const task = await runningTask();
    // Two announcers racing (the stream and a poll finishing together): the second must not pass while the
    // first one's write is still on its way to globalState.
    const marks = await Promise.all([api.store.markNotified(task.id), api.store.markNotified(task.id)]);
    assert.deepStrictEqual(marks.sort(), [false, true]);
    await api.store.finish(task.id, { status: 'completed', result: 'done' });
    await api.notifier.catchUp(); // what a reload does
    await sleep(500);
    assert.strictEqual(doneMessages().length, 0, `shown: ${user.messages().join(' | ')}`);
  });

  it('guard 3: a completion another window already showed is not shown in this one', async () => {
    const task = await runningTask();
    // Another window (sharing globalState) finished and announced the same task first.
    const shared = api.context.globalState.get<TrackedTask[]>(StateKeys.tasks, []);
    await api.context.globalState.update(
      StateKeys.tasks,
      shared.map(t => (t.id === task.id ? { ...t, status: 'completed', finishedAt: Date.now(), notified: true } : t)),
    );
    await api.store.finish(task.id, { status: 'completed', result: 'done' });
    await sleep(500);
    assert.strictEqual(doneMessages().length, 0, `shown: ${user.messages().join(' | ')}`);
    assert.strictEqual(api.store.get(task.id)?.notified, true);
  });
});
