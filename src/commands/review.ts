/**
 * "Review Changes…" and "Open All Changes" (issue 16): an answer whose blocks name files becomes one
 * WorkspaceEdit with one entry per hunk, shown in VS Code's Refactor Preview, grouped by file. Nothing is
 * written before the user presses Apply there; Discard writes nothing; applying is one edit, so one Undo
 * restores every file. Conflicts (lines the user changed since the task was sent) and files in folders that
 * can run code start unchecked; what cannot be offered is listed with its reason and never written.
 *
 * How the preview opens: VS Code shows it only when an entry needs confirmation, and such entries start
 * unchecked (bulkEditPreview.ts: `checked.updateChecked(edit, !edit.metadata?.needsConfirmation)`). When no
 * hunk needs confirmation, one more entry does: a "create" of a file that exists, with `ignoreIfExists`. The
 * preview leaves such an entry out of its list (it would do nothing) yet it makes the preview open, and it is
 * unchecked, so it is never run; were it run, `ignoreIfExists` makes it a no-op. Checked in VS Code 1.100
 * and 1.139, and in the e2e tests in a real browser.
 */
import * as vscode from 'vscode';
import { extensionColumn, openDiff } from '../documents/editorGroups';
import { type PreparedReview, folderOf, prepareReview } from '../documents/reviewPlan';
import type { ReviewDocuments } from '../documents/reviews';
import type { SourceRangeTracker } from '../documents/sourceRanges';
import { parseReviewUri, reviewUri } from '../documents/uris';
import { UserFacingError, inert } from '../errors';
import type { Logger } from '../log';
import type { PlanFile, PlanHunk } from '../review';
import { latestCheck } from '../tasks/model';
import { type OfferId, offer } from '../tasks/offers';
import { checkFailed } from '../tasks/checking/policy';
import { fencedBlock } from '../tasks/sending/prompt';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { checkSentence } from '../tasks/checkWords';
import { mergedTwoWay } from '../vocabulary';
import { resolveTask } from './resolve';
import { type AppliedChange, changeBetween, offerUndo } from './undo';
import { reviewPart } from '../parts';

/** The review core, loaded on first use (lazy.ts). */

export interface ReviewDeps {
  ui: UserInterface;
  store: TaskStore;
  tracker: Pick<SourceRangeTracker, 'now'>;
  reviews: ReviewDocuments;
  log: Logger;
  /** The task of the focused result view, if one is focused. */
  activeResult?: () => string | undefined;
}

/** What a review came to (tests read it). */
export type ReviewOutcome = 'applied' | 'discarded' | 'nothing' | undefined;

/** One line per thing not offered: a file (or block) and why, or one hunk of a diff and why. */
export interface NotOffered {
  what: string;
  reason: string;
  /** A block that names no file (Apply to Source… may still take it). */
  unnamed?: boolean;
}

