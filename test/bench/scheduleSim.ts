/**
 * The poll schedule on a fake clock against the emulator's own task model (live progress: staggered agents,
 * 0.5 while working), with the official SDK's loop beside it: seconds instead of minutes, many durations and
 * request latencies. A design aid, not part of `npm run bench` (which measures over real HTTP).
 * `node out/test/bench/scheduleSim.js [durations s, comma-separated]`
 */
import type { ObservedState, TrackedTask } from '../../src/tasks/model';
import { type Clock, type PollerSettings, type PollerStore, TaskPoller } from '../../src/tasks/tracking/poller';
import { configFrom } from '../emulator/server';
import { Store, taskState } from '../emulator/state';
import { DEMO_API_KEY } from '../emulator/types';

class SimClock implements Clock {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.ids;
    this.timers.push({ at: this.t + Math.max(0, ms), fn, id });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers = this.timers.filter(t => t.id !== handle);
  }
  async run(until: () => boolean, limitMs: number) {
    const end = this.t + limitMs;
    while (!until() && this.t < end) {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      const next = this.timers.sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    for (let i = 0; i < 20; i++) await Promise.resolve();
  }
}

const SETTINGS: PollerSettings = { minIntervalMs: 1000, firstPollMs: 3000, maxIntervalMs: 10_000, unfocusedIntervalMs: 30_000, maxInFlight: 4, useStream: false, maxStreams: 0 };

/** One task of `durationMs`, created `submitLagMs` before the client records it; `latencyMs` per request. */
async function simulate(durationMs: number, submitLagMs: number, latencyMs: number, agentCount: number) {
  const clock = new SimClock();
  const emu = new Store([DEMO_API_KEY], configFrom({ taskDurationMs: durationMs }));
  const task = emu.createTask(
    { userId: 1, apiKey: DEMO_API_KEY, source: 'run', prompt: 'sim', modelId: 'm', options: { agentCount }, body: {}, attachmentIds: [] },
    0,
  );
  clock.t = submitLagMs;
  let requests = 0;
  let doneAt: number | undefined;
  const wait = (ms: number) => new Promise<void>(r => clock.setTimeout(r, ms));
  const read = async () => {
    requests++;
    await wait(latencyMs / 2);
    const state = taskState(task, clock.now()) as unknown as ObservedState;
    await wait(latencyMs / 2);
    return state;
  };
  const tracked: TrackedTask = { id: task.id, title: 'sim', instruction: 'sim', promptChars: 3, submittedAt: submitLagMs, updatedAt: 0, status: 'processing' };
  const store: PollerStore = {
    running: () => (doneAt === undefined ? [tracked] : []),
    get: () => tracked,
    observe: () => undefined,
    finish: async () => {
      doneAt = clock.now();
    },
  };
  const poller = new TaskPoller({
    api: () => ({ getTaskStatus: read, getTaskResult: async () => ({ status: 'completed', result: 'r' }) }),
    store,
    clock,
    settings: () => SETTINGS,
  });
  poller.wake();
  await clock.run(() => doneAt !== undefined, durationMs * 3 + 60_000);
  poller.dispose();
  const ours = { requests, delayMs: (doneAt ?? NaN) - task.completesAt };

  // The official SDK: first read at once, then 2 s after each answer.
  let sdkRequests = 0;
  let t = submitLagMs;
  for (;;) {
    sdkRequests++;
    const answeredAt = t + latencyMs;
    if (t + latencyMs / 2 >= task.completesAt) {
      return { ours, sdk: { requests: sdkRequests, delayMs: answeredAt - task.completesAt } };
    }
    t = answeredAt + 2000;
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main() {
  const durations = (process.argv[2] ?? '3,5,8,10,15,20,30,45,60,90,120,180').split(',').map(Number);
  const agents = Number(process.env.SIM_AGENTS ?? 4);
  console.log(`agents ${agents}; p50/p90 delay ms, mean requests: ours vs SDK (ratio)`);
  for (const seconds of durations) {
    const ours: { requests: number; delayMs: number }[] = [];
    const sdk: typeof ours = [];
    for (const lag of [2, 30, 120]) {
      for (const latency of [4, 40, 150]) {
        const r = await simulate(seconds * 1000, lag, latency, agents);
        ours.push(r.ours);
        sdk.push(r.sdk);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const o = mean(ours.map(r => r.requests));
    const b = mean(sdk.map(r => r.requests));
    console.log(
      `${String(seconds).padStart(4)} s: ours ${pct(ours.map(r => r.delayMs), 0.5)}/${pct(ours.map(r => r.delayMs), 0.9)} ms ${o.toFixed(1)} req | sdk ${pct(sdk.map(r => r.delayMs), 0.5)}/${pct(sdk.map(r => r.delayMs), 0.9)} ms ${b.toFixed(1)} req | ${((100 * o) / b).toFixed(0)} %`,
    );
  }
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
