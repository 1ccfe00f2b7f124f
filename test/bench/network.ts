/**
 * The network half of `npm run bench`, in plain Node against the emulator over loopback HTTP, with the
 * extension's own client and poller (the code the extension host runs). Prints one JSON line
 * `bench-network: {...}` for scripts/bench.js.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { spawn } from 'node:child_process';
import { DeveloperApiClient } from '../../src/api';
import type { ObservedState, TrackedTask } from '../../src/tasks/model';
import { type PollerSettings, type PollerStore, TaskPoller } from '../../src/tasks/poller';
import { type Emulator, startEmulator } from '../emulator/server';

/** The extension's defaults (package.json + extension.ts). */
const EXTENSION_SETTINGS: PollerSettings = {
  minIntervalMs: 1000,
  firstPollMs: 3000,
  maxIntervalMs: 10_000,
  unfocusedIntervalMs: 30_000,
  maxInFlight: 4,
  useStream: true,
  maxStreams: 16,
};

class BenchStore implements PollerStore {
  readonly tasks = new Map<string, TrackedTask>();
  readonly finishedAt = new Map<string, number>();
  readonly results = new Map<string, string>();
  private waiters: (() => void)[] = [];
  /** `submittedAt`: when the submission was answered, as the extension records it. */
  add(id: string, submittedAt = Date.now()) {
    this.tasks.set(id, { id, title: id, instruction: id, promptChars: 0, submittedAt, updatedAt: submittedAt, status: 'processing' });
  }
  running() {
    return [...this.tasks.values()].filter(t => !this.finishedAt.has(t.id));
  }
  get(id: string) {
    return this.tasks.get(id);
  }
  observe(id: string, state: ObservedState) {
    const t = this.tasks.get(id);
    const p = state.agentStatuses?.map(a => a.progress ?? 0) ?? [];
    if (t) this.tasks.set(id, { ...t, status: state.status, progress: p.length ? p.reduce((a, b) => a + b, 0) / p.length : undefined });
  }
  async finish(id: string, state: ObservedState) {
    if (this.finishedAt.has(id)) return;
    this.finishedAt.set(id, Date.now());
    if (state.result) this.results.set(id, state.result);
    const t = this.tasks.get(id);
    if (t) this.tasks.set(id, { ...t, status: state.status });
    this.waiters.splice(0).forEach(w => w());
  }
  async allFinished(ids: string[], timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!ids.every(id => this.finishedAt.has(id))) {
      if (Date.now() > deadline) throw new Error(`only ${ids.filter(id => this.finishedAt.has(id)).length}/${ids.length} finished`);
      await new Promise<void>(r => {
        this.waiters.push(r);
        setTimeout(r, 1000);
      });
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const requestsFor = (emulator: Emulator, taskId: string) => emulator.requests.filter(r => r.path.includes(taskId)).length;

interface LatencyRow {
  mode: 'poll' | 'stream' | 'baseline 2 s';
  seconds: number;
  delayMs: number[];
  requests: number[];
}

/** Tasks of each duration followed three ways at once: the extension polling, the extension streaming, and the SDK's 2 s loop. */
async function latency(emulator: Emulator, durations: number[], reps: number): Promise<LatencyRow[]> {
  const client = new DeveloperApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey });
  const modes = ['poll', 'stream', 'baseline 2 s'] as const;
  const ids: Record<string, { id: string; seconds: number; at: number }[]> = { poll: [], stream: [], 'baseline 2 s': [] };
  const stores: Record<string, BenchStore> = {};
  const pollers: TaskPoller[] = [];
  for (const mode of modes) {
    for (const seconds of durations) {
      for (let i = 0; i < reps; i++) {
        emulator.setNextTask({ durationMs: seconds * 1000 });
        const { taskId } = await client.submitTask({ prompt: `bench ${mode} ${seconds}s #${i}` });
        ids[mode].push({ id: taskId, seconds, at: Date.now() });
      }
    }
  }
  const finishedAt = new Map<string, number>();
  const runs: Promise<void>[] = [];
  for (const mode of ['poll', 'stream'] as const) {
    const store = (stores[mode] = new BenchStore());
    for (const { id, at } of ids[mode]) store.add(id, at);
    const poller = new TaskPoller({ api: () => client, store, settings: () => ({ ...EXTENSION_SETTINGS, useStream: mode === 'stream' }) });
    pollers.push(poller);
    poller.wake();
    runs.push(store.allFinished(ids[mode].map(t => t.id), 200_000).then(() => store.finishedAt.forEach((at, id) => finishedAt.set(id, at))));
  }
  // The official SDK's loop: a status request every 2 s until a terminal state.
  runs.push(
    ...ids['baseline 2 s'].map(async ({ id, at }) => {
      for (let n = 1; ; n++) {
        await new Promise(r => setTimeout(r, Math.max(0, at + n * 2000 - Date.now())));
        const state = await client.getTaskStatus(id);
        if (state.status === 'completed') {
          finishedAt.set(id, Date.now());
          return;
        }
      }
    }),
  );
  await Promise.all(runs);
  pollers.forEach(p => p.dispose());

