/**
 * The only place action commands are bound to their ids (views bind just their own refresh and load-more).
 * Each handler gets the part of the services it uses. The shell registers every id at activation (standIns.ts);
 * the first call builds the core, which wraps each handler in `guarded` (commands/run.ts: a failure becomes a
 * message the user can act on). This module is a part of its own, loaded on the first command (lazy.ts).
 */
import * as vscode from 'vscode';
import { type ActionCommandId, Commands, Views } from '../constants';
import type { ProposalDocuments } from '../documents/proposals';
import type { ReviewDocuments } from '../documents/reviews';
import type { SourceRangeTracker } from '../documents/sourceRanges';
import type { CodeEditors } from '../tasks/sending/codeEditors';
import type { TrackedTask } from '../tasks/model';
import type { ResultView } from '../tasks/resultView';
import { acceptProposal, applyToSource, discardProposal } from './apply';
import { attachFiles, attachToNextTask, clearAttachments, removeAttachment } from './attach';
import { FileActions } from './files';
import { keyNeeded } from '../vocabulary';
import { type KeyVerdict, askAndSaveApiKey, clearApiKey, clearGatewayKey, setApiKey, setGatewayKey } from './keys';
import { refreshModels, selectModel } from './models';
import { orchestrateFile, orchestrateSelection } from './orchestrate';
import { copyResult, insertResult, openOnSubmit, openRawResult, openResult, showPromptSent } from './results';
import { cancelCheck, checkProposal, showCheckOutput } from './check';
import { askTeamToFix } from './checkFix';
import { openScratchCopy } from './scratchCopy';
import { checkStartOf } from '../tasks/checking/policy';
import type { Services } from '../services';
import { openAllChanges, reviewChanges } from './review';
import { cancelTask, followAgain, clearFinished, removeTask, revealSource, runAgain, stopTracking } from './taskActions';
import { attachProducedFile, continueInThread, openProducedFile, openSource, saveProducedFileAs, showTrace } from './team';
import { type TranscriptView, hideThread, newThread, openTranscript, runInThread, showHiddenThreads } from './threads';

/** What the handlers get: the services (services.ts), and the views and documents a command opens or acts on. */
export interface CommandDeps extends Services {
  /** The usage panel (a view): opening it is all a command does. */
  usagePanel: { show(): Promise<unknown> };
  /** The rendered result view (a view), with its trace section. */
  resultView?: ResultView;
  /** The rendered transcript view (a view). */
  transcripts?: TranscriptView;
  tracker: SourceRangeTracker;
  proposals: ProposalDocuments;
  /** The last editor holding code: what a command sends when a webview or the panel has the focus. */
  editors: CodeEditors;
  reviews: ReviewDocuments;
  /** Replaces the service check of a new API key (tests). */
  checkKey?: (key: string) => Promise<KeyVerdict>;
}

/** What runs a command: it gets the command's arguments; the core wraps it in `guarded` (commands/run.ts). */
export type CommandHandler = (...args: never[]) => unknown;

/**
 * Every action command's handler, by id: built on the first call of any of them (this module is a part loaded on
 * first use, lazy.ts); the ids were registered at activation (standIns.ts).
 */
