/**
 * Service files opened as read-only text under the `multi-agent-file:` scheme. The text fetched by "Open"
 * is kept while the document is open; after a reload the document downloads it again.
 */
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { looksBinary } from '../tasks/code';
import { describeForView } from '../errors';
import { formatBytes } from '../format';
import type { FileStore } from '../stores/fileStore';
import { fileIdOfDocument } from './uris';

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

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    const id = fileIdOfDocument(uri);
    if (!id) return '';
    try {
      const download = await this.files.download({ id }, MAX_TEXT_DOCUMENT_BYTES + 1);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of download.stream) {
        size += (chunk as Uint8Array).byteLength;
        if (size > MAX_TEXT_DOCUMENT_BYTES) {
          download.stream.destroy();
          return `${vscode.l10n.t('This file is over {0}: use "Save As…" in the Files view to save it to disk.', formatBytes(MAX_TEXT_DOCUMENT_BYTES))}\n`;
        }
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      const text = decodeText(Buffer.concat(chunks));
      return text ?? `${vscode.l10n.t('This file is not text. Use "Save As…" in the Files view to save it to disk.')}\n`;
    } catch (e) {
      return `${vscode.l10n.t('The file could not be downloaded: {0}', describeForView(e))}\n`;
    }
  }
}
