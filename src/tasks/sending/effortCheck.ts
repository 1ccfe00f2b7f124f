/**
 * A reasoning effort is checked against the model when either is set, not only when a task is sent (issue
 * 26): the user hears at once that the two do not fit, with Select Model and Open Settings, and nothing they
 * type is refused later for it. The rule is `effortMisfit` (submission.ts), which the submission checks too.
 */
import type * as vscode from 'vscode';
import type { Config } from '../../config';
import { messageOf, runAction } from '../../errors';
import type { Logger } from '../../log';
import type { UserInterface } from '../../ui';
import { Actions, reasoningEffortMisfitOnSet } from '../../vocabulary';
import { type ModelLevels, effortMisfit } from './submission';

export interface EffortCheckDeps {
  config: Pick<Config, 'settings' | 'onDidChange'>;
  models: ModelLevels;
  ui: Pick<UserInterface, 'warn'>;
  log: Pick<Logger, 'info'>;
  /** Runs the button the user picked (VS Code's executeCommand). */
  run: (command: string, ...args: unknown[]) => Thenable<unknown>;
}

/** Follows the two settings; resolves each check's promise for tests through `checked`. */
export class EffortCheck implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** The latest check (tests await it). */
  checked: Promise<string | undefined> = Promise.resolve(undefined);

  constructor(private readonly deps: EffortCheckDeps) {
    this.subscription = deps.config.onDidChange(change => {
      if (change.affects('reasoningEffort', 'modelId')) this.checked = this.check();
    });
  }

  /** The warning shown, if any. */
  async check(): Promise<string | undefined> {
    const { settings } = this.deps.config;
    const effort = settings.reasoningEffort;
    if (!effort) return undefined;
    const catalog = await this.deps.models.list().catch(e => {
      this.deps.log.info(`model catalog not read (${messageOf(e)}): the reasoning effort is checked when a task is sent`);
      return undefined;
    });
    // The settings may have moved on while the catalog was read: judge the values of now.
    const now = this.deps.config.settings;
    if (now.reasoningEffort !== effort) return undefined;
    const misfit = effortMisfit(effort, now.modelId ?? catalog?.defaultModelId ?? undefined, catalog);
    if (!misfit) return undefined;
    const message = reasoningEffortMisfitOnSet(effort, misfit.model, misfit.levels);
    void Promise.resolve(this.deps.ui.warn(message, Actions.selectModel(), Actions.openSettings())).then(action => runAction(action, this.deps.run));
    return message;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
