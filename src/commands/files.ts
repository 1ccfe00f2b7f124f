/** Files stored on the service: upload, open, save as, delete, copy id. */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as vscode from 'vscode';
import type { ApiFile } from '../api';
import { safeName } from '../api/filenames';
import type { KeyStore } from '../auth/keyStore';
import { type FileDocumentProvider, MAX_TEXT_DOCUMENT_BYTES, decodeText, downloadWithProgress, readCapped } from '../documents/files';
import { codeColumn, extensionColumn } from '../documents/editorGroups';
import { fileDocumentUri, fileIdOfDocument } from '../documents/uris';
import { UserFacingError } from '../errors';
import { fileBytesSent, formatBytes } from '../format';
import type { Logger } from '../log';
import type { FileStore } from '../stores/fileStore';
import { activeFolder } from '../tasks/sending/code';
import { checkOutgoingFile } from '../tasks/sending/uploadCheck';
import type { UserInterface } from '../ui';

const TEXT_MIME = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-sh|sql|toml|x-ndjson)\b)|\+(json|xml)\b/i;
const TEXT_EXTENSIONS =
  /\.(txt|md|markdown|json|jsonc|jsonl|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|php|swift|sh|bash|zsh|ps1|ya?ml|toml|ini|cfg|conf|xml|html?|css|scss|less|csv|tsv|sql|log|vue|svelte)$/i;

export function looksLikeTextFile(file: Pick<ApiFile, 'filename' | 'mime_type'>): boolean {
  return TEXT_MIME.test(file.mime_type ?? '') || TEXT_EXTENSIONS.test(file.filename);
}

export interface FileDeps {
  ui: UserInterface;
  log: Logger;
  keys: KeyStore;
  files: FileStore;
  fileDocuments: FileDocumentProvider;
}

export class FileActions {
  constructor(private readonly d: FileDeps) {}

