/** Open, copy or insert a task's result; each takes a task id, a tree node, the active result tab or a pick. */
import * as vscode from 'vscode';
import type { Config } from '../config';
import { DocumentSchemes } from '../constants';
import { showPrompt } from '../documents/prompts';
import { showResult } from '../documents/results';
import { UserFacingError } from '../errors';
import type { TrackedTask } from '../tasks/model';
import { readTaskAnswer, repeatsOnInsert } from '../documents/answers';
import type { AnswerBlock } from '../review';
import { isInsertable, openingOf } from '../tasks/offers';
import { blockInsertion, blockPreview } from '../tasks/resultText';
import type { ResultView } from '../tasks/resultView';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { type ApplyDeps, type ApplyOutcome, applyToSource, describeBlock } from './apply';
import { resolveTask } from './resolve';


export interface ResultDeps {
  ui: UserInterface;
  store: TaskStore;
  /** Commands only ask it to show a task. */
  resultView?: Pick<ResultView, 'show' | 'activeTaskId'>;
  config: Pick<Config, 'settings'>;
}

async function readResult(d: ResultDeps, taskId: string): Promise<string> {
  const text = await d.store.readResult(taskId);
  if (text === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
  return text;
}

/**
 * A task just sent from the editor: its result view opens beside the code at once, showing each agent and
 * the time (`multiAgent.openResultOnSubmit`), without taking the focus from the editor. Returns the task.
 */
export async function openOnSubmit<T extends TrackedTask | undefined>(d: Pick<ResultDeps, 'resultView' | 'config'>, task: T): Promise<T> {
  if (task && d.resultView && d.config.settings.openResultOnSubmit && openingOf(d.config.settings).rendered) await d.resultView.show(task, { preserveFocus: true });
  return task;
}

/**
 * Opens the result view (or the raw markdown when `multiAgent.resultView` is "markdown", tasks/offers.ts
 * `openingOf`). A running task's view shows its agents and elapsed time; returns the markdown editor when one
 * was opened. `options.preserveFocus`: the completion notification opens it without taking the focus;
 * `options.from: 'chat'`: a chat answer's button, whose view takes no column of its own beside the chat.
 */
export async function openResult(d: ResultDeps, arg?: unknown, options?: unknown): Promise<vscode.TextEditor | undefined> {
  const opening = openingOf(d.config.settings, !!d.resultView);
  const task = await resolveTask(d, arg ?? d.resultView?.activeTaskId(), 'open', vscode.l10n.t('Which result?'), { context: opening });
  if (!task) return undefined;
  const given = options as { preserveFocus?: unknown; from?: unknown } | undefined;
  const preserveFocus = given?.preserveFocus === true;
  if (opening.rendered && d.resultView) {
    await d.resultView.show(task, { preserveFocus, fromChat: given?.from === 'chat' });
    return undefined;
  }
  if (task.status !== 'completed') {
    throw new UserFacingError(task.error ? `"${task.title}": ${task.error}` : vscode.l10n.t('"{0}" is still running.', task.title));
  }
  // A task removed while its result opens (Remove, Clear Finished) pops up no tab.
  return showResult(task, { preserveFocus, stillWanted: () => d.store.get(task.id) !== undefined });
}

/** The answer as raw markdown, read-only: one click from the result view. */
export async function openRawResult(d: ResultDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const task = await resolveTask(d, arg ?? d.resultView?.activeTaskId(), 'raw', vscode.l10n.t('Which result?'));
  if (!task) return undefined;
  return showResult(task);
}

/** The prompt exactly as it went to the service, with the attachments' names. */
export async function showPromptSent(d: ResultDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const task = await resolveTask(d, arg ?? d.resultView?.activeTaskId(), 'prompt', vscode.l10n.t('The prompt of which task?'));
  if (!task) return undefined;
  return showPrompt(task);
}

export async function copyResult(d: ResultDeps, arg?: unknown): Promise<void> {
  const task = await resolveTask(d, arg ?? d.resultView?.activeTaskId(), 'copy', vscode.l10n.t('Copy which result?'));
  if (!task) return;
  await vscode.env.clipboard.writeText(await readResult(d, task.id));
  d.ui.note(vscode.l10n.t('Result copied.'));
}

/**
 * Inserts one code block of the answer at the cursor: the only one, or the one the user picks (with a
 * preview of each). Never prose, program output or a raw diff: an answer without a code block to insert
 * says so. A selection is never replaced silently: the user chooses between inserting at the cursor and
 * reviewing a replacement diff.
 */
/** Insert at Cursor; with `blockIndex` (Apply… that found no place for that block offers it), that block, not asked again. */
export async function insertResult(d: ResultDeps & Partial<ApplyDeps>, arg?: unknown, blockIndex?: unknown): Promise<ApplyOutcome | 'inserted'> {
  const task = await resolveTask(d, arg ?? d.resultView?.activeTaskId(), 'insert', vscode.l10n.t('Insert which result?'));
  if (!task) return undefined;
  const editor =
    vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === task.source?.uri) ?? vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme === DocumentSchemes.result || editor.document.uri.scheme === 'output') {
    throw new UserFacingError(vscode.l10n.t('Open the file to insert into and place the cursor first.'));
  }
  const blocks = readTaskAnswer(task, await readResult(d, task.id)).blocks;
  const given = typeof blockIndex === 'number' ? blocks.find(b => b.index === blockIndex && isInsertable(b)) : undefined;
  const block = given ?? (await chooseInsertable(d, blocks));
  if (!block) return undefined;
  const selection = editor.selection;
  if (!selection.isEmpty) {
    const insertHere = { label: vscode.l10n.t('$(insert) Insert at the Cursor'), detail: vscode.l10n.t('Keeps the selected code; inserts at the cursor.'), id: 'insert' };
    const review = {
      label: vscode.l10n.t('$(diff) Replace the Selection…'),
      detail: vscode.l10n.t('Shows a diff of the selection against the answer; nothing changes until you accept.'),
      id: 'replace',
    };
    const choice = await d.ui.pick([insertHere, review], {
      title: vscode.l10n.t('Insert Result'),
      placeHolder: vscode.l10n.t('Code is selected in {0}. Insert at the cursor or replace the selection?', vscode.workspace.asRelativePath(editor.document.uri)),
    });
    if (!choice) return undefined;
    if (choice.id === 'replace') {
      if (!d.tracker || !d.proposals) throw new UserFacingError(vscode.l10n.t('Use Apply to Source to replace code.'));
      return applyToSource({ ...d, tracker: d.tracker, proposals: d.proposals }, task.id, block.index, {
        document: editor.document,
        range: selection,
        changed: false,
      });
    }
  }
  // Several lines go on lines of their own, indented like the cursor's line (never glued to its code).
  const at = selection.active;
  const line = editor.document.lineAt(at.line);
  const eol = editor.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const place = blockInsertion(line.text, at.character, block.code, eol);
  const range = new vscode.Range(at.line, place.start, at.line, place.end);
  const start = editor.document.offsetAt(range.start);
  // The guard on what would be written holds here too (issue 43): a second definition of one the file has is asked.
  const repeats = repeatsOnInsert(editor.document.getText(), at.line + 1, place.text);
  if (repeats) {
    const file = vscode.workspace.asRelativePath(editor.document.uri);
    const message =
      repeats.code === 'definitionTwice'
        ? vscode.l10n.t('{0} already defines "{1}": this block defines it again.', file, repeats.detail)
        : vscode.l10n.t('{0} already has these lines: this block repeats them.', file);
    if (!(await d.ui.confirm(message, vscode.l10n.t('Insert it anyway, or use Apply… to replace the one there.'), vscode.l10n.t('Insert Anyway')))) return undefined;
  }
  // Run from the result view, the focus stayed there and the code went in out of sight, so Ctrl+Z did nothing
  // (issue 35): the editor is shown and focused first (so the focus does not move after the code is seen to go
  // in, closing whatever the user opened meanwhile), then the cursor goes after what went in, the lines in view.
  const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  if (!(await shown.edit(edit => edit.replace(range, place.text)))) throw new UserFacingError(vscode.l10n.t('The result could not be inserted (is the file read-only?).'));
  const document = shown.document;
  const inserted = new vscode.Range(document.positionAt(start), document.positionAt(start + place.text.length));
  shown.selection = new vscode.Selection(inserted.end, inserted.end);
  shown.revealRange(inserted, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return 'inserted';
}

/** The code block to insert: the only one, or the one the user picks; none (said why) when there is none. */
async function chooseInsertable(d: Pick<ResultDeps, 'ui'>, blocks: readonly AnswerBlock[]): Promise<AnswerBlock | undefined> {
  const code = blocks.filter(isInsertable);
  if (!code.length) {
    throw new UserFacingError(
      blocks.some(b => b.kind === 'diff' || b.kind === 'patch')
        ? vscode.l10n.t('The answer has no code block to insert: its changes are diffs. Review Changes… or Apply… lands them.')
        : vscode.l10n.t('The answer has no code block to insert. Copy the parts you want instead.'),
    );
  }
  if (code.length === 1) return code[0];
  const picked = await d.ui.pick(
    code.map(b => ({
      label: vscode.l10n.t('Block {0}', b.index + 1) + (b.info ? ` · ${b.info.slice(0, 40)}` : ''),
      description: describeBlock(b),
      detail: blockPreview(b),
      block: b,
    })),
    { title: vscode.l10n.t('Insert Result'), placeHolder: vscode.l10n.t('Which code block of the answer goes in at the cursor?'), matchOnDetail: true },
  );
  return picked?.block;
}
