/**
 * The MCP server (issue 27) in the real extension host: the provider VS Code 1.101+ calls, the server it
 * starts, and an MCP client from the same SDK talking to it over HTTP, against the emulator. On 1.100 (no
 * MCP provider API) nothing is registered and nothing fails.
 */
import * as assert from 'assert';
import * as net from 'net';
import * as os from 'os';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_LABEL, mcpApi } from '../../src/mcp/index';
import { TOKEN_HEADER } from '../../src/mcp/protocol';
import { setSetting, useExtensionWithEmulator, waitFor } from './helpers';

/** VS Code 1.101+ (1.100 has only a proposed form of the API, which the extension does not use). */
const hasMcpApi = mcpApi() !== undefined;

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map(c => (c.type === 'text' ? c.text : '')).join('');
}

/**
 * What a model reads of a tool result when VS Code's own MCP client calls the tool (VS Code 1.139's
 * McpToolImplementation.invoke, workbench.js): a text content item goes to the model only when the result
 * has no `structuredContent`; with one, the model gets `JSON.stringify(structuredContent)` instead (and a
 * resource link as a reference, no text). Replicated here: `vscode.lm.invokeTool` of an MCP tool outside a
 * chat request fails inside VS Code (test/e2e/mcp.e2e.ts), so the rule is applied to the SDK client's result.
 */
function asVsCodeHandsIt(result: unknown): string {
  const r = result as CallToolResult;
  const parts: string[] = [];
  for (const c of r.content ?? []) {
    const audience = (c as { annotations?: { audience?: string[] } }).annotations?.audience;
    if (c.type === 'text' && (!audience || audience.includes('assistant')) && !r.structuredContent) parts.push(c.text);
  }
  if (r.structuredContent) parts.push(JSON.stringify(r.structuredContent));
  return parts.join('\n');
}

