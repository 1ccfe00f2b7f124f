/**
 * The MCP server's bounds on connections (issue 35 item 5), against the real server over raw sockets: a
 * connection that sends nothing, headers or a body sent a byte at a time, and more sockets than allowed are
 * all closed, while a tool call that waits longer than the idle timeout is not cut. The timeouts are injected
 * short; each test waits for the socket to close (no clock is raced: the mocha timeout is generous).
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ConnectionLimits, TOKEN_HEADER, type RunningServer, type ToolHost } from '../../src/mcp/protocol';
import { startMcpServer } from '../../src/mcp/server';

const TOKEN = 'a-token-of-the-window-0123456789abcdefghijk';
const quiet = { info: () => undefined, warn: () => undefined };

function hostWith(runTask: ToolHost['runTask']): ToolHost {
  return {
    limits: { promptMaxChars: 10_000, agentCountMin: 1, agentCountMax: 8, maxFiles: 5 },
    runTask,
    readTask: async () => ({ text: '' }),
    cancelTask: async () => ({ text: '' }),
    listThreads: async () => ({ text: '' }),
    continueThread: async () => ({ text: '' }),
    readTrace: async () => ({ text: '' }),
    taskResource: async () => undefined,
  };
}

/** A raw socket to the server and everything it was answered, resolved when the server closes it. */
function rawSocket(port: number): { socket: net.Socket; connected: Promise<void>; closed: Promise<string> } {
  const socket = net.connect({ host: '127.0.0.1', port });
  let answer = '';
  socket.on('data', d => (answer += d));
  socket.on('error', () => undefined);
  const connected = new Promise<void>(resolve => socket.once('connect', () => resolve()));
  const closed = new Promise<string>(resolve => socket.once('close', () => resolve(answer)));
  return { socket, connected, closed };
}

/** Writes `text` a byte at a time, `gapMs` apart, until the socket closes. */
function trickle(socket: net.Socket, text: string, gapMs: number): void {
  let i = 0;
  const next = () => {
    if (socket.destroyed || i >= text.length) return;
    socket.write(text[i++]);
    setTimeout(next, gapMs);
  };
  next();
}

describe('mcp server: connections are timed out and bounded', function () {
  this.timeout(20_000);
  let server: RunningServer | undefined;
  const start = async (connections: Partial<ConnectionLimits>, host = hostWith(async () => ({ text: '' }))) => {
    server = await startMcpServer({ host, token: TOKEN, version: '1', log: quiet, connections });
    return server;
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('closes a connection that sends nothing (idle timeout)', async () => {
    const { port } = await start({ idleMs: 300 });
    const silent = rawSocket(port);
    await silent.connected;
    assert.equal(await silent.closed, '', 'closed without a word');
  });

  it('closes a connection that sends nothing at the default limits (no limit injected)', async function () {
    // The default idle timeout is 10 s: the test waits for the close, bounded only by this generous timeout.
    this.timeout(90_000);
    server = await startMcpServer({ host: hostWith(async () => ({ text: '' })), token: TOKEN, version: '1', log: quiet });
    const silent = rawSocket(server.port);
    await silent.connected;
    assert.equal(await silent.closed, '', 'closed without a word');
  });

  it('answers 408 to headers sent a byte at a time, at the headers timeout', async () => {
    // The request timeout far beyond the test: only the headers timeout can answer within it.
    const { port } = await start({ idleMs: 10_000, headersMs: 400, requestMs: 120_000 });
    const slow = rawSocket(port);
    await slow.connected;
    // Far quicker than the idle timeout: only the headers timeout can end it.
    trickle(slow.socket, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${'x-pad: y\r\n'.repeat(1000)}`, 20);
    assert.match(await slow.closed, /^HTTP\/1\.1 408 /);
  });

  it('answers 408 to a body sent a byte at a time, at the request timeout, and calls no tool', async () => {
    let called = 0;
    const { port } = await start({ idleMs: 10_000, headersMs: 300, requestMs: 600 }, hostWith(async () => ({ text: String(++called) })));
    const slow = rawSocket(port);
    await slow.connected;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' }, pad: 'p'.repeat(2000) } });
    slow.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${TOKEN_HEADER}: ${TOKEN}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    trickle(slow.socket, body, 20);
    assert.match(await slow.closed, /^HTTP\/1\.1 408 /);
    assert.equal(called, 0);
  });

  it('closes a socket beyond the most it holds, and keeps the others', async () => {
    const { port } = await start({ maxSockets: 3, idleMs: 60_000, keepAliveMs: 60_000 });
    // Three sockets the server has answered (a 401: no token), kept alive.
    const held = [rawSocket(port), rawSocket(port), rawSocket(port)];
    const answered = held.map(
      h =>
        new Promise<void>(resolve => {
          h.socket.once('data', () => resolve());
          h.socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
        }),
    );
    await Promise.all(answered);
    let heldClosed = 0;
    for (const h of held) void h.closed.then(() => heldClosed++);
    const fourth = rawSocket(port);
    assert.equal(await fourth.closed, '', 'the fourth socket is closed unanswered');
    assert.equal(heldClosed, 0, 'the three held sockets stay open');
    for (const h of held) h.socket.destroy();
  });

  it('never times out a tool call in flight, however long it waits', async () => {
    let port = 0;
    // The call returns only after a socket opened during it was closed by the idle timeout: had the call's own
    // socket been idle-timed too, its timer (armed earlier) would have closed it first.
    const host = hostWith(async () => {
      const probe = rawSocket(port);
      await probe.closed;
      return { text: 'still here' };
    });
    port = (await start({ idleMs: 300, keepAliveMs: 300 }, host)).port;
    const client = new Client({ name: 'patient', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), { requestInit: { headers: { [TOKEN_HEADER]: TOKEN } } }));
    const result = await client.callTool({ name: 'run_task', arguments: { instruction: 'wait' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'still here' }]);
    await client.close();
  });
});
