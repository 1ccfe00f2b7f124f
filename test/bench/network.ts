/**
 * The network half of `npm run bench`, in plain Node against the emulator over loopback HTTP, with the
 * extension's own client and poller (the code the extension host runs). Prints one JSON line
 * `bench-network: {...}` for scripts/bench.js.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { DeveloperApiClient } from '../../src/api';
import type { ObservedState, TrackedTask } from '../../src/tasks/model';
import { type PollerSettings, type PollerStore, TaskPoller } from '../../src/tasks/tracking/poller';
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
/** Nearest-rank percentile. */
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};
const requestsFor = (emulator: Emulator, taskId: string) => emulator.requests.filter(r => r.path.includes(taskId)).length;
const sleep = (ms: number) => new Promise(r => setTimeout(r, Math.max(0, ms)));

/**
 * A TCP relay in front of the emulator that counts the connections a client opens (keep-alive reuse shows
 * as fewer connections than requests). The emulator itself does not count connections.
 */
async function countingRelay(port: number): Promise<{ port: number; connections: () => number; close(): void }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer(client => {
    connections++;
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => {
      sockets.forEach(s => s.destroy());
      server.close();
    },
  };
}
const through = (emulator: Emulator, relayPort: number) => emulator.baseUrl.replace(`:${emulator.port}/`, `:${relayPort}/`);

type Mode = 'poll' | 'stream (live typed events)' | 'stream (taskState switch)' | 'SDK baseline';

interface LatencyRow {
  mode: Mode;
  seconds: number;
  delayMs: number[];
  requests: number[];
  /** TCP connections opened for the mode's tasks, divided by their number. */
  connectionsPerTask: number;
}

/** The official SDK's poll period, ms (the spec: 2 s after each answer). */
const SDK_POLL_MS = 2000;

/**
 * The official SDK's loop as the spec describes it: first status read at once, then 2 s after each answer,
 * up to 150 reads; a 408/429/5xx is retried up to 3 times with 0.5-8 s backoff (Retry-After honoured).
 * Returns when the answer is terminal.
 */
async function sdkFollow(client: DeveloperApiClient, taskId: string): Promise<ObservedState> {
  for (let read = 0; read < 150; read++) {
    if (read) await sleep(SDK_POLL_MS);
    let state: ObservedState | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        state = await client.getTaskStatus(taskId, { retry: false });
        break;
      } catch (e) {
        const status = (e as { status?: number }).status ?? 0;
        const retryable = status === 408 || status === 429 || status >= 500;
        if (!retryable || attempt >= 3) throw e;
        const backoff = Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() / 2);
        await sleep((e as { retryAfterMs?: number }).retryAfterMs ?? backoff);
      }
    }
    if (['completed', 'failed', 'canceled'].includes(state.status)) return state;
  }
  throw new Error(`SDK loop: ${taskId} not finished after 150 reads`);
}

/**
 * Tasks of each duration followed four ways at once: the extension polling, the extension streaming
 * (against the live typed events, which the current client cannot read yet, and against the emulator's
 * `streamFormat: 'taskState'` switch), and the official SDK's loop. Each way has its own emulator (one
 * clock, same defaults) behind a connection-counting relay.
 */
async function latency(durations: number[], reps: number): Promise<LatencyRow[]> {
  const modes: Mode[] = ['poll', 'stream (live typed events)', 'stream (taskState switch)', 'SDK baseline'];
  const rows: LatencyRow[] = [];
  await Promise.all(
    modes.map(async mode => {
      const emulator = await startEmulator({ quiet: true, ...(mode === 'stream (taskState switch)' ? { streamFormat: 'taskState' as const } : {}) });
      const relay = await countingRelay(emulator.port);
      try {
        const client = new DeveloperApiClient({ baseUrl: through(emulator, relay.port), apiKey: emulator.apiKey });
        const tasks: { id: string; seconds: number; at: number }[] = [];
        for (const seconds of durations) {
          for (let i = 0; i < reps; i++) {
            // A real task does not end on the SDK's 2 s grid: the reps of one length are spread over one SDK
            // poll period (0, 1/3, 2/3, … s past the nominal length for 6 reps), so each p50 samples its phases
            // instead of one lucky or unlucky alignment. The delay is measured from each task's own end.
            emulator.setNextTask({ durationMs: seconds * 1000 + Math.round((i * SDK_POLL_MS) / reps) });
            const { taskId } = await client.submitTask({ prompt: `bench ${mode} ${seconds}s #${i}` });
            tasks.push({ id: taskId, seconds, at: Date.now() });
          }
        }
        const connectionsBefore = relay.connections();
        const finishedAt = new Map<string, number>();
        if (mode === 'SDK baseline') {
          await Promise.all(tasks.map(async t => sdkFollow(client, t.id).then(() => finishedAt.set(t.id, Date.now()))));
        } else {
          const store = new BenchStore();
          for (const { id, at } of tasks) store.add(id, at);
          const poller = new TaskPoller({ api: () => client, store, settings: () => ({ ...EXTENSION_SETTINGS, useStream: mode !== 'poll' }) });
          poller.wake();
          await store.allFinished(tasks.map(t => t.id), 300_000);
          poller.dispose();
          store.finishedAt.forEach((at, id) => finishedAt.set(id, at));
        }
        const connectionsPerTask = (relay.connections() - connectionsBefore) / tasks.length;
        for (const seconds of durations) {
          const mine = tasks.filter(t => t.seconds === seconds);
          rows.push({
            mode,
            seconds,
            delayMs: mine.map(t => finishedAt.get(t.id)! - emulator.task(t.id)!.completesAt),
            requests: mine.map(t => requestsFor(emulator, t.id)),
            connectionsPerTask,
          });
        }
      } finally {
        relay.close();
        await emulator.close();
      }
    }),
  );
  return modes.flatMap(mode => rows.filter(r => r.mode === mode).sort((a, b) => a.seconds - b.seconds));
}

