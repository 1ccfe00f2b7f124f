/** Actions on tracked tasks from the Tasks view: reveal the source, run again, remove, clear finished. */
import * as vscode from 'vscode';
import { LIMITS, promptLength } from '../api/requests';
import type { Services } from '../services';
import { codeFrom } from './orchestrate';
import { type SourceRef, type TrackedTask, isFinished } from '../tasks/model';
import { buildPrompt } from '../tasks/prompt';
import { UserFacingError } from '../tasks/submitter';

/** A tree node (`{task}`), a task id, or nothing. */
function taskOf(s: Services, arg: unknown): TrackedTask {
  const id = typeof arg === 'string' ? arg : (arg as { task?: { id?: unknown } } | undefined)?.task?.id;
  const task = typeof id === 'string' ? s.store.get(id) : undefined;
  if (!task) throw new UserFacingError(vscode.l10n.t('Choose a task in the Tasks view.'));
  return task;
}

function rangeOf(source: SourceRef): vscode.Range | undefined {
  const r = source.range;
  return r && new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter);
}

async function openSource(source: SourceRef): Promise<vscode.TextDocument> {
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.parse(source.uri));
  } catch {
    throw new UserFacingError(vscode.l10n.t('{0} can no longer be opened: it was moved or deleted.', source.label));
  }
}

export async function revealSource(s: Services, arg: unknown): Promise<vscode.TextEditor> {
  const task = taskOf(s, arg);
  if (!task.source) throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file.', task.title));
  const document = await openSource(task.source);
  const range = rangeOf(task.source);
  const selection = range && document.validateRange(range);
  const editor = await vscode.window.showTextDocument(document, { selection, preview: false });
  if (selection) editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

/** The same instruction over the source as it is now (the same lines, re-read), as a new task. */
export async function runAgain(s: Services, arg: unknown): Promise<TrackedTask | undefined> {
  const task = taskOf(s, arg);
  if (!task.source) throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file, so it cannot be run again.', task.title));
  s.submitter.checkedSettings();
  if (!(await s.keys.ensureApiKey())) return undefined;
  const document = await openSource(task.source);
  const range = rangeOf(task.source);
  const valid = range && document.validateRange(range);
  const code = codeFrom(document, valid, task.source.label);
  if (!code.context.code.trim()) throw new UserFacingError(vscode.l10n.t('{0} has nothing there any more to send.', task.source.label));
  const prompt = buildPrompt(task.instruction, code.context);
  if (promptLength(prompt) > LIMITS.promptMaxChars) {
    throw new UserFacingError(
      vscode.l10n.t(
        'The code has grown: the prompt would be over {0} characters. Select less and orchestrate it instead.',
        LIMITS.promptMaxChars.toLocaleString('en-US'),
      ),
    );
  }
  const source: SourceRef = { ...task.source, languageId: document.languageId, range: code.source.range };
  const next = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Sending to the agents…') }, () =>
    s.submitter.submit({ instruction: task.instruction, prompt, source, threadId: task.threadId }),
  );
  s.log.info(`task ${next.id} sent again from ${task.id}`);
  return next;
}

export async function removeTask(s: Services, arg: unknown): Promise<void> {
  const task = taskOf(s, arg);
  s.poller.forget(task.id);
  await s.store.remove(task.id);
}

/** Removes every finished task and its cached result; running ones stay. Returns how many went. */
export async function clearFinished(s: Services): Promise<number> {
  const finished = s.store.all().filter(isFinished);
  for (const task of finished) await s.store.remove(task.id);
  return finished.length;
}