async function prepare(d: ReviewDeps, arg: unknown, offered: OfferId, placeHolder: string, block?: number): Promise<PreparedReview | undefined> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), offered, placeHolder);
  if (!task) return undefined;
  if (task.status !== 'completed') throw new UserFacingError(vscode.l10n.t('"{0}" has no result yet.', task.title));
  const answer = await d.store.readResult(task.id);
  if (answer === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
  // With several folders, a task sent from none of them still lands what names its folder (review/folders.ts).
  const folder = folderOf(task);
  if (!folder && !vscode.workspace.workspaceFolders?.length) throw new UserFacingError(vscode.l10n.t('Review Changes needs the workspace folder "{0}" was sent from: open that folder and try again.', inert(task.title)));
  const started = performance.now();
  // Planned on its own thread (no answer blocks the editor), cancellable from the progress notification.
  let review: PreparedReview;
  try {
    review = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Preparing the review of "{0}"…', inert(task.title)), cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return await prepareReview(d, task, answer, folder, { block, signal: abort.signal });
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (e) {
    if (e instanceof reviewPart().PlanCancelled) {
      d.log.info(`review ${task.id}: cancelled while planning`);
      return undefined;
    }
    throw e;
  }
  if (review.plan.tooComplex) {
    const c = review.plan.tooComplex;
    d.log.info(`review ${task.id}: too complex (${c.hunkHeaders} hunk headers, ${c.work} of ${c.workBudget} steps) after ${(performance.now() - started).toFixed(0)} ms`);
    void tellTooComplex(d, review);
    return undefined;
  }
  d.reviews.setAll(task.id, documentsOf(review));
  const { plan } = review;
  d.log.info(
    `review ${task.id}: ${plan.hunkCount} hunks (${plan.conflictCount} conflicts) in ${plan.files.filter(f => f.kind !== 'skip').length} files, ${notOffered(review).length} not offered; planned in ${(performance.now() - started).toFixed(0)} ms`,
  );
  return review;
}

/**
 * Review Changes…: the Refactor Preview with one entry per hunk. With `block` (Apply… on a diff, a patch or a
 * block named for a file), the review of that block alone.
 */
export async function reviewChanges(d: ReviewDeps, arg?: unknown, block?: unknown): Promise<ReviewOutcome> {
  const only = typeof block === 'number' && Number.isInteger(block) && block >= 0 ? block : undefined;
  const review = await prepare(d, arg, 'review', vscode.l10n.t('Review the changes of which answer?'), only);
  if (!review) return undefined;
  const { plan, task } = review;
  const skipped = notOffered(review);
  if (!plan.hunkCount) {
    void tellNothing(d, review, skipped);
    return 'nothing';
  }
  if (skipped.length) void tellNotOffered(d, review, skipped);
  // A refactoring, as Rename is: with `files.refactoring.autoSave` (on by default) VS Code saves the files of a
  // change to several files, so none is left unsaved where no editor shows it.
  const applying = vscode.workspace.applyEdit(workspaceEditOf(reviewEntries(review)), { isRefactoring: true });
  // Issue 37: what the newest check of this proposal found, said while the preview is open, and gone with it (a
  // toast that stayed after Apply told of a review that was over, issue 45).
  const check = latestCheck(d.store.get(task.id) ?? task);
  if (check) {
    const title = vscode.l10n.t('Before you apply: {0}', checkSentence(check));
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: checkFailed({ checks: [check] }) ? `⚠ ${title}` : title }, () => Promise.resolve(applying).catch(() => undefined));
  }
  const applied = await applying;
  const changes = applied ? await appliedChanges(review) : [];
  const changed = changes.length;
  if (!changed) {
    d.log.info(`review ${task.id}: nothing applied`);
    return 'discarded';
  }
  d.log.info(`review ${task.id}: applied to ${changed} files`);
  // Undo here puts every file back in one edit, as Ctrl+Z does (commands/undo.ts).
  void offerUndo(
    d.ui,
    changed === 1
      ? vscode.l10n.t('Applied the reviewed changes to 1 file. Undo (Ctrl+Z) restores it.')
      : vscode.l10n.t('Applied the reviewed changes to {0} files as one edit. Undo (Ctrl+Z) restores every file.', changed),
    changes,
  );
  return 'applied';
}

/** Open All Changes: each file now against the file with every hunk but the conflicts, in one multi-file diff. */
export async function openAllChanges(d: ReviewDeps, arg?: unknown): Promise<number | undefined> {
  const review = await prepare(d, arg, 'allChanges', vscode.l10n.t('Open the changes of which answer?'));
  if (!review) return undefined;
  const files = review.plan.files.filter(f => f.kind !== 'skip');
  if (!files.length) {
    void tellNothing(d, review, notOffered(review));
    return 0;
  }
  const title = vscode.l10n.t('Changes proposed for "{0}"', review.task.title);
  // One tab (or one group of diffs) per review: an earlier one of the same task is replaced, not piled up.
  const earlier = vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => isSideOf(t, review.task.id));
  if (earlier.length) await vscode.window.tabGroups.close(earlier);
  const sides = files.map(f => ({
    file: f,
    resource: review.uriOf(f.path),
    left: reviewUri(review.task.id, 'now', f.path),
    right: reviewUri(review.task.id, 'proposed', f.path),
  }));
  if ((await vscode.commands.getCommands(true)).includes('vscode.changes')) {
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      sides.map(s => [s.resource, s.file.kind === 'create' ? undefined : s.left, s.right]),
    );
  } else {
    const column = extensionColumn();
    for (const s of sides) {
      await openDiff(s.left, s.right, vscode.l10n.t('{0} ↔ proposed', s.file.path), { preview: false, viewColumn: column });
    }
  }
  return sides.length;
}

