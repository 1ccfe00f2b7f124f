import type * as vscode from 'vscode';
import type { ApiService } from './apiService';
import type { KeyStore } from './auth/keyStore';
import type { Config } from './config';
import type { FileDocumentProvider } from './documents/files';
import type { Log } from './log';
import type { FileStore } from './stores/fileStore';
import type { ModelCatalog } from './stores/modelCatalog';
import type { ThreadStore } from './stores/threadStore';
import type { UsageStore } from './stores/usageStore';
import type { CheckStore } from './tasks/checking/store';
import type { AttachmentBasket } from './tasks/sending/attachments';
import type { TaskCanceller } from './tasks/tracking/canceller';
import type { TaskPoller } from './tasks/tracking/poller';
import type { PollerStatus } from './tasks/tracking/pollerStatus';
import type { RecentInstructions } from './tasks/store/recentInstructions';
import type { SubmissionPipeline } from './tasks/sending/submission';
import type { TaskStore } from './tasks/store/taskStore';
import type { SwappableUserInterface } from './ui';

/**
 * The models and services below the views, built once with the core on first use (core.ts). Knows no view. Its
 * own floor, under the views and commands: the command handlers take it as it is (`CommandDeps extends Services`).
 */
export interface Services {
  context: vscode.ExtensionContext;
  log: Log;
  ui: SwappableUserInterface;
  /** The settings, live. */
  config: Config;
  keys: KeyStore;
  api: ApiService;
  store: TaskStore;
  poller: TaskPoller;
  pollerStatus: PollerStatus;
  pipeline: SubmissionPipeline;
  canceller: TaskCanceller;
  /** Workspace files waiting to go with the next task. */
  attachments: AttachmentBasket;
  recent: RecentInstructions;
  threads: ThreadStore;
  files: FileStore;
  fileDocuments: FileDocumentProvider;
  models: ModelCatalog;
  usage: UsageStore;
  /** The checks of proposals running now (issue 42): the views follow it. */
  checks: CheckStore;
}