  /**
   * Uploads files from the explorer (its selection), or ones the user chooses. Every file is checked first
   * (size and type, as the service judges them): one the service would refuse is an error and nothing is sent.
   */
  async upload(uri?: unknown, uris?: unknown): Promise<ApiFile[]> {
    let targets = Array.isArray(uris) && uris.every(u => u instanceof vscode.Uri) && uris.length ? (uris as vscode.Uri[]) : uri instanceof vscode.Uri ? [uri] : undefined;
    targets ??= await this.d.ui.openDialog({
      canSelectMany: true,
      canSelectFolders: false,
      openLabel: vscode.l10n.t('Upload'),
      title: vscode.l10n.t('Upload to Multi-Agent Files'),
      defaultUri: activeFolder()?.uri,
    });
    if (!targets?.length) return [];
    if (!(await this.d.keys.ensureApiKey())) return [];
    // Every file is checked before the first is sent: one the service would refuse stops them all.
    const sizes: number[] = [];
    for (const target of targets) sizes.push((await checkOutgoingFile(target, 'file')).size);
    const uploaded: ApiFile[] = [];
    try {
      for (const [i, target] of targets.entries()) {
        const name = path.basename(target.path);
        const file = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading {0}', name), cancellable: true },
          async (progress, token) => {
            const aborter = new AbortController();
            const sub = token.onCancellationRequested(() => aborter.abort());
            let reported = 0;
            const onProgress = (sent: number, total: number | undefined) => {
              const pct = Math.min(100, (sent / (total || sizes[i] || 1)) * 100);
              if (pct > reported) {
                // The file's bytes, not the request body's (the form around it is not the user's file).
                progress.report({ increment: pct - reported, message: vscode.l10n.t('{0} of {1}', formatBytes(fileBytesSent(sent, total, sizes[i])), formatBytes(sizes[i])) });
                reported = pct;
              }
            };
            try {
              // Files on disk stream from there; other schemes (remote, virtual) are read first.
              const source = target.scheme === 'file' ? { path: target.fsPath, filename: name } : { data: await vscode.workspace.fs.readFile(target), filename: name };
              return await this.d.files.upload(source, { onProgress, signal: aborter.signal });
            } finally {
              sub.dispose();
            }
          },
        );
        uploaded.push(file);
        this.d.log.info(`uploaded ${name} as ${file.id} (${sizes[i]} bytes)`);
      }
    } finally {
      if (uploaded.length) this.d.files.refresh();
    }
    void this.d.ui.info(
      uploaded.length === 1 ? vscode.l10n.t('Uploaded {0}.', uploaded[0].filename) : vscode.l10n.t('Uploaded {0} files.', uploaded.length),
    );
    return uploaded;
  }

  /** Text opens read-only in an editor; anything else is saved where the user says. */
  async open(arg: unknown): Promise<vscode.TextEditor | vscode.Uri | undefined> {
    const file = await this.resolve(arg, vscode.l10n.t('Open which file?'));
    if (!file) return undefined;
    if (!looksLikeTextFile(file)) return this.saveAs(file);
    const bytes = await downloadWithProgress(this.d.files, file, MAX_TEXT_DOCUMENT_BYTES, download => readAll(download.stream, MAX_TEXT_DOCUMENT_BYTES));
    const text = decodeText(bytes);
    if (text === undefined) return this.saveBytes(file, bytes);
    const uri = fileDocumentUri(file);
    this.d.fileDocuments.put(uri, text);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { viewColumn: extensionColumn(), preview: false });
  }

  /** Streams the content to a file the user chooses. Returns where it went. */
  async saveAs(arg: unknown): Promise<vscode.Uri | undefined> {
    const file = await this.resolve(arg, vscode.l10n.t('Save which file?'));
    if (!file) return undefined;
    const target = await this.askTarget(file);
    if (!target) return undefined;
    await downloadWithProgress(this.d.files, file, undefined, download => streamToUri(download.stream, target));
    this.offerToOpen(target, vscode.l10n.t('Saved {0} to {1}.', file.filename, vscode.workspace.asRelativePath(target, false)));
    return target;
  }

  async delete(arg: unknown): Promise<boolean> {
    const file = await this.resolve(arg, vscode.l10n.t('Delete which file?'));
    if (!file) return false;
    const ok = await this.d.ui.confirm(
      vscode.l10n.t('Delete {0} from the service?', file.filename),
      vscode.l10n.t('Tasks and threads can no longer use it. This cannot be undone.'),
      vscode.l10n.t('Delete'),
      { destructive: true },
    );
    if (!ok) return false;
    await this.d.files.delete(file.id);
    // Its open copy is gone from the service too: the tab would show what no longer exists.
    const tabs = vscode.window.tabGroups.all
      .flatMap(group => group.tabs)
      .filter(tab => tab.input instanceof vscode.TabInputText && fileIdOfDocument(tab.input.uri) === file.id);
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    return true;
  }

  async copyId(arg: unknown): Promise<string | undefined> {
    const file = await this.resolve(arg, vscode.l10n.t('Copy the id of which file?'));
    if (!file) return undefined;
    await vscode.env.clipboard.writeText(file.id);
    void this.d.ui.info(vscode.l10n.t('Copied {0}.', file.id));
    return file.id;
  }

  /** A tree node, a file id, or a pick from the loaded list. */
  private async resolve(arg: unknown, placeHolder: string): Promise<ApiFile | undefined> {
    const candidate = (arg as { file?: unknown } | undefined)?.file ?? arg;
    if (isApiFile(candidate)) return candidate;
    if (typeof arg === 'string') return this.d.files.get(arg);
    const files = await this.d.files.files();
    if (!files.length) throw new UserFacingError(vscode.l10n.t('No files are stored on the service.'));
    const picked = await this.d.ui.pick(
      files.map(file => ({ label: file.filename, description: file.bytes !== undefined ? formatBytes(file.bytes) : undefined, detail: file.id, file })),
      { placeHolder },
    );
    return picked?.file;
  }

  private async askTarget(file: ApiFile): Promise<vscode.Uri | undefined> {
    const folder = activeFolder()?.uri;
    return this.d.ui.saveDialog({
      title: vscode.l10n.t('Save {0}', file.filename),
      saveLabel: vscode.l10n.t('Save'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, safeName(file.filename) ?? file.id) : undefined,
    });
  }

  private async saveBytes(file: ApiFile, bytes: Uint8Array): Promise<vscode.Uri | undefined> {
    const target = await this.askTarget(file);
    if (!target) return undefined;
    await vscode.workspace.fs.writeFile(target, bytes);
    this.offerToOpen(target, vscode.l10n.t('{0} is not text: saved it to {1}.', file.filename, vscode.workspace.asRelativePath(target, false)));
    return target;
  }

  /** Says where the copy went, with "Open" (not awaited: the command is done). */
  private offerToOpen(target: vscode.Uri, message: string): void {
    const open = vscode.l10n.t('Open');
    void Promise.resolve(this.d.ui.info(message, open)).then(async choice => {
      if (choice === open) await vscode.commands.executeCommand('vscode.open', target, { viewColumn: codeColumn(), preview: false });
    }).catch(e => this.d.log.warn(`could not open ${target.toString()}: ${(e as Error).message}`));
  }
}

function isApiFile(value: unknown): value is ApiFile {
  const v = value as Partial<ApiFile> | undefined;
  return typeof v?.id === 'string' && typeof v.filename === 'string';
}

/** Writes a download to disk without holding it in memory; a failed write leaves no partial file. */
export async function streamToUri(stream: Readable, target: vscode.Uri): Promise<void> {
  if (target.scheme === 'file') {
    try {
      await pipeline(stream, createWriteStream(target.fsPath));
    } catch (e) {
      await rm(target.fsPath, { force: true }).catch(() => undefined);
      throw e;
    }
    return;
  }
  await vscode.workspace.fs.writeFile(target, await readAll(stream, Number.MAX_SAFE_INTEGER));
}

/** The whole download, or "too large" once it passes `maxBytes`. */
async function readAll(stream: Readable, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readCapped(stream, maxBytes);
  if (!bytes) throw new UserFacingError(vscode.l10n.t('The file is over {0}: use "Save As…" instead.', formatBytes(maxBytes)));
  return bytes;
}
