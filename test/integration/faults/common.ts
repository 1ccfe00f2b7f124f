/** Helpers shared by the fault suites: submitting through the real command, reading what reached the emulator. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { RecordedRequest } from '../../emulator/server';
import type { TrackedTask } from '../../../src/tasks/model';
import { openAndSelect, setSetting, useExtensionWithEmulator, waitFor } from '../helpers';

export type Ctx = ReturnType<typeof useExtensionWithEmulator>;

/**
 * Sets user settings for the enclosing describe and puts the previous user values back afterwards.
 */
export function useSettings(values: Record<string, unknown>): void {
  const previous: Record<string, unknown> = {};
  before(async () => {
    const config = vscode.workspace.getConfiguration('multiAgent');
    for (const [name, value] of Object.entries(values)) {
      previous[name] = config.inspect(name)?.globalValue;
      await setSetting(name, value);
    }
  });
  after(async () => {
    for (const [name, value] of Object.entries(previous)) await setSetting(name, value);
  });
}

/** Changes a setting for one test; returns the undo. */
export async function withSetting(name: string, value: unknown): Promise<() => Promise<void>> {
  const previous = vscode.workspace.getConfiguration('multiAgent').inspect(name)?.globalValue;
  await setSetting(name, value);
  return () => setSetting(name, previous);
}

/** Selects a few lines and runs "Orchestrate Selection" answering `instruction`; the command's return value. */
export async function orchestrate(ctx: Ctx, instruction = 'Check this code'): Promise<TrackedTask | undefined> {
  if (vscode.window.activeTextEditor?.document.uri.path.endsWith('src/math.ts') !== true) await openAndSelect('src/math.ts', 0, 3);
  else vscode.window.activeTextEditor.selection = new vscode.Selection(0, 0, 3, 0);
  ctx.user.inputs = [instruction];
  return vscode.commands.executeCommand<TrackedTask | undefined>('multiAgent.orchestrateSelection');
}

export function requestsTo(ctx: Ctx, method: string, pathPart: string | RegExp): RecordedRequest[] {
  return ctx.emulator.requests.filter(r => r.method === method && (typeof pathPart === 'string' ? r.path.includes(pathPart) : pathPart.test(r.path)));
}

export const runPosts = (ctx: Ctx) => requestsTo(ctx, 'POST', /\/run$/);
export const statusGets = (ctx: Ctx) => requestsTo(ctx, 'GET', '/status/');

/** Waits until the task is finished in the store; returns it. */
export async function finished(ctx: Ctx, taskId: string, timeoutMs = 20_000): Promise<TrackedTask> {
  return waitFor(() => {
    const t = ctx.api.store.get(taskId);
    return t && t.finishedAt !== undefined && t;
  }, `task ${taskId} to finish`, timeoutMs);
}

/** Waits for a completed task whose result is cached; asserts the cache holds the emulator's result. */
export async function completedWithResult(ctx: Ctx, taskId: string, timeoutMs = 20_000): Promise<string> {
  const task = await finished(ctx, taskId, timeoutMs);
  assert.strictEqual(task.status, 'completed', `task ${taskId}: ${task.status} ${task.error ?? ''}`);
  assert.strictEqual(task.error, undefined, `no error on a completed task: ${task.error}`);
  const cached = await ctx.api.store.readResult(taskId);
  assert.strictEqual(cached, ctx.emulator.task(taskId)?.result, 'the cached result is the service result');
  return cached!;
}

/** The error or warning the user saw that matches. */
export async function shownMessage(ctx: Ctx, match: RegExp, kinds: string[] = ['error', 'warn']) {
  return waitFor(() => ctx.user.shown.find(s => kinds.includes(s.kind) && match.test(s.message)), `a message matching ${match} (saw ${JSON.stringify(ctx.user.shown.map(s => s.message))})`, 10_000);
}

export function noKeyIn(text: string, ...keys: (string | undefined)[]): void {
  for (const key of keys) if (key) assert.ok(!text.includes(key), 'a key appears in a message');
}

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Sent with every submission of the suite as vercelAiKey; the scan at the end looks for it. */
export const GATEWAY_KEY = 'gw_faults_suite_secret_0123456789';
