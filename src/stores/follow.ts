/**
 * What a store of the service's data follows by itself: a new API key (another account's data) and a new
 * service address (another service's data). The rule lives here once; each store says what it forgets.
 */
import type * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import type { Config } from '../config';

export interface ServiceInputs {
  config: Pick<Config, 'onDidChange'>;
  /** Left out by a store whose data does not depend on the account (the model catalog). */
  keys?: Pick<KeyStore, 'onDidChange'>;
}

/** Calls `forget` when the data read so far may be another account's or another service's. */
export function onServiceChange(inputs: ServiceInputs, forget: () => void): vscode.Disposable {
  const subscriptions = [
    inputs.config.onDidChange(change => change.affects('baseUrl', 'platformUrl') && forget()),
    ...(inputs.keys ? [inputs.keys.onDidChange(which => which === 'apiKey' && forget())] : []),
  ];
  return { dispose: () => subscriptions.forEach(s => s.dispose()) };
}
