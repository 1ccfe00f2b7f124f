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
        canceled: store.canceledCount,
        rateLimit: store.rateLimit ?? null,
        tasks: emulator.tasks().map((t) => ({
          taskId: t.id,
          userId: t.userId,
          source: t.source,
          status: t.status,
          outcome: t.outcome,
          createdAt: t.createdAt,
          completesAt: t.completesAt,
          canceledAt: t.canceledAt ?? null,
          approvedAt: t.approvedAt ?? null,
          expiresAt: t.expiresAt ?? null,
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
      const { limit, windowMs, reason } = body;
      const why = reason === 'monthly' || reason === 'capacity' || reason === 'hourly' ? reason : undefined;
      emulator.setRateLimit(
        typeof limit === 'number' && typeof windowMs === 'number' ? { limit, windowMs, reason: why } : undefined,
      );
      sendJson(res, 200, { ok: true, rateLimit: store.rateLimit ?? null });
      return;
    }
    case 'POST /__emulator/config': {
      // Any run-time option (see EmulatorConfig); unknown names and wrong types are refused.
      const changes: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(body)) {
        const current = (store.config as unknown as Record<string, unknown>)[name];
        const optionalNumber = name === 'autoApproveMs' || name === 'approvalResumeMs';
        if (!(name in store.config) || (!optionalNumber && typeof value !== typeof current) || (optionalNumber && value !== null && typeof value !== 'number')) {
          sendProblem(res, 422, `Unknown or mistyped config field "${name}"`);
          return;
        }
        changes[name] = value === null ? undefined : value;
      }
      if (typeof changes.progressSteps === 'number' && changes.progressSteps < 1) {
        delete changes.progressSteps;
      }
      for (const [name, value] of Object.entries(changes)) {
        (store.config as unknown as Record<string, unknown>)[name] = value;
      }
      sendJson(res, 200, { ok: true, config: store.config });
      return;
    }
    case 'POST /__emulator/reset-stats':
      emulator.resetStats();
      sendJson(res, 200, { ok: true });
      return;
    default: {
      // POST /__emulator/approve/{taskId}: the web console's approve (a paused task resumes and completes).
      const approve = /^POST \/__emulator\/approve\/([^/]+)$/.exec(route);
      if (approve) {
        const id = decodeURIComponent(approve[1]);
        if (!store.tasksById.has(id)) {
          sendProblem(res, 404, `Task ${id} not found`);
          return;
        }
        const task = emulator.approve(id);
        if (!task) {
          sendProblem(res, 409, 'Task is not awaiting approval');
          return;
        }
        sendJson(res, 200, { ok: true, taskId: id, status: task.status });
        return;
      }
      sendProblem(res, 404, `Unknown control route ${route}`);
    }
  }
}
