// HTTP control API under /__emulator/ for users in another process (demo, e2e, benchmarks). No key needed;
// these requests are neither recorded nor counted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { faultFromJson } from './faults';
import { parseJsonBody, readBody, sendJson, sendProblem } from './http';
import type { Store } from './state';
import type { Emulator, TaskOverride } from './types';

export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  emulator: Emulator,
  store: Store,
  faultCount: () => number,
): Promise<void> {
  const raw = await readBody(req);
  const parsed = raw === undefined ? undefined : parseJsonBody(raw);
  if (parsed?.kind === 'invalid') {
    sendProblem(res, 400, `unable to parse body: ${parsed.message}`);
    return;
  }
  const body = (parsed?.kind === 'json' ? parsed.value : {}) as Record<string, unknown>;
  const route = `${req.method} ${pathname.replace(/\/$/, '')}`;

  switch (route) {
    case 'GET /__emulator/state':
      sendJson(res, 200, {
        requests: emulator.requests.length,
        otherOriginRequests: emulator.otherOriginRequests.length,
        stats: emulator.stats,
        faults: faultCount(),
        config: store.config,
        rateLimit: store.rateLimit ?? null,
        tasks: emulator.tasks().map((t) => ({
          taskId: t.id,
          userId: t.userId,
          source: t.source,
          status: t.status,
          outcome: t.outcome,
          createdAt: t.createdAt,
          completesAt: t.completesAt,
          prompt: t.prompt.length > 200 ? `${t.prompt.slice(0, 200)}…` : t.prompt,
          modelId: t.modelId,
          attachmentIds: t.attachmentIds,
        })),
      });
      return;
    case 'GET /__emulator/requests':
      sendJson(res, 200, { requests: emulator.requests, otherOriginRequests: emulator.otherOriginRequests });
      return;
    case 'POST /__emulator/faults':
      try {
        emulator.addFault(faultFromJson(body));
      } catch (err) {
        sendProblem(res, 422, (err as Error).message);
        return;
      }
      sendJson(res, 200, { ok: true, faults: faultCount() });
      return;
    case 'DELETE /__emulator/faults':
      emulator.clearFaults();
      sendJson(res, 200, { ok: true });
      return;
    case 'POST /__emulator/next-task':
      emulator.setNextTask(body as TaskOverride);
      sendJson(res, 200, { ok: true });
      return;
    case 'POST /__emulator/rate-limit': {
      const { limit, windowMs } = body;
      emulator.setRateLimit(
        typeof limit === 'number' && typeof windowMs === 'number' ? { limit, windowMs } : undefined,
      );
      sendJson(res, 200, { ok: true, rateLimit: store.rateLimit ?? null });
      return;
    }
    case 'POST /__emulator/config': {
      const { taskDurationMs, streamEnabled, progressSteps, strictRunRequest } = body;
      if (typeof taskDurationMs === 'number') {
        store.config.taskDurationMs = taskDurationMs;
      }
      if (typeof streamEnabled === 'boolean') {
        store.config.streamEnabled = streamEnabled;
      }
      if (typeof progressSteps === 'number' && progressSteps >= 1) {
        store.config.progressSteps = progressSteps;
      }
      if (typeof strictRunRequest === 'boolean') {
        store.config.strictRunRequest = strictRunRequest;
      }
      sendJson(res, 200, { ok: true, config: store.config });
      return;
    }
    case 'POST /__emulator/reset-stats':
      emulator.resetStats();
      sendJson(res, 200, { ok: true });
      return;
    default:
      sendProblem(res, 404, `Unknown control route ${route}`);
  }
}
