/** Models: GET {platform_url}/api/v1/models, on both API forms. */
import { ApiResource } from '../resource';
import { ModelListSchema } from '../schemas';
import type { CallOptions } from '../transport';

export class Models extends ApiResource {
  async list(call?: CallOptions) {
    return this.transport.json(this.platform('GET', '/api/v1/models'), ModelListSchema, call);
  }
}
