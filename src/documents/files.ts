/**
 * Service files opened as read-only text under the `multi-agent-file:` scheme. The text fetched by "Open"
 * is kept while the document is open; after a reload the document downloads it again. Every download of a
 * service file (Open, Save As, a reopened document) shows cancellable progress (`downloadWithProgress`).
 */
import type { Readable } from 'node:stream';
import * as vscode from 'vscode';
import type { Download } from '../api';
import { Disposable } from '../disposable';
import { looksBinary } from '../tasks/sending/code';
import { describeForView, downloadStopped, inert, isCancellation } from '../errors';
import { formatBytes } from '../format';
import type { FileStore } from '../stores/fileStore';
import { fileIdOfDocument, fileNameOfDocument } from './uris';

/** A reopened file document downloads again; more than this is not shown as text. */
export const MAX_TEXT_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** Decodes bytes as text, or undefined when they are not UTF-8 text (NUL bytes, invalid sequences). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (looksBinary(bytes)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export class FileDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly files: FileStore) {
    super();
    this._register(vscode.workspace.onDidCloseTextDocument(doc => this.texts.delete(doc.uri.toString())));
  }

  /** Remembers text already downloaded, so opening does not download twice. */
  put(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    // An already open document shows the fresh text too.
    if (vscode.workspace.textDocuments.some(d => d.uri.toString() === uri.toString())) this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    const id = fileIdOfDocument(uri);
    if (!id) return '';
    const name = fileNameOfDocument(uri) || id;
    try {
      const bytes = await downloadWithProgress(this.files, { id, filename: name }, MAX_TEXT_DOCUMENT_BYTES, download => readCapped(download.stream, MAX_TEXT_DOCUMENT_BYTES), token);
      if (bytes === undefined) {
        return `${vscode.l10n.t('This file is over {0}: use "Save As…" in the Files view to save it to disk.', formatBytes(MAX_TEXT_DOCUMENT_BYTES))}\n`;
      }
      const text = decodeText(bytes);
      return text ?? `${vscode.l10n.t('This file is not text. Use "Save As…" in the Files view to save it to disk.')}\n`;
    } catch (e) {
      if (isCancellation(e)) return `${vscode.l10n.t('The download was canceled. Close this tab and open the file again to retry.')}\n`;
      return `${vscode.l10n.t('The file could not be downloaded: {0}', describeForView(e))}\n`;
    }
  }
}

/**
 * The whole body, or undefined (and the download stopped) once it passes `maxBytes`: the one capped reader of
 * a download on this side (the api layer has its own, `api/bodies.ts`, in the other bundle).
 */
export async function readCapped(stream: Readable, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) {
      stream.destroy();
      return undefined;
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Progress is reported at most this often (each report redraws the notification). */
const PROGRESS_EVERY_MS = 200;

/**
 * Downloads a service file under a cancellable progress notification; `read` consumes the bounded stream
 * (at most `maxBytes` + 1 are read, so `read` can tell "too large"). The api layer ends a download that
 * makes no progress within the request timeout: that comes back worded for the user (errors.ts). Canceling
 * (the notification's button, or `token`) rejects with a cancellation, which is not reported.
 */
export async function downloadWithProgress<T>(
  files: Pick<FileStore, 'download'>,
  file: { id: string; filename?: string; bytes?: number },
  maxBytes: number | undefined,
  read: (download: Download) => Promise<T>,
  token?: vscode.CancellationToken,
): Promise<T> {
  const name = file.filename ?? file.id;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading {0}', inert(name)), cancellable: true },
    async (progress, canceled) => {
      const aborter = new AbortController();
      const subscriptions = [canceled.onCancellationRequested(() => aborter.abort()), token?.onCancellationRequested(() => aborter.abort())];
      if (token?.isCancellationRequested) aborter.abort();
      let total = file.bytes;
      let shownPercent = 0;
      let shownAt = 0;
      const onProgress = (received: number) => {
        const now = Date.now();
        if (now - shownAt < PROGRESS_EVERY_MS) return;
        shownAt = now;
        if (total) {
          const percent = Math.min(100, (received / total) * 100);
          progress.report({ increment: Math.max(0, percent - shownPercent), message: vscode.l10n.t('{0} of {1}', formatBytes(received), formatBytes(total)) });
          shownPercent = Math.max(shownPercent, percent);
        } else {
          progress.report({ message: formatBytes(received) });
        }
      };
      try {
        const download = await files.download(file, { maxBytes: maxBytes === undefined ? undefined : maxBytes + 1, signal: aborter.signal, onProgress });
        total = download.contentLength ?? total;
        return await read(download);
      } catch (e) {
        throw downloadStopped(name, e) ?? e;
      } finally {
        for (const subscription of subscriptions) subscription?.dispose();
      }
    },
  );
}
