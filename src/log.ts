import * as vscode from 'vscode';
import { OUTPUT_CHANNEL_NAME } from './constants';

/** The structural logger the api layer accepts; a LogOutputChannel satisfies it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  debug(message: string): void;
}

/** The one output channel of the extension ("Show Log"). */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
}