/** A diff of this task's review: one of the per-file diffs, or the multi-file one (its input lists `textDiffs`). */
function isSideOf(tab: vscode.Tab, taskId: string): boolean {
  const ours = (uri: unknown) => uri instanceof vscode.Uri && parseReviewUri(uri)?.taskId === taskId;
  const input = tab.input;
  if (input instanceof vscode.TabInputTextDiff) return ours(input.modified);
  const diffs = (input as { textDiffs?: unknown } | undefined)?.textDiffs;
  return Array.isArray(diffs) && diffs.some(d => ours((d as { modified?: unknown })?.modified));
}

// The edit ----------------------------------------------------------------------------------------

/** One WorkspaceEdit entry: a hunk replacing a range, a new file, or the entry that makes the preview open. */
export interface ReviewEntry {
  kind: 'replace' | 'create' | 'opener';
  uri: vscode.Uri;
  range?: vscode.Range;
  newText: string;
  metadata: vscode.WorkspaceEditEntryMetadata;
}

/** One entry per hunk, in file order; conflicts and files that can run code need confirmation (start unchecked). */
export function reviewEntries(review: PreparedReview): ReviewEntry[] {
  const entries: ReviewEntry[] = [];
  let opener: vscode.Uri | undefined;
  for (const file of review.plan.files) {
    if (file.kind === 'skip') continue;
    const uri = review.uriOf(file.path);
    for (const hunk of file.hunks) {
      const metadata = metadataOf(review, file, hunk);
      if (file.kind === 'create') entries.push({ kind: 'create', uri, newText: hunk.newText, metadata });
      else {
        opener ??= uri;
        const range = new vscode.Range(hunk.start.line, hunk.start.character, hunk.end.line, hunk.end.character);
        entries.push({ kind: 'replace', uri, range, newText: hunk.newText, metadata });
      }
    }
  }
  if (entries.length && !entries.some(e => e.metadata.needsConfirmation)) {
    // See the file's comment: makes the preview open; left out of its list, unchecked, a no-op.
    const metadata = { label: vscode.l10n.t('Review before applying'), needsConfirmation: true };
    entries.push({ kind: 'opener', uri: opener ?? review.folder.uri, newText: '', metadata });
  }
  return entries;
}

export function workspaceEditOf(entries: readonly ReviewEntry[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of entries) {
    if (e.kind === 'replace') edit.replace(e.uri, e.range!, e.newText, e.metadata);
    else if (e.kind === 'create') edit.createFile(e.uri, { contents: new TextEncoder().encode(e.newText) }, e.metadata);
    else edit.createFile(e.uri, { ignoreIfExists: true }, e.metadata);
  }
  return edit;
}

function metadataOf(review: PreparedReview, file: PlanFile, hunk: PlanHunk): vscode.WorkspaceEditEntryMetadata {
  const notes: string[] = [];
  if (hunk.conflict && hunk.sides) {
    notes.push(
      vscode.l10n.t(
        'you changed these lines since the task was sent; checking it replaces your version ({0}) with the proposal\'s ({1})',
        glimpse(hunk.sides.ours),
        glimpse(hunk.sides.theirs),
      ),
    );
  } else if (hunk.conflict) {
    notes.push(vscode.l10n.t('it would join two lines: check it only after a look at the whole change'));
  }
  if (hunk.shifted) notes.push(vscode.l10n.t('moved by your edits since the task was sent'));
  if (file.kind === 'create') notes.push(vscode.l10n.t('a new file'));
  if (file.twoWay && file.kind !== 'create') notes.push(mergedTwoWay(review.twoWayReasons.get(file.path)));
  if (file.sensitive) notes.push(vscode.l10n.t('a file that can run code ({0}): check it yourself', reviewPart().runsCodeReason((m, ...a) => vscode.l10n.t(m, ...a), file.runsCode ?? 'script')));
  const label = vscode.l10n.t('{0} · {1}', file.path, hunk.label);
  return {
    label: hunk.conflict ? vscode.l10n.t('Conflict · {0}', label) : label,
    description: notes.join(' · ') || undefined,
    // What starts checked is one rule, shared with Check Proposal… (review/defaults.ts).
    needsConfirmation: !reviewPart().checkedByDefault(file, hunk),
    iconPath: hunk.conflict ? new vscode.ThemeIcon('warning') : file.sensitive ? new vscode.ThemeIcon('shield') : undefined,
  };
}

