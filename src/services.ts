import type * as vscode from 'vscode';
import type { ApiService } from './apiService';
import type { KeyStore } from './auth/keyStore';
import type { Logger } from './log';
import type { AttachmentBasket } from './tasks/attachments';
import type { TaskPoller } from './tasks/poller';
import type { TaskSubmitter } from './tasks/submitter';
import type { TaskStore } from './tasks/taskStore';
import type { SwappableUserInterface } from './ui';
import type { Sidebar } from './views/sidebar';
import type { TaskStatusBar } from './views/statusBar';

/** What commands and views need, built once in activate(). */
export interface Services {
  context: vscode.ExtensionContext;
  log: Logger & { show(): void };
  ui: SwappableUserInterface;
  keys: KeyStore;
  api: ApiService;
  store: TaskStore;
  poller: TaskPoller;
  submitter: TaskSubmitter;
  attachments: AttachmentBasket;
  statusBar: TaskStatusBar;
  /** Set by registerSidebar: the views' providers, for tests. */
  sidebar?: Sidebar;
}
