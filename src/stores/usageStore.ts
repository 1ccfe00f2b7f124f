/** The account's usage and storage, read together whenever the usage panel asks. */
import type { Storage, Usage } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { describeForView } from '../errors';

export interface UsageData {
  usage?: Usage;
  storage?: Storage;
  /** Shown instead of the part that could not be read. */
  usageError?: string;
  storageError?: string;
  /** No key: nothing was asked. */
  needsKey?: boolean;
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
    return {
      usage: usage.status === 'fulfilled' ? usage.value : undefined,
      usageError: usage.status === 'rejected' ? describeForView(usage.reason) : undefined,
      storage: storage.status === 'fulfilled' ? storage.value : undefined,
      storageError: storage.status === 'rejected' ? describeForView(storage.reason) : undefined,
    };
  }
}
