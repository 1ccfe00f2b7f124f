/**
 * The API key and the AI gateway key live in SecretStorage and nowhere else. This wrapper keeps the
 * `multiAgent.hasApiKey` context key true to the store, including changes made in another window.
 */
import * as vscode from 'vscode';
import { ContextKeys, SecretKeys } from '../constants';
import { Disposable } from '../disposable';
import type { UserInterface } from '../ui';
import { redactSecrets } from '../api/redact';

export class KeyStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<'apiKey' | 'gatewayKey'>());
  /** Fires when either key changes, here or in another window. */
  readonly onDidChange = this.changed.event;
  private cached: string | undefined;
  private cachedGateway: string | undefined;
  private loaded = false;
  /** Start-up reading of the store (see `initialize`); reads wait for it so they never race a seeded key. */
  private ready: Promise<void> = Promise.resolve();
  /**
   * Settles once `initialize` ran: a view asking for the key before that (a tree at activation) waits,
   * instead of reading "no key" before the demo key is seeded and showing "Set an API key" for a moment.
   */
  private readonly initialized: Promise<void>;
  private markInitialized: () => void = () => undefined;
  private keyAsker: (() => Promise<boolean>) | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly ui: UserInterface,
  ) {
    super();
    this.initialized = new Promise(resolve => (this.markInitialized = resolve));
    this._register(
      secrets.onDidChange(async e => {
        if (e.key !== SecretKeys.apiKey && e.key !== SecretKeys.gatewayKey) return;
        // This window's own writes already fired (setApiKey, …): only a change made elsewhere fires here.
        const before = e.key === SecretKeys.apiKey ? this.cached : this.cachedGateway;
        await this.refresh();
        const after = e.key === SecretKeys.apiKey ? this.cached : this.cachedGateway;
        if (after !== before) this.changed.fire(e.key === SecretKeys.apiKey ? 'apiKey' : 'gatewayKey');
      }),
    );
  }

  /**
   * Reads the store once at start-up, after activation returns (secret storage answers from the window).
   * `demoKey` (the demo's emulator key) is stored first when no key is set.
   */
  initialize(demoKey?: string): Promise<void> {
    this.ready = (async () => {
      if (demoKey && !(await this.secrets.get(SecretKeys.apiKey))) await this.secrets.store(SecretKeys.apiKey, demoKey);
      await this.refresh();
    })().finally(() => this.markInitialized());
    return this.ready;
  }

  /** Reads the key once at start so menus and welcome views are right before any command runs. */
  async refresh(): Promise<void> {
    this.cached = (await this.secrets.get(SecretKeys.apiKey)) || undefined;
    this.cachedGateway = (await this.secrets.get(SecretKeys.gatewayKey)) || undefined;
    this.loaded = true;
    await vscode.commands.executeCommand('setContext', ContextKeys.hasApiKey, !!this.cached);
    await vscode.commands.executeCommand('setContext', ContextKeys.keyRead, true);
  }

  async getApiKey(): Promise<string | undefined> {
    await this.initialized;
    await this.ready.catch(() => undefined);
    if (!this.loaded) await this.refresh();
    return this.cached;
  }

  async getGatewayKey(): Promise<string | undefined> {
    this.cachedGateway = (await this.secrets.get(SecretKeys.gatewayKey)) || undefined;
    return this.cachedGateway;
  }

  /** The gateway key as last read (kept current by every change): for redaction on each request, no I/O. */
  get knownGatewayKey(): string | undefined {
    return this.cachedGateway;
  }

  /** `text` without the keys (as last read) in it: for any server text before it is shown, logged or stored. */
  redact(text: string): string {
    return redactSecrets(text, [this.cached, this.cachedGateway]);
  }

  async setApiKey(key: string): Promise<void> {
    this.cached = key.trim(); // first, so the store's own change event is not taken for another window's
    await this.secrets.store(SecretKeys.apiKey, key.trim());
    await this.refresh();
    this.changed.fire('apiKey');
  }

  async clearApiKey(): Promise<void> {
    this.cached = undefined;
    await this.secrets.delete(SecretKeys.apiKey);
    await this.refresh();
    this.changed.fire('apiKey');
  }

  async setGatewayKey(key: string | undefined): Promise<void> {
    this.cachedGateway = key?.trim() || undefined;
    if (key?.trim()) await this.secrets.store(SecretKeys.gatewayKey, key.trim());
    else await this.secrets.delete(SecretKeys.gatewayKey);
    this.changed.fire('gatewayKey');
  }

  /**
   * How a missing key is asked for: the commands' one box, which checks the key with the service before it is saved,
   * as Set API Key does (`askAndSaveApiKey`, commands/keys.ts; wired where the commands are built). True once saved.
   */
  askForKeyWith(asker: () => Promise<boolean>): void {
    this.keyAsker = asker;
  }

  /** The key, asking for it first (checked, then stored) when none is set; undefined when the user backs out. */
  async ensureApiKey(): Promise<string | undefined> {
    const stored = await this.getApiKey();
    if (stored) return stored;
    if (!this.keyAsker) throw new Error('No key prompt is wired (commands/index.ts).');
    return (await this.keyAsker()) ? this.getApiKey() : undefined;
  }
}
