/** The account's usage and storage, read together whenever the usage panel asks. */
import type { Storage, Usage } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import * as vscode from 'vscode';
import { describeForView, errorKind } from '../errors';

export interface UsageData {
  usage?: Usage;
  storage?: Storage;
  /** Shown instead of the part that could not be read. */
  usageError?: string;
  storageError?: string;
  /** No key: nothing was asked. */
  needsKey?: boolean;
  /** The service shows usage to a web-console session only: where that console is. */
  consoleUrl?: string;
}

export class UsageStore {
  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
  ) {}

  /** Reads both; a part that fails carries its reason instead (never throws). */
  async read(): Promise<UsageData> {
    if (!(await this.keys.getApiKey())) return { needsKey: true };
    let client;
    try {
      client = this.api.client();
    } catch (e) {
      return { usageError: describeForView(e) };
    }
    const [usage, storage] = await Promise.allSettled([client.getUsage(), client.getStorage()]);
    // The live service answers /usage 401 to every API key (it takes a web-console session): while the
    // same key reads storage, the key is fine and the numbers are in the console.
    const consoleOnly = usage.status === 'rejected' && errorKind(usage.reason) === 'authentication' && storage.status === 'fulfilled';
    return {
      usage: usage.status === 'fulfilled' ? usage.value : undefined,
      usageError: consoleOnly
        ? vscode.l10n.t('The service shows request history and quota in its web console only; your API key cannot read them. Storage is below.')
        : usage.status === 'rejected'
          ? describeForView(usage.reason)
          : undefined,
      consoleUrl: consoleOnly ? client.addresses.platformUrl : undefined,
      storage: storage.status === 'fulfilled' ? storage.value : undefined,
      storageError: storage.status === 'rejected' ? describeForView(storage.reason) : undefined,
    };
  }
}
