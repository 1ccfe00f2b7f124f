/**
 * The MCP server definition provider (VS Code 1.101+): offers the team to every agent in VS Code as a local
 * Streamable HTTP server. The definition VS Code lists carries neither address nor secret; when VS Code starts
 * the server, `resolveMcpServerDefinition` loads `dist/mcp.js` (the SDK), listens on 127.0.0.1 at a free port
 * and hands VS Code the address and the per-window token in a header. The API key stays in this process.
 * Where the running VS Code has no such API (1.100), nothing is registered and nothing fails.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Config } from '../config';
import { Disposable } from '../disposable';
import { messageOf } from '../format';
import { lazy } from '../lazy';
import { MCP_PATH, MCP_SERVER_LABEL, type RunningServer, TOKEN_HEADER } from './protocol';

/** What `dist/mcp.js` exports (bundle.ts); named here, where it is loaded, so protocol.ts imports nothing of ours. */
type McpModule = typeof import('./bundle');
import type { McpToolDeps } from './tools';

/** The provider's id, as in package.json `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'multiAgent.team';
export { MCP_SERVER_LABEL };

/** The part of VS Code 1.101's `McpHttpServerDefinition` used here (`@types/vscode` is 1.100's). */
export interface HttpServerDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}

type HttpServerDefinitionClass = new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => HttpServerDefinition;

interface ProviderLike {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token?: vscode.CancellationToken): HttpServerDefinition[];
  resolveMcpServerDefinition(server: HttpServerDefinition, token?: vscode.CancellationToken): Promise<HttpServerDefinition | undefined>;
}

/** The first VS Code whose MCP server definition providers are stable (1.100 has a proposed, different one). */
const MCP_PROVIDERS_SINCE: readonly [number, number] = [1, 101];

/** VS Code's MCP API where this VS Code has it (1.101+), else undefined. */
export function mcpApi(version: string = vscode.version): { register(id: string, provider: ProviderLike): vscode.Disposable; Definition: HttpServerDefinitionClass } | undefined {
  const [major = 0, minor = 0] = version.split('.').map(n => parseInt(n, 10));
  if (major < MCP_PROVIDERS_SINCE[0] || (major === MCP_PROVIDERS_SINCE[0] && minor < MCP_PROVIDERS_SINCE[1])) return undefined;
  const lm = vscode.lm as unknown as { registerMcpServerDefinitionProvider?: (id: string, provider: ProviderLike) => vscode.Disposable };
  const Definition = (vscode as unknown as { McpHttpServerDefinition?: HttpServerDefinitionClass }).McpHttpServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') return undefined;
  return { register: (id, provider) => lm.registerMcpServerDefinitionProvider!(id, provider), Definition };
}

/** The MCP server and its SDK (dist/mcp.js), loaded when VS Code first starts the server. */
const loadMcp = lazy<McpModule>('mcp');

export class McpServerProvider extends Disposable implements ProviderLike {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  /** Registered with VS Code (false where the API is missing). */
  readonly registered: boolean;
  /** Sent by VS Code in TOKEN_HEADER; known to this window's extension host and VS Code only. */
  private made: string | undefined;
  private get token(): string {
    // Made when VS Code first starts the server, not at activation.
    return (this.made ??= randomBytes(32).toString('base64url'));
  }
  private running: Promise<RunningServer> | undefined;
  private readonly api = mcpApi();

  constructor(
    private readonly deps: {
      log: McpToolDeps['log'];
      config: Pick<Config, 'settings' | 'onDidChange'>;
      version: string;
      /** What the tools use: asked for when VS Code first starts the server (it loads the team's core). */
      tools: () => McpToolDeps;
    },
  ) {
    super();
    this._register(
      deps.config.onDidChange(change => {
        if (!change.affects('mcpServerEnabled')) return;
        if (!deps.config.settings.mcpServerEnabled) void this.stop();
        this.changed.fire();
      }),
    );
    this._register({ dispose: () => void this.stop() });
    let registered = false;
    if (this.api) {
      try {
        this._register(this.api.register(MCP_PROVIDER_ID, this));
        registered = true;
      } catch (e) {
        deps.log.info(`mcp: the MCP server definition provider is not available here: ${messageOf(e)}`);
      }
    } else deps.log.info('mcp: this VS Code has no MCP server definition providers (1.101+): the MCP server is not offered');
    this.registered = registered;
  }

  /** The server VS Code lists: no address yet and no token (VS Code may keep this list). */
  provideMcpServerDefinitions(): HttpServerDefinition[] {
    if (!this.api || !this.deps.config.settings.mcpServerEnabled) return [];
    return [new this.api.Definition(MCP_SERVER_LABEL, vscode.Uri.parse(`http://127.0.0.1${MCP_PATH}`), {}, this.deps.version)];
  }

  /** VS Code starts the server: listen (once per window), and hand it the address and the token. */
  async resolveMcpServerDefinition(server: HttpServerDefinition): Promise<HttpServerDefinition | undefined> {
    if (!this.deps.config.settings.mcpServerEnabled) return undefined;
    const running = await this.start();
    server.uri = vscode.Uri.parse(running.url);
    server.headers = { ...server.headers, [TOKEN_HEADER]: this.token };
    return server;
  }

  /** The running server (started on first use). */
  start(): Promise<RunningServer> {
    if (!this.running) {
      const started = performance.now();
      const mcp = loadMcp();
      this.running = mcp
        .startMcpServer({ host: new mcp.McpTools(this.deps.tools()), token: this.token, version: this.deps.version, log: this.deps.log })
        .then(server => {
          this.deps.log.info(`mcp: server started in ${(performance.now() - started).toFixed(0)} ms`);
          return server;
        });
      this.running.catch(e => {
        this.deps.log.warn(`mcp: the server could not start: ${messageOf(e)}`);
        this.running = undefined;
      });
    }
    return this.running;
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    const server = await running?.catch(() => undefined);
    await server?.close();
  }
}
