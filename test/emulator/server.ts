// Local emulator of the hosted Multi-Agent Tasks Developer API. Node built-ins + busboy only; never imports
// vscode or the extension's sources.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleControl } from './control';
import { applyFault, FaultList } from './faults';
import { ApiError, isMultipart, parseJsonBody, readBody, sendAuthError, sendJson, sendProblem, type ParsedBody } from './http';
import { BLOB_PATH_PREFIX, dispatch, putBlob } from './routes';
import { Store } from './state';
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

/** 429 details of the live service, by the rate-limit control's `reason`. */
const RATE_LIMIT_DETAILS = {
  hourly: 'Rate limit exceeded: hourly request limit reached for this API key',
  monthly: 'Monthly quota exceeded for this API key',
  capacity: 'Service capacity reached, retry later',
} as const;

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
  };
}

/** Engine routes (stream, task control, attachments) are not behind the platform's body limit. */
function isEngineRoute(pathname: string): boolean {
  return /^\/api\/v1\/(stream|tasks|attachments)\//.test(pathname);
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
  const store = new Store(apiKeys, configFrom(options));
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
      startedAt: Date.now(),
    };
    (listener === 'main' ? requests : otherOriginRequests).push(record);
    openResponses.add(res);
    stats.total++;
    stats.inFlight++;
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
    res.on('close', () => {
      openResponses.delete(res);
      stats.inFlight--;
      record.endedAt = Date.now();
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

    // The platform refuses large request bodies before the service sees them (the engine routes are exempt).
    const bodyLimit = store.config.bodyLimitBytes;
    const declaredLength = Number(req.headers['content-length'] ?? NaN);
    if (bodyLimit > 0 && !isEngineRoute(url.pathname) && declaredLength > bodyLimit) {
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
      if (bodyLimit > 0 && !isEngineRoute(url.pathname) && raw.length > bodyLimit) {
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
    if (fault) {
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
    if (!key) {
      if (multipart) {
        await drain(req);
      }
      sendAuthError(res);
      return;
    }
    const now = Date.now();
    const rate = store.checkRateLimit(key, now);
    if (rate) {
      // Live: no Retry-After and no X-RateLimit-* (kinder: `rateLimitHeaders`).
      const headers = store.config.rateLimitHeaders;
      if (headers) {
        res.setHeader('x-ratelimit-limit', String(rate.limit));
        res.setHeader('x-ratelimit-remaining', String(rate.remaining));
        res.setHeader('x-ratelimit-reset', String(rate.reset));
      }
      if (rate.limited) {
        if (multipart) {
          await drain(req);
        }
        sendJson(res, 429, { status: 429, detail: RATE_LIMIT_DETAILS[store.rateLimit?.reason ?? 'hourly'] }, headers ? { 'retry-after': String(rate.retryAfterSeconds) } : {});
        return;
      }
    }
    store.recordUse(key, now);

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
      store.rateLimit = r;
    },
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
      return { ...store.config };
    },
    approve: (id) => {
      const t = store.tasksById.get(id);
      if (!t || !store.approve(t)) {
        return undefined;
      }
      return store.snapshot(t);
    },
    task: (id) => {
      const t = store.tasksById.get(id);
      return t && store.snapshot(t);
    },
    tasks: () => [...store.tasksById.values()].map((t) => store.snapshot(t)),
    files: () => [...store.filesById.values()],
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
