/**
 * What every resource shares: the transport and the addresses of one client. Each resource file knows its
 * own paths and schemas and builds its requests with these helpers.
 */
import type { ApiAddresses, ApiForm } from './addresses';
import { UnsupportedError } from './errors';
import type { RequestSpec, Transport } from './transport';

/** The thin client under the resources: how to send, and where. */
export interface ApiCore {
  readonly transport: Transport;
  readonly addresses: ApiAddresses;
}

/** Path segments are vetted by `checkId` first, then encoded. */
export const enc = encodeURIComponent;

export abstract class ApiResource {
  constructor(protected readonly core: ApiCore) {}

  protected get form(): ApiForm {
    return this.core.addresses.form;
  }

  protected get transport(): Transport {
    return this.core.transport;
  }

  /** A call under the base URL that exists on both API forms (run, status, results). */
  protected api(method: RequestSpec['method'], pathname: string, template: string, extra: Partial<RequestSpec> = {}): RequestSpec {
    return { method, url: this.core.addresses.baseUrl + pathname, endpoint: `${method} ${template}`, idempotent: method !== 'POST', ...extra };
  }

  /** A call under the base URL that exists only on the current API form: fails at once on the earlier one. */
  protected current(method: RequestSpec['method'], pathname: string, template: string, extra: Partial<RequestSpec> = {}): RequestSpec {
    this.requireCurrent(template, method);
    return this.api(method, pathname, template, extra);
  }

  /** A call under the platform address (`/api/v1/...`). */
  protected platform(method: RequestSpec['method'], pathname: string, extra: Partial<RequestSpec> = {}): RequestSpec {
    return { method, url: this.core.addresses.platformUrl + pathname, endpoint: `${method} ${pathname}`, idempotent: method !== 'POST', ...extra };
  }

  protected requireCurrent(template: string, method = 'POST'): void {
    if (this.form === 'earlier') {
      throw new UnsupportedError(
        `${method} ${template} is not available on the earlier API form (…/api/developer): set the base URL to …/api/v1/developer.`,
        { endpoint: `${method} ${template}` },
      );
    }
  }
}
