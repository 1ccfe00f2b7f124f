/**
 * The idle MCP server's memory (issue 27), in plain Node with --expose-gc: the heap and RSS growth from loading
 * the server module (the SDK) and listening, and with one initialized session (as VS Code keeps one open).
 * The tools are a stand-in: an idle server calls none. Prints `bench-mcp-memory: {...}`.
 * `node --expose-gc out/test/bench/mcpMemory.js`
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_HEADER, type ToolHost } from '../../src/mcp/protocol';

const gc = (globalThis as { gc?: () => void }).gc;

async function settle(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise(r => setTimeout(r, 50));
  }
  return process.memoryUsage();
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const idle: ToolHost = {
    limits: { promptMaxChars: 10_000, agentCountMin: 1, agentCountMax: 8, maxFiles: 5 },
    runTask: async () => ({ text: '' }),
    readTask: async () => ({ text: '' }),
    cancelTask: async () => ({ text: '' }),
    listThreads: async () => ({ text: '' }),
    continueThread: async () => ({ text: '' }),
    readTrace: async () => ({ text: '' }),
    taskResource: async () => undefined,
  };
  // The measuring client (fetch, node:http) is loaded before the baseline: only the server's growth counts.
  const warm = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
  await new Promise(r => warm.once('listening', r));
  await (await fetch(`http://127.0.0.1:${(warm.address() as AddressInfo).port}/`)).text();
  warm.closeAllConnections();
  warm.close();
  const before = await settle();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startMcpServer } = require('../../src/mcp/server') as typeof import('../../src/mcp/server');
  const server = await startMcpServer({ host: idle, token: 't'.repeat(43), version: '0', log: { info: () => undefined, warn: () => undefined } });
  const listening = await settle();
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', [TOKEN_HEADER]: 't'.repeat(43) };
  const init = await fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id') ?? '';
  await (await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  const withSession = await settle();
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  console.log(
    `bench-mcp-memory: ${JSON.stringify({
      sessions: server.sessions,
      heapMB: mb(listening.heapUsed - before.heapUsed),
      rssMB: mb(listening.rss - before.rss),
      heapWithSessionMB: mb(withSession.heapUsed - before.heapUsed),
      rssWithSessionMB: mb(withSession.rss - before.rss),
    })}`,
  );
  await server.close();
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
