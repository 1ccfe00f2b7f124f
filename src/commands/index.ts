/**
 * The only place action commands are bound to their ids (views bind just their own refresh and load-more).
 * Each handler gets the part of the services it uses; every one runs through `registerCommand`, which
 * turns a failure into a message the user can act on.
 */
import * as vscode from 'vscode';
import type { KeyStore } from '../auth/keyStore';
import { Commands, Views } from '../constants';
import type { FileDocumentProvider } from '../documents/files';
import type { Logger } from '../log';
import type { FileStore } from '../stores/fileStore';
import type { ModelCatalog } from '../stores/modelCatalog';
import type { ThreadStore } from '../stores/threadStore';
import type { AttachmentBasket } from '../tasks/attachments';
import type { TaskCanceller } from '../tasks/canceller';
import type { TaskPoller } from '../tasks/poller';
import type { RecentInstructions } from '../tasks/recentInstructions';
import type { SubmissionPipeline } from '../tasks/submission';
import type { TaskStore } from '../tasks/taskStore';
import type { UserInterface } from '../ui';
import { attachFiles, attachToNextTask, clearAttachments } from './attach';
import { FileActions } from './files';
import { clearApiKey, clearGatewayKey, setApiKey, setGatewayKey } from './keys';
import { refreshModels, selectModel } from './models';
import { orchestrateFile, orchestrateSelection } from './orchestrate';
import { copyResult, insertResult, openResult } from './results';
import { registerCommand } from './run';
import { cancelTask, clearFinished, removeTask, revealSource, runAgain, stopTracking } from './taskActions';
import { newThread, openTranscript, runInThread } from './threads';

export interface CommandDeps {
  ui: UserInterface;
  log: Logger & { show(): void };
  keys: KeyStore;
  store: TaskStore;
  poller: TaskPoller;
  pipeline: SubmissionPipeline;
  canceller: TaskCanceller;
  basket: AttachmentBasket;
  recent: RecentInstructions;
  threads: ThreadStore;
  files: FileStore;
  fileDocuments: FileDocumentProvider;
  models: ModelCatalog;
  /** The usage panel (a view): opening it is all a command does. */
  usage: { show(): Promise<unknown> };
}

export function registerCommands(d: CommandDeps): vscode.Disposable {
  const host = { ui: d.ui, log: d.log };
  const bind = (id: string, handler: (...args: never[]) => unknown) => registerCommand(host, id, handler);
  const { ui, keys, store, poller, pipeline, recent, threads, basket, models } = d;
  const fileActions = new FileActions({ ui, log: d.log, keys, files: d.files, fileDocuments: d.fileDocuments });

  return vscode.Disposable.from(
    // Orchestrate
    bind(Commands.orchestrateSelection, () => orchestrateSelection({ ui, keys, pipeline, recent })),
    bind(Commands.orchestrateFile, (uri?: unknown) => orchestrateFile({ ui, keys, pipeline, recent }, uri)),
    // Keys
    bind(Commands.setApiKey, () => setApiKey({ ui, keys })),
    bind(Commands.clearApiKey, () => clearApiKey({ ui, keys })),
    bind(Commands.setGatewayKey, () => setGatewayKey({ ui, keys })),
    bind(Commands.clearGatewayKey, () => clearGatewayKey({ ui, keys })),
    // Results and tasks
    bind(Commands.openResult, (arg?: unknown) => openResult({ ui, store }, arg)),
    bind(Commands.copyResult, (arg?: unknown) => copyResult({ ui, store }, arg)),
    bind(Commands.insertResult, (arg?: unknown) => insertResult({ ui, store }, arg)),
    bind(Commands.cancelTask, (arg?: unknown) => cancelTask({ ui, store, poller, canceller: d.canceller }, arg)),
    bind(Commands.stopTracking, (arg?: unknown) => stopTracking({ ui, store, poller }, arg)),
    bind(Commands.revealSource, (arg: unknown) => revealSource({ store }, arg)),
    bind(Commands.runAgain, (arg: unknown) => runAgain({ ui, store, keys, pipeline }, arg)),
    bind(Commands.removeTask, (arg: unknown) => removeTask({ store, poller }, arg)),
    bind(Commands.clearFinished, () => clearFinished({ store })),
    bind(Commands.showLog, () => d.log.show()),
    bind(Commands.showTasks, async () => {
      try {
        await vscode.commands.executeCommand(`${Views.tasks}.focus`);
      } catch {
        d.log.show();
      }
    }),
    // Threads
    bind(Commands.newThread, () => newThread({ ui, keys, threads })),
    bind(Commands.runInThread, (arg: unknown) => runInThread({ ui, keys, threads, pipeline, recent }, arg)),
    bind(Commands.openTranscript, (arg: unknown) => openTranscript({ ui, keys, threads }, arg)),
    // Files
    bind(Commands.uploadFile, (uri: unknown, uris: unknown) => fileActions.upload(uri, uris)),
    bind(Commands.openFile, (arg: unknown) => fileActions.open(arg)),
    bind(Commands.saveFileAs, (arg: unknown) => fileActions.saveAs(arg)),
    bind(Commands.deleteFile, (arg: unknown) => fileActions.delete(arg)),
    bind(Commands.copyFileId, (arg: unknown) => fileActions.copyId(arg)),
    // Attachments, models, usage
    bind(Commands.attachFiles, () => attachFiles({ ui, basket })),
    bind(Commands.attachToNextTask, (uri: unknown, uris: unknown) => attachToNextTask({ ui, basket }, uri, uris)),
    bind(Commands.clearAttachments, () => clearAttachments({ ui, basket })),
    bind(Commands.selectModel, () => selectModel({ ui, models })),
    bind(Commands.refreshModels, () => refreshModels({ ui, models })),
    bind(Commands.showUsage, () => d.usage.show()),
  );
}
