// Server-Sent Events for GET /api/v1/stream/:taskId: one `data:` TaskState per progress step, the final one
// exactly at completesAt (own timer, no coarse tick), then the response ends.
import type { ServerResponse } from 'node:http';
import { statusAt, taskStateJson, type TaskRecord } from './state';

const KEEP_ALIVE_MS = 15_000;

export function streamTask(res: ServerResponse, task: TaskRecord, onClose: () => void): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();

  let timer: NodeJS.Timeout | undefined;
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const cleanup = (): void => {
    clearTimeout(timer);
    clearInterval(keepAlive);
  };
  res.on('close', () => {
    cleanup();
    onClose();
  });

  const stepMs = task.durationMs / task.steps;
  /** Time of the next state change after `now`: the next step boundary, capped at completion. */
  const nextChange = (now: number): number => {
    const nextStep = task.createdAt + (Math.floor((now - task.createdAt) / stepMs) + 1) * stepMs;
    return Math.min(Math.ceil(nextStep), task.completesAt);
  };

  const send = (): void => {
    const now = Date.now();
    res.write(`data: ${taskStateJson(task, now)}\n\n`);
    if (statusAt(task, now) !== 'processing') {
      cleanup();
      res.end();
      return;
    }
    waitUntil(nextChange(now));
  };
  // Timers may fire a millisecond early; re-arm instead of sending a state that did not change yet.
  const waitUntil = (at: number): void => {
    timer = setTimeout(() => (Date.now() >= at ? send() : waitUntil(at)), Math.max(1, at - Date.now()));
  };

  send();
}
