/**
 * The MCP server's protocol half (src/mcp/server.ts) in plain Node, over real HTTP on loopback: the request
 * guard, sessions (an unknown one is refused, too many close the oldest), and a tool call through the SDK's
 * own client reaching the host it was given, with progress. The tools over the pipeline are tested in the
 * extension host (test/integration/mcp.test.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_SERVER_LABEL, TOKEN_HEADER, type RunInput, type RunningServer, type ToolHost } from '../../src/mcp/protocol';
import { refusal, startMcpServer } from '../../src/mcp/server';

const TOKEN = 'a-token-of-the-window-0123456789abcdefghijk';

describe('mcp server (protocol half)', () => {
  describe('refusal(): before the protocol reads anything', () => {
    const req = (over: { address?: string; headers?: Record<string, string>; url?: string }) => ({
      socket: { remoteAddress: over.address ?? '127.0.0.1' },
      headers: { host: '127.0.0.1:4000', [TOKEN_HEADER]: TOKEN, ...over.headers },
      url: over.url ?? '/mcp',
      method: 'POST',
    });
    it('lets a loopback request with the token, this host and no origin through', () => {
      assert.equal(refusal(req({}), 4000, TOKEN), undefined);
      assert.equal(refusal(req({ address: '::1', headers: { host: 'localhost:4000' } }), 4000, TOKEN), undefined);
      assert.equal(refusal(req({ address: '::ffff:127.0.0.1', url: '/mcp?x=1' }), 4000, TOKEN), undefined);
    });
    it('refuses another address, host or origin (403), no or a wrong token (401), another path (404), a large body (413)', () => {
      assert.equal(refusal(req({ address: '192.168.1.20' }), 4000, TOKEN)?.status, 403);
      assert.equal(refusal(req({ headers: { host: 'evil.example:4000' } }), 4000, TOKEN)?.status, 403);
      assert.equal(refusal(req({ headers: { host: '127.0.0.1:4001' } }), 4000, TOKEN)?.status, 403);
      assert.equal(refusal(req({ headers: { origin: 'https://evil.example' } }), 4000, TOKEN)?.status, 403);
      assert.equal(refusal(req({ headers: { [TOKEN_HEADER]: '' } }), 4000, TOKEN)?.status, 401);
      const { [TOKEN_HEADER]: _, ...noTokenHeader } = req({}).headers;
      assert.equal(refusal({ ...req({}), headers: noTokenHeader }, 4000, TOKEN)?.status, 401, 'no token header at all');
      assert.equal(refusal(req({ headers: { [TOKEN_HEADER]: `${TOKEN}x` } }), 4000, TOKEN)?.status, 401);
      assert.equal(refusal(req({ url: '/other' }), 4000, TOKEN)?.status, 404);
      assert.equal(refusal(req({ headers: { 'content-length': String(10 * 1024 * 1024) } }), 4000, TOKEN)?.status, 413);
    });
  });

  describe('over HTTP', () => {
    let server: RunningServer;
    const calls: RunInput[] = [];
    const host: ToolHost = {
      limits: { promptMaxChars: 10_000, agentCountMin: 1, agentCountMax: 8, maxFiles: 5 },
      runTask: async (input, context) => {
        calls.push(input);
        for (const p of [10, 10, 50, 100]) context.progress?.(p, `at ${p}`);
        return { text: `done: ${input.instruction} for ${context.client}`, data: { taskId: 't1' }, taskId: 't1', status: 'Task t1 completed' };
      },
      readTask: async taskId => ({ text: `task ${taskId}`, data: { taskId }, taskId }),
      cancelTask: async () => ({ text: '' }),
      listThreads: async () => ({ text: '' }),
      continueThread: async () => ({ text: '' }),
      readTrace: async () => ({ text: '' }),
      taskResource: async taskId => (taskId === 't1' ? 'the task' : undefined),
    };
    const connect = async (name: string) => {
      const client = new Client({ name, version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { [TOKEN_HEADER]: TOKEN } } }));
      return client;
    };

    before(async () => {
      server = await startMcpServer({ host, token: TOKEN, version: '9.9.9', log: { info: () => undefined, warn: () => undefined }, maxSessions: 2 });
    });
    after(() => server.close());

    it('listens on 127.0.0.1 and answers a tool call with text, a link to the task, its last word and rising progress', async () => {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // The socket itself, not only the URL it names: bound to the loopback address (not '::' or 0.0.0.0).
      assert.deepEqual(server.address, { address: '127.0.0.1', family: 'IPv4', port: server.port });
      const client = await connect('unit-client');
      const progress: number[] = [];
      const result = await client.callTool({ name: 'run_task', arguments: { instruction: '  Review it  ', agentCount: 2 } }, undefined, { onprogress: p => progress.push(p.progress) });
      assert.deepEqual(calls.at(-1), { instruction: 'Review it', agentCount: 2 });
      assert.deepEqual(result.content, [
        { type: 'text', text: 'done: Review it for unit-client' },
        {
          type: 'resource_link',
          uri: 'multi-agent-task:///t1',
          name: 'task-t1',
          title: 'Task t1',
          mimeType: 'text/markdown',
          description: 'The task in the user\'s Tasks view (state and result).',
          annotations: { audience: ['user'] },
        },
        { type: 'text', text: 'Task t1 completed', annotations: { audience: ['user'] } },
      ]);
      // The team's text only: VS Code shows a tool's data as one line of JSON in its "Approve Tool Result" box (issue 45).
      assert.equal(result.structuredContent, undefined);
      // A tool that reads the user's own task keeps its data, and asks for no approval of its result.
      const read = await client.callTool({ name: 'read_task', arguments: { taskId: 't1' } });
      assert.deepEqual(read.structuredContent, { taskId: 't1' });
      assert.deepEqual((read.content as { annotations?: unknown }[]).map(c => c.annotations), [undefined, undefined]);
      assert.deepEqual(progress, [10, 10.01, 50, 100]);
      const resource = await client.readResource({ uri: 'multi-agent-task:///t1' });
      assert.equal((resource.contents[0] as { text: string }).text, 'the task');
      await client.close();
    });

    it('refuses a request with no token header at all (401), before the protocol reads it', async () => {
      const before = calls.length;
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_task', arguments: { instruction: 'x' } } }),
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), null, 'no sign-in to offer');
      assert.equal(calls.length, before);
    });

    it('refuses a body over 256 KB sent without a declared length (chunked): 413, nothing read as a message', async () => {
      const initialize = (pad: number) =>
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'big', version: '1' }, pad: 'p'.repeat(pad) } });
      const chunked = (text: string) => {
        const bytes = new TextEncoder().encode(text);
        // Streamed in 16 KB chunks: fetch sends it chunked, with no content-length the guard could read.
        return new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < bytes.length; at += 16_384) controller.enqueue(bytes.slice(at, at + 16_384));
            controller.close();
          },
        });
      };
      const post = async (text: string) => {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', [TOKEN_HEADER]: TOKEN },
          body: chunked(text),
          duplex: 'half',
        } as RequestInit);
        await response.body?.cancel();
        return response.status;
      };
      const sessions = server.sessions;
      assert.equal(await post(initialize(300 * 1024)), 413);
      assert.equal(server.sessions, sessions, 'no session opened');
      // The same message under the cap is read (the refusal is the size, not the chunking).
      assert.equal(await post(initialize(200 * 1024)), 200);
    });

    it('names itself apart from the extension (Configure Tools, MCP: List Servers)', async () => {
      const client = await connect('unit-client');
      const info = client.getServerVersion();
      assert.equal(info?.title, MCP_SERVER_LABEL);
      const nls = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.nls.json'), 'utf8')) as Record<string, string>;
      const names = [nls.displayName, nls['tool.runTask.displayName'], nls['mcpServerDefinitionProvider.label'], MCP_SERVER_LABEL];
      assert.equal(new Set(names).size, names.length, `four distinct names: ${names.join(' | ')}`);
      assert.ok(client.getInstructions()?.includes('run_task'));
      await client.close();
    });

    it('refuses input outside the schema as a tool error, without calling the host', async () => {
      const client = await connect('unit-client');
      const before = calls.length;
      const result = await client.callTool({ name: 'run_task', arguments: { instruction: 'x', extra: true } });
      assert.equal(result.isError, true);
      const empty = await client.callTool({ name: 'run_task', arguments: { instruction: '   ' } });
      assert.equal(empty.isError, true);
      const badId = await client.callTool({ name: 'read_task', arguments: { taskId: '../etc' } });
      assert.equal(badId.isError, true);
      assert.equal(calls.length, before);
      await client.close();
    });

    it('refuses an unknown session (404), and closes the least recently used beyond its limit', async () => {
      const unknown = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', [TOKEN_HEADER]: TOKEN, 'mcp-session-id': 'nope' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(unknown.status, 404);
      const a = await connect('a');
      const b = await connect('b');
      const c = await connect('c');
      assert.equal(server.sessions, 2);
      await assert.rejects(a.listTools());
      assert.equal((await c.listTools()).tools.length, 6);
      assert.equal((await b.listTools()).tools.length, 6);
      await Promise.all([a, b, c].map(x => x.close().catch(() => undefined)));
    });
  });
});