/** The first non-blank line of a side, quoted and short; "nothing" for an empty side. */
function glimpse(text: string): string {
  const lines = text.split(/\r?\n/).filter(l => l.trim());
  if (!lines.length) return vscode.l10n.t('nothing');
  const first = lines[0].trim();
  const shown = first.length > 60 ? `${first.slice(0, 59)}…` : first;
  return lines.length > 1 ? vscode.l10n.t('"{0}" and {1} more lines', shown, lines.length - 1) : `"${shown}"`;
}

/** What Apply in the preview wrote: each offered file that now differs from the text the plan was built on. */
async function appliedChanges(review: PreparedReview): Promise<AppliedChange[]> {
  const out: AppliedChange[] = [];
  for (const file of review.plan.files) {
    if (file.kind === 'skip') continue;
    const uri = review.uriOf(file.path);
    if (file.kind === 'create') {
      const created = await vscode.workspace.fs.readFile(uri).then(
        bytes => new TextDecoder().decode(bytes),
        () => undefined,
      );
      if (created !== undefined) out.push({ uri, created: true, after: created });
      continue;
    }
    // Opened again when VS Code saved and let go of it (a file no editor shows, saved with the refactoring).
    const document = await vscode.workspace.openTextDocument(uri).then(
      doc => doc,
      () => undefined,
    );
    const before = review.current.get(file.path);
    const change = document && before !== undefined ? changeBetween(document, before, document.getText()) : undefined;
    if (change) out.push(change);
  }
  return out;
}

// What is not offered ------------------------------------------------------------------------------

export function notOffered(review: PreparedReview): NotOffered[] {
  const out: NotOffered[] = [];
  for (const f of review.plan.files) {
    const what = f.path || vscode.l10n.t('code block {0}', f.blocks[0] + 1);
    if (f.kind === 'skip') {
      const reason = f.reasonCode === 'noPath' ? vscode.l10n.t('{0}: Apply to Source… can still apply it', f.reason ?? '') : (f.reason ?? '');
      out.push(f.reasonCode === 'noPath' ? { what, reason, unnamed: true } : { what, reason });
    }
    for (const h of f.skippedHunks) out.push({ what: f.path, reason: h.reason });
  }
  return out;
}

async function tellNotOffered(d: ReviewDeps, review: PreparedReview, skipped: NotOffered[]): Promise<void> {
  const showDetails = vscode.l10n.t('Show Details');
  // Paths are server text: never a link in a notification.
  // Told by what the user can do about it: blocks that name no file, then what cannot land, with the first reason.
  const unnamed = skipped.filter(s => s.unnamed).length;
  const others = skipped.filter(s => !s.unnamed);
  const first = others.length ? inert(`${others[0].what}: ${others[0].reason}`) : '';
  const blocks = unnamed === 1 ? vscode.l10n.t('1 block has no file to apply to') : vscode.l10n.t('{0} blocks have no file to apply to', unnamed);
  const parts =
    others.length === 1 ? vscode.l10n.t('1 part cannot be applied ({0})', first) : vscode.l10n.t('{0} parts cannot be applied ({1}, …)', others.length, first);
  const message = !others.length ? vscode.l10n.t('{0}.', blocks) : !unnamed ? vscode.l10n.t('{0}.', parts) : vscode.l10n.t('{0}; {1}.', blocks, parts);
  if ((await d.ui.info(message, showDetails)) === showDetails) await showNotes(review);
}

