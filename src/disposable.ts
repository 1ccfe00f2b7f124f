import type * as vscode from 'vscode';

/** Base for long-lived objects: everything `_register`ed is disposed with it, in reverse order. */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: { dispose(): unknown }[] = [];
  private disposed = false;

  protected _register<T extends { dispose(): unknown }>(value: T): T {
    if (this.disposed) value.dispose();
    else this.disposables.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the rest alive.
      }
    }
  }
}
