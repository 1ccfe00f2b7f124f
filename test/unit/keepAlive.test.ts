/**
 * Connections between polls: the client keeps one open between reads spaced like polls, and a kept-alive
 * connection that the server closed as a read went out costs one resend, not an error. Real HTTP to a small
 * server on 127.0.0.1 that counts its connections.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConnectionError, DeveloperApiClient } from '../../src/api';
import { rejectsWith } from './helpers';

const KEY = 'tfai_keepalive_0123456789';
const STATE = JSON.stringify({ taskId: 'task_1', status: 'processing', userId: 1, options: {} });

interface Server {
  baseUrl: string;
  connections: number;
  /** Requests seen, with the number of the request on its connection (1 = the first). */
  requests: { url: string; nth: number }[];
  /** Called for a request that is not the first on its connection; true = drop the connection unanswered. */
  dropReused: boolean;
  close(): Promise<void>;
}

async function start(keepAliveTimeoutMs: number): Promise<Server> {
  const served = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  const state: Server = {
    baseUrl: '',
    connections: 0,
    requests: [],
    dropReused: false,
    close: () =>
      new Promise(resolve => {
        sockets.forEach(s => s.destroy());
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const nth = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, nth);
    state.requests.push({ url: req.url ?? '', nth });
    if (nth > 1 && state.dropReused) {
      // As if the server's idle timeout had closed the connection just as the request went out.
      req.socket.destroy();
      return;
    }
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ taskId: 'task_1', status: 'processing' })));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(STATE);
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', socket => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/developer`;
  return state;
}

const client = (server: Server) => new DeveloperApiClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 5_000, retry: { maxRetries: 0 } });
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

describe('keep-alive between polls', function () {
  this.timeout(20_000);

  it('reads spaced like polls (4.5 s apart) reuse one connection when the server keeps it', async () => {
    const server = await start(120_000);
    try {
      const api = client(server);
      for (let i = 0; i < 3; i++) {
        if (i) await sleep(4_500);
        assert.equal((await api.getTaskStatus('task_1', { retry: false })).status, 'processing');
      }
      assert.equal(server.connections, 1, 'one connection for three polls');
    } finally {
      await server.close();
    }
  });

  it('believes a server that says it closes idle connections sooner (Keep-Alive: timeout=2)', async () => {
    const server = await start(2_000);
    try {
      const api = client(server);
      await api.getTaskStatus('task_1', { retry: false });
      await sleep(1_500);
      await api.getTaskStatus('task_1', { retry: false });
      assert.equal(server.connections, 2, 'a new connection instead of one the server is closing');
    } finally {
      await server.close();
    }
  });

  it('a read on a connection the server closed unannounced is sent once more on a new one', async () => {
    const server = await start(120_000);
    try {
      const api = client(server);
      await api.getTaskStatus('task_1', { retry: false });
      server.dropReused = true;
      const state = await api.getTaskStatus('task_1', { retry: false });
      assert.equal(state.status, 'processing');
      assert.deepEqual(server.requests.map(r => r.nth), [1, 2, 1], 'dropped on the reused connection, answered on a new one');
      assert.equal(server.connections, 2);
    } finally {
      await server.close();
    }
  });

  it('a submission is never sent twice that way', async () => {
    const server = await start(120_000);
    try {
      const api = client(server);
      await api.getTaskStatus('task_1', { retry: false });
      server.dropReused = true;
      await rejectsWith(api.submitTask({ prompt: 'once only' }), ConnectionError);
      assert.equal(server.requests.filter(r => r.url.endsWith('/run')).length, 1);
    } finally {
      await server.close();
    }
  });
});
