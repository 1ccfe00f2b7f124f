/** The service's models, read once per session (and again after the address changes or on refresh). */
import * as vscode from 'vscode';
import type { ModelList } from '../api';
import type { ApiService } from '../apiService';
import { Disposable } from '../disposable';

export class ModelCatalog extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private cached: Promise<ModelList> | undefined;

  constructor(private readonly api: ApiService) {
    super();
  }

  /** The list, read once per session unless `refresh`. A failed read is not cached. */
  list(refresh = false): Promise<ModelList> {
    if (refresh || !this.cached) {
      const pending = this.api.client().listModels();
      this.cached = pending;
      pending.then(
        () => this.changed.fire(),
        () => {
          if (this.cached === pending) this.cached = undefined;
        },
      );
    }
    return this.cached;
  }

  /** The address changed: the next list comes from there. */
  invalidate(): void {
    this.cached = undefined;
    this.changed.fire();
  }
}
