/**
 * Gives the rest of the extension a Developer API client built from the current settings and key.
 * The client code (axios, zod) is a second bundle, loaded the first time it is needed, so activation
 * stays small and does no network.
 */
import type * as vscode from 'vscode';
import type * as Api from './api';
import type { KeyStore } from './auth/keyStore';
import type { Config } from './config';
import type { Logger } from './log';
import { apiPart } from './parts';

export type Client = Api.DeveloperApiClient;


export class ApiService {
  private cached: { signature: string; client: Client } | undefined;

  constructor(
    private readonly keys: KeyStore,
    private readonly log: Logger,
    private readonly extension: vscode.Extension<unknown> | { packageJSON: { version?: string } },
    private readonly config: Pick<Config, 'settings'>,
  ) {}

  /**
   * A client for the current settings. Throws the api layer's ConfigurationError when an address cannot
   * be used (not a URL, plain http to a remote host): nothing is sent then.
   */
  client(): Client {
    const settings = this.config.settings;
    const signature = JSON.stringify([settings.baseUrl, settings.platformUrl, settings.streamUrl, settings.requestTimeoutMs]);
    if (this.cached?.signature === signature) return this.cached.client;
    const client = this.build(() => this.keys.getApiKey(), settings.requestTimeoutMs);
    this.cached = { signature, client };
    return client;
  }

  /**
   * A client that sends `key` instead of the stored key (to check a key before it is stored): not cached,
   * each call at most `timeoutMs` (ms, and never more than the setting).
   */
  clientWithKey(key: string, timeoutMs: number): Client {
    return this.build(() => key, Math.min(this.config.settings.requestTimeoutMs, timeoutMs));
  }

  private build(apiKey: () => string | undefined | Promise<string | undefined>, timeoutMs: number): Client {
    const settings = this.config.settings;
    return new (apiPart().DeveloperApiClient)({
      baseUrl: settings.baseUrl,
      platformUrl: settings.platformUrl,
      streamUrl: settings.streamUrl,
      apiKey,
      // An echoed gateway key is redacted from errors and log lines like the API key.
      secrets: () => [this.keys.knownGatewayKey],
      userAgent: `multi-agent-tasks-vscode/${this.extension.packageJSON.version ?? '0'}`,
      timeoutMs,
      logger: this.log,
    });
  }
}
