// Server-Sent Events for GET /api/v1/stream/:taskId. Live format (default): typed events — `start`, `progress`
// on each change, `pulse {reason:'unchanged-progress'}` after `pulseIntervalMs` without one, `pulse
// {reason:'keep-alive'}` every `keepAliveIntervalMs` regardless, then `complete` or `error` and the end; the
// platform cuts the stream after `streamCutMs` without a terminal event. Kinder format (`streamFormat:
// 'taskState'`): one `data:` TaskState per progress step, the final one exactly at the end, then the end.
import type { ServerResponse } from 'node:http';
import { isFinal, nextChange, statusAt, streamEvent, taskState, taskStateJson, type Store, type TaskRecord } from './state';
import type { StreamFormat } from './types';

const COMMENT_KEEP_ALIVE_MS = 15_000;

export interface StreamOptions {
  format: StreamFormat;
  pulseIntervalMs: number;
  keepAliveIntervalMs: number;
  /** 0 = never cut. */
  cutMs: number;
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
  const clock = store.clock;
  const typed = options.format === 'typed';

  let cancelNext: (() => void) | undefined;
  let pulse: NodeJS.Timeout | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  const commentKeepAlive = typed ? undefined : setInterval(() => res.write(': keep-alive\n\n'), COMMENT_KEEP_ALIVE_MS);
  const unwatch = store.watch(task.id, () => {
    cancelNext?.();
    send();
  });
  // The platform ends the function (and the stream) after its maximum duration, mid-task or not.
  const cancelCut = options.cutMs > 0 ? clock.at(clock.now() + options.cutMs, () => end()) : undefined;
  let ended = false;
  const cleanup = (): void => {
    ended = true;
    cancelNext?.();
    cancelCut?.();
    clearTimeout(pulse);
    clearInterval(keepAlive);
    clearInterval(commentKeepAlive);
    unwatch();
  };
  const end = (): void => {
    if (!ended) {
      cleanup();
      res.end();
    }
  };
  res.on('close', () => {
    cleanup();
    onClose();
  });

  const write = (event: Record<string, unknown>): void => {
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  if (typed && options.keepAliveIntervalMs > 0) {
    keepAlive = setInterval(() => {
      if (!ended) {
        write({ type: 'pulse', reason: 'keep-alive' });
      }
    }, options.keepAliveIntervalMs);
  }

  let lastData: string | undefined;
  let started = false;
  const armPulse = (): void => {
    clearTimeout(pulse);
    pulse = setTimeout(() => {
      if (!ended) {
        write({ type: 'pulse', reason: 'unchanged-progress' });
        armPulse();
      }
    }, Math.max(1, options.pulseIntervalMs));
  };

  const send = (): void => {
    if (ended) {
      return;
    }
    const now = clock.now();
    store.settle(now);
    const status = statusAt(task, now);
    if (!typed) {
      res.write(`data: ${taskStateJson(task, now) ?? JSON.stringify({ taskId: task.id, status })}\n\n`);
    } else {
      if (!started && status === 'processing') {
        const agents = taskState(task, now).agentStatuses as unknown[];
        write({ type: 'start', model_id: task.modelId, agent_count: agents.length });
      }
      started = true;
      const data = JSON.stringify(streamEvent(task, now));
      if (data !== lastData) {
        res.write(`data: ${data}\n\n`);
        lastData = data;
        armPulse();
      }
    }
    if (isFinal(status) || (!typed && status !== 'processing')) {
      end();
      return;
    }
    const at = nextChange(task, now);
    if (at !== undefined) {
      cancelNext = clock.at(at, send);
    }
  };

  send();
}
