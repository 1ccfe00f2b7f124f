/** Whether the tasks kept from the last session make the shell load the team's core at once (extension.ts). */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { StateKeys } from '../../src/constants';
import { tasksWantTheTeam } from '../../src/tasks/store/waiting';

/** A memento holding `tasks` under the task store's key, as VS Code's globalState gives it back. */
function kept(tasks: unknown): vscode.Memento {
  return { get: (key: string) => (key === StateKeys.tasks ? tasks : undefined), keys: () => [StateKeys.tasks], update: async () => undefined } as vscode.Memento;
}

const task = (status: string, more: Record<string, unknown> = {}) => ({ id: `t-${status}`, title: 'x', status, submittedAt: 1, ...more });

describe('the kept tasks that want the team at start', () => {
  it('none kept, or nothing readable: the core waits for its first use', () => {
    assert.equal(tasksWantTheTeam(kept(undefined)), false);
    assert.equal(tasksWantTheTeam(kept([])), false);
    assert.equal(tasksWantTheTeam(kept({ id: 'not a list' })), false);
    assert.equal(tasksWantTheTeam(kept([null, 7, { status: 'processing' }])), false);
  });

  it('only finished tasks, each announced already: the core waits', () => {
    assert.equal(tasksWantTheTeam(kept([task('completed', { finishedAt: 2, notified: true }), task('failed', { finishedAt: 2, notified: true })])), false);
  });

  it('a running task or one waiting for approval is followed at once', () => {
    assert.equal(tasksWantTheTeam(kept([task('completed', { finishedAt: 2, notified: true }), task('processing')])), true);
    assert.equal(tasksWantTheTeam(kept([task('awaiting_approval')])), true);
  });

  it('a task that finished while the window was closed is announced at once', () => {
    assert.equal(tasksWantTheTeam(kept([task('completed', { finishedAt: 2 })])), true);
    assert.equal(tasksWantTheTeam(kept([task('canceled', { finishedAt: 2, notified: false })])), true);
  });
});
