/** Threads: create one, run a task in one (tracked like any other task), open the transcript. */
import * as vscode from 'vscode';
import type { Thread } from '../api';
import type { KeyStore } from '../auth/keyStore';
import type { Config } from '../config';
import { extensionColumn } from '../documents/editorGroups';
import { transcriptUri } from '../documents/uris';
import { UserFacingError } from '../errors';
import { Actions, threadsNeedCurrentForm } from '../vocabulary';
import type { TrackedTask } from '../tasks/model';
import type { RecentInstructions } from '../tasks/store/recentInstructions';
import type { SubmissionPipeline, TaskRequest } from '../tasks/sending/submission';
import { type ThreadStore, threadTitle } from '../stores/threadStore';
import type { UserInterface } from '../ui';
import { askInstruction, chooseCode, selectedCode, sendOrOfferAttachment } from './ask';
import type { CodeEditors } from '../tasks/sending/codeEditors';
import { openingOf } from '../tasks/offers';

export interface ThreadDeps {
  ui: UserInterface;
  keys: KeyStore;
  threads: ThreadStore;
}

export async function newThread(d: ThreadDeps): Promise<Thread | undefined> {
  if (!(await d.keys.ensureApiKey())) return undefined;
  const title = await d.ui.input({
    title: vscode.l10n.t('New Thread'),
    prompt: vscode.l10n.t('A title for the thread (optional)'),
    placeHolder: vscode.l10n.t('e.g. Refactoring the parser'),
    ignoreFocusOut: true,
  });
  if (title === undefined) return undefined;
  return d.threads.create(title);
}

/**
 * How a run in a thread starts. A follow-up (Continue in Thread) goes with its instruction alone, or with the
 * selection of the focused editor when there is one (the question then names it): the thread has the code
 * already, so nothing is asked about it. `instruction`: typed already (the result view's box).
 */
export interface ThreadRunStart {
  followUp?: boolean;
  instruction?: string;
}

/** An instruction plus the selection (or the whole active file, or nothing) as a task in the thread. */
export async function runInThread(
  d: ThreadDeps & { pipeline: SubmissionPipeline; recent: RecentInstructions; editors: Pick<CodeEditors, 'current'> },
  arg: unknown,
  start: ThreadRunStart = {},
): Promise<TrackedTask | undefined> {
  const settings = d.pipeline.settings();
  if (!(await d.keys.ensureApiKey())) return undefined;
  const thread = await resolveThread(d, arg);
  if (!thread) return undefined;
  // Else the same rule as Orchestrate Selection: the code in view, asked when nothing is selected, never dropped silently.
  const choice = start.followUp ? selectedCode(vscode.window.activeTextEditor) : await chooseCode(d.ui, d.editors.current(), { instructionAlone: true });
  if (!choice) return undefined;
  const given = start.instruction?.trim();
  if (given) await d.recent.remember(given);
  const instruction = given || (await askInstruction(d.ui, d.recent, choice.code?.context));
  if (!instruction) return undefined;
  const request: TaskRequest = { instruction, threadId: String(thread.id), code: choice.code };
  return sendOrOfferAttachment(d.ui, d.pipeline, request, settings);
}

/**
 * Hides a thread from the Threads view and the pickers. A key cannot delete (or rename) a thread on the service,
 * so it is kept there, and the message says so; Undo and Show Hidden Threads bring it back.
 */
export async function hideThread(d: ThreadDeps, arg: unknown): Promise<void> {
  const thread = await resolveThread(d, arg);
  if (!thread) return;
  const id = String(thread.id);
  await d.threads.hide(id);
  const undo = vscode.l10n.t('Undo');
  const choice = await d.ui.info(
    vscode.l10n.t('"{0}" is hidden from this list. The service keeps the thread (a key cannot delete threads); Show Hidden Threads brings it back.', threadTitle(thread)),
    undo,
  );
  if (choice !== undo) return;
  // The toast outlives Show Hidden Threads: a thread listed again already is said so, not silently "undone" (issue 35).
  if (!(await d.threads.showHidden([id]))) d.ui.note(vscode.l10n.t('"{0}" is already listed again.', threadTitle(thread)));
}

/** Lists the hidden threads again. */
export async function showHiddenThreads(d: ThreadDeps): Promise<number> {
  const shown = await d.threads.showHidden();
  d.ui.note(shown === 1 ? vscode.l10n.t('1 hidden thread is listed again.') : vscode.l10n.t('{0} hidden threads are listed again.', shown));
  return shown;
}

/** The rendered transcript view (a view): commands only ask it to show a thread. */
export interface TranscriptView {
  show(thread: Thread): Promise<unknown>;
}

/**
 * The thread's transcript: rendered like a result (`multiAgent.resultView` "rendered"), else as read-only
 * markdown; returns the markdown editor when one was opened.
 */
export async function openTranscript(
  d: ThreadDeps & { transcripts?: TranscriptView; config?: Pick<Config, 'settings'> },
  arg: unknown,
): Promise<vscode.TextEditor | undefined> {
  const thread = await resolveThread(d, arg);
  if (!thread) return undefined;
  if (d.transcripts && d.config && openingOf(d.config.settings).rendered) {
    await d.transcripts.show(thread);
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(transcriptUri(thread, threadTitle(thread)));
  if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  return vscode.window.showTextDocument(document, { viewColumn: extensionColumn(), preview: false });
}

/** A thread node, a message node or id (then the thread is read), or a pick from the loaded threads. */
async function resolveThread(d: ThreadDeps, arg: unknown): Promise<Thread | undefined> {
  if (!d.threads.available) {
    throw new UserFacingError(threadsNeedCurrentForm(), [Actions.openSettings()]);
  }
  const node = arg as { thread?: Thread; threadId?: string } | undefined;
  if (node?.thread) return node.thread;
  const id = typeof arg === 'string' || typeof arg === 'number' ? String(arg) : node?.threadId;
  if (id) return d.threads.get(id);
  const threads = await d.threads.threads();
  if (!threads.length) throw new UserFacingError(vscode.l10n.t('There are no threads yet: create one with "New Thread".'));
  const picked = await d.ui.pick(
    threads.map(thread => ({ label: threadTitle(thread), description: `#${thread.id}`, thread })),
    { placeHolder: vscode.l10n.t('Which thread?') },
  );
  return picked?.thread;
}