/** The task a tool's result is about: its resource link (the tools that send the team's work give no data). */
function taskIdOf(result: unknown): string {
  const link = ((result as CallToolResult).content ?? []).find(c => c.type === 'resource_link') as { uri: string } | undefined;
  return decodeURIComponent(link?.uri.replace(/^multi-agent-task:\/\/\//, '') ?? '');
}

/** One raw POST of an initialize request: how a client without the token, or a web page, would try. */
async function rawInitialize(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });
  await response.body?.cancel();
  return response.status;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = net.connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('mcp: the team as an MCP server', function () {
  const ctx = useExtensionWithEmulator();

  it('on a VS Code without MCP server definition providers: nothing registered, nothing fails', function () {
    if (hasMcpApi) this.skip();
    assert.strictEqual(ctx.api.mcp.registered, false);
    assert.deepStrictEqual(ctx.api.mcp.provideMcpServerDefinitions(), []);
    assert.deepStrictEqual(ctx.user.messages('error'), []);
    assert.strictEqual(mcpApi('1.100.3'), undefined);
  });

  describe('on VS Code 1.101+', function () {
    let url: string;
    let headers: Record<string, string>;
    let client: Client;
    const runs = () => ctx.emulator.requests.filter(r => r.method === 'POST' && /\/run$/.test(r.path));

    before(async function () {
      if (!hasMcpApi) this.skip();
    });
    after(async () => {
      await client?.close();
    });

    async function connect(name = 'mat-integration'): Promise<Client> {
      const c = new Client({ name, version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return c;
    }

    it('the provider is registered; its listed definition has no address and no token, the resolved one both', async () => {
      assert.strictEqual(ctx.api.mcp.registered, true);
      const [listed, ...more] = ctx.api.mcp.provideMcpServerDefinitions();
      assert.strictEqual(more.length, 0);
      assert.strictEqual(listed.label, MCP_SERVER_LABEL);
      assert.deepStrictEqual(listed.headers, {}, 'the token is handed only when VS Code starts the server');
      assert.ok(listed instanceof (vscode as unknown as { McpHttpServerDefinition: new (...a: never[]) => object }).McpHttpServerDefinition);
      const resolved = await ctx.api.mcp.resolveMcpServerDefinition(listed);
      assert.ok(resolved);
      url = resolved.uri.toString();
      headers = resolved.headers;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.ok((headers[TOKEN_HEADER] ?? '').length >= 40, 'a random per-window token');
      assert.ok(!JSON.stringify(resolved).includes(ctx.emulator.apiKey), 'the API key is not in the definition');
      // Resolving again (VS Code restarts the server) gives the same server and token.
      const again = await ctx.api.mcp.resolveMcpServerDefinition(ctx.api.mcp.provideMcpServerDefinitions()[0]);
      assert.strictEqual(again?.uri.toString(), url);
      assert.strictEqual(again?.headers[TOKEN_HEADER], headers[TOKEN_HEADER]);
    });

    it('listens on the loopback address only', async function () {
      const port = Number(new URL(url).port);
      assert.ok(await connects('127.0.0.1', port));
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .find(i => i && i.family === 'IPv4' && !i.internal);
      if (!outside) this.skip(); // no other interface on this machine: nothing else to try
      assert.strictEqual(await connects(outside.address, port), false, `nothing listens on ${outside.address}:${port}`);
    });

    it('refuses a request without the token, with a wrong one, or naming another host or origin', async () => {
      const port = new URL(url).port;
      assert.strictEqual(await rawInitialize(url, {}), 401);
      assert.strictEqual(await rawInitialize(url, { [TOKEN_HEADER]: 'not-the-token' }), 401);
      assert.strictEqual(await rawInitialize(url, { ...headers, origin: 'https://evil.example' }), 403);
      // DNS rebinding: a page on evil.example resolved to 127.0.0.1 still sends its own Host.
      const rebound = await new Promise<number>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port: Number(port) }, () => {
          socket.write(`POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\n${TOKEN_HEADER}: ${headers[TOKEN_HEADER]}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
        });
        let answer = '';
        socket.on('data', d => (answer += d));
        socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1])));
        socket.on('error', reject);
      });
      assert.strictEqual(rebound, 403);
      assert.strictEqual(await rawInitialize(url.replace('/mcp', '/other'), headers), 404);
      assert.strictEqual(runs().length, 0);
    });

    it('lists its tools with strict schemas and annotations', async () => {
      client = await connect();
      const { tools } = await client.listTools();
      const byName = new Map(tools.map(t => [t.name, t]));
      assert.deepStrictEqual([...byName.keys()].sort(), ['cancel_task', 'continue_thread', 'list_threads', 'read_task', 'read_trace', 'run_task']);
      const run = byName.get('run_task')!;
      assert.match(run.description ?? '', /plan/);
      assert.strictEqual((run.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
      assert.deepStrictEqual(run.inputSchema.required, ['instruction']);
      assert.strictEqual(run.annotations?.readOnlyHint, false);
      assert.strictEqual(run.annotations?.openWorldHint, true);
      for (const name of ['read_task', 'list_threads', 'read_trace']) assert.strictEqual(byName.get(name)!.annotations?.readOnlyHint, true, name);
      assert.strictEqual(byName.get('cancel_task')!.annotations?.destructiveHint, true);
    });

    it('runs a task with progress; it shows in the Tasks view marked as sent through MCP; read_task reads it', async () => {
      // Held until two progress notifications came (the poller reads the agents' progress on its way; nothing races it).
      ctx.emulator.setTaskDuration(2_500);
      ctx.emulator.setNextTask({ hold: true });
      const progress: Progress[] = [];
      const result = await client.callTool(
        { name: 'run_task', arguments: { instruction: 'Review mean() for edge cases', files: ['src/math.ts'], agentCount: 2 } },
        undefined,
        {
          onprogress: p => {
            if (progress.push(p) === 2) ctx.emulator.release();
          },
          timeout: 60_000,
        },
      );
      assert.ok(!result.isError, textOf(result));
      const [task] = ctx.api.store.all();
      assert.ok(task, 'the task is in the store');
      assert.strictEqual(task.status, 'completed');
      assert.deepStrictEqual(task.origin, { kind: 'mcp', client: 'mat-integration' });
      const answer = await ctx.api.store.readResult(task.id);
      assert.ok(answer && textOf(result).startsWith(answer), 'the result comes back as text');
      assert.match(textOf(result), /Review Changes…/);
      assert.ok((result.content as { type: string; uri?: string }[]).some(c => c.type === 'resource_link' && c.uri === `multi-agent-task:///${task.id}`));
      assert.strictEqual(taskIdOf(result), task.id);
      // The team's text, not a line of JSON: what VS Code shows in its "Approve Tool Result" box and hands a model
      // (issue 45). The call's last word, for the user only, replaces its last progress message as its title.
      assert.strictEqual(result.structuredContent, undefined);
      const handed = asVsCodeHandsIt(result);
      assert.ok(handed.startsWith(answer), `the answer reaches a model through VS Code: ${handed.slice(0, 300)}`);
      assert.match(handed, new RegExp(`Task ${task.id}(, in thread \\S+)?\\. Nothing was written.*Review Changes…`));
      assert.ok(!handed.includes(`Task ${task.id} completed`), 'the last word is not for the model');
      assert.match(textOf(result), new RegExp(`Task ${task.id} completed$`));
      // The same rules as the editor's: the file went with it, the agent count was sent.
      assert.strictEqual(runs().length, 1);
      assert.match((runs()[0].body as { prompt: string }).prompt, /export function mean/);
      assert.strictEqual((runs()[0].body as { options?: { agentCount?: number } }).options?.agentCount, 2);
      assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress, 'progress only rises');
      assert.ok(progress.some(p => /Agent 1/.test(p.message ?? '')), JSON.stringify(progress));
      assert.deepStrictEqual(progress.at(-1), { progress: 100, total: 100, message: `Task ${task.id} completed` }, 'the last progress says how it ended');

      const roots = ctx.api.sidebar.tasks.getChildren() as unknown as { task: { id: string } }[];
      const item = ctx.api.sidebar.tasks.getTreeItem(roots.find(n => n.task.id === task.id) as never) as vscode.TreeItem;
      assert.match(String(item.description), /via MCP/);
      assert.match((item.tooltip as vscode.MarkdownString).value, /mat-integration/);

      const read = await client.callTool({ name: 'read_task', arguments: { taskId: task.id } });
      assert.match(textOf(read), /Status: completed/);
      assert.ok(textOf(read).includes(answer));
      assert.strictEqual((read.structuredContent as { status?: string }).status, 'completed');
      assert.ok(asVsCodeHandsIt(read).startsWith(`{"answer":${JSON.stringify(answer)}`), asVsCodeHandsIt(read).slice(0, 200));
      const resource = await client.readResource({ uri: `multi-agent-task:///${task.id}` });
      assert.ok((resource.contents[0] as { text: string }).text.includes(answer));
      assert.strictEqual(runs().length, 1, 'reading sends nothing');

      // Issue 37: a checked proposal's verdict reaches the agent too, in the text and the data.
      const after = { end: 'failed' as const, exitCode: 1, durationMs: 1200, summary: '3 passed, 1 failed', failing: ['adds'], tail: 'not ok 1 - adds', outputBytes: 20 };
      await ctx.api.store.recordCheck(task.id, { id: 'c1', command: 'npm test', startedAt: Date.now(), after, changes: { files: ['a.ts'], leftOut: [] }, newlyFailing: ['adds'], verdict: 'failing' }, { all: 'not ok 1 - adds', proposal: 'not ok 1 - adds' });
      const checked = await client.callTool({ name: 'read_task', arguments: { taskId: task.id } });
      assert.match(textOf(checked), /Checked on the user's machine: The proposal fails "npm test" \(3 passed, 1 failed\).*adds/);
      assert.deepStrictEqual((checked.structuredContent as { check?: { verdict?: string; newlyFailing?: string[] } }).check?.newlyFailing, ['adds']);
    });

    it('returns the task id at once when asked, and cancels that task on the service', async () => {
      // Held: the task works for ten minutes, far beyond this test.
      ctx.emulator.setTaskDuration(600_000);
      const started = await client.callTool({ name: 'run_task', arguments: { instruction: 'A long review', wait: false } });
      const taskId = taskIdOf(started);
      assert.ok(ctx.api.store.get(taskId), textOf(started));
      assert.match(asVsCodeHandsIt(started), /was sent and runs on the service\. Read it with read_task/);
      assert.strictEqual(ctx.api.store.get(taskId)?.status, 'processing');
      const canceled = await client.callTool({ name: 'cancel_task', arguments: { taskId } });
      assert.ok(!canceled.isError, textOf(canceled));
      assert.strictEqual(ctx.api.store.get(taskId)?.status, 'canceled');
      assert.ok(ctx.emulator.task(taskId)?.canceledAt !== undefined, 'the emulator recorded the cancel');
      const again = await client.callTool({ name: 'cancel_task', arguments: { taskId } });
      assert.match(textOf(again), /already ended as "canceled"/);
      assert.match(asVsCodeHandsIt(again), /already ended as \\"canceled\\"/);
    });

    it('cancelling a waiting call cancels its task on the service', async () => {
      ctx.emulator.setTaskDuration(600_000);
      const abort = new AbortController();
      const call = client.callTool({ name: 'run_task', arguments: { instruction: 'Another long review' } }, undefined, { signal: abort.signal, timeout: 60_000 });
      const task = await waitFor(() => ctx.api.store.all()[0], 'the task in the store');
      abort.abort();
      await assert.rejects(call);
      await waitFor(() => ctx.emulator.task(task.id)?.canceledAt !== undefined, 'the emulator to record the cancel');
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'canceled', 'the task to stop in the store');
    });

    it('refuses input that breaks the rules, and sends nothing', async () => {
      const bad = await client.callTool({ name: 'run_task', arguments: { instruction: 'x', agentCount: 12, colour: 'red' } });
      assert.ok(bad.isError);
      assert.match(textOf(bad), /agentCount|colour/);
      const outside = await client.callTool({ name: 'run_task', arguments: { instruction: 'x', files: ['../notes.txt'] } });
      assert.ok(outside.isError);
      assert.match(textOf(outside), /Only workspace-relative paths/);
      const missing = await client.callTool({ name: 'run_task', arguments: { instruction: 'x', files: ['src/nope.ts'] } });
      assert.match(textOf(missing), /"src\/nope\.ts" was not found/);
      const long = await client.callTool({ name: 'run_task', arguments: { instruction: 'y'.repeat(10_001) } });
      assert.ok(long.isError);
      assert.match(textOf(long), /10,001 characters; the service accepts at most 10,000/);
      const unknown = await client.callTool({ name: 'read_task', arguments: { taskId: 'task_nobody' } });
      assert.match(textOf(unknown), /no task "task_nobody" in the Tasks view/);
      assert.strictEqual(runs().length, 0);
    });

    it('the plan limit comes back in the editor\'s words', async () => {
      ctx.emulator.setPlan(ctx.emulator.apiKey, 'free');
      try {
        await ctx.api.api.client().submitTask({ prompt: 'the task of the week' }).catch(() => undefined);
        const refused = await client.callTool({ name: 'run_task', arguments: { instruction: 'One task too many' } });
        assert.ok(refused.isError);
        assert.match(textOf(refused), /plan's limit on new tasks is reached/);
        assert.match(textOf(refused), /free plan \(1 task per 7 days\)/);
      } finally {
        ctx.emulator.setPlan(ctx.emulator.apiKey, 'unlimited');
      }
    });

    it('lists threads, continues one, and reads the trace', async () => {
      const first = await client.callTool({ name: 'run_task', arguments: { instruction: 'Start a thread about mean()' } });
      const taskId = taskIdOf(first);
      const threadId = await waitFor(() => ctx.api.store.get(taskId)?.conversationId, 'the thread the task was saved to');
      ctx.api.threads.refresh();
      const listed = await client.callTool({ name: 'list_threads', arguments: {} });
      assert.ok((listed.structuredContent as { threads: { threadId: string }[] }).threads.some(t => t.threadId === threadId), textOf(listed));
      const next = await client.callTool({ name: 'continue_thread', arguments: { threadId, instruction: 'And for an empty array?' } });
      assert.ok(!next.isError, textOf(next));
      assert.match(textOf(next), /And for an empty array\?/);
      assert.match(asVsCodeHandsIt(next), /^(?!\{)[\s\S]*And for an empty array\?/);
      assert.match(asVsCodeHandsIt(listed), /continue one with continue_thread/);
      const continued = ctx.api.store.get(taskIdOf(next));
      assert.strictEqual(continued?.threadId, threadId);
      assert.strictEqual(continued?.origin?.kind, 'mcp');
      const trace = await client.callTool({ name: 'read_trace', arguments: { taskId } });
      assert.ok(!trace.isError, textOf(trace));
      assert.ok(((trace.structuredContent as { steps: unknown[] }).steps ?? []).length > 0);
      assert.match(asVsCodeHandsIt(trace), /^\{"message":"How the team worked:"/);
    });

    it('turning the setting off lists no server and closes it; on again, a new one starts', async () => {
      await client.close();
      const port = Number(new URL(url).port);
      await setSetting('mcpServer.enabled', false);
      try {
        await waitFor(() => ctx.api.mcp.provideMcpServerDefinitions().length === 0, 'no server listed');
        await waitFor(async () => !(await connects('127.0.0.1', port)), 'the server to close');
      } finally {
        await setSetting('mcpServer.enabled', true);
      }
      const resolved = await ctx.api.mcp.resolveMcpServerDefinition(ctx.api.mcp.provideMcpServerDefinitions()[0]);
      url = resolved!.uri.toString();
      client = await connect();
      assert.strictEqual((await client.listTools()).tools.length, 6);
    });
  });
});