/** Too complex to review here: the numbers, and the raw answer one click away. */
async function tellTooComplex(d: ReviewDeps, review: PreparedReview): Promise<void> {
  const openRaw = vscode.l10n.t(offer('raw').label);
  const message = reviewPart().tooComplexReason((m, ...a) => vscode.l10n.t(m, ...a), review.plan.tooComplex!);
  if ((await d.ui.warn(message, openRaw)) === openRaw) await vscode.commands.executeCommand(offer('raw').command, review.task.id);
}

async function tellNothing(d: ReviewDeps, review: PreparedReview, skipped: NotOffered[]): Promise<void> {
  const showDetails = vscode.l10n.t('Show Details');
  const message = skipped.length
    ? vscode.l10n.t('Nothing in the answer to "{0}" can be applied: {1}', inert(review.task.title), inert(`${skipped[0].what}: ${skipped[0].reason}`))
    : vscode.l10n.t('The answer to "{0}" names no file to change. Apply to Source… applies one of its code blocks.', inert(review.task.title));
  if ((await d.ui.warn(message, ...(skipped.length ? [showDetails] : []))) === showDetails) await showNotes(review);
}

export async function showNotes(review: PreparedReview): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(notesUri(review));
  if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  return vscode.window.showTextDocument(document, { viewColumn: extensionColumn(), preview: true });
}

function notesUri(review: PreparedReview): vscode.Uri {
  return reviewUri(review.task.id, 'notes', vscode.l10n.t('Review of {0}', review.task.title));
}

// The read-only documents ---------------------------------------------------------------------------

function documentsOf(review: PreparedReview): Map<vscode.Uri, string> {
  const docs = new Map<vscode.Uri, string>();
  for (const f of review.plan.files) {
    if (f.kind === 'skip') continue;
    const now = f.kind === 'create' ? '' : (review.current.get(f.path) ?? '');
    docs.set(reviewUri(review.task.id, 'now', f.path), now);
    docs.set(reviewUri(review.task.id, 'proposed', f.path), f.kind === 'create' ? (f.hunks[0]?.newText ?? '') : reviewPart().applyHunks(now, f.hunks, h => !h.conflict));
  }
  docs.set(notesUri(review), notesText(review));
  return docs;
}

/** The review's notes: what is offered (conflicts with both sides) and what is not, with the reasons. Plain text in a read-only editor. */
export function notesText(review: PreparedReview): string {
  const { plan, task } = review;
  const t = vscode.l10n.t;
  const offered = plan.files.filter(f => f.kind !== 'skip');
  const out = [`# ${t('Review of "{0}"', task.title)}`, ''];
  out.push(
    t('{0} hunks in {1} files are offered, {2} of them conflicts (unchecked). Nothing is written until you press Apply in the Refactor Preview.', plan.hunkCount, offered.length, plan.conflictCount),
    '',
  );
  const check = latestCheck(task);
  if (check) out.push(`${t('Latest check')}: ${checkSentence(check)}`, '');
  for (const f of offered) {
    out.push(`## ${f.path}${f.kind === 'create' ? ` (${t('new file')})` : ''}`, '');
    if (f.twoWay && f.kind !== 'create') out.push(`${mergedTwoWay(review.twoWayReasons.get(f.path))}.`, '');
    if (f.sensitive) out.push(`${t('This file can run code ({0}): its hunks start unchecked.', reviewPart().runsCodeReason((m, ...a) => t(m, ...a), f.runsCode ?? 'script'))}`, '');
    if (f.alreadyApplied) out.push(`${t('{0} changes of the answer are in the file already.', f.alreadyApplied)}`, '');
    for (const h of f.hunks) {
      out.push(`- ${h.label}`);
      if (h.conflict) out.push('', fencedBlock(reviewPart().conflictText(h, f.eol, (m, ...a) => t(m, ...a)), 'diff'), '');
    }
    for (const s of f.skippedHunks) out.push(`- ${t('Not offered')}: ${s.reason}`);
    out.push('');
  }
  const skipped = notOffered(review).filter(s => !offered.some(f => f.path === s.what && f.skippedHunks.some(h => h.reason === s.reason)));
  if (skipped.length) {
    out.push(`## ${t('Not offered')}`, '');
    for (const s of skipped) out.push(`- ${s.what}: ${s.reason}`);
    out.push('');
  }
  return out.join('\n');
}
