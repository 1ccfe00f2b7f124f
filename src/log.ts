import * as vscode from 'vscode';
import { OUTPUT_CHANNEL_NAME } from './constants';

/** The structural logger the api layer accepts; a LogOutputChannel satisfies it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  debug(message: string): void;
}

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
