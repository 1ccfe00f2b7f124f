/** The service's models, read once per session (and again after the address changes or on refresh). */
import type { ModelList } from '../api';
import type { ApiService } from '../apiService';
import type { Config } from '../config';
import { Disposable } from '../disposable';
import { onServiceChange } from './follow';

export class ModelCatalog extends Disposable {
  private cached: Promise<ModelList> | undefined;
  /** The last list read, for labels shown without a request. */
  private known: ModelList | undefined;

  constructor(
    private readonly api: ApiService,
    config: Pick<Config, 'onDidChange'>,
  ) {
    super();
    this._register(onServiceChange({ config }, () => this.invalidate()));
  }

  /** The list, read once per session unless `refresh`. A failed read is not cached. */
  list(refresh = false): Promise<ModelList> {
    if (refresh || !this.cached) {
      const pending = this.api.client().listModels();
      this.cached = pending;
      pending.then(list => (this.known = list), () => undefined);
      pending.catch(() => {
        if (this.cached === pending) this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** The address changed: the next list comes from there. */
  invalidate(): void {
    this.cached = undefined;
    this.known = undefined;
  }

  /** A model's label from the list last read, without asking the service; undefined when not known. */
  labelOf(modelId: string): string | undefined {
    return this.known?.options?.find(m => m.id === modelId)?.label || undefined;
  }

  /** Whether a list was read (so a missing label means the model is not in it). */
  get loaded(): boolean {
    return this.known !== undefined;
  }
}
