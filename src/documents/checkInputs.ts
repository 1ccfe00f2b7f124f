/**
 * What Check Proposal… hands its session from the editor (issue 42): the proposal's files as the review planned
 * them, each with what Review Changes… lands of it by default (`landedByDefault`, the one rule both follow), and
 * the unsaved editor texts of the folder, which the copy holds instead of the files on disk (what the user sees).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { reviewPart } from '../parts';
import type { ProposedFile } from '../tasks/checking/session';
import type { PreparedReview } from './reviewPlan';

/** A path under `folder` as a relative POSIX path; undefined outside it. */
function relativeTo(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const rel = path.relative(folder.uri.fsPath, uri.fsPath);
  return !rel || rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
}

/** The proposal's files (skipped ones aside), as Review Changes… would land them by default. */
export function proposedFiles(review: PreparedReview, folder: vscode.WorkspaceFolder): ProposedFile[] {
  const files: ProposedFile[] = [];
  for (const file of review.plan.files) {
    if (file.kind === 'skip') continue;
    const now = file.kind === 'create' ? '' : (review.current.get(file.path) ?? '');
    const landed = reviewPart().landedByDefault(file, now);
    files.push({ path: file.path, rel: relativeTo(folder, review.uriOf(file.path)), text: landed.text, leftOut: landed.leftOut, now, created: file.kind === 'create' });
  }
  return files;
}

/** The folder's unsaved editor texts, by relative POSIX path. */
export function unsavedTexts(folder: vscode.WorkspaceFolder): Map<string, string> {
  const texts = new Map<string, string>();
  for (const doc of vscode.workspace.textDocuments) {
    const rel = doc.isDirty ? relativeTo(folder, doc.uri) : undefined;
    if (rel) texts.set(rel, doc.getText());
  }
  return texts;
}