/**
 * A finished task whose first status read gets the service's 429 (no Retry-After, capacity text): ms from
 * that 429 to the result in hand, for the extension's poller and for the SDK's loop.
 */
async function rateLimitRecovery(reps: number) {
  const emulator = await startEmulator({ quiet: true, taskDurationMs: 0 });
  try {
    const client = new DeveloperApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey });
    const measure = async (follow: (taskId: string) => Promise<void>) => {
      const times: number[] = [];
      for (let i = 0; i < reps; i++) {
        const { taskId } = await client.submitTask({ prompt: `rate limited #${i}` });
        await sleep(50);
        emulator.addFault({ method: 'GET', path: `/status/${taskId}`, kind: 'status', status: 429 });
        await follow(taskId);
        const done = Date.now();
        const limited = emulator.requests.find(r => r.path.includes(taskId) && r.status === 429);
        if (!limited) throw new Error('the 429 was not served');
        times.push(done - (limited.endedAt ?? limited.startedAt));
      }
      return times;
    };
    const poller = await measure(async taskId => {
      const store = new BenchStore();
      store.add(taskId, Date.now() - 60_000); // due at once
      const p = new TaskPoller({ api: () => client, store, settings: () => ({ ...EXTENSION_SETTINGS, useStream: false }) });
      p.wake();
      await store.allFinished([taskId], 120_000);
      p.dispose();
    });
    const sdk = await measure(async taskId => void (await sdkFollow(client, taskId)));
    return { pollerMs: poller, sdkMs: sdk, pollerMedianMs: median(poller), sdkMedianMs: median(sdk) };
  } finally {
    await emulator.close();
  }
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

/** Text of `bytes` bytes (uploads are sniffed: random bytes would be refused as an unsupported type). */
function textOf(bytes: number): Buffer {
  const line = Buffer.from('The quick brown fox jumps over the lazy dog 0123456789.\n');
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += line.length) line.copy(out, i, 0, Math.min(line.length, bytes - i));
  return out;
}

/**
 * A 4 MB and a 9 MB upload streamed from disk, and the 4 MB one downloaded to disk: throughput and peak RSS
 * growth. The platform refuses bodies over 4,500,000 bytes (413), so 9 MB needs the direct-upload flow.
 */
async function transfer() {
  const emulator = await emulatorProcess();
  const client = new DeveloperApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, timeoutMs: 120_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'mat-bench-'));
  const measure = async <T>(work: () => Promise<T>) => {
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const t0 = performance.now();
    try {
      const value = await work();
      return { value, ms: performance.now() - t0, peakIncreaseBytes: Math.max(peak, process.memoryUsage().rss) - base };
    } finally {
      clearInterval(sampler);
    }
  };
  const upload = async (megabytes: number) => {
    const bytes = textOf(megabytes * 1000 * 1000);
    const source = path.join(dir, `${megabytes}-mb.txt`);
    writeFileSync(source, bytes);
    try {
      const up = await measure(() => client.uploadFile({ path: source }));
      return { megabytes, bytes, id: up.value.id, MBps: megabytes / (up.ms / 1000), peakIncreaseMB: up.peakIncreaseBytes / 1e6 };
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 413) return { megabytes, bytes, notSupported: `not supported yet (direct upload flow): ${(e as Error).message}` };
      throw e;
    }
  };
  try {
    const four = await upload(4);
    const nine = await upload(9);
    let download: { MBps: number; peakIncreaseMB: number; roundTripExact: boolean } | undefined;
    if ('id' in four && four.id) {
      const target = path.join(dir, 'download.bin');
      const down = await measure(async () => {
        const d = await client.downloadFile(four.id!);
        await pipeline(d.stream, createWriteStream(target));
      });
      download = { MBps: 4 / (down.ms / 1000), peakIncreaseMB: down.peakIncreaseBytes / 1e6, roundTripExact: readFileSync(target).equals(four.bytes) };
    }
    const strip = ({ bytes: _b, ...rest }: { bytes: Buffer } & Record<string, unknown>) => rest;
    return { uploads: [strip(four), strip(nine)], download };
  } finally {
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const durations = (process.env.BENCH_DURATIONS ?? '3,15,60,120').split(',').map(Number);
  const reps = Number(process.env.BENCH_REPS ?? 6);
  // Transfer first, while the process is quiet, so other work does not blur its memory numbers.
  const files = await transfer();
  const [rows, burst, rateLimit] = await Promise.all([
    latency(durations, reps),
    (async () => {
      const other = await startEmulator({ quiet: true });
      try {
        return await hundred(other);
      } finally {
        await other.close();
      }
    })(),
    rateLimitRecovery(reps),
  ]);
  const latencyRows = rows.map(r => ({ ...r, delayP50Ms: median(r.delayMs), delayP90Ms: percentile(r.delayMs, 0.9), requestsMedian: median(r.requests) }));
  console.log(`bench-network: ${JSON.stringify({ latency: latencyRows, burst, rateLimit, files })}`);
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
