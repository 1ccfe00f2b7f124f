/** The Files view: renders the file store (the service's files, paged). */
import * as vscode from 'vscode';
import { shownFileName } from '../../api/filenames';
import type { ApiFile } from '../../api';
import { Commands } from '../../constants';
import { fileDocumentUri } from '../../documents/uris';
import { Disposable } from '../../disposable';
import { formatBytes, formatWhen } from '../../format';
import type { FileStore } from '../../stores/fileStore';
import { notOnEarlierForm } from '../../vocabulary';
import { FirstPageLoading, type LoadMoreNode, type NoticeNode, errorNotice, loadMoreItem, notice, noticeItem, textTooltip } from './treeNodes';

export interface FileNode {
  readonly kind: 'file';
  readonly file: ApiFile;
  /** Another listed file has the same name: the row says when it was made. */
  readonly sameName?: boolean;
}
export type FilesTreeNode = FileNode | NoticeNode | LoadMoreNode;

export class FilesTreeProvider extends Disposable implements vscode.TreeDataProvider<FilesTreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<FilesTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  private readonly firstPage = this._register(new FirstPageLoading());
  /** `loading` changed. */
  readonly onDidChangeLoading = this.firstPage.onDidChange;

  constructor(private readonly store: FileStore) {
    super();
    this._register(store.onDidChange(() => this.changed.fire(undefined)));
  }

  /** True while the first page (or one after an empty list) is read: the view then says "Loading…". */
  get loading(): boolean {
    return this.firstPage.loading;
  }

  async getChildren(element?: FilesTreeNode): Promise<FilesTreeNode[]> {
    if (element) return [];
    return this.firstPage.read(() => this.roots());
  }

  private async roots(): Promise<FilesTreeNode[]> {
    try {
      const list = await this.store.list();
      if (list.kind === 'noKey') return []; // the welcome content offers "Set API Key"
      if (list.kind === 'unavailable') return [notice(notOnEarlierForm('files'))];
      const names = new Map<string, number>();
      for (const file of list.files) names.set(file.filename, (names.get(file.filename) ?? 0) + 1);
      const nodes: FilesTreeNode[] = list.files.map(file => ({ kind: 'file', file, sameName: (names.get(file.filename) ?? 0) > 1 }));
      return list.hasMore ? [...nodes, { kind: 'loadMore' }] : nodes;
    } catch (e) {
      return [errorNotice(vscode.l10n.t('Could not load the files'), e, Commands.refreshFiles)];
    }
  }

  getTreeItem(element: FilesTreeNode): vscode.TreeItem {
    if (element.kind === 'loadMore') return loadMoreItem(Commands.loadMoreFiles);
    if (element.kind === 'notice') return noticeItem(element);
    const { file } = element;
    const item = new vscode.TreeItem(shownFileName(file.filename));
    item.id = `file:${file.id}`;
    // The file name picks the icon from the user's file icon theme.
    item.resourceUri = fileDocumentUri(file);
    item.iconPath = vscode.ThemeIcon.File;
    // Which task made it and when: five findings.csv rows are told apart by more than their size (issue 26).
    const origin = this.store.originOf(file.id);
    const madeAt = file.created_at !== undefined ? new Date(file.created_at * 1000) : origin ? new Date(origin.at) : undefined;
    const when = madeAt ? formatWhen(madeAt) : '';
    const size = file.bytes !== undefined ? formatBytes(file.bytes) : '';
    const made = origin ? [origin.title, when].filter(Boolean).join(', ') : element.sameName ? when : '';
    item.description = [made, size].filter(Boolean).join(' · ') || undefined;
    item.tooltip = textTooltip(shownFileName(file.filename), [
      origin ? vscode.l10n.t('Made by the task: {0}', origin.title) : '',
      file.bytes !== undefined ? vscode.l10n.t('Size: {0} ({1} bytes)', formatBytes(file.bytes), file.bytes.toLocaleString()) : '',
      file.created_at !== undefined ? (origin ? vscode.l10n.t('Made: {0}', new Date(file.created_at * 1000).toLocaleString()) : vscode.l10n.t('Uploaded: {0}', new Date(file.created_at * 1000).toLocaleString())) : '',
      file.purpose ? vscode.l10n.t('Purpose: {0}', file.purpose) : '',
      file.mime_type ? vscode.l10n.t('Type: {0}', file.mime_type) : '',
      vscode.l10n.t('Id: {0}', file.id),
    ]);
    item.contextValue = 'file';
    // A click opens it, as a row of the Tasks view does (issue 35: the row opened nothing).
    item.command = { command: Commands.openFile, title: vscode.l10n.t('Open'), arguments: [element] };
    // A screen reader hears what the row is, not only its name (issue 26).
    item.accessibilityInformation = { label: vscode.l10n.t('{0}, file stored on the service, {1}', shownFileName(file.filename), item.description || vscode.l10n.t('no details')) };
    return item;
  }
}
