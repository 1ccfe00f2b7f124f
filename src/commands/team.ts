/**
 * What the team did (issue 18): the trace of a task, the files its agents made (Open, Save As, Attach to
 * Next Task, through the files path and its bounds), the pages they read (opened in the browser only after
 * a click, only over https), and Continue in Thread on a completed task.
 */
import * as vscode from 'vscode';
import type { ApiFile } from '../api';
import { safeName, shownFileName } from '../api/filenames';
import { PLATFORM_BODY_LIMIT_BYTES } from '../api/uploads';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { downloadWithProgress, readCapped } from '../documents/files';
import { UserFacingError } from '../errors';
import type { FileStore } from '../stores/fileStore';
import type { ThreadStore } from '../stores/threadStore';
import type { AttachmentBasket } from '../tasks/sending/attachments';
import type { CodeEditors } from '../tasks/sending/codeEditors';
import type { ProducedFile, TrackedTask } from '../tasks/model';
import type { RecentInstructions } from '../tasks/store/recentInstructions';
import type { ResultView } from '../tasks/resultView';
import type { SubmissionPipeline } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import { threadOfTask } from '../tasks/tracking/threadAnswer';
import type { UserInterface } from '../ui';
import { fileTooLarge, noThreadOfTask } from '../vocabulary';
import type { FileActions } from './files';
import { resolveTask } from './resolve';
import { runInThread } from './threads';

export interface TeamDeps {
  ui: UserInterface;
  store: TaskStore;
  keys: KeyStore;
  api: ApiService;
  threads: ThreadStore;
  files: FileStore;
  fileActions: FileActions;
  basket: AttachmentBasket;
  pipeline: SubmissionPipeline;
  recent: RecentInstructions;
  editors: Pick<CodeEditors, 'current'>;
  resultView?: Pick<ResultView, 'showTrace'>;
  /** Where produced files are kept while they wait to be attached (globalStorage). */
  storageUri: vscode.Uri;
}

/** Opens the task's result view with "How the team worked" open and loaded. */
export async function showTrace(d: TeamDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg, 'trace', vscode.l10n.t('The trace of which task?'));
  if (!task) return;
  if (!d.resultView) throw new UserFacingError(vscode.l10n.t('The result view is not available.'));
  await d.resultView.showTrace(task);
}

/**
 * Runs a follow-up in the thread the service saved the completed task to: `instruction` as typed in the result
 * view's box, else asked. The thread's id comes from the task, else from /status, else from the newest threads
 * that start with the task's prompt.
 */
export async function continueInThread(d: TeamDeps, arg?: unknown, instruction?: unknown): Promise<TrackedTask | undefined> {
  const task = await resolveTask(d, arg, 'continue', vscode.l10n.t('Continue which task?'));
  if (!task) return undefined;
  if (task.status !== 'completed') throw new UserFacingError(vscode.l10n.t('Only a completed task is saved to a thread; "{0}" is {1}.', task.title, task.status.replace(/_/g, ' ')));
  if (!(await d.keys.ensureApiKey())) return undefined;
  const threadId = await threadIdOf(d, task);
  return runInThread({ ui: d.ui, keys: d.keys, threads: d.threads, pipeline: d.pipeline, recent: d.recent, editors: d.editors }, threadId, {
    followUp: true,
    instruction: typeof instruction === 'string' ? instruction : undefined,
  });
}

/** The thread the service saved a completed task to: from the task, else /status, else the newest threads (Ask the Team to Fix too). */
export async function threadIdOf(d: Pick<TeamDeps, 'api' | 'store'>, task: TrackedTask): Promise<string> {
  if (task.conversationId) return task.conversationId;
  const client = d.api.client();
  try {
    await d.store.enrich(task.id, await client.getTaskStatus(task.id));
  } catch {
    // Expired (after its hour) or unreachable: look among the threads.
  }
  const known = d.store.get(task.id)?.conversationId;
  if (known) return known;
  const found = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking for the task’s thread…') }, () =>
    threadOfTask(client, d.store.get(task.id) ?? task),
  );
  if (found) {
    await d.store.enrich(task.id, { status: task.status, conversationId: found });
    return found;
  }
  const young = Date.now() - (task.finishedAt ?? 0) < 60_000;
  throw new UserFacingError(noThreadOfTask(young ? 'notYet' : 'notFound'));
}

