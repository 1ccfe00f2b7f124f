/**
 * Service files opened as read-only text under the `multi-agent-file:` scheme. The text fetched by "Open"
 * is kept while the document is open; after a reload the document downloads it again.
 */
import * as vscode from 'vscode';
import type { ApiService } from '../apiService';
import { FILE_SCHEME } from '../constants';
import { Disposable } from '../disposable';

/** `multi-agent-file:/file_123/notes.txt`: the name picks the language and names the tab. */
export function fileDocumentUri(file: { id: string; filename: string }): vscode.Uri {
  const name = file.filename.replace(/[\\/:*?"<>|#%\u0000-\u001f]/g, ' ').trim() || file.id;
  return vscode.Uri.from({ scheme: FILE_SCHEME, path: `/${file.id}/${name}` });
}

export function fileIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === FILE_SCHEME ? uri.path.split('/')[1] || undefined : undefined;
}

/** Decodes bytes as text, or undefined when they are not UTF-8 text (NUL bytes, invalid sequences). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
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

  constructor(private readonly api: ApiService) {
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
    const id = fileIdOf(uri);
    if (!id) return '';
    try {
      const download = await this.api.client().downloadFile(id);
      const chunks: Buffer[] = [];
      for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Uint8Array));
      const text = decodeText(Buffer.concat(chunks));
      return text ?? `${vscode.l10n.t('This file is not text. Use "Save As…" in the Files view to save it to disk.')}\n`;
    } catch (e) {
      return `${vscode.l10n.t('The file could not be downloaded: {0}', e instanceof Error ? e.message : String(e))}\n`;
    }
  }
}
