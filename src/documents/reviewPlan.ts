/**
 * The review plan of a task's answer against the workspace as it is (issue 16): paths the answer names are
 * confined to the task's workspace folder on the file system (symlinks followed, `confinePath`), each file is
 * read from its open document (what the user sees, unsaved edits included) or else from disk, and the base of
 * the three-way merge is the text the task kept of it when it was sent. Reads only; nothing here writes.
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import {
  type EntryKind,
  type FileState,
  type PathResolver,
  type PlanFiles,
  type ReviewPlan,
  type SentSource,
  checkPath,
  confinePath,
  planOffThread,
  workerScript,
} from '../review';
import type { TrackedTask } from '../tasks/model';
import type { SentFile } from '../tasks/sentTexts';
import type { TaskStore } from '../tasks/taskStore';
import { looksBinary, rangeRecordOf } from '../tasks/code';
import type { SourceRangeTracker } from './sourceRanges';

/** Files larger than this are not merged (the plan lists them): the review works on whole texts in memory. */
const MAX_MERGE_BYTES = 8 * 1024 * 1024;

export interface PreparedReview {
  task: TrackedTask;
  folder: vscode.WorkspaceFolder;
  plan: ReviewPlan;
  /** The file a workspace-relative path names. */
  uriOf(relative: string): vscode.Uri;
  /** The text each offered file has now (what the plan's offsets are in). */
  current: Map<string, string>;
  /** Files merged against the file now only, and why no text was kept of them (keyed by path). */
  twoWayReasons: Map<string, SentFile['notRecorded'] | 'notSent' | 'unreadable'>;
}

const caseless = process.platform === 'win32' || process.platform === 'darwin';
const key = (p: string) => (caseless ? p.toLowerCase() : p);

/** The workspace folder a task's files are relative to: its source's, or its first sent file's, or the only one. */
export function folderOf(task: TrackedTask): vscode.WorkspaceFolder | undefined {
  for (const uri of [task.source?.uri, ...(task.sent ?? []).map(f => f.uri), task.workspace]) {
    if (!uri) continue;
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri));
    if (folder) return folder;
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length === 1 ? folders[0] : undefined;
}

/** `fs.lstat` / `fs.realpath` for file: folders; elsewhere symlinks cannot be followed, so they are refused. */
function resolverFor(folder: vscode.WorkspaceFolder): PathResolver {
  if (folder.uri.scheme === 'file') {
    return {
      root: folder.uri.fsPath.replace(/\\/g, '/'),
      kind: async absolute => {
        try {
          const s = await fs.lstat(absolute);
          return s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
        } catch {
          return 'missing';
        }
      },
      realpath: async absolute => {
        try {
          return (await fs.realpath(absolute)).replace(/\\/g, '/');
        } catch {
          return undefined;
        }
      },
    };
  }
  const uriOf = (absolute: string) => folder.uri.with({ path: absolute });
  return {
    root: folder.uri.path,
    kind: async (absolute): Promise<EntryKind> => {
      try {
        const s = await vscode.workspace.fs.stat(uriOf(absolute));
        return s.type & vscode.FileType.SymbolicLink ? 'symlink' : s.type & vscode.FileType.File ? 'file' : s.type & vscode.FileType.Directory ? 'directory' : 'other';
      } catch {
        return 'missing';
      }
    },
    realpath: async absolute => absolute,
  };
}

function fileUri(folder: vscode.WorkspaceFolder, absolute: string): vscode.Uri {
  return folder.uri.scheme === 'file' ? vscode.Uri.file(absolute) : folder.uri.with({ path: absolute });
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const wanted = key(uri.toString());
  return vscode.workspace.textDocuments.find(d => key(d.uri.toString()) === wanted);
}

/** The file now: its open document, else the disk (decoded as UTF-8, or as VS Code decodes it when it is not). */
async function readNow(uri: vscode.Uri): Promise<FileState> {
  const open = openDocument(uri);
  if (open) return { kind: 'file', text: open.getText() };
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_MERGE_BYTES) return { kind: 'refused', reason: vscode.l10n.t('not applied: the file is too large to merge here') };
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (looksBinary(bytes)) return { kind: 'refused', reason: vscode.l10n.t('not applied: the file is binary') };
  try {
    return { kind: 'file', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { kind: 'file', text: (await vscode.workspace.openTextDocument(uri)).getText() };
  }
}

