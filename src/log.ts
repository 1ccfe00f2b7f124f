import * as vscode from 'vscode';
import type { Logger } from './api';
import { OUTPUT_CHANNEL_NAME } from './constants';

/** The one shape, declared in the api layer (which needs it first); the extension's code names it from here. */
export type { Logger };

export interface Log extends Logger, vscode.Disposable {
  show(): void;
}

/**
 * The one output channel of the extension ("Show Log"). Every line passes `redact` first: a server that
 * echoes the key back must not get it written to the log.
 */
export function createLog(redact: (text: string) => string): Log {
  const channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  const text = (m: string | Error) => redact(m instanceof Error ? m.message : m);
  return {
    info: m => channel.info(text(m)),
    warn: m => channel.warn(text(m)),
    error: m => channel.error(text(m)),
    debug: m => channel.debug(text(m)),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}
