/**
 * Activation's stand-in for the commands: every action command is registered at once (VS Code must know them
 * all), and their handlers (`index.ts`, a part of its own: lazy.ts) load on the first call of any of them.
 */
import * as vscode from 'vscode';
import { ACTION_COMMANDS } from '../constants';
import { lazy } from '../lazy';
import type * as Handlers from './index';
import { registerCommand } from './run';

const handlersModule = lazy<typeof Handlers>('commands');

export function registerCommands(d: Handlers.CommandDeps): vscode.Disposable {
  const host = { ui: d.ui, log: d.log };
  let handlers: ReturnType<typeof Handlers.commandHandlers> | undefined;
  return vscode.Disposable.from(
    ...ACTION_COMMANDS.map(id =>
      registerCommand(host, id, (...args: never[]) => {
        handlers ??= handlersModule().commandHandlers(d);
        return handlers[id](...args);
      }),
    ),
  );
}