/**
 * Parses the task's answer and builds the plan against the workspace now. `answer` is the result text.
 * Throws nothing for a hostile answer: whatever cannot be offered is in the plan with its reason.
 */
export async function prepareReview(
  d: { store: Pick<TaskStore, 'readSent'>; tracker: Pick<SourceRangeTracker, 'now'> },
  task: TrackedTask,
  answer: string,
  folder: vscode.WorkspaceFolder,
  /** `block`: Apply… on one block, the review of that block alone (its hunks, its file). */
  options: { block?: number; signal?: AbortSignal } = {},
): Promise<PreparedReview> {
  const { block, signal } = options;
  const resolver = resolverFor(folder);
  const root = resolver.root.replace(/\/+$/, '');
  const relativeOf = (uri: string): string | undefined => {
    const parsed = vscode.Uri.parse(uri);
    if (parsed.scheme !== folder.uri.scheme) return undefined;
    const p = parsed.scheme === 'file' ? parsed.fsPath.replace(/\\/g, '/') : parsed.path;
    if (!key(p).startsWith(`${key(root)}/`)) return undefined;
    const checked = checkPath(p.slice(root.length + 1));
    return checked.ok ? checked.path : undefined;
  };

  const sourcePath = task.source ? relativeOf(task.source.uri) : undefined;

  // The sent texts, by path in this folder.
  const sentFiles = new Map<string, SentFile>();
  for (const f of task.sent ?? []) {
    const rel = relativeOf(f.uri);
    if (rel !== undefined && !sentFiles.has(key(rel))) sentFiles.set(key(rel), f);
  }

  const states = new Map<string, FileState>();
  const sentTexts = new Map<string, string>();
  const twoWayReasons: PreparedReview['twoWayReasons'] = new Map();
  const uris = new Map<string, vscode.Uri>();
  /** Every path the plan will ask about (the planner's thread parsed the answer), resolved before it plans. */
  const readFiles = async (paths: string[]): Promise<PlanFiles> => {
    for (const p of paths) {
      if (signal?.aborted) break;
      const confined = await confinePath(p, resolver, caseless);
      let state: FileState;
      if (!confined.ok) {
        state =
          confined.problem === 'outside'
            ? { kind: 'refused', outside: true, reason: '' }
            : { kind: 'refused', reason: confined.problem === 'directory' ? vscode.l10n.t('not applied: the path names a folder') : vscode.l10n.t('not applied: the path is not a regular file') };
      } else {
        const uri = fileUri(folder, confined.absolute);
        uris.set(key(p), uri);
        try {
          state = confined.exists ? await readNow(uri) : { kind: 'missing' };
        } catch {
          state = { kind: 'refused', reason: vscode.l10n.t('not applied: the file cannot be read') };
        }
      }
      states.set(key(p), state);
      const sent = sentFiles.get(key(p));
      const text = sent ? await d.store.readSent(task.id, sent) : undefined;
      if (text !== undefined) sentTexts.set(key(p), text);
      else if (state.kind === 'file') twoWayReasons.set(p, sent ? (sent.notRecorded ?? 'unreadable') : 'notSent');
    }

    let source: SentSource | undefined;
    if (task.source && sourcePath !== undefined) {
      source = { path: sourcePath, range: task.source.range };
      if (task.source.range && !sentTexts.has(key(sourcePath))) {
        // No text kept: the range is placed where the user's edits moved it.
        try {
          const now = await d.tracker.now(task);
          source.currentRange = rangeRecordOf(now.range);
        } catch {
          // the source is gone: the plan says so
        }
      }
    }
    return { states, sent: sentTexts, source };
  };

  // Parsing and planning run on the planner's thread: no answer blocks the extension host (issue 25).
  const plan = await planOffThread(
    workerScript(__dirname),
    { answer, block, sourcePath, caseless, bundle: vscode.l10n.bundle, newFileEol: process.platform === 'win32' ? '\r\n' : '\n' },
    readFiles,
    signal,
  );

  const current = new Map<string, string>();
  for (const f of plan.files) {
    const state = states.get(key(f.path));
    if (f.kind === 'modify' && state?.kind === 'file') current.set(f.path, state.text);
  }
  for (const p of [...twoWayReasons.keys()]) if (!plan.files.some(f => f.kind !== 'skip' && f.path === p && f.twoWay)) twoWayReasons.delete(p);
  return {
    task,
    folder,
    plan,
    uriOf: relative => uris.get(key(relative)) ?? fileUri(folder, `${root}/${relative}`),
    current,
    twoWayReasons,
  };
}
