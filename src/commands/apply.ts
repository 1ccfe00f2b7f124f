/**
 * "Apply to Source…": a code block of the answer replaces the code the task was sent with, after the user
 * reviewed it in a diff and accepted. Nothing is written before Accept; Accept writes exactly the shown
 * change as one undoable edit, and only if the file did not change under the diff meanwhile.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UserFacingError } from '../errors';
import type { Proposal, ProposalDocuments } from '../documents/proposals';
import { codeColumn, extensionColumn, openDiff } from '../documents/editorGroups';
import { rangeRecordOf } from '../tasks/sending/code';
import type { SourceRangeTracker } from '../documents/sourceRanges';
import { DocumentSchemes } from '../constants';
import { type TrackedTask, displayLines } from '../tasks/model';
import { placeUnnamedBlock, readTaskAnswer } from '../documents/answers';
import type { AnswerBlock, ReadAnswer } from '../review';
import { type ApplyWay, applyWayOf, offer } from '../tasks/offers';
import { blockPreview, lineCount } from '../tasks/resultText';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { resolveTask } from './resolve';
import { offerUndo } from './undo';

export interface ApplyDeps {
  ui: UserInterface;
  store: TaskStore;
  tracker: Pick<SourceRangeTracker, 'now'>;
  proposals: ProposalDocuments;
  /** The task of the focused result view, if one is focused. */
  activeResult?: () => string | undefined;
}

/** `nothing`: Apply… on a diff or a named block went to the review, which found nothing it could offer. */
export type ApplyOutcome = 'applied' | 'discarded' | 'pending' | 'nothing' | undefined;

/** Where a proposal goes: given (Insert at Cursor's "replace the selection"), or the task's tracked source. */
export interface ApplyTarget {
  document: vscode.TextDocument;
  range: vscode.Range;
  changed: boolean;
}

/**
 * `(taskIdOrNode?, blockIndex?)`: the chat participant runs it with `[taskId]`. The block's kind decides
 * (tasks/offers.ts): a diff, a patch or a block named for a file goes to Review Changes limited to that
 * block; the block for the sent range (or a snippet) is proposed for that range as a diff to accept; prose
 * and output are never applied. `target` (Insert at Cursor's "replace the selection") takes the block as code.
 */
