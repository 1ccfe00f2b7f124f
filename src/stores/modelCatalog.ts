/** The service's models, read once per session (and again after the address changes or on refresh). */
import type { ModelList } from '../api';
import type { ApiService } from '../apiService';

export class ModelCatalog {
  private cached: Promise<ModelList> | undefined;

  constructor(private readonly api: ApiService) {}

  /** The list, read once per session unless `refresh`. A failed read is not cached. */
  list(refresh = false): Promise<ModelList> {
    if (refresh || !this.cached) {
      const pending = this.api.client().listModels();
      this.cached = pending;
      pending.catch(() => {
        if (this.cached === pending) this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** The address changed: the next list comes from there. */
  invalidate(): void {
    this.cached = undefined;
  }
}