export function commandHandlers(d: CommandDeps): Record<ActionCommandId, CommandHandler> {
  const { ui, keys, store, poller, pipeline, recent, threads, models } = d;
  const basket = d.attachments;
  const { resultView, tracker, proposals } = d;
  // A command that needs a key and finds none asks in the same box as Set API Key, the key checked before it is saved.
  keys.askForKeyWith(() => askAndSaveApiKey({ ui, keys, api: d.api, check: d.checkKey }, keyNeeded('prompt')));
  const results = { ui, store, resultView, config: d.config };
  const apply = { ui, store, tracker, proposals, activeResult: () => resultView?.activeTaskId() };
  const orchestrate = { ui, keys, pipeline, recent, editors: d.editors, basket };
  // Sent from the editor: the result view opens beside the code at once (multiAgent.openResultOnSubmit).
  const submitted = <T extends TrackedTask | undefined>(task: T) => openOnSubmit(results, task);
  const review = { ui, store, tracker, reviews: d.reviews, log: d.log, activeResult: apply.activeResult };
  const fileActions = new FileActions({ ui, log: d.log, keys, files: d.files, fileDocuments: d.fileDocuments });
  const team = {
    ui,
    store,
    keys,
    api: d.api,
    threads,
    files: d.files,
    fileActions,
    basket,
    pipeline,
    recent,
    editors: d.editors,
    resultView,
    storageUri: d.context.globalStorageUri,
  };

  const check = { ui, store, config: d.config, keys, log: d.log, tracker, workspaceState: d.context.workspaceState, checks: d.checks, team: { api: d.api, store, pipeline }, activeResult: apply.activeResult, storage: d.context.globalStorageUri.fsPath };

  return {
    // Orchestrate
    [Commands.orchestrateSelection]: async () => submitted(await orchestrateSelection(orchestrate)),
    [Commands.orchestrateFile]: async (uri?: unknown) => submitted(await orchestrateFile(orchestrate, uri)),
    // Keys
    [Commands.setApiKey]: () => setApiKey({ ui, keys, api: d.api, check: d.checkKey }),
    [Commands.clearApiKey]: () => clearApiKey({ ui, keys }),
    [Commands.setGatewayKey]: () => setGatewayKey({ ui, keys }),
    [Commands.clearGatewayKey]: () => clearGatewayKey({ ui, keys }),
    // Results and tasks
    [Commands.openResult]: (arg?: unknown, options?: unknown) => openResult(results, arg, options),
    [Commands.copyResult]: (arg?: unknown) => copyResult(results, arg),
    [Commands.insertResult]: (arg?: unknown, block?: unknown) => insertResult({ ...results, ...apply }, arg, block),
    [Commands.openRawResult]: (arg?: unknown) => openRawResult(results, arg),
    [Commands.showPromptSent]: (arg?: unknown) => showPromptSent(results, arg),
    [Commands.applyToSource]: (arg?: unknown, block?: unknown) => applyToSource(apply, arg, block),
    [Commands.reviewChanges]: (arg?: unknown, block?: unknown) => reviewChanges(review, arg, block),
    [Commands.openAllChanges]: (arg?: unknown) => openAllChanges(review, arg),
    [Commands.checkProposal]: (arg?: unknown, start?: unknown) => checkProposal(check, arg, checkStartOf(start)),
    [Commands.cancelCheck]: (arg?: unknown) => cancelCheck(check, arg),
    [Commands.askTeamToFix]: async (arg?: unknown, how?: unknown) => (checkStartOf(how).shownBy ? askTeamToFix(check, arg) : submitted(await askTeamToFix(check, arg))),
    [Commands.showCheckOutput]: (arg?: unknown) => showCheckOutput(check, arg),
    [Commands.openScratchCopy]: (arg?: unknown) => openScratchCopy(check, arg),
    [Commands.acceptProposal]: (arg?: unknown) => acceptProposal(apply, arg),
    [Commands.discardProposal]: (arg?: unknown) => discardProposal(apply, arg),
    [Commands.cancelTask]: (arg?: unknown) => cancelTask({ ui, store, poller, canceller: d.canceller }, arg),
    [Commands.followAgain]: (arg?: unknown) => followAgain({ ui, store, poller }, arg),
    [Commands.stopTracking]: (arg?: unknown) => stopTracking({ ui, store, poller }, arg),
    [Commands.revealSource]: (arg: unknown) => revealSource({ store }, arg),
    [Commands.runAgain]: async (arg: unknown) => submitted(await runAgain({ ui, store, keys, pipeline }, arg)),
    [Commands.removeTask]: (arg: unknown) => removeTask({ store, poller }, arg),
    [Commands.clearFinished]: () => clearFinished({ store, ui }),
    [Commands.showLog]: () => d.log.show(),
    [Commands.showTasks]: async () => {
      try {
        await vscode.commands.executeCommand(`${Views.tasks}.focus`);
      } catch {
        d.log.show();
      }
    },
    // Threads
    [Commands.newThread]: () => newThread({ ui, keys, threads }),
    [Commands.hideThread]: (arg: unknown) => hideThread({ ui, keys, threads }, arg),
    [Commands.showHiddenThreads]: () => showHiddenThreads({ ui, keys, threads }),
    [Commands.runInThread]: async (arg: unknown) => submitted(await runInThread({ ui, keys, threads, pipeline, recent, editors: d.editors }, arg)),
    [Commands.openTranscript]: (arg: unknown) => openTranscript({ ui, keys, threads, transcripts: d.transcripts, config: d.config }, arg),
    // Files
    [Commands.uploadFile]: (uri: unknown, uris: unknown) => fileActions.upload(uri, uris),
    [Commands.openFile]: (arg: unknown) => fileActions.open(arg),
    [Commands.saveFileAs]: (arg: unknown) => fileActions.saveAs(arg),
    [Commands.deleteFile]: (arg: unknown) => fileActions.delete(arg),
    [Commands.copyFileId]: (arg: unknown) => fileActions.copyId(arg),
    // Attachments, models, usage
    [Commands.attachFiles]: () => attachFiles({ ui, basket }),
    [Commands.attachToNextTask]: (uri: unknown, uris: unknown) => attachToNextTask({ ui, basket }, uri, uris),
    [Commands.clearAttachments]: () => clearAttachments({ ui, basket }),
    [Commands.removeAttachment]: (arg?: unknown) => removeAttachment({ ui, basket }, arg),
    // What the team did
    [Commands.showTrace]: (arg?: unknown) => showTrace(team, arg),
    [Commands.continueInThread]: async (arg?: unknown, instruction?: unknown) => submitted(await continueInThread(team, arg, instruction)),
    [Commands.openProducedFile]: (arg?: unknown, index?: unknown) => openProducedFile(team, arg, index),
    [Commands.saveProducedFileAs]: (arg?: unknown, index?: unknown) => saveProducedFileAs(team, arg, index),
    [Commands.attachProducedFile]: (arg?: unknown, index?: unknown) => attachProducedFile(team, arg, index),
    [Commands.openSource]: (arg?: unknown, index?: unknown) => openSource(team, arg, index),
    [Commands.selectModel]: () => selectModel({ ui, models, config: d.config }),
    [Commands.refreshModels]: () => refreshModels({ ui, models }),
    [Commands.showUsage]: () => d.usagePanel.show(),
  };
}
