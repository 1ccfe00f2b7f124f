/**
 * Loaded INSIDE the extension host by scripts/bench.js (extensionTestsPath): the MCP server's cost (issue 27).
 * Times a task sent directly through the pipeline (send → result read) against the same task through the
 * MCP server's run_task (an SDK client over loopback HTTP: call → reply), interleaved, against the emulator in
 * this process; and the first start of the server (loading dist/mcp.js, listening). The overhead is what each
 * path adds around the same work, without the task's own (noisy) time on the service: from the call to the task
 * being in the store, plus from the task finishing in the store to the answer in hand. Prints `bench-mcp: {...}`.
 */
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApi } from '../../src/extension';
import { isFinished } from '../../src/tasks/model';
import { startEmulator } from '../emulator/server';

const EXT_ID = 'multi-agent-tasks.multi-agent-tasks';
const REPS = Number(process.env.BENCH_MCP_REPS || 8);
const TASK_MS = 1000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function run(): Promise<void> {
  const api = (await vscode.extensions.getExtension<TestApi>(EXT_ID)!.activate())!;
  if (!api.mcp?.registered) {
    console.log(`bench-mcp: ${JSON.stringify({ available: false, vscode: vscode.version })}`);
    console.log('bench: 1 passed, 0 failed');
    return;
  }
  const emulator = await startEmulator({ taskDurationMs: TASK_MS, quiet: true, conversationDelayMs: 250 });
  const config = vscode.workspace.getConfiguration('multiAgent');
  await config.update('baseUrl', emulator.baseUrl, vscode.ConfigurationTarget.Global);
  await config.update('openResultOnCompletion', false, vscode.ConfigurationTarget.Global);
  await config.update('openResultOnSubmit', false, vscode.ConfigurationTarget.Global);
  await api.keys.setApiKey(emulator.apiKey);

  const t0 = performance.now();
  const definition = (await api.mcp.resolveMcpServerDefinition(api.mcp.provideMcpServerDefinitions()[0]))!;
  const startMs = performance.now() - t0;
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(definition.uri.toString()), { requestInit: { headers: definition.headers } }));

  const direct: number[] = [];
  const viaMcp: number[] = [];
  const directAround: number[] = [];
  const mcpAround: number[] = [];
  const added = new Map<string, number>();
  const finished = new Map<string, number>();
  api.store.onDidChange(({ kind, task }) => {
    if (kind === 'added') added.set(task.id, performance.now());
    else if (isFinished(task) && !finished.has(task.id)) finished.set(task.id, performance.now());
  });
  for (let i = 0; i < REPS; i++) {
    let t = performance.now();
    const outcome = await api.pipeline.send({ instruction: `Direct benchmark task ${i}` });
    if (outcome.kind !== 'sent') throw new Error('not sent');
    const sentAt = performance.now();
    await new Promise<void>(resolve => {
      const check = () => {
        const task = api.store.get(outcome.task.id);
        if (task && isFinished(task)) {
          sub.dispose();
          resolve();
        }
      };
      const sub = api.store.onDidChange(check);
      check();
    });
    await api.store.readResult(outcome.task.id);
    const read = performance.now();
    direct.push(read - t);
    directAround.push(sentAt - t + (read - finished.get(outcome.task.id)!));

    t = performance.now();
    const reply = await client.callTool({ name: 'run_task', arguments: { instruction: `MCP benchmark task ${i}` } }, undefined, { timeout: 60_000 });
    if (reply.isError) throw new Error(JSON.stringify(reply.content));
    const answered = performance.now();
    viaMcp.push(answered - t);
    const id = (reply.structuredContent as { taskId: string }).taskId;
    mcpAround.push(added.get(id)! - t + (answered - finished.get(id)!));
  }
  await client.close();
  await emulator.close();
  const result = { available: true, reps: REPS, taskMs: TASK_MS, startMs, directMs: direct, mcpMs: viaMcp, directP50: median(direct), mcpP50: median(viaMcp), directAroundP50: median(directAround), mcpAroundP50: median(mcpAround), overheadP50: median(mcpAround) - median(directAround) };
  console.log(`bench-mcp: ${JSON.stringify(result)}`);
  console.log('bench: 1 passed, 0 failed');
}
