/** The Files view: files stored on the service, paged; loaded on demand and cached until a refresh. */
import * as vscode from 'vscode';
import type { ApiFile } from '../api';
import type { ApiService } from '../apiService';
import type { KeyStore } from '../auth/keyStore';
import { Commands, FILE_SCHEME } from '../constants';
import { Disposable } from '../disposable';
import { formatBytes } from './format';
import { type ThreadNoticeNode, errorNotice } from './threadsTree';

const PAGE_SIZE = 50;

export interface FileNode {
  readonly kind: 'file';
  readonly file: ApiFile;
}
export type FilesTreeNode = FileNode | ThreadNoticeNode | { readonly kind: 'loadMore' };

export class FilesTreeProvider extends Disposable implements vscode.TreeDataProvider<FilesTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<FilesTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private page: { files: ApiFile[]; total: number | undefined; lastCount: number } | undefined;
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
    this.changed.fire(undefined);
  }

  async loadMore(): Promise<void> {
    if (!this.page || !this.hasMore(this.page)) return;
    const generation = this.generation;
    const more = await this.api.client().listFiles({ limit: PAGE_SIZE, offset: this.page.files.length });
    if (generation !== this.generation || !this.page) return;
    const known = new Set(this.page.files.map(f => f.id));
    const fresh = (more.files ?? []).filter(f => !known.has(f.id));
    this.page = { files: [...this.page.files, ...fresh], total: more.total, lastCount: fresh.length };
    this.changed.fire(undefined);
  }

  /** The loaded files (first page loaded on demand). */
  async files(): Promise<ApiFile[]> {
    return (await this.getChildren()).filter((n): n is FileNode => n.kind === 'file').map(n => n.file);
  }

  async getChildren(element?: FilesTreeNode): Promise<FilesTreeNode[]> {
    if (element) return [];
    if (!(await this.keys.getApiKey())) return [];
    try {
      const client = this.api.client();
      if (client.form === 'earlier') {
        return [{ kind: 'notice', label: vscode.l10n.t('Files are not available on the earlier API form (…/api/developer)'), icon: 'info' }];
      }
      if (!this.page) {
        const generation = this.generation;
        const first = await client.listFiles({ limit: PAGE_SIZE, offset: 0 });
        const files = first.files ?? [];
        if (generation !== this.generation) return this.getChildren();
        this.page = { files, total: first.total, lastCount: files.length };
      }
      const nodes: FilesTreeNode[] = this.page.files.map(file => ({ kind: 'file', file }));
      return this.hasMore(this.page) ? [...nodes, { kind: 'loadMore' }] : nodes;
    } catch (e) {
      return [errorNotice(vscode.l10n.t('Could not load the files'), e, Commands.refreshFiles)];
    }
  }

  getTreeItem(element: FilesTreeNode): vscode.TreeItem {
    if (element.kind === 'loadMore') {
      const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: Commands.loadMoreFiles, title: vscode.l10n.t('Load More') };
      item.contextValue = 'loadMore';
      return item;
    }
    if (element.kind === 'notice') {
      const item = new vscode.TreeItem(element.label);
      item.iconPath = new vscode.ThemeIcon(element.icon);
      item.tooltip = element.detail;
      item.command = element.command;
      return item;
    }
    const { file } = element;
    const item = new vscode.TreeItem(file.filename);
    item.id = `file:${file.id}`;
    // The file name picks the icon from the user's file icon theme.
    item.resourceUri = vscode.Uri.from({ scheme: FILE_SCHEME, path: `/${file.id}/${file.filename}` });
    item.iconPath = vscode.ThemeIcon.File;
    item.description = file.bytes !== undefined ? formatBytes(file.bytes) : undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**');
    md.appendText(file.filename);
    md.appendMarkdown('**\n\n');
    const lines = [
      file.bytes !== undefined ? vscode.l10n.t('Size: {0} ({1} bytes)', formatBytes(file.bytes), file.bytes.toLocaleString()) : '',
      file.created_at !== undefined ? vscode.l10n.t('Uploaded: {0}', new Date(file.created_at * 1000).toLocaleString()) : '',
      file.purpose ? vscode.l10n.t('Purpose: {0}', file.purpose) : '',
      file.mime_type ? vscode.l10n.t('Type: {0}', file.mime_type) : '',
      vscode.l10n.t('Id: {0}', file.id),
    ];
    for (const line of lines.filter(Boolean)) {
      md.appendText(line);
      md.appendMarkdown('  \n');
    }
    item.tooltip = md;
    item.contextValue = 'file';
    return item;
  }

  /** `total` when the service sends it; otherwise a full last page means there may be more. */
  private hasMore(page: { files: ApiFile[]; total: number | undefined; lastCount: number }): boolean {
    if (page.lastCount === 0) return false;
    return page.total !== undefined ? page.files.length < page.total : page.lastCount >= PAGE_SIZE;
  }
}
