/** A tiny HTTP server on 127.0.0.1 whose behaviour each test sets: the hostile service the client must survive. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface HostileServer {
  readonly origin: string;
  readonly baseUrl: string;
  /** Requests seen since the last reset, in order. */
  readonly requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  /** TCP connections accepted since the last reset. */
  connections: number;
  handle: Handler;
  reset(): void;
  close(): Promise<void>;
}

export async function startHostile(): Promise<HostileServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state: HostileServer = {
    origin: '',
    baseUrl: '',
    requests: [],
    connections: 0,
    handle: (_req, res) => res.writeHead(404).end(),
    reset() {
      state.requests.length = 0;
      state.connections = 0;
      state.handle = (_req, res) => res.writeHead(404).end();
    },
    close: () =>
      new Promise<void>(resolve => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.on('error', () => undefined);
    state.handle(req, res);
  });
  server.on('connection', socket => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (state as { origin: string }).origin = `http://127.0.0.1:${port}`;
  (state as { baseUrl: string }).baseUrl = `http://127.0.0.1:${port}/api/v1/developer`;
  return state;
}

/** Writes `chunk` again and again, honouring backpressure, until the client goes away or `times` is reached. */
export function flood(res: http.ServerResponse, chunk: Buffer, times = Infinity, everyMs = 0): void {
  let sent = 0;
  let stopped = false;
  res.on('close', () => (stopped = true));
  const next = (): void => {
    while (!stopped && sent < times) {
      sent++;
      const ok = res.write(chunk);
      if (everyMs > 0) {
        setTimeout(next, everyMs);
        return;
      }
      if (!ok) {
        res.once('drain', next);
        return;
      }
    }
    if (!stopped) res.end();
  };
  next();
}
