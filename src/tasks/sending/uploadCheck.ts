/**
 * The one check before a workspace file leaves for the service: a file to store (Files › Upload), a task's
 * attachment (the basket, code sent as an attachment), or a file sent as a prompt (Orchestrate File). It
 * reads the size and the first bytes only, and judges them by the service's own rule (api/uploads.ts: the
 * size of the request, the type sniffed as the service sniffs it). A refusal names the reason and nothing
 * is sent.
 */
import { open } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SNIFF_BYTES } from '../../api/sniff';
import { MAX_FILE_BYTES, type UploadKind, judgeUpload } from '../../api/uploads';
import { uploadRefusal } from '../../errors';

/** What leaves: a stored file, an attachment, or a file read whole into a prompt (bounded like a stored file). */
export type Outgoing = UploadKind | 'prompt';

export interface CheckedFile {
  uri: vscode.Uri;
  name: string;
  size: number;
}

export interface CheckOptions {
  /** The model the task runs on, when known: a video attachment needs a video-capable one. */
  modelId?: string;
  /**
   * Judge files of at most this many bytes by their size only: a basket file small enough to go inline in
   * the prompt as text, whose type matters only if it ends up uploaded (it is checked again, in full, then).
   */
  sizeOnlyUpTo?: number;
}

/** Checks a workspace file; throws a UserFacingError that says why the service would refuse it. */
export async function checkOutgoingFile(uri: vscode.Uri, kind: Outgoing, options: CheckOptions = {}): Promise<CheckedFile> {
  const name = path.basename(uri.path);
  const info = await vscode.workspace.fs.stat(uri);
  if (info.type & vscode.FileType.Directory) throw uploadRefusal(name, kind, { ok: false, problem: 'folder' });
  const size = info.size;
  if (kind === 'prompt') {
    if (size > MAX_FILE_BYTES) throw uploadRefusal(name, kind, { ok: false, problem: 'tooLarge', limitBytes: MAX_FILE_BYTES, size });
    return { uri, name, size };
  }
  // The size first, on no bytes: a file too large is refused without being read.
  const bySize = judgeUpload(kind, { filename: name, size, head: new Uint8Array() }, options);
  if (!bySize.ok && bySize.problem === 'tooLarge') throw uploadRefusal(name, kind, bySize);
  if (options.sizeOnlyUpTo !== undefined && size <= options.sizeOnlyUpTo) return { uri, name, size };
  const verdict = judgeUpload(kind, { filename: name, size, head: await readHead(uri, size) }, options);
  if (!verdict.ok) throw uploadRefusal(name, kind, verdict);
  return { uri, name, size };
}

/** The same check for bytes in memory (code sent as an attachment). */
export function checkOutgoingBytes(name: string, bytes: Uint8Array, kind: UploadKind, options: CheckOptions = {}): void {
  const verdict = judgeUpload(kind, { filename: name, size: bytes.byteLength, head: bytes.subarray(0, SNIFF_BYTES) }, options);
  if (!verdict.ok) throw uploadRefusal(name, kind, verdict);
}

/** The first bytes the service sniffs: read from disk for a local file, else through the file system API. */
async function readHead(uri: vscode.Uri, size: number): Promise<Uint8Array> {
  if (uri.scheme === 'file') {
    const handle = await open(uri.fsPath, 'r');
    try {
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
  // Other file systems read whole; the size was checked first, so this is bounded.
  return (await vscode.workspace.fs.readFile(uri)).subarray(0, SNIFF_BYTES);
}
