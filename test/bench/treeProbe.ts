/**
 * Loaded INSIDE the extension host by scripts/bench.js (extensionTestsPath): times the Tasks view's first
 * level with 1,000 stored tasks. Prints `bench-tree: {...}` and the closing line the runner expects.
 */
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { TrackedTask } from '../../src/tasks/model';

const EXT_ID = 'multi-agent-tasks.multi-agent-tasks';

export async function run(): Promise<void> {
  const api = await vscode.extensions.getExtension<TestApi>(EXT_ID)!.activate();
  const provider = api?.sidebar?.tasks;
  if (!api || !provider) throw new Error('bench needs the extension in test mode with the Tasks view');
  const statuses = ['completed', 'failed', 'processing', 'completed', 'canceled'];
  const now = Date.now();
  const adds: Promise<void>[] = [];
  for (let i = 0; i < 1000; i++) {
    const task: TrackedTask = {
      id: `task_bench_${i}`,
      title: `Benchmark task number ${i}`,
      instruction: `Benchmark task number ${i}`,
      promptChars: 100,
      submittedAt: now - i * 60_000,
      updatedAt: now,
      status: statuses[i % statuses.length],
      modelId: 'zai/glm-5.2',
      progress: 0.5,
    };
    adds.push(api.store.add(task));
  }
  await Promise.all(adds);
  api.poller.dispose(); // nothing polls the made-up tasks

  const times: number[] = [];
  let count = 0;
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    const roots = await provider.getChildren(undefined);
    const items = await Promise.all((roots ?? []).map(node => provider.getTreeItem(node)));
    times.push(performance.now() - t0);
    count = items.length;
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`bench-tree: ${JSON.stringify({ tasks: 1000, items: count, firstMs: times[0], medianMs: sorted[3] })}`);
  console.log('bench: 1 passed, 0 failed');
}
