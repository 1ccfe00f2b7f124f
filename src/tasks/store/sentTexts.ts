/**
 * The text of every file a task sent (the source's whole document, attached workspace files), kept so that
 * Review Changes can merge three ways: sent, now, proposed. Bounded (SENT_TEXT_LIMITS): a file over the
 * per-file bound, or one that would take the task over its total, is listed without its text and the review
 * merges it against the file as it is now. The texts live as files under globalStorage (TaskStore); the
 * task's record holds only these entries. Pure: no vscode.
 */
import { createHash } from 'node:crypto';
import { SENT_TEXT_LIMITS } from '../../constants';

export interface SentFile {
  /** The file's URI as a string. */
  uri: string;
  /** Workspace-relative path, as the prompt named it. */
  label: string;
  /** UTF-8 bytes of the text that was sent (or of the file, when it was not read). */
  bytes: number;
  /** SHA-256 of the UTF-8 text; it also names the stored file. Absent when no text was recorded. */
  sha256?: string;
  /** Why no text was recorded: over the per-file bound, over the task's total, or not readable as text. */
  notRecorded?: 'fileBound' | 'taskBound' | 'notText';
}

/** A file as the submission saw it: its text, or only its size when it was too large (or not text) to read. */
export interface SentCandidate {
  uri: string;
  label: string;
  text?: string;
  bytes?: number;
  notText?: boolean;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Which texts are kept, in order (the source first): each up to `fileMaxBytes`, all together up to
 * `taskMaxBytes`; a later file that does not fit the total is listed as `taskBound`. One entry per URI.
 */
export function boundSent(
  candidates: readonly SentCandidate[],
  limits: { fileMaxBytes: number; taskMaxBytes: number } = SENT_TEXT_LIMITS,
): { files: SentFile[]; texts: Map<string, string> } {
  const files: SentFile[] = [];
  const texts = new Map<string, string>();
  const seen = new Set<string>();
  let total = 0;
  for (const c of candidates) {
    if (seen.has(c.uri)) continue;
    seen.add(c.uri);
    const bytes = c.text !== undefined ? Buffer.byteLength(c.text, 'utf8') : (c.bytes ?? 0);
    if (c.text === undefined) {
      files.push({ uri: c.uri, label: c.label, bytes, notRecorded: c.notText ? 'notText' : 'fileBound' });
      continue;
    }
    if (bytes > limits.fileMaxBytes) {
      files.push({ uri: c.uri, label: c.label, bytes, notRecorded: 'fileBound' });
      continue;
    }
    if (total + bytes > limits.taskMaxBytes) {
      files.push({ uri: c.uri, label: c.label, bytes, notRecorded: 'taskBound' });
      continue;
    }
    total += bytes;
    const hash = sha256(c.text);
    texts.set(hash, c.text);
    files.push({ uri: c.uri, label: c.label, bytes, sha256: hash });
  }
  return { files, texts };
}
