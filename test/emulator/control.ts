// HTTP control API under /__emulator/ for users in another process (demo, e2e, benchmarks). No key needed;
// these requests are neither recorded nor counted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { faultFromJson } from './faults';
import { parseJsonBody, readBody, sendJson, sendProblem } from './http';
import { Access } from './access';
import type { Store } from './state';
import { KEY_STATES, PLANS, type Emulator, type KeyState, type Plan, type TaskOverride } from './types';

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
        rateLimit: store.access.override ?? null,
        clockOffsetMs: store.clock.offset,
        now: store.now(),
        keys: [...store.keys.values()].map((k) => ({
          displayKey: k.key.length > 14 ? `${k.key.slice(0, 10)}...${k.key.slice(-4)}` : k.key,
          userId: k.userId,
          state: store.access.keyState(k.key),
          plan: store.access.planOf(k.userId),
          hourlyUse: store.access.hourlyUse(k.key, store.now()),
          taskWindow: store.access.taskWindow(k.userId, store.now()),
          storage: { usedBytes: store.usedBytes(k.userId), quotaBytes: store.quotaBytes(k.userId) },
        })),
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
          conversationId: t.conversationId ?? null,
          generatedFileIds: t.generatedFileIds,
          budget: t.budget ?? null,
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
    case 'POST /__emulator/release': {
      // A task held by `next-task {"hold": true}` finishes now; without a taskId, every held task.
      const released = emulator.release(typeof body.taskId === 'string' ? body.taskId : undefined);
      sendJson(res, 200, { ok: true, released });
      return;
    }
    case 'POST /__emulator/rate-limit': {
      const { limit, windowMs, reason } = body;
      const why = reason === 'monthly' || reason === 'capacity' || reason === 'hourly' ? reason : undefined;
      emulator.setRateLimit(
        typeof limit === 'number' ? { limit, windowMs: typeof windowMs === 'number' ? windowMs : undefined, reason: why } : undefined,
      );
      sendJson(res, 200, { ok: true, rateLimit: store.access.override ?? null, hourEndsAt: Access.hourEnd(store.now()) });
      return;
    }
    case 'POST /__emulator/plan':
    case 'POST /__emulator/key-state':
    case 'POST /__emulator/storage': {
      const key = body.key;
      if (typeof key !== 'string' || !store.keys.has(key)) {
        sendProblem(res, 422, 'Unknown "key"');
        return;
      }
      if (route === 'POST /__emulator/plan') {
        if (!PLANS.includes(body.plan as Plan)) {
          sendProblem(res, 422, `"plan" must be one of ${PLANS.join(', ')}`);
          return;
        }
        emulator.setPlan(key, body.plan as Plan);
      } else if (route === 'POST /__emulator/key-state') {
        if (!KEY_STATES.includes(body.state as KeyState)) {
          sendProblem(res, 422, `"state" must be one of ${KEY_STATES.join(', ')}`);
          return;
        }
        emulator.setKeyState(key, body.state as KeyState);
      } else {
        const { quotaBytes, usedBytes } = body;
        if ((quotaBytes !== undefined && typeof quotaBytes !== 'number') || (usedBytes !== undefined && typeof usedBytes !== 'number')) {
          sendProblem(res, 422, '"quotaBytes" and "usedBytes" must be numbers');
          return;
        }
        emulator.setStorage(key, { quotaBytes: quotaBytes as number | undefined, usedBytes: usedBytes as number | undefined });
      }
      sendJson(res, 200, { ok: true });
      return;
    }
    case 'POST /__emulator/clock': {
      const advance = body.advanceMs;
      if (typeof advance !== 'number' || !(advance >= 0)) {
        sendProblem(res, 422, '"advanceMs" must be a number >= 0');
        return;
      }
      sendJson(res, 200, { ok: true, offsetMs: emulator.advanceClock(advance), now: emulator.now() });
      return;
    }
    case 'POST /__emulator/config': {
      // Any run-time option (see EmulatorConfig); unknown names and wrong types are refused.
      const changes: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(body)) {
        const current = (store.config as unknown as Record<string, unknown>)[name];
        const optionalNumber = name === 'autoApproveMs' || name === 'approvalResumeMs';
        const badPlan = name === 'defaultPlan' && !PLANS.includes(value as Plan);
        if (!(name in store.config) || badPlan || (!optionalNumber && typeof value !== typeof current) || (optionalNumber && value !== null && typeof value !== 'number')) {
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
      store.access.defaultPlan = store.config.defaultPlan;
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