export async function applyToSource(d: ApplyDeps, arg?: unknown, blockIndex?: unknown, target?: ApplyTarget): Promise<ApplyOutcome> {
  const task = await resolveTask(
    d,
    arg ?? d.activeResult?.(),
    'apply',
    vscode.l10n.t('Apply which result to its source?'),
  );
  if (!task) return undefined;
  if (task.status !== 'completed') throw new UserFacingError(vscode.l10n.t('"{0}" has no result yet.', task.title));
  const text = await d.store.readResult(task.id);
  if (text === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
  const answer = readTaskAnswer(task, text);
  const block = await chooseBlock(d.ui, answer, blockIndex, b => (target ? 'range' : applyWayOf(b, task)));
  if (block === undefined) return undefined;

  if (!target) {
    const way = applyWayOf(block, task);
    if (way === 'review') return vscode.commands.executeCommand<ApplyOutcome>(offer('review').command, task.id, block.index);
    if (way === undefined) {
      throw new UserFacingError(
        block.kind === 'output'
          ? vscode.l10n.t('Code block {0} of the answer is output or prose, not code to apply: copy it instead.', block.index + 1)
          : vscode.l10n.t('"{0}" was not sent from a file: copy the code or use Insert at Cursor instead.', task.title),
      );
    }
  }
  if (target) return propose(d, task, target, block.code);
  const where = await sourceOf(d, task);
  // The block replaces the sent range only when it shows it is that code's new text; a block that redefines
  // something the file has once elsewhere goes there; anything else has no proven place (issue 34).
  const { document } = where;
  const place = placeUnnamedBlock(block.code, document, where.range);
  if (place.kind === 'definition') {
    const end = place.endLine < document.lineCount ? new vscode.Position(place.endLine, 0) : document.lineAt(document.lineCount - 1).range.end;
    return propose(d, task, { document, range: new vscode.Range(place.startLine, 0, end.line, end.character), changed: where.changed }, block.code);
  }
  if (place.kind === 'none') return offerInsertOrCopy(d, task, block, where);
  return propose(d, task, where, block.code);
}

/** A block with no proven place in the code: offered to insert or copy, never to replace (issue 34). */
async function offerInsertOrCopy(d: ApplyDeps, task: TrackedTask, block: AnswerBlock, where: ApplyTarget): Promise<ApplyOutcome> {
  const span = displayLines(rangeRecordOf(where.range));
  const name = path.posix.basename(where.document.uri.path);
  const insert = vscode.l10n.t('Insert at Cursor');
  const copy = vscode.l10n.t('Copy Block');
  const choice = await d.ui.info(
    vscode.l10n.t(
      'Code block {0} does not show that it replaces {1} lines {2}–{3}: it keeps none of their declaration and few of their lines. Insert it at the cursor or copy it; nothing is replaced.',
      block.index + 1,
      name,
      span.start,
      span.end,
    ),
    insert,
    copy,
  );
  if (choice === copy) {
    await vscode.env.clipboard.writeText(block.code);
    d.ui.note(vscode.l10n.t('Code block {0} copied.', block.index + 1));
  } else if (choice === insert) await vscode.commands.executeCommand(offer('insert').command, task.id, block.index);
  return 'discarded';
}

async function sourceOf(d: ApplyDeps, task: TrackedTask): Promise<ApplyTarget> {
  if (!task.source) {
    throw new UserFacingError(vscode.l10n.t('"{0}" was not sent from a file: copy the code or use Insert at Cursor instead.', task.title));
  }
  try {
    return await d.tracker.now(task);
  } catch {
    throw new UserFacingError(vscode.l10n.t('{0} can no longer be opened: it was moved or deleted.', task.source.label));
  }
}

/** The block to apply: the one asked for, the only one Apply can do something with, or one the user picks. */
async function chooseBlock(ui: UserInterface, answer: ReadAnswer, blockIndex: unknown, wayOf: (b: AnswerBlock) => ApplyWay): Promise<AnswerBlock | undefined> {
  const { blocks } = answer;
  if (typeof blockIndex === 'number') {
    if (!Number.isInteger(blockIndex) || blockIndex < 0 || blockIndex >= blocks.length) {
      throw new UserFacingError(vscode.l10n.t('The answer has no code block {0}.', String(blockIndex + 1)));
    }
    return blocks[blockIndex];
  }
  const candidates = blocks.filter(b => wayOf(b) !== undefined);
  if (!candidates.length) throw new UserFacingError(vscode.l10n.t('The answer has no code block to apply. Copy the parts you want instead.'));
  if (candidates.length === 1) return candidates[0];
  const picked = await ui.pick(
    candidates.map(b => ({
      label: vscode.l10n.t('Block {0}', b.index + 1) + (b.info ? ` · ${b.info.slice(0, 40)}` : ''),
      description: describeBlock(b, wayOf(b)),
      detail: blockPreview(b),
      block: b,
    })),
    { title: vscode.l10n.t('Apply to Source'), placeHolder: vscode.l10n.t('Which code block of the answer?'), matchOnDetail: true },
  );
  return picked?.block;
}

/** A pick's description: its size, and where Apply takes it when that is not the sent range. */
export function describeBlock(b: AnswerBlock, way?: ApplyWay): string {
  const lines = lineCount(b.code) === 1 ? vscode.l10n.t('1 line') : vscode.l10n.t('{0} lines', lineCount(b.code));
  if (way !== 'review') return b.path ? vscode.l10n.t('{0} · {1}', lines, b.path) : lines;
  const files = b.targets.length > 1 ? vscode.l10n.t('{0} files', b.targets.length) : (b.path ?? vscode.l10n.t('the file it names'));
  return vscode.l10n.t('{0} · reviews the changes to {1}', lines, files);
}

/** The replacement keeps the range's own line ending: a block's final newline is dropped when the range had none. */
function fitReplacement(before: string, code: string, eol: string): string {
  let after = eol === '\n' ? code : code.replace(/\r?\n/g, eol);
  if (!before.endsWith('\n') && after.endsWith(eol)) after = after.slice(0, -eol.length);
  return after;
}

async function propose(d: ApplyDeps, task: TrackedTask, where: ApplyTarget, code: string): Promise<ApplyOutcome> {
  const { document, range } = where;
  if (document.uri.scheme === DocumentSchemes.result) throw new UserFacingError(vscode.l10n.t('A result cannot be applied to a result.'));
  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const before = document.getText(range);
  const after = fitReplacement(before, code, eol);
  if (after === before) {
    void d.ui.info(vscode.l10n.t('The code already matches this block: nothing to apply.'));
    return 'discarded';
  }
  const whole = document.getText();
  const startOffset = document.offsetAt(range.start);
  const endOffset = document.offsetAt(range.end);
  const proposed = whole.slice(0, startOffset) + after + whole.slice(endOffset);
  const proposal = d.proposals.create({ taskId: task.id, target: document.uri, version: document.version, range, before, after }, whole, proposed);

  const name = path.posix.basename(document.uri.path);
  const span = displayLines(rangeRecordOf(range));
  const lines = vscode.l10n.t('lines {0}–{1}', span.start, span.end);
  const title = where.changed
    ? vscode.l10n.t('{0} ({1}) ↔ proposal — the code changed since it was sent', name, lines)
    : vscode.l10n.t('{0} ({1}) ↔ proposal', name, lines);
  await openDiff(proposal.left, proposal.right, title, {
    viewColumn: extensionColumn(),
    preview: false,
    selection: new vscode.Range(range.start, range.start),
  });

  const accept = vscode.l10n.t('Accept');
  const discard = vscode.l10n.t('Discard');
  const message = where.changed
    ? vscode.l10n.t('The code at {0} of {1} changed since "{2}" was sent. Review the diff: apply the proposal anyway?', lines, name, task.title)
    : vscode.l10n.t('Review the proposed change to {0} ({1}). Nothing is written until you accept.', name, lines);
  const choice = await (where.changed ? d.ui.warn(message, accept, discard) : d.ui.info(message, accept, discard));
  if (!d.proposals.get(proposal.id)) return 'pending'; // decided meanwhile with the diff's own buttons
  if (choice === accept) return acceptProposal(d, proposal.id);
  if (choice === discard) return discardProposal(d, proposal.id);
  return 'pending';
}

/** Writes the proposal as one undoable edit, if the range still holds the text the diff showed. */
export async function acceptProposal(d: Pick<ApplyDeps, 'ui' | 'proposals'>, arg?: unknown): Promise<ApplyOutcome> {
  const proposal = d.proposals.find(arg);
  if (!proposal) throw new UserFacingError(vscode.l10n.t('There is no proposal to accept: it was already accepted or discarded.'));
  const document = await vscode.workspace.openTextDocument(proposal.target);
  if (document.version !== proposal.version && document.getText(proposal.range) !== proposal.before) {
    d.proposals.settle(proposal.id);
    await closeDiff(proposal);
    throw new UserFacingError(vscode.l10n.t('{0} changed while the diff was open, so nothing was applied. Run Apply to Source again.', path.posix.basename(document.uri.path)));
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, proposal.range, proposal.after);
  if (!(await vscode.workspace.applyEdit(edit))) throw new UserFacingError(vscode.l10n.t('The change could not be applied (is the file read-only?).'));
  d.proposals.settle(proposal.id);
  await closeDiff(proposal);
  const end = document.positionAt(document.offsetAt(proposal.range.start) + proposal.after.length);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: codeColumn(document.uri), preview: false, selection: new vscode.Range(proposal.range.start, end) });
  editor.revealRange(new vscode.Range(proposal.range.start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  void offerUndo(d.ui, vscode.l10n.t('Applied to {0}. Undo (Ctrl+Z) restores it.', path.posix.basename(document.uri.path)), [
    { uri: document.uri, range: new vscode.Range(proposal.range.start, end), after: proposal.after, before: proposal.before },
  ]);
  return 'applied';
}

export async function discardProposal(d: Pick<ApplyDeps, 'proposals'>, arg?: unknown): Promise<ApplyOutcome> {
  const proposal = d.proposals.find(arg);
  if (!proposal) return undefined;
  d.proposals.settle(proposal.id);
  await closeDiff(proposal);
  return 'discarded';
}

async function closeDiff(proposal: Proposal): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap(g => g.tabs)
    .filter(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposal.right.toString());
  // preserveFocus: the result view under the diff must not take the focus (and the next Ctrl+Z) from the code.
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}
