// Local emulator of the hosted Multi-Agent Tasks Developer API. Node built-ins + busboy only; never imports
// vscode or the extension's sources.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_STATE_REFUSALS } from './access';
import { BLOB_PATH_PREFIX, putBlob } from './blob';
import { handleControl } from './control';
import { applyFault, FaultList } from './faults';
import { ApiError, isMultipart, parseJsonBody, readBody, sendAuthError, sendJson, sendProblem, type ParsedBody } from './http';
import { dispatch } from './routes';
import { Store, TIERS } from './state';
import {
  CURRENT_BASE_PATH,
  DEMO_API_KEY,
  LEGACY_BASE_PATH,
  SECOND_API_KEY,
  type Emulator,
  type EmulatorConfig,
  type EmulatorOptions,
  type EmulatorStats,
  type RecordedRequest,
} from './types';

export * from './types';

/** Start options → run-time config; every default is the live service's behaviour. */
export function configFrom(options: EmulatorOptions): EmulatorConfig {
  return {
    taskDurationMs: options.taskDurationMs ?? 4000,
    progressSteps: options.progressSteps ?? 5,
    streamEnabled: options.streamEnabled ?? true,
    strictRunRequest: options.strictRunRequest ?? true,
    streamFormat: options.streamFormat ?? 'typed',
    pulseIntervalMs: options.pulseIntervalMs ?? 25_000,
    progressModel: options.progressModel ?? 'live',
    autoApproveMs: options.autoApproveMs,
    approvalResumeMs: options.approvalResumeMs,
    rateLimitHeaders: options.rateLimitHeaders ?? false,
    usageAcceptsKey: options.usageAcceptsKey ?? false,
    threadPaging: options.threadPaging ?? false,
    bodyLimitBytes: options.bodyLimitBytes ?? 4_500_000,
    downloadLimitBytes: options.downloadLimitBytes ?? 4 * 1024 * 1024,
    sniffUploads: options.sniffUploads ?? true,
    taskTtlMs: options.taskTtlMs ?? 60 * 60 * 1000,
    utf8DownloadNames: options.utf8DownloadNames ?? false,
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? 55_000,
    streamCutMs: options.streamCutMs ?? 800_000,
    attachmentTtlMs: options.attachmentTtlMs ?? 10 * 60 * 1000,
    attachmentUploadsPerMinute: options.attachmentUploadsPerMinute ?? 30,
    storageQuotaBytes: options.storageQuotaBytes ?? 40 * 1024 * 1024 * 1024,
    conversationDelayMs: options.conversationDelayMs ?? 250,
    blobRandomSuffix: options.blobRandomSuffix ?? true,
    agentStatusForm: options.agentStatusForm ?? 'live',
    resultsLimitBytes: options.resultsLimitBytes ?? 3 * 1024 * 1024,
    traceReport: options.traceReport ?? 'none',
    defaultPlan: options.defaultPlan ?? 'unlimited',
  };
}

/**
 * Which auth layer a route sits behind: the Developer API answers a missing or wrong key with 401 "Invalid or
 * missing API key"; the engine with 401 "Unauthorized" (problem+json, or `{status, detail}` from the stream).
 */
function routeKind(pathname: string): 'developer' | 'engine' | 'stream' {
  if (pathname.startsWith('/api/v1/stream/')) {
    return 'stream';
  }
  return /^\/api\/v1\/(tasks|attachments)\//.test(pathname) || /^\/api\/v1\/run\/?$/.test(pathname) ? 'engine' : 'developer';
}

/** What the hosting platform answers for a request body over 4,500,000 bytes. */
function sendPayloadTooLarge(res: ServerResponse): void {
  const text = 'Request Entity Too Large\n\nFUNCTION_PAYLOAD_TOO_LARGE\n';
  res.writeHead(413, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-vercel-error': 'FUNCTION_PAYLOAD_TOO_LARGE',
  });
  res.end(text);
}

