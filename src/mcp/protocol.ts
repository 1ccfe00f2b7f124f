/**
 * What the MCP server bundle (`dist/mcp.js`, server.ts) and the extension host share: plain data and the
 * functions the tools call. No vscode and no SDK here, so both sides can import it without pulling either in.
 */

/** A tool's answer: text for the model, the same as data, and the task it is about (a resource link). */
export interface ToolReply {
  text: string;
  data?: Record<string, unknown>;
  taskId?: string;
  /** The call failed in a way the model can act on (bad input, the plan's limit, no key): `isError`. */
  isError?: boolean;
  /**
   * How a task the call sent ended, in a few words for the user ("Task 42 completed"): the call's last word where
   * a client shows one. VS Code keeps the last progress message as the call's title otherwise ("working 54%").
   */
  status?: string;
}

export interface CallContext {
  /** Aborted when the client cancels the call or the server stops. */
  signal: AbortSignal;
  /** Reports progress (0..100) when the client asked for it (a progress token); undefined otherwise. */
  progress?: (percent: number, message: string) => void;
  /** The MCP client's name as it introduced itself (data, shown in the Tasks view). */
  client?: string;
}

export interface RunInput {
  instruction: string;
  files?: string[];
  agentCount?: number;
  model?: string;
  /** Wait for the result (default), or answer with the task id at once. */
  wait?: boolean;
}

export interface ContinueInput {
  threadId: string;
  instruction: string;
  wait?: boolean;
}

/** What the tools do, implemented in the extension host (tools.ts) over the pipeline and the stores. */
export interface ToolHost {
  limits: { promptMaxChars: number; agentCountMin: number; agentCountMax: number; maxFiles: number };
  runTask(input: RunInput, context: CallContext): Promise<ToolReply>;
  readTask(taskId: string): Promise<ToolReply>;
  cancelTask(taskId: string): Promise<ToolReply>;
  listThreads(): Promise<ToolReply>;
  continueThread(input: ContinueInput, context: CallContext): Promise<ToolReply>;
  readTrace(taskId: string): Promise<ToolReply>;
  /** A task as a resource (`multi-agent-task:///<id>`): its state and result as markdown, or undefined when unknown. */
  taskResource(taskId: string): Promise<string | undefined>;
}

/** The header VS Code sends the per-window token in (given to it only in the resolved server definition). */
export const TOKEN_HEADER = 'x-multi-agent-token';

/**
 * The server's name where VS Code shows it: its definition's label (MCP: List Servers) and the SDK server's
 * title (the Configure Tools row of its tools, confirmations). Not the extension's display name, which names
 * the row of the `#multiAgent` tool: two rows of one name told the user nothing.
 */
export const MCP_SERVER_LABEL = 'Multi-Agent Tasks team';

/** The one path the server answers on. */
export const MCP_PATH = '/mcp';

/** The scheme of a task's resource link. */
export const TASK_RESOURCE_SCHEME = 'multi-agent-task';

export function taskResourceUri(taskId: string): string {
  return `${TASK_RESOURCE_SCHEME}:///${encodeURIComponent(taskId)}`;
}

export interface ServerOptions {
  host: ToolHost;
  /** The per-window token a request must carry in TOKEN_HEADER. */
  token: string;
  /** The extension's version, as the server's. */
  version: string;
  log: { info(line: string): void; warn(line: string): void };
  /** At most this many MCP sessions at once (the least recently used one is closed beyond). */
  maxSessions?: number;
  /** How long a connection may take or idle, and how many may be open (defaults in server.ts; tests shorten them). */
  connections?: Partial<ConnectionLimits>;
}

/**
 * What bounds a connection before it carries a token: nobody holds a socket by sending nothing, headers a
 * byte at a time, or a body that never ends, and a flood of sockets is refused beyond `maxSockets`.
 */
export interface ConnectionLimits {
  /** A request's headers must be complete within this, ms. */
  headersMs: number;
  /** A request (headers and body) must be complete within this, ms; the answer may take as long as its task. */
  requestMs: number;
  /** A connection with no request in flight (one that sends nothing, or between requests) closes after this, ms. */
  idleMs: number;
  /** A kept-alive connection closes this long after its last answer, ms. */
  keepAliveMs: number;
  /** Open connections at most: more are closed at once. */
  maxSockets: number;
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** The address the socket really listens on (`server.address()`): 127.0.0.1. */
  readonly address: { address: string; family: string; port: number };
  /** Open sessions (for tests and the log). */
  readonly sessions: number;
  close(): Promise<void>;
}

