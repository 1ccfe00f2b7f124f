/** What the check commands use (issue 37, issue 42): the stores, the settings, the key, the checks running now. */
import type * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import type { Config } from '../config';
import type { SourceRangeTracker } from '../documents/sourceRanges';
import type { Logger } from '../log';
import type { CheckStore } from '../tasks/checking/store';
import type { SubmissionPipeline } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import type { TeamDeps } from './team';

export interface CheckDeps {
  ui: UserInterface;
  store: TaskStore;
  config: Config;
  keys: KeyStore;
  log: Logger;
  tracker: Pick<SourceRangeTracker, 'now'>;
  /** Where a confirmed command is remembered, per workspace. */
  workspaceState: vscode.Memento;
  /** What Ask the Team to Fix needs to find the task's thread and send in it. */
  team: Pick<TeamDeps, 'api' | 'store'> & { pipeline: SubmissionPipeline };
  /** The checks running now, which every view follows. */
  checks: CheckStore;
  /** The task of the focused result view, if one is focused. */
  activeResult?: () => string | undefined;
  /** The extension's global storage folder: the editor's storage around it is hidden from a check. */
  storage: string;
}
