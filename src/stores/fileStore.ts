/**
 * Files stored on the service: pages the list, caches it until a refresh, knows that the earlier API
 * form has no files, and fires `onDidChange` after every change it makes (upload, delete).
 */
import * as vscode from 'vscode';
import type { ApiFile, DownloadOptions, UploadOptions, UploadSource } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { Disposable } from '../disposable';
import { UserFacingError, errorKind, inert } from '../errors';

const PAGE_SIZE = 50;

export type FileListing = { kind: 'noKey' } | { kind: 'unavailable' } | { kind: 'loaded'; files: ApiFile[]; hasMore: boolean };

interface Page {
  files: ApiFile[];
  total: number | undefined;
  /** How many the last read added. */
  lastCount: number;
}

export class FileStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private page: Promise<Page> | undefined;
  private generation = 0;

  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
  ) {
    super();
  }

  refresh(): void {
    this.generation++;
    this.page = undefined;
    this.changed.fire();
  }

  /** The first page is read on demand and cached; a failed read is not cached. */
  async list(): Promise<FileListing> {
    if (!(await this.keys.getApiKey())) return { kind: 'noKey' };
    const client = this.api.client();
    if (client.form === 'earlier') return { kind: 'unavailable' };
    if (!this.page) {
      const pending = client.listFiles({ limit: PAGE_SIZE, offset: 0 }).then(first => {
        const files = first.files ?? [];
        return { files, total: first.total, lastCount: files.length };
      });
      this.page = pending;
      pending.catch(() => {
        if (this.page === pending) this.page = undefined;
      });
    }
    const page = await this.page;
    return { kind: 'loaded', files: page.files, hasMore: hasMore(page) };
  }

  /** The files read so far (the first page read on demand). */
  async files(): Promise<ApiFile[]> {
    const list = await this.list();
    return list.kind === 'loaded' ? list.files : [];
  }

  async loadMore(): Promise<void> {
    const current = this.page && (await this.page.catch(() => undefined));
    if (!current || !hasMore(current)) return;
    const generation = this.generation;
    const more = await this.api.client().listFiles({ limit: PAGE_SIZE, offset: current.files.length });
    if (generation !== this.generation) return;
    const known = new Set(current.files.map(f => f.id));
    const fresh = (more.files ?? []).filter(f => !known.has(f.id));
    this.page = Promise.resolve({ files: [...current.files, ...fresh], total: more.total, lastCount: fresh.length });
    this.changed.fire();
  }

  async get(fileId: string): Promise<ApiFile> {
    const page = this.page && (await this.page.catch(() => undefined));
    return page?.files.find(f => f.id === fileId) ?? this.api.client().getFile(fileId);
  }

  async upload(source: UploadSource, options: UploadOptions = {}): Promise<ApiFile> {
    return this.api.client().uploadFile(source, options);
  }

  async delete(fileId: string): Promise<void> {
    await this.api.client().deleteFile(fileId);
    this.refresh();
  }

  /**
   * The file's content as a bounded stream (see DownloadOptions). The service serves at most 4 MiB inline: a larger
   * file is a UserFacingError that says so and where to get it.
   */
  async download(file: { id: string; filename?: string }, options: DownloadOptions = {}) {
    try {
      return await this.api.client().downloadFile(file.id, options);
    } catch (e) {
      if (errorKind(e) !== 'tooLarge') throw e;
      throw new UserFacingError(
        vscode.l10n.t(
          '{0} is larger than the service lets an API key download (4 MiB at a time): download it from the web console.',
          inert(file.filename ?? file.id),
        ),
      );
    }
  }
}

/** `total` when the service sends it; otherwise a full last page means there may be more. */
function hasMore(page: Page): boolean {
  if (page.lastCount === 0) return false;
  return page.total !== undefined ? page.files.length < page.total : page.lastCount >= PAGE_SIZE;
}