  const rows: LatencyRow[] = [];
  for (const mode of modes) {
    for (const seconds of durations) {
      const tasks = ids[mode].filter(t => t.seconds === seconds);
      rows.push({
        mode,
        seconds,
        delayMs: tasks.map(t => finishedAt.get(t.id)! - emulator.task(t.id)!.completesAt),
        requests: tasks.map(t => requestsFor(emulator, t.id)),
      });
    }
  }
  return rows;
}

/** 100 tasks submitted back to back, followed with the extension's settings. */
async function hundred(emulator: Emulator) {
  const client = new DeveloperApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey });
  emulator.setTaskDuration(10_000);
  const ids: string[] = [];
  const store = new BenchStore();
  for (let i = 0; i < 100; i++) {
    const { taskId } = await client.submitTask({ prompt: `burst task ${i}` });
    ids.push(taskId);
    store.add(taskId);
  }
  emulator.resetStats();
  const started = Date.now();
  const poller = new TaskPoller({ api: () => client, store, settings: () => EXTENSION_SETTINGS });
  poller.wake();
  await store.allFinished(ids, 120_000);
  poller.dispose();
  const present = ids.filter(id => store.results.get(id)?.includes(`burst task ${ids.indexOf(id)}`)).length;
  return {
    peakPollsInFlight: poller.stats.peakInFlight,
    peakConnections: emulator.stats.peakInFlight,
    streamsOpened: poller.stats.streamsOpened,
    totalRequests: emulator.requests.length,
    resultsPresent: present,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The emulator in its own process, so that its buffers do not count in this process's memory. */
async function emulatorProcess(): Promise<{ baseUrl: string; apiKey: string; stop(): void }> {
  const child = spawn(process.execPath, [path.join(__dirname, '../emulator/cli.js'), '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', d => {
      buf += d;
      if (buf.includes('\n')) resolve(buf.split('\n')[0]);
    });
    child.on('exit', code => reject(new Error(`emulator exited ${code}`)));
  });
  const info = JSON.parse(line) as { baseUrl: string; apiKey: string };
  return { ...info, stop: () => child.kill('SIGTERM') };
}

/** A 10 MB upload streamed from disk and its download streamed to disk: throughput and peak RSS growth. */
async function transfer() {
  const emulator = await emulatorProcess();
  const client = new DeveloperApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, timeoutMs: 120_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'mat-bench-'));
  const source = path.join(dir, 'ten-mb.bin');
  const bytes = randomBytes(10 * 1024 * 1024);
  writeFileSync(source, bytes);
  const measure = async <T>(work: () => Promise<T>) => {
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const t0 = performance.now();
    const value = await work();
    const ms = performance.now() - t0;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, ms, peakIncreaseBytes: peak - base };
  };
  try {
    const up = await measure(() => client.uploadFile({ path: source }));
    const target = path.join(dir, 'download.bin');
    const down = await measure(async () => {
      const download = await client.downloadFile(up.value.id);
      await pipeline(download.stream, createWriteStream(target));
    });
    const same = readFileSync(target).equals(bytes);
    const mb = bytes.length / 1024 / 1024;
    return {
      uploadMBps: mb / (up.ms / 1000),
      uploadPeakIncreaseMB: up.peakIncreaseBytes / 1024 / 1024,
      downloadMBps: mb / (down.ms / 1000),
      downloadPeakIncreaseMB: down.peakIncreaseBytes / 1024 / 1024,
      roundTripExact: same,
    };
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const durations = (process.env.BENCH_DURATIONS ?? '3,15,60,120').split(',').map(Number);
  const emulator = await startEmulator({ quiet: true });
  try {
    // Transfer first, while the process is quiet, so other work does not blur its memory numbers.
    const files = await transfer();
    const [rows, burst] = await Promise.all([
      latency(emulator, durations, Number(process.env.BENCH_REPS ?? 3)),
      (async () => {
        const other = await startEmulator({ quiet: true });
        try {
          return await hundred(other);
        } finally {
          await other.close();
        }
      })(),
    ]);
    const latencyRows = rows.map(r => ({ ...r, delayP50Ms: median(r.delayMs), requestsMedian: median(r.requests) }));
    console.log(`bench-network: ${JSON.stringify({ latency: latencyRows, burst, files })}`);
  } finally {
    await emulator.close();
  }
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
