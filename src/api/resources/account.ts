/** The account (current form only): usage and storage. `/usage` takes a web-console session on the live service. */
import { ApiResource } from '../resource';
import { StorageSchema, UsageSchema } from '../schemas';
import type { CallOptions } from '../transport';

export class Account extends ApiResource {
  async usage(call?: CallOptions) {
    return this.transport.json(this.current('GET', '/usage', '/usage'), UsageSchema, call);
  }

  async storage(call?: CallOptions) {
    return this.transport.json(this.current('GET', '/storage', '/storage'), StorageSchema, call);
  }
}
