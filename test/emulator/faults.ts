// Injected failures. Checked in insertion order before auth; the first match is consumed.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problemBody, sendJson } from './http';
import type { Fault } from './types';

export class FaultList {
  private faults: Fault[] = [];

  add(f: Fault): void {
    this.faults.push({ ...f, times: f.times ?? 1 });
  }

  clear(): void {
    this.faults = [];
  }

  get size(): number {
    return this.faults.length;
  }

  take(method: string, pathname: string): Fault | undefined {
    const index = this.faults.findIndex((f) => matches(f, method, pathname));
    if (index < 0) {
      return undefined;
    }
    const fault = this.faults[index];
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) {
      this.faults.splice(index, 1);
    }
    return fault;
  }
}

function matches(f: Fault, method: string, pathname: string): boolean {
  if (f.method && f.method.toUpperCase() !== method.toUpperCase()) {
    return false;
  }
  if (f.path === undefined) {
    return true;
  }
  return typeof f.path === 'string' ? pathname.includes(f.path) : f.path.test(pathname);
}

/** A Fault from the JSON control API: `times: -1` is Infinity, `pathRegex` is a RegExp source. */
export function faultFromJson(raw: unknown): Fault {
  if (typeof raw !== 'object' || raw === null || typeof (raw as { kind?: unknown }).kind !== 'string') {
    throw new Error('A fault needs a "kind"');
  }
  const { pathRegex, times, ...rest } = raw as Record<string, unknown>;
  const fault = { ...rest } as unknown as Fault;
  if (typeof pathRegex === 'string') {
    fault.path = new RegExp(pathRegex);
  }
  if (typeof times === 'number') {
    fault.times = times < 0 ? Infinity : times;
  }
  if (!['status', 'delay', 'drop', 'dropMidBody', 'dropAnswer', 'malformedJson', 'schemaInvalid', 'redirect'].includes(fault.kind)) {
    throw new Error(`Unknown fault kind "${fault.kind}"`);
  }
  return fault;
}

export interface FaultTarget {
  req: IncomingMessage;
  res: ServerResponse;
  /** pathname + search of the request */
  path: string;
  pathname: string;
  origin: string;
  otherOrigin: string;
}

const DEFAULT_DETAILS: Record<number, string> = {
  400: 'Bad request',
  403: 'Access to this resource is forbidden',
  404: 'Not found',
  408: 'Request timed out',
  409: 'Conflict',
  413: 'Request entity too large',
  422: 'validation failed',
  429: 'Task execution capacity reached, retry later',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service temporarily unavailable',
  504: 'Gateway timeout',
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Applies a fault. Resolves true when the request is fully handled, false when it should proceed normally. */
export async function applyFault(f: Fault, t: FaultTarget): Promise<boolean> {
  const { req, res } = t;
  switch (f.kind) {
    case 'delay':
      await sleep(f.ms);
      return false;
    case 'drop':
      req.socket.destroy();
      return true;
    case 'dropMidBody': {
      const body = JSON.stringify({
        taskId: `task_${randomUUID()}`,
        status: 'processing',
        message: 'Task submitted successfully',
        detail: 'x'.repeat(2048),
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.write(body.slice(0, Math.floor(body.length / 2)));
      // Let the partial body reach the client before the reset.
      setTimeout(() => req.socket.destroy(), 30);
      return true;
    }
    case 'dropAnswer':
      // Applied around the route by the server (the request is handled, then the answer is dropped).
      return false;
    case 'malformedJson': {
      const body = '{"taskId": "task_emulated", "status": processing,, <html>';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return true;
    }
    case 'schemaInvalid':
      sendJson(res, 200, wrongShapeFor(t.pathname));
      return true;
    case 'redirect': {
      const to = f.to ?? 'otherOrigin';
      let location: string;
      if (to === 'otherOrigin') {
        location = t.otherOrigin + t.path;
      } else if (to === 'sameOrigin') {
        location = t.origin + t.path + (t.path.includes('?') ? '&' : '?') + 'redirected=1';
      } else {
        location = to;
      }
      res.writeHead(f.status ?? 307, { location, 'content-length': 0 });
      res.end();
      return true;
    }
    case 'status':
      sendStatusFault(f, res);
      return true;
  }
}

function sendStatusFault(f: Extract<Fault, { kind: 'status' }>, res: ServerResponse): void {
  // Live 429s carry neither header; `retryAfter`, `headers` or `rateLimitHeaders: true` add them explicitly.
  const headers: Record<string, string> = {};
  if (f.retryAfter !== undefined || (f.status === 429 && f.rateLimitHeaders)) {
    headers['retry-after'] = f.retryAfter ?? '1';
  }
  if (f.status === 429 && f.rateLimitHeaders) {
    const seconds = Number(headers['retry-after']) || 1;
    headers['x-ratelimit-limit'] = '5000';
    headers['x-ratelimit-remaining'] = '0';
    headers['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000) + seconds);
  }
  Object.assign(headers, f.headers);

  if (f.status === 204 || f.status === 304) {
    res.writeHead(f.status, headers);
    res.end();
    return;
  }
  if (f.body === undefined) {
    if (f.status === 401) {
      sendJson(res, 401, { status: 401, detail: 'Invalid or missing API key' }, headers);
    } else if (f.status === 429) {
      // The live auth layer's shape for hourly rate, monthly quota and capacity.
      sendJson(res, 429, { status: 429, detail: DEFAULT_DETAILS[429] }, headers);
    } else {
      const detail = DEFAULT_DETAILS[f.status] ?? `Emulated ${f.status} response`;
      sendJson(res, f.status, problemBody(f.status, detail), headers, 'application/problem+json');
    }
    return;
  }
  if (typeof f.body === 'string') {
    res.writeHead(f.status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(f.body),
      ...headers,
    });
    res.end(f.body);
    return;
  }
  const isProblem = typeof f.body === 'object' && f.body !== null && 'title' in f.body;
  sendJson(res, f.status, f.body, headers, isProblem ? 'application/problem+json' : 'application/json');
}

/** A 200 body that parses as JSON but breaks the route's schema (wrong types, required fields missing). */
function wrongShapeFor(pathname: string): unknown {
  if (/\/run$/.test(pathname) || /\/runs$/.test(pathname)) {
    return { status: 200, message: 42 };
  }
  if (pathname.includes('/status/') || pathname.includes('/stream/')) {
    return { taskId: 12345, status: 3, agentStatuses: 'none', result: { text: 'nested' } };
  }
  if (pathname.includes('/results/')) {
    return { taskId: 12345, status: false, result: ['not', 'a', 'string'] };
  }
  if (pathname.endsWith('/messages')) {
    return { messages: 'none', truncated: 'no' };
  }
  if (pathname.endsWith('/threads')) {
    return { conversations: { id: 'one' }, total: 'many' };
  }
  if (pathname.endsWith('/files')) {
    return { files: 'none', total: '1' };
  }
  if (pathname.endsWith('/models')) {
    return { enabled: 'yes', options: { id: 42 } };
  }
  if (pathname.endsWith('/usage')) {
    return { totalRequests: 'lots', apiKeys: 7 };
  }
  return { status: 12345, unexpected: true };
}
