/**
 * Files stored on the service: pages the list, caches it until a refresh, knows that the earlier API
 * form has no files, and fires `onDidChange` after every change it makes (upload, delete).
 */
import * as vscode from 'vscode';
import type { ApiFile, DownloadOptions, UploadOptions, UploadSource } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import type { Config } from '../config';
import { Disposable } from '../disposable';
import { onServiceChange } from './follow';
import type { TrackedTask } from '../tasks/model';
import type { TaskStore } from '../tasks/store/taskStore';
import { PagedList } from './paging';
import { UserFacingError, errorKind, inert } from '../errors';
import { tooLargeToDownload } from '../vocabulary';

/** The most the service serves inline to an API key, bytes; larger files come from the web console. */
const INLINE_DOWNLOAD_BYTES = 4 * 1024 * 1024;

const PAGE_SIZE = 50;

export type FileListing = { kind: 'noKey' } | { kind: 'unavailable' } | { kind: 'loaded'; files: ApiFile[]; hasMore: boolean };

/** The task that produced a stored file: its title and when it ended (ms since epoch). */
export interface FileOrigin {
  taskId: string;
  title: string;
  at: number;
}

export class FileStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly pages = new PagedList<ApiFile>(
    PAGE_SIZE,
    async request => {
      const page = await this.api.client().listFiles(request);
      return { items: page.files ?? [], total: page.total };
    },
    file => file.id,
  );

  /** The stored files the tasks produced, by file id; a new one refreshes the list (issue 26). */
  private readonly produced = new Map<string, FileOrigin>();

  constructor(
    private readonly api: ApiService,
    private readonly keys: KeyStore,
    config: Pick<Config, 'onDidChange'>,
    tasks?: Pick<TaskStore, 'all' | 'onDidChange'>,
  ) {
    super();
    this._register(onServiceChange({ config, keys }, () => this.refresh()));
    if (!tasks) return;
    for (const task of tasks.all()) this.noteProduced(task);
    // A task that ended with files stored on the service: the Files view lists them without a manual refresh.
    this._register(
      tasks.onDidChange(e => {
        if (e.kind === 'removed') {
          for (const [id, origin] of this.produced) if (origin.taskId === e.task.id) this.produced.delete(id);
          return;
        }
        if (e.kind !== 'progress' && this.noteProduced(e.task)) this.refresh();
      }),
    );
  }

  /** Which task produced the stored file `fileId`, if a tracked one did. */
  originOf(fileId: string): FileOrigin | undefined {
    return this.produced.get(fileId);
  }

  /** Remembers a task's stored files; true when one was not known yet. */
  private noteProduced(task: TrackedTask): boolean {
    let added = false;
    for (const file of task.files ?? []) {
      if (!file.fileId || this.produced.has(file.fileId)) continue;
      this.produced.set(file.fileId, { taskId: task.id, title: task.title, at: task.finishedAt ?? task.updatedAt });
      added = true;
    }
    return added;
  }

  refresh(): void {
    this.pages.reset();
    this.changed.fire();
  }

  /** The first page is read on demand and cached; a failed read is not cached. */
  async list(): Promise<FileListing> {
    if (!(await this.keys.getApiKey())) return { kind: 'noKey' };
    const client = this.api.client();
    if (client.form === 'earlier') return { kind: 'unavailable' };
    const { items, hasMore } = await this.pages.first();
    return { kind: 'loaded', files: items, hasMore };
  }

  /** The files read so far (the first page read on demand). */
  async files(): Promise<ApiFile[]> {
    const list = await this.list();
    return list.kind === 'loaded' ? list.files : [];
  }

  async loadMore(): Promise<void> {
    if (await this.pages.more()) this.changed.fire();
  }

  async get(fileId: string): Promise<ApiFile> {
    const known = await this.pages.known();
    return known?.items.find(f => f.id === fileId) ?? this.api.client().getFile(fileId);
  }

  async upload(source: UploadSource, options: UploadOptions = {}): Promise<ApiFile> {
    return this.api.client().uploadFile(source, options);
  }

  async delete(fileId: string): Promise<void> {
    await this.api.client().deleteFile(fileId);
    this.refresh();
  }

  /**
   * The file's content as a bounded stream (see DownloadOptions). The service serves INLINE_DOWNLOAD_BYTES inline: a larger
   * file is a UserFacingError that says so and where to get it.
   */
  async download(file: { id: string; filename?: string }, options: DownloadOptions = {}) {
    try {
      return await this.api.client().downloadFile(file.id, options);
    } catch (e) {
      if (errorKind(e) !== 'tooLarge') throw e;
      throw new UserFacingError(tooLargeToDownload(inert(file.filename ?? file.id), INLINE_DOWNLOAD_BYTES));
    }
  }
}
