/**
 * The MCP server (`dist/mcp.js`, loaded the first time VS Code starts it): the official SDK's `McpServer` over
 * its Streamable HTTP transport, on 127.0.0.1 at a free port, inside the extension host. Each request must come
 * from the loopback address, name this server's host (no DNS rebinding), carry no foreign Origin and carry the
 * per-window token; anything else is refused before the SDK reads it. The tools only call the `ToolHost` the
 * extension hands in (tools.ts): the key, the pipeline and the stores never come here.
 *
 * Sessions, not stateless: a client's `notifications/cancelled` arrives as its own POST, and only the session
 * that runs the call can abort it (the SDK then aborts the handler's signal, and the host cancels the task).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type CallContext, type ConnectionLimits, MCP_PATH, MCP_SERVER_LABEL, type RunningServer, type ServerOptions, TASK_RESOURCE_SCHEME, TOKEN_HEADER, type ToolHost, type ToolReply, taskResourceUri } from './protocol';

/** Largest request body read (a tool call's arguments: an instruction and a few paths). */
const MAX_BODY_BYTES = 256 * 1024;
const DEFAULT_MAX_SESSIONS = 16;

/**
 * A connection's bounds (ConnectionLimits): headers in 10 s, a whole request (its body is at most 256 KB) in 30 s,
 * an idle connection (one that sends nothing, or nothing more) closed after 10 s, 64 sockets at most. VS Code's
 * client opens a handful (a call's POST, its notifications stream, a cancel) and sends at once.
 */
const DEFAULT_CONNECTIONS: ConnectionLimits = { headersMs: 10_000, requestMs: 30_000, idleMs: 10_000, keepAliveMs: 5_000, maxSockets: 64 };