/** A produced file: from a Tasks view node, or a task id and the file's index (the result view, chat). */
async function producedFile(d: TeamDeps, arg: unknown, index: unknown): Promise<{ task: TrackedTask; file: ProducedFile }> {
  const node = arg as { kind?: unknown; task?: TrackedTask; index?: unknown } | undefined;
  const i = node?.kind === 'producedFile' ? node.index : index;
  const task = await resolveTask(d, arg, t => !!t.files?.length, vscode.l10n.t('A file of which task?'));
  if (!task) throw new vscode.CancellationError();
  const files = d.store.get(task.id)?.files ?? [];
  let file = typeof i === 'number' && Number.isInteger(i) ? files[i] : undefined;
  if (!file && typeof i !== 'number') {
    if (!files.length) throw new UserFacingError(vscode.l10n.t('The agents made no files in "{0}".', task.title));
    file = files.length === 1 ? files[0] : (await d.ui.pick(files.map(f => ({ label: shownFileName(f.filename), description: f.mimeType, f })), { placeHolder: vscode.l10n.t('Which file?') }))?.f;
    if (!file) throw new vscode.CancellationError();
  }
  if (!file) throw new UserFacingError(vscode.l10n.t('That file is no longer listed with the task.'));
  return { task, file };
}

/** The produced file as a service file; one that was never stored cannot be downloaded. */
function apiFileOf(file: ProducedFile): ApiFile {
  if (!file.fileId) {
    throw new UserFacingError(vscode.l10n.t('The service did not store {0} (its storage was full when the agents made it), so it cannot be downloaded.', shownFileName(file.filename)));
  }
  return { id: file.fileId, filename: file.filename, bytes: file.bytes, mime_type: file.mimeType ?? null };
}

export async function openProducedFile(d: TeamDeps, arg?: unknown, index?: unknown): Promise<unknown> {
  const { file } = await producedFile(d, arg, index);
  return d.fileActions.open({ file: apiFileOf(file) });
}

export async function saveProducedFileAs(d: TeamDeps, arg?: unknown, index?: unknown): Promise<vscode.Uri | undefined> {
  const { file } = await producedFile(d, arg, index);
  return d.fileActions.saveAs({ file: apiFileOf(file) });
}

/**
 * Downloads the file (at most what one attachment may be) into the extension's storage and puts it in the
 * attachment basket, which checks it as it checks any attachment.
 */
export async function attachProducedFile(d: TeamDeps, arg?: unknown, index?: unknown): Promise<number> {
  const { task, file } = await producedFile(d, arg, index);
  const apiFile = apiFileOf(file);
  if (file.bytes !== undefined && file.bytes > PLATFORM_BODY_LIMIT_BYTES) throw new UserFacingError(fileTooLarge(file.filename, file.bytes, 'attach'));
  const folder = vscode.Uri.joinPath(d.storageUri, 'produced', /^[A-Za-z0-9_-]{1,200}$/.test(task.id) ? task.id : 'other', /^[A-Za-z0-9_-]{1,200}$/.test(apiFile.id) ? apiFile.id : 'file');
  const target = vscode.Uri.joinPath(folder, safeName(file.filename) ?? 'file');
  const bytes = await downloadWithProgress(d.files, apiFile, PLATFORM_BODY_LIMIT_BYTES, async download => {
    const read = await readCapped(download.stream, PLATFORM_BODY_LIMIT_BYTES);
    if (!read) throw new UserFacingError(fileTooLarge(file.filename, PLATFORM_BODY_LIMIT_BYTES + 1, 'attach'));
    return read;
  });
  await vscode.workspace.fs.createDirectory(folder);
  await vscode.workspace.fs.writeFile(target, bytes);
  const added = await d.basket.add([target]);
  if (added) void d.ui.info(vscode.l10n.t('{0} will go with the next task.', shownFileName(file.filename)));
  return added;
}

/** Opens a source in the browser: only after this explicit click, only an https address. */
export async function openSource(d: Pick<TeamDeps, 'ui' | 'store'>, arg?: unknown, index?: unknown): Promise<boolean> {
  const task = await resolveTask(d, arg, t => !!t.sources?.length, vscode.l10n.t('A source of which task?'));
  if (!task) return false;
  const source = typeof index === 'number' && Number.isInteger(index) ? d.store.get(task.id)?.sources?.[index] : undefined;
  if (!source) throw new UserFacingError(vscode.l10n.t('That source is no longer listed with the task.'));
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new UserFacingError(vscode.l10n.t('The address of this source is not valid, so it was not opened.'));
  }
  if (url.protocol !== 'https:' || url.username || url.password) {
    throw new UserFacingError(vscode.l10n.t('Only https addresses are opened; this source is {0}.', url.protocol.replace(/:$/, '')));
  }
  return vscode.env.openExternal(vscode.Uri.parse(url.toString(), true));
}
