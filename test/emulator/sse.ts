// Server-Sent Events for GET /api/v1/stream/:taskId. Live format (default): typed events — `start`, `progress`
// on each change, `pulse` after `pulseIntervalMs` without one, then `complete` or `error` and the end.
// Kinder format (`streamFormat: 'taskState'`): one `data:` TaskState per progress step, the final one exactly
// at the end (own timer, no coarse tick), then the response ends.
import type { ServerResponse } from 'node:http';
import { isFinal, nextChange, statusAt, streamEvent, taskStateJson, type Store, type TaskRecord } from './state';
import type { StreamFormat } from './types';

const KEEP_ALIVE_MS = 15_000;

export interface StreamOptions {
  format: StreamFormat;
  pulseIntervalMs: number;
}

function openEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
}

/** The live service answers a missing or foreign task with 200 and a single error event. */
export function streamError(res: ServerResponse, message: string): void {
  openEventStream(res);
  res.end(`data: ${JSON.stringify({ type: 'error', error: message })}\n\n`);
}

export function streamTask(res: ServerResponse, task: TaskRecord, store: Store, options: StreamOptions, onClose: () => void): void {
  openEventStream(res);

  let timer: NodeJS.Timeout | undefined;
  let pulse: NodeJS.Timeout | undefined;
  const keepAlive = options.format === 'taskState' ? setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS) : undefined;
  const unwatch = store.watch(task.id, () => {
    clearTimeout(timer);
    send();
  });
  let ended = false;
  const cleanup = (): void => {
    ended = true;
    clearTimeout(timer);
    clearTimeout(pulse);
    clearInterval(keepAlive);
    unwatch();
  };
  res.on('close', () => {
    cleanup();
    onClose();
  });

  let lastData: string | undefined;
  let started = false;
  const armPulse = (): void => {
    clearTimeout(pulse);
    pulse = setTimeout(() => {
      if (!ended) {
        res.write(`data: ${JSON.stringify({ type: 'pulse', reason: 'unchanged-progress' })}\n\n`);
        armPulse();
      }
    }, Math.max(1, options.pulseIntervalMs));
  };

  const send = (): void => {
    if (ended) {
      return;
    }
    const now = Date.now();
    const status = statusAt(task, now);
    if (options.format === 'taskState') {
      res.write(`data: ${taskStateJson(task, now)}\n\n`);
    } else {
      if (!started && status === 'processing') {
        res.write(`data: ${JSON.stringify({ type: 'start', model_id: task.modelId, agent_count: task.agentCount })}\n\n`);
      }
      started = true;
      const data = JSON.stringify(streamEvent(task, now));
      if (data !== lastData) {
        res.write(`data: ${data}\n\n`);
        lastData = data;
        armPulse();
      }
    }
    if (isFinal(status) || (options.format === 'taskState' && status !== 'processing')) {
      cleanup();
      res.end();
      return;
    }
    const at = nextChange(task, now);
    if (at !== undefined) {
      waitUntil(at);
    }
  };
  // Timers may fire a millisecond early; re-arm instead of sending a state that did not change yet.
  const waitUntil = (at: number): void => {
    timer = setTimeout(() => (Date.now() >= at ? send() : waitUntil(at)), Math.max(1, at - Date.now()));
  };

  send();
}