export async function startMcpServer(options: ServerOptions): Promise<RunningServer> {
  const sessions = new Sessions(options);
  const http = boundedServer({ ...DEFAULT_CONNECTIONS, ...options.connections }, (req, res) =>
    sessions.handle(req, res).catch(e => {
      options.log.warn(`mcp: ${(e as Error).message}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.end();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (sessions.port = (http.address() as AddressInfo).port);
  const url = `http://127.0.0.1:${port}${MCP_PATH}`;
  options.log.info(`mcp: listening on ${url}`);
  return {
    url,
    port,
    get address() {
      const { address, family, port } = http.address() as AddressInfo;
      return { address, family, port };
    },
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      await sessions.closeAll();
      await new Promise<void>(resolve => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** An HTTP server whose connections are bounded in time and number (ConnectionLimits). */
function boundedServer(limits: ConnectionLimits, onRequest: (req: IncomingMessage, res: ServerResponse) => void): Server {
  // Node checks the headers and request timeouts this often (its default, 30 s, would let them run late).
  const http = createServer({ connectionsCheckingInterval: Math.min(1000, limits.headersMs) }, (req, res) => {
    // A request in flight is never idle: a tool call that waits for its task sends nothing for minutes.
    req.socket.setTimeout(0);
    onRequest(req, res);
  });
  // Headers and bodies are small; a slow client does not hold a socket for long. The timeout of the whole
  // request covers receiving it only, not the answer (which streams for as long as the task runs).
  http.headersTimeout = limits.headersMs;
  http.requestTimeout = limits.requestMs;
  // A socket with no request in flight (armed by Node at connection and again when a request comes after a
  // kept-alive one) is closed when idle: a connection that sends nothing holds nothing.
  http.timeout = limits.idleMs;
  http.keepAliveTimeout = limits.keepAliveMs;
  // Beyond this many sockets, Node closes a new one at once.
  http.maxConnections = limits.maxSockets;
  return http;
}

/** The MCP sessions of one server: each request checked, then handed to its session's transport (or opens one). */
class Sessions {
  private readonly open = new Map<string, Session>();
  private readonly max: number;
  /** The port the server listens on, once it does (the hosts a request may name). */
  port = 0;

  constructor(private readonly options: ServerOptions) {
    this.max = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  }

  get size(): number {
    return this.open.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const denied = refusal(req, this.port, this.options.token);
    if (denied) {
      this.options.log.info(`mcp: refused ${req.method} ${denied.status} (${denied.why})`);
      return refuse(res, denied.status, denied.message);
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.open.get(sessionId);
      if (!session) return refuse(res, 404, 'Session not found');
      // Most recently used last: the first one is the one closed when there are too many.
      this.open.delete(sessionId);
      this.open.set(sessionId, session);
      return session.transport.handleRequest(req, res);
    }
    const session = this.start();
    await session.transport.handleRequest(req, res);
    // Anything but an initialize gets the SDK's 400 and opens nothing.
    if (session.transport.sessionId === undefined) await session.close();
  }

  async closeAll(): Promise<void> {
    for (const session of [...this.open.values()]) await session.close();
  }

  private start(): Session {
    const { host, version } = this.options;
    const mcp = buildServer(host, version, () => mcp.server.getClientVersion()?.name);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: id => {
        this.open.set(id, session);
        while (this.open.size > this.max) {
          const [oldest, first] = this.open.entries().next().value as [string, Session];
          this.open.delete(oldest);
          void first.close();
        }
      },
      onsessionclosed: id => void this.open.get(id)?.close(),
      // Checked again by the SDK, after refusal(): the host this server was reached under.
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${this.port}`, `localhost:${this.port}`],
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    const session: Session = {
      transport,
      close: async () => {
        if (transport.sessionId) this.open.delete(transport.sessionId);
        await mcp.close().catch(() => undefined);
      },
    };
    void mcp.connect(transport);
    return session;
  }
}

interface Session {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

/** Why a request is refused before the protocol reads it, or undefined when it may go on. */
export function refusal(
  req: Pick<IncomingMessage, 'headers' | 'url' | 'method'> & { socket: { remoteAddress?: string } },
  port: number,
  token: string,
): { status: number; message: string; why: string } | undefined {
  if (!isLoopback(req.socket.remoteAddress)) return { status: 403, message: 'Forbidden', why: 'not from the loopback address' };
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return { status: 403, message: 'Forbidden', why: 'another Host' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
    return { status: 403, message: 'Forbidden', why: 'another Origin' };
  }
  if (!sameSecret(req.headers[TOKEN_HEADER], token)) return { status: 401, message: 'Unauthorized', why: 'no or a wrong token' };
  const path = (req.url ?? '').split('?')[0];
  if (path !== MCP_PATH) return { status: 404, message: 'Not found', why: 'another path' };
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > MAX_BODY_BYTES) return { status: 413, message: 'Request body too large', why: 'a large body' };
  return undefined;
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** Compares in constant time (hashes first, so lengths leak nothing either). */
function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string' || !expected) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** A JSON-RPC error body, as the SDK answers its own refusals (no WWW-Authenticate: there is no sign-in to offer). */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

const INSTRUCTIONS =
  'Multi-Agent Tasks: a team of agents on the hosted multi-agent service, with the user\'s own API key. ' +
  'Each run_task or continue_thread call starts a task on the user\'s plan (it counts against their task limit and may cost money). ' +
  'Tools never write files: a result comes back as text, and the user lands any changes through "Review Changes…" on the task in the Tasks view. ' +
  'Use read_task for a task started with wait=false instead of starting it again.';

function buildServer(host: ToolHost, version: string, clientName: () => string | undefined): McpServer {
  const mcp = new McpServer({ name: 'multi-agent-tasks', title: MCP_SERVER_LABEL, version }, { instructions: INSTRUCTIONS });
  const inputs = sharedInputs(host.limits);
  registerTaskTools(mcp, host, inputs, clientName);
  registerThreadTools(mcp, host, inputs, clientName);
  return mcp;
}

/** The inputs several tools share, bounded by the host's limits. */
function sharedInputs(limits: ToolHost['limits']) {
  return {
    // The service's ids never hold these (api/requests.ts checkId refuses them too).
    id: (what: string) => z.string().regex(/^[^/\\%?#\s]{1,200}$/, `a ${what} as the tools return it`).describe(`The ${what}.`),
    // Counted again as the service counts (code points) by the pipeline; this only bounds the input.
    instruction: z.string().trim().min(1).max(limits.promptMaxChars * 2).describe(`What the agents should do (at most ${limits.promptMaxChars} characters with the attached text).`),
    wait: z.boolean().optional().describe('true (default): wait for the result, with progress notifications when a progress token is given; false: answer with the task id at once (read it later with read_task).'),
  };
}

/** run_task, read_task, cancel_task. */
function registerTaskTools(mcp: McpServer, host: ToolHost, { id, instruction, wait }: ReturnType<typeof sharedInputs>, clientName: () => string | undefined): void {
  const { limits } = host;
  mcp.registerTool(
    'run_task',
    {
      // Nouns: VS Code says "Run <title> (<server>) (MCP Server)" (issue 45: "Run Run a multi-agent task …").
      title: 'Multi-agent task',
      description:
        'Sends an instruction, with optional workspace files, to a team of agents on the multi-agent service and returns their answer as text. ' +
        'Costs one task on the user\'s plan; the user confirms it. Nothing is written to the workspace: changes the answer proposes are landed by the user (Review Changes…).',
      inputSchema: z
        .object({
          instruction,
          files: z
            .array(z.string().trim().min(1).max(1000))
            .max(limits.maxFiles)
            .optional()
            .describe(`Workspace-relative paths of files to attach (at most ${limits.maxFiles}). Small text files go inline, others as attachments; files outside the workspace are refused.`),
          agentCount: z.number().int().min(limits.agentCountMin).max(limits.agentCountMax).optional().describe(`How many agents (${limits.agentCountMin}-${limits.agentCountMax}); default: the user's setting.`),
          model: z.string().trim().min(1).max(200).optional().describe('A model id such as "zai/glm-5.2"; default: the user\'s setting.'),
          wait,
        })
        .strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => reply(await host.runTask(args, context(extra, clientName)), 'openWorld'),
  );

  mcp.registerTool(
    'read_task',
    {
      title: 'Task state and result',
      description: 'The state of a task in the user\'s Tasks view: status, each agent\'s state and progress, the result once completed, produced files and sources. Free: starts nothing.',
      inputSchema: z.object({ taskId: id('task id') }).strict(),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ taskId }) => reply(await host.readTask(taskId)),
  );

  mcp.registerTool(
    'cancel_task',
    {
      title: 'Task cancellation',
      description: 'Cancels a running task of the user\'s Tasks view on the service: its agents stop and it costs nothing more. A finished task keeps its outcome.',
      inputSchema: z.object({ taskId: id('task id') }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ taskId }) => reply(await host.cancelTask(taskId)),
  );
}

/** list_threads, continue_thread, read_trace, and the task resource. */
function registerThreadTools(mcp: McpServer, host: ToolHost, { id, instruction, wait }: ReturnType<typeof sharedInputs>, clientName: () => string | undefined): void {
  mcp.registerTool(
    'list_threads',
    {
      title: 'Threads on the service',
      description: 'The user\'s most recent threads on the service (each completed task is saved to one): id, title, model, when. Free: starts nothing.',
      inputSchema: z.object({}).strict(),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async () => reply(await host.listThreads()),
  );

  mcp.registerTool(
    'continue_thread',
    {
      title: 'Next task in a thread',
      description: 'Sends a follow-up instruction into a thread (the agents see its earlier messages) and returns the answer. Costs one task on the user\'s plan; the user confirms it.',
      inputSchema: z.object({ threadId: id('thread id'), instruction, wait }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => reply(await host.continueThread(args, context(extra, clientName)), 'openWorld'),
  );

  mcp.registerTool(
    'read_trace',
    {
      title: 'How the team worked',
      description: 'The execution trace of a task in the user\'s Tasks view: the plan, each agent\'s step and tools, the final answer. Free: starts nothing.',
      inputSchema: z.object({ taskId: id('task id') }).strict(),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ taskId }) => reply(await host.readTrace(taskId)),
  );

  mcp.registerResource(
    'task',
    new ResourceTemplate(`${TASK_RESOURCE_SCHEME}:///{taskId}`, { list: undefined }),
    { title: 'A multi-agent task', description: 'A task of the user\'s Tasks view: its state and result, as markdown.', mimeType: 'text/markdown' },
    async (uri, variables) => {
      const taskId = decodeURIComponent(String(variables.taskId ?? ''));
      const text = await host.taskResource(taskId);
      if (text === undefined) throw new Error(`No task ${JSON.stringify(taskId.slice(0, 60))} in the Tasks view.`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );
}

interface Extra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }): Promise<void>;
}

/** The call's context: its abort signal, and progress when the client gave a token (values only ever rise). */
function context(extra: Extra, clientName: () => string | undefined): CallContext {
  const token = extra._meta?.progressToken;
  let last = -1;
  const progress =
    token === undefined
      ? undefined
      : (percent: number, message: string) => {
          const value = Math.min(100, Math.max(Math.round(percent * 100) / 100, Math.round((last + 0.01) * 100) / 100));
          if (value <= last || (value >= 100 && percent < 100)) return;
          last = value;
          extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, total: 100, message } }).catch(() => undefined);
        };
  return { signal: extra.signal, progress, client: clientName()?.slice(0, 80) };
}

/**
 * A tool's result: the text, the task's link, and the data. A tool that sends the agents' work (`openWorld`: its
 * result is the team's text, which VS Code 1.139 shows the user in an "Approve Tool Result" box before a model
 * reads it) answers in text only: with structured data VS Code shows, and hands on, that data as one line of JSON
 * instead of the text (issue 45). Its link and its last word are for the user (`audience`), not for the box or
 * the model; the last word becomes the call's title in the chat instead of the last progress message.
 */
function reply(answer: ToolReply, kind: 'openWorld' | 'closed' = 'closed'): CallToolResult {
  const forUser = kind === 'openWorld' ? { annotations: { audience: ['user' as const] } } : {};
  const content: CallToolResult['content'] = [{ type: 'text', text: answer.text }];
  if (answer.taskId) {
    content.push({
      type: 'resource_link',
      uri: taskResourceUri(answer.taskId),
      name: `task-${answer.taskId}`,
      title: `Task ${answer.taskId}`,
      mimeType: 'text/markdown',
      description: 'The task in the user\'s Tasks view (state and result).',
      ...forUser,
    });
  }
  if (kind === 'openWorld' && answer.status) content.push({ type: 'text', text: answer.status, ...forUser });
  const data = kind === 'openWorld' ? undefined : answer.data;
  return { content, ...(data ? { structuredContent: data } : {}), ...(answer.isError ? { isError: true } : {}) };
}