type Listener = 'main' | 'other';

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKeys = options.apiKeys ?? [DEMO_API_KEY, SECOND_API_KEY];
  const store = new Store(apiKeys, configFrom(options), options.plans);
  const faults = new FaultList();
  const requests: RecordedRequest[] = [];
  const otherOriginRequests: RecordedRequest[] = [];
  const stats = { inFlight: 0, peakInFlight: 0, total: 0, streamsOpen: 0 } as EmulatorStats;
  Object.defineProperty(stats, 'canceled', { enumerable: true, get: () => store.canceledCount });
  const openResponses = new Set<ServerResponse>();
  const log = (line: string): void => {
    if (!options.quiet) {
      process.stderr.write(`[emulator] ${line}\n`);
    }
  };

  const servers: Record<Listener, Server> = {
    main: createServer((req, res) => void handle(req, res, 'main')),
    other: createServer((req, res) => void handle(req, res, 'other')),
  };
  // Idle connections stay open as long as the service's own Go server keeps them (IdleTimeout 120 s in its
  // packages/adapters/pkg/server/server.go), not Node's 5 s, so a client can reuse one between polls.
  for (const server of Object.values(servers)) server.keepAliveTimeout = 120_000;
  const ports: Record<Listener, number> = { main: options.port ?? 0, other: 0 };
  const originOf = (port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let origin = '';
  let otherOrigin = '';

  async function handle(req: IncomingMessage, res: ServerResponse, listener: Listener): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    if (listener === 'main' && url.pathname.startsWith('/__emulator/')) {
      await handleControl(req, res, url.pathname, emulator, store, () => faults.size).catch((err: Error) =>
        sendProblem(res, 500, err.message),
      );
      return;
    }

    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers: { ...req.headers },
      startedAt: store.now(),
    };
    (listener === 'main' ? requests : otherOriginRequests).push(record);
    openResponses.add(res);
    stats.total++;
    stats.inFlight++;
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
    res.on('close', () => {
      openResponses.delete(res);
      stats.inFlight--;
      record.endedAt = store.now();
      if (res.headersSent) {
        record.status = res.statusCode;
      }
      log(`${listener === 'other' ? '(other origin) ' : ''}${record.method} ${record.path} -> ${record.status ?? 'dropped'} ${record.endedAt - record.startedAt}ms`);
    });

    try {
      await serve(req, res, url, record, listener);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        log(`internal error: ${(err as Error).stack ?? String(err)}`);
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (isMultipart(req) && !req.readableEnded) {
        await drain(req);
      }
      if (err instanceof ApiError && err.shape === 'auth') {
        sendJson(res, err.status, { status: err.status, detail: err.detail }, err.headers);
      } else if (err instanceof ApiError) {
        sendProblem(res, err.status, err.detail, err.errors, err.headers);
      } else {
        sendProblem(res, 500, 'Internal emulator error');
      }
    }
  }

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    record: RecordedRequest,
    listener: Listener,
  ): Promise<void> {
    // The direct upload's blob store: no API key, its own token (checked by the route).
    if (url.pathname.startsWith(BLOB_PATH_PREFIX) && req.method === 'PUT') {
      await putBlob(req, res, store, decodeURIComponent(url.pathname.slice(BLOB_PATH_PREFIX.length)), otherOrigin);
      return;
    }

    // The platform refuses large request bodies before the service (or the engine) sees them.
    const bodyLimit = store.config.bodyLimitBytes;
    const declaredLength = Number(req.headers['content-length'] ?? NaN);
    if (bodyLimit > 0 && declaredLength > bodyLimit) {
      await drain(req);
      sendPayloadTooLarge(res);
      return;
    }

    // Multipart bodies are streamed by their route; anything else is buffered so a test can see it.
    const multipart = isMultipart(req);
    let body: ParsedBody = { kind: 'none' };
    if (!multipart) {
      const raw = await readBody(req);
      if (raw === undefined) {
        throw new ApiError(413, 'Request body too large');
      }
      if (bodyLimit > 0 && raw.length > bodyLimit) {
        sendPayloadTooLarge(res);
        return;
      }
      body = parseJsonBody(raw);
      if (body.kind === 'json') {
        record.body = body.value;
      }
    }

    // Faults apply to the main listener only, so a redirect to the other origin cannot loop.
    const fault = listener === 'main' ? faults.take(record.method, url.pathname) : undefined;
    if (fault?.kind === 'dropAnswer') {
      // The request is handled as usual; its answer never arrives (a reset where the headers would be).
      res.writeHead = (() => res) as unknown as typeof res.writeHead;
      res.end = ((): ServerResponse => {
        req.socket.destroy();
        return res;
      }) as unknown as typeof res.end;
    } else if (fault) {
      if (multipart && fault.kind !== 'delay' && fault.kind !== 'drop') {
        await drain(req);
      }
      const handled = await applyFault(fault, { req, res, path: record.path, pathname: url.pathname, origin, otherOrigin });
      if (handled) {
        return;
      }
    }

    const rawKey = req.headers['x-api-key'];
    const key = store.authenticate(Array.isArray(rawKey) ? rawKey[0] : rawKey);
    const refuse = async (send: () => void): Promise<void> => {
      if (multipart) {
        await drain(req);
      }
      send();
    };
    if (!key) {
      const kind = routeKind(url.pathname);
      await refuse(() =>
        kind === 'developer' ? sendAuthError(res) : kind === 'stream' ? sendAuthError(res, 401, 'Unauthorized') : sendProblem(res, 401, 'Unauthorized'),
      );
      return;
    }
    const state = store.access.keyState(key.key);
    if (state !== 'active') {
      const refusal = KEY_STATE_REFUSALS[state];
      await refuse(() => sendAuthError(res, refusal.status, refusal.detail));
      return;
    }
    const now = store.now();
    // The key quota: requests per clock hour per key, per month per user; a refused request uses none.
    const quota = store.access.consume(
      { key: key.key, userId: key.userId, hourlyLimit: TIERS[key.tier].hourly, monthlyQuota: TIERS[key.tier].monthly },
      now,
      store.config.rateLimitHeaders,
    );
    if (quota.refusal) {
      const refusal = quota.refusal;
      await refuse(() => sendAuthError(res, refusal.status, refusal.detail, refusal.headers));
      return;
    }
    for (const [name, value] of Object.entries(quota.headers)) {
      res.setHeader(name, value);
    }
    store.recordUse(key, now);
    store.settle(now);

    await dispatch({
      req,
      res,
      url,
      body,
      key,
      store,
      origin,
      blobOrigin: otherOrigin,
      onStreamOpen: () => stats.streamsOpen++,
      onStreamClose: () => stats.streamsOpen--,
    });
  }

  async function listen(listener: Listener): Promise<void> {
    const server = servers[listener];
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[listener], host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    ports[listener] = (server.address() as AddressInfo).port;
  }

  async function stopListening(): Promise<void> {
    await Promise.all(
      Object.values(servers).map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) {
              resolve();
              return;
            }
            server.close(() => resolve());
            // Open keep-alive sockets and SSE streams would hold close() back.
            server.closeAllConnections();
          }),
      ),
    );
    // Destroyed sockets close asynchronously; wait so that stats are settled when stop() resolves.
    await Promise.all([...openResponses].map((res) => new Promise((resolve) => res.once('close', resolve))));
  }

  let closed = false;
  const emulator: Emulator = {
    origin: '',
    baseUrl: '',
    legacyBaseUrl: '',
    apiKey: apiKeys[0],
    port: 0,
    otherOrigin: '',
    requests,
    otherOriginRequests,
    stats,
    resetStats() {
      requests.length = 0;
      otherOriginRequests.length = 0;
      stats.total = 0;
      stats.peakInFlight = stats.inFlight;
    },
    addFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    setNextTask: (o) => store.queueOverride(o),
    setRateLimit: (r) => {
      store.access.override = r;
      store.access.resetCounters();
    },
    setPlan: (k, plan) => {
      const record = store.keys.get(k);
      if (!record) {
        throw new Error('Unknown key');
      }
      store.access.userPlans.set(record.userId, plan);
    },
    setKeyState: (k, state) => {
      if (!store.keys.has(k)) {
        throw new Error('Unknown key');
      }
      store.access.keyStates.set(k, state);
    },
    setStorage: (k, s) => {
      const record = store.keys.get(k);
      if (!record) {
        throw new Error('Unknown key');
      }
      store.setStorage(record.userId, s);
    },
    advanceClock: (ms) => store.clock.advance(ms),
    now: () => store.now(),
    setStreamEnabled: (on) => {
      store.config.streamEnabled = on;
    },
    setTaskDuration: (ms) => {
      store.config.taskDurationMs = ms;
    },
    configure: (changes) => {
      for (const [name, value] of Object.entries(changes)) {
        if (name in store.config && value !== undefined) {
          (store.config as unknown as Record<string, unknown>)[name] = value;
        }
      }
      store.access.defaultPlan = store.config.defaultPlan;
      return { ...store.config };
    },
    release: (id) => store.release(id),
    approve: (id) => {
      const t = store.tasksById.get(id);
      if (!t || !store.approve(t)) {
        return undefined;
      }
      return store.snapshot(t);
    },
    task: (id) => {
      store.settle();
      const t = store.tasksById.get(id);
      return t && store.snapshot(t);
    },
    tasks: () => {
      store.settle();
      return [...store.tasksById.values()].map((t) => store.snapshot(t));
    },
    files: () => {
      store.settle();
      return [...store.filesById.values()];
    },
    attachments: () => [...store.attachmentsById.values()],
    stop: stopListening,
    async start() {
      if (closed) {
        throw new Error('The emulator was closed');
      }
      for (const listener of ['main', 'other'] as const) {
        if (!servers[listener].listening) {
          await listen(listener);
        }
      }
    },
    async close() {
      closed = true;
      await stopListening();
    },
  };

  await emulator.start();
  origin = originOf(ports.main);
  otherOrigin = originOf(ports.other);
  Object.assign(emulator, {
    origin,
    baseUrl: origin + CURRENT_BASE_PATH,
    legacyBaseUrl: origin + LEGACY_BASE_PATH,
    port: ports.main,
    otherOrigin,
  });
  return emulator;
}

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) {
      resolve();
      return;
    }
    req.on('end', resolve);
    req.on('close', resolve);
    req.resume();
  });
}
