/**
 * The review plan of a task's answer against the workspace as it is (issue 16): paths the answer names are
 * confined to the task's workspace folder on the file system (symlinks followed, `confinePath`), each file is
 * read from its open document (what the user sees, unsaved edits included) or else from disk, and the base of
 * the three-way merge is the text the task kept of it when it was sent. Reads only; nothing here writes.
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type {
  EntryKind,
  FileState,
  NamedTarget,
  Placement,
  PathResolver,
  PlanFiles,
  ReadBudget,
  ReviewPlan,
  SentSource,
  WorkspaceFolderName,
} from '../review';
import type { TrackedTask } from '../tasks/model';
import type { SentFile } from '../tasks/store/sentTexts';
import type { TaskStore } from '../tasks/store/taskStore';
import { looksBinary, rangeRecordOf } from '../tasks/sending/code';
import type { SourceRangeTracker } from './sourceRanges';
import { reviewPart } from '../parts';

/** The review core, loaded on first use (lazy.ts). */

/** Files larger than this are not merged (the plan lists them): the review works on whole texts in memory. */
const MAX_MERGE_BYTES = 8 * 1024 * 1024;

export interface PreparedReview {
  task: TrackedTask;
  /** The folder the task was sent from (else the first): where the review starts. */
  folder: vscode.WorkspaceFolder;
  plan: ReviewPlan;
  /** The file a plan's path names (`<folder>/<path>` with several workspace folders). */
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

/**
 * The file now: its open document, else the disk (decoded as UTF-8, or as VS Code decodes it when it is not);
 * undefined when the review's read budget is spent (the plan says the file is too large to review here).
 */
async function readNow(uri: vscode.Uri, budget: ReadBudget): Promise<FileState | undefined> {
  const open = openDocument(uri);
  if (open) return { kind: 'file', text: open.getText() };
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_MERGE_BYTES) return { kind: 'refused', reason: vscode.l10n.t('not applied: the file is too large to merge here') };
  if (!budget.take(stat.size)) return undefined;
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (looksBinary(bytes)) return { kind: 'refused', reason: vscode.l10n.t('not applied: the file is binary') };
  try {
    return { kind: 'file', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { kind: 'file', text: (await vscode.workspace.openTextDocument(uri)).getText() };
  }
}

/** Where a file of the workspace is: its folder and its checked path in it. */
interface Located {
  folder: vscode.WorkspaceFolder;
  path: string;
}

/**
 * Parses the task's answer and builds the plan against the workspace now. `answer` is the result text.
 * `home`: the folder the task was sent from (`folderOf`), if open; with several workspace folders each file
 * lands in the folder its path names, else in `home` (review/folders.ts), and the plan's paths are
 * `<folder>/<path>`. Throws nothing for a hostile answer: whatever cannot be offered is in the plan with its reason.
 */
export async function prepareReview(
  d: { store: Pick<TaskStore, 'readSent'>; tracker: Pick<SourceRangeTracker, 'now'> },
  task: TrackedTask,
  answer: string,
  home: vscode.WorkspaceFolder | undefined,
  /** `block`: Apply… on one block, the review of that block alone (its hunks, its file). */
  options: { block?: number; signal?: AbortSignal } = {},
): Promise<PreparedReview> {
  const { block, signal } = options;
  const open = vscode.workspace.workspaceFolders ?? [];
  const folders = open.length ? open : home ? [home] : [];
  const first = home ?? folders[0];
  if (!first) throw new Error('no workspace folder to review in');
  const byName = new Map<string, vscode.WorkspaceFolder>();
  for (const f of folders) if (!byName.has(f.name)) byName.set(f.name, f);
  const resolvers = new Map(folders.map(f => [f, resolverFor(f)]));
  const rootOf = (f: vscode.WorkspaceFolder) => resolvers.get(f)!.root.replace(/\/+$/, '');
  const pathOf = (f: vscode.WorkspaceFolder, path: string) => reviewPart().qualified(f.name, path, folders.length);
  const locate = (uri: string): Located | undefined => {
    const parsed = vscode.Uri.parse(uri);
    const folder = folders.find(f => f.uri.toString() === vscode.workspace.getWorkspaceFolder(parsed)?.uri.toString()) ?? (folders.length === 1 ? folders[0] : undefined);
    if (!folder || parsed.scheme !== folder.uri.scheme) return undefined;
    const root = rootOf(folder);
    const p = parsed.scheme === 'file' ? parsed.fsPath.replace(/\\/g, '/') : parsed.path;
    if (!key(p).startsWith(`${key(root)}/`)) return undefined;
    const checked = reviewPart().checkPath(p.slice(root.length + 1));
    return checked.ok ? { folder, path: checked.path } : undefined;
  };

  const located = task.source ? locate(task.source.uri) : undefined;
  const sourceIn = located && (!home || located.folder === home) ? located : undefined;
  const sourcePath = sourceIn?.path;

  // The sent texts, by the plan's path.
  const sentFiles = new Map<string, SentFile>();
  for (const f of task.sent ?? []) {
    const at = locate(f.uri);
    const p = at && pathOf(at.folder, at.path);
    if (p !== undefined && !sentFiles.has(key(p))) sentFiles.set(key(p), f);
  }

  // A folder that holds an entry of its own name (a package folder): `name/x` then means that entry (reader.ts).
  const names: WorkspaceFolderName[] = [];
  for (const f of folders) {
    const kind = await resolvers.get(f)!.kind(`${rootOf(f)}/${f.name}`);
    names.push(kind === 'missing' ? { name: f.name } : { name: f.name, hasSelfNamedChild: true });
  }

  const states = new Map<string, FileState>();
  const sentTexts = new Map<string, string>();
  const twoWayReasons: PreparedReview['twoWayReasons'] = new Map();
  const uris = new Map<string, vscode.Uri>();
  const confine = (f: vscode.WorkspaceFolder, path: string) => reviewPart().confinePath(path, resolvers.get(f)!, caseless);
  /** Every path the plan will ask about (the planner's thread parsed the answer), resolved before it plans. */
  const overBudget: string[] = [];
  const readFiles = async (paths: string[], targets: NamedTarget[], budget: ReadBudget): Promise<PlanFiles> => {
    let wanted: (Located & { planPath: string })[];
    let placements: Placement[] | undefined;
    if (folders.length > 1) {
      // Several folders: each target goes where its path says (folders.ts); ambiguous ones are not read.
      placements = await reviewPart().placeTargets(targets, folders.map(f => f.name), sourceIn?.folder.name ?? home?.name, async path => {
        const found: string[] = [];
        for (const f of folders) {
          const c = await confine(f, path);
          if (c.ok && c.exists) found.push(f.name);
        }
        return found;
      });
      wanted = [];
      placements.forEach((placed, i) => {
        const folder = 'path' in placed ? byName.get(placed.folder) : undefined;
        if (folder && 'path' in placed) wanted.push({ folder, path: targets[i].path, planPath: placed.path });
      });
    } else {
      wanted = paths.map(p => ({ folder: first, path: p, planPath: p }));
    }
    for (const { folder, path, planPath: p } of wanted) {
      if (signal?.aborted) break;
      if (states.has(key(p))) continue;
      const confined = await confine(folder, path);
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
          const read = confined.exists ? await readNow(uri, budget) : { kind: 'missing' as const };
          if (!read) {
            overBudget.push(p);
            continue;
          }
          state = read;
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
    if (task.source && sourceIn) {
      const planPath = pathOf(sourceIn.folder, sourceIn.path);
      source = { path: planPath, range: task.source.range };
      if (task.source.range && !sentTexts.has(key(planPath))) {
        // No text kept: the range is placed where the user's edits moved it.
        try {
          const now = await d.tracker.now(task);
          source.currentRange = rangeRecordOf(now.range);
        } catch {
          // the source is gone: the plan says so
        }
      }
    }
    return placements ? { states, sent: sentTexts, source, placements, overBudget } : { states, sent: sentTexts, source, overBudget };
  };

  // Parsing and planning run on the planner's thread: no answer blocks the extension host (issue 25).
  const plan = await reviewPart().planOffThread(
    reviewPart().workerScript(__dirname),
    {
      answer,
      block,
      sourcePath,
      folders: names,
      home: sourceIn?.folder.name ?? home?.name,
      caseless,
      bundle: vscode.l10n.bundle,
      newFileEol: process.platform === 'win32' ? '\r\n' : '\n',
    },
    readFiles,
    signal,
  );

  const current = new Map<string, string>();
  for (const f of plan.files) {
    const state = states.get(key(f.path));
    if (f.kind === 'modify' && state?.kind === 'file') current.set(f.path, state.text);
  }
  for (const p of [...twoWayReasons.keys()]) if (!plan.files.some(f => f.kind !== 'skip' && f.path === p && f.twoWay)) twoWayReasons.delete(p);
  const fallback = (planPath: string): vscode.Uri => {
    const slash = planPath.indexOf('/');
    const named = folders.length > 1 && slash > 0 ? byName.get(planPath.slice(0, slash)) : undefined;
    return named ? fileUri(named, `${rootOf(named)}/${planPath.slice(slash + 1)}`) : fileUri(first, `${rootOf(first)}/${planPath}`);
  };
  return {
    task,
    folder: first,
    plan,
    uriOf: planPath => uris.get(key(planPath)) ?? fallback(planPath),
    current,
    twoWayReasons,
  };
}
