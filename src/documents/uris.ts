/**
 * The read-only documents' URIs: one build/parse pair per scheme. The id is the first path segment; the
 * rest is a readable name that titles the tab (and, for files, picks the language and icon).
 */
import * as vscode from 'vscode';
import { readableName } from '../api/filenames';
import { DocumentSchemes } from '../constants';

export { readableName };

function idOf(uri: vscode.Uri, scheme: string): string | undefined {
  return uri.scheme === scheme ? uri.path.split('/')[1] || undefined : undefined;
}

/**
 * `multi-agent-result:/Explain this function.md?task_123`: the id rides in the query, so a tab's tooltip
 * shows the readable name and no internal path.
 */
export function resultUri(task: { id: string; title: string }): vscode.Uri {
  return vscode.Uri.from({ scheme: DocumentSchemes.result, path: `/${readableName(task.title, 'Result')}.md`, query: task.id });
}
/** The task id of a result URI (also of the older `/task_123/name.md` form, for tabs restored from before). */
export function taskIdOfResult(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DocumentSchemes.result) return undefined;
  return uri.query || idOf(uri, DocumentSchemes.result);
}

/** `multi-agent-thread:/12/My thread.md` */
export function transcriptUri(thread: { id: string | number }, title: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DocumentSchemes.thread, path: `/${thread.id}/${readableName(title, 'Thread')}.md` });
}
export function threadIdOfTranscript(uri: vscode.Uri): string | undefined {
  return idOf(uri, DocumentSchemes.thread);
}

/**
 * `multi-agent-file:/notes (service copy).txt?file_123`: the tab says it is the service's copy (and keeps
 * the extension, so the language and icon are right); the id rides in the query, so the tab's hover shows
 * no internal path.
 */
export function fileDocumentUri(file: { id: string; filename: string }): vscode.Uri {
  const name = readableName(file.filename, file.id, 200);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return vscode.Uri.from({ scheme: DocumentSchemes.file, path: `/${stem} (${vscode.l10n.t('service copy')})${ext}`, query: file.id });
}
/** The file id of a service file document (also of the older `/file_123/notes.txt` form, for tabs restored from before). */
export function fileIdOfDocument(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DocumentSchemes.file) return undefined;
  return uri.query || idOf(uri, DocumentSchemes.file);
}
/** The file's name as the tab shows it. */
export function fileNameOfDocument(uri: vscode.Uri): string {
  const parts = uri.path.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/**
 * Review Changes' documents: `multi-agent-review:/src/a.ts?now/task_123` (the file as it is) and
 * `…/src/a.ts?proposed/task_123` (with the offered hunks), `/Review of <title>.md?notes/task_123` (what is
 * offered and what not). Both sides of a file share its workspace-relative path, which keeps the language
 * and icon and lets a multi-file diff show them as one file changed (not renamed).
 */
export type ReviewSide = 'now' | 'proposed' | 'notes';

export function reviewUri(taskId: string, side: ReviewSide, path: string): vscode.Uri {
  const name = side === 'notes' ? `${readableName(path, 'Review')}.md` : path.split('/').map(s => readableName(s, '_', 255)).join('/');
  return vscode.Uri.from({ scheme: DocumentSchemes.review, path: `/${name}`, query: `${side}/${taskId}` });
}
export function parseReviewUri(uri: vscode.Uri): { taskId: string; side: ReviewSide } | undefined {
  if (uri.scheme !== DocumentSchemes.review) return undefined;
  const slash = uri.query.indexOf('/');
  const side = uri.query.slice(0, slash);
  const taskId = uri.query.slice(slash + 1);
  return slash > 0 && taskId && (side === 'now' || side === 'proposed' || side === 'notes') ? { taskId, side } : undefined;
}
