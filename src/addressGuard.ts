/**
 * A repository's .vscode/settings.json must never send the user's key elsewhere. VS Code already ignores
 * application-scoped values there; this guard says so, once per window and workspace, so the user
 * notices the attempt. It checks at start, when settings change and when a settings file is written.
 */
import * as vscode from 'vscode';
import { type Config, WORKSPACE_SETTINGS_GLOB, workspaceAddressOverrides } from './config';
import { StateKeys } from './constants';
import { Disposable } from './disposable';
import type { Logger } from './log';
import type { UserInterface } from './ui';

export class WorkspaceAddressGuard extends Disposable {
  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly ui: UserInterface,
    private readonly log: Logger,
    config: Pick<Config, 'onDidChange'>,
  ) {
    super();
    this._register(config.onDidChange(() => this.check()));
  }

  /** Checks now and whenever a settings file is written. Called once activation is done: a watcher is not free. */
  start(): void {
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(WORKSPACE_SETTINGS_GLOB));
    this._register(watcher.onDidCreate(() => this.check()));
    this._register(watcher.onDidChange(() => this.check()));
    this.check();
  }

  check(): void {
    const overridden = workspaceAddressOverrides();
    if (!overridden.length || this.workspaceState.get(StateKeys.warnedWorkspaceAddress) === overridden.join()) return;
    void this.workspaceState.update(StateKeys.warnedWorkspaceAddress, overridden.join());
    this.log.warn(`ignored workspace settings: ${overridden.join(', ')}`);
    void this.ui.warn(
      vscode.l10n.t(
        'This workspace sets {0}. Multi-Agent Tasks ignores that: the API address can only be set in your user settings, so a repository cannot send your API key elsewhere.',
        overridden.join(', '),
      ),
    );
  }
}
