/**
 * The review plan of a task's answer against the workspace as it is (issue 16): paths the answer names are
 * confined to the task's workspace folder on the file system (symlinks followed, `confinePath`), each file is
 * read from its open document (what the user sees, unsaved edits included) or else from disk, and the base of
 * the three-way merge is the text the task kept of it when it was sent. Reads only; nothing here writes.
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type {
  Confined,
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

/** The name of an entry beside a missing file's place that differs from its name only in letter case, if any. */
async function sameNameOtherCase(uri: vscode.Uri): Promise<string | undefined> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const parent = uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf('/')) || '/' });
  const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(parent)).catch(() => [] as [string, vscode.FileType][]);
  const lower = name.toLowerCase();
  return entries.find(([entry]) => entry !== name && entry.toLowerCase() === lower)?.[0];
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
  const bytes = await budget.read(stat.size, () => vscode.workspace.fs.readFile(uri));
  if (!bytes) return undefined;
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
 * The workspace folders a review lands in, and how a path of the plan maps to a file in one of them
 * (`<folder>/<path>` with several folders, review/folders.ts).
 */
class ReviewFolders {
  readonly all: readonly vscode.WorkspaceFolder[];
  /** The folder the task was sent from, else the first: where the review starts. */
  readonly first: vscode.WorkspaceFolder;
  private readonly byName = new Map<string, vscode.WorkspaceFolder>();
  private readonly resolvers: Map<vscode.WorkspaceFolder, PathResolver>;

  constructor(home: vscode.WorkspaceFolder | undefined) {
    const open = vscode.workspace.workspaceFolders ?? [];
    this.all = open.length ? open : home ? [home] : [];
    const first = home ?? this.all[0];
    if (!first) throw new Error('no workspace folder to review in');
    this.first = first;
    for (const f of this.all) if (!this.byName.has(f.name)) this.byName.set(f.name, f);
    this.resolvers = new Map(this.all.map(f => [f, resolverFor(f)]));
  }

  named(name: string): vscode.WorkspaceFolder | undefined {
    return this.byName.get(name);
  }

  rootOf(f: vscode.WorkspaceFolder): string {
    return this.resolvers.get(f)!.root.replace(/\/+$/, '');
  }

  /** The plan's path of `path` in `f`. */
  planPath(f: vscode.WorkspaceFolder, path: string): string {
    return reviewPart().qualified(f.name, path, this.all.length);
  }

  /** The folder and checked path of a file's URI, if it is in one of the folders. */
  locate(uri: string): Located | undefined {
    const parsed = vscode.Uri.parse(uri);
    const folder = this.all.find(f => f.uri.toString() === vscode.workspace.getWorkspaceFolder(parsed)?.uri.toString()) ?? (this.all.length === 1 ? this.all[0] : undefined);
    if (!folder || parsed.scheme !== folder.uri.scheme) return undefined;
    const root = this.rootOf(folder);
    const p = parsed.scheme === 'file' ? parsed.fsPath.replace(/\\/g, '/') : parsed.path;
    if (!key(p).startsWith(`${key(root)}/`)) return undefined;
    const checked = reviewPart().checkPath(p.slice(root.length + 1));
    return checked.ok ? { folder, path: checked.path } : undefined;
  }

  confine(f: vscode.WorkspaceFolder, path: string): Promise<Confined> {
    return reviewPart().confinePath(path, this.resolvers.get(f)!, caseless);
  }

  /** Each folder's name, and whether it holds an entry of its own name (a package folder: `name/x` then means that entry, reader.ts). */
  async names(): Promise<WorkspaceFolderName[]> {
    const names: WorkspaceFolderName[] = [];
    for (const f of this.all) {
      const kind = await this.resolvers.get(f)!.kind(`${this.rootOf(f)}/${f.name}`);
      names.push(kind === 'missing' ? { name: f.name } : { name: f.name, hasSelfNamedChild: true });
    }
    return names;
  }

  /** The file a plan's path names, for a path the review did not read. */
  uriOf(planPath: string): vscode.Uri {
    const slash = planPath.indexOf('/');
    const named = this.all.length > 1 && slash > 0 ? this.byName.get(planPath.slice(0, slash)) : undefined;
    return named ? fileUri(named, `${this.rootOf(named)}/${planPath.slice(slash + 1)}`) : fileUri(this.first, `${this.rootOf(this.first)}/${planPath}`);
  }
}

/**
 * What one review reads of the workspace, when the planner's thread asks (it parsed the answer): each named
 * file's state now, the text the task kept of it, why a file merges two ways only, and where each file is.
 */
class ReviewReads {
  readonly states = new Map<string, FileState>();
  readonly sentTexts = new Map<string, string>();
  readonly twoWayReasons: PreparedReview['twoWayReasons'] = new Map();
  readonly uris = new Map<string, vscode.Uri>();
  private readonly overBudget: string[] = [];
  /** The sent files, by the plan's path. */
  private readonly sentFiles = new Map<string, SentFile>();

  constructor(
    private readonly d: { store: Pick<TaskStore, 'readSent'>; tracker: Pick<SourceRangeTracker, 'now'> },
    private readonly task: TrackedTask,
    private readonly folders: ReviewFolders,
    /** The task's source, where it is in the review's folders. */
    private readonly sourceIn: Located | undefined,
    private readonly homeName: string | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    for (const f of task.sent ?? []) {
      const at = folders.locate(f.uri);
      const p = at && folders.planPath(at.folder, at.path);
      if (p !== undefined && !this.sentFiles.has(key(p))) this.sentFiles.set(key(p), f);
    }
  }

  /** Reads every path the plan will ask about, before it plans (`paths` and `targets` from the planner's thread). */
  async read(paths: string[], targets: NamedTarget[], budget: ReadBudget): Promise<PlanFiles> {
    const { wanted, placements } = await this.whereEach(paths, targets);
    for (const { folder, path, planPath } of wanted) {
      if (this.signal?.aborted) break;
      if (!this.states.has(key(planPath))) await this.readOne(folder, path, planPath, budget);
    }
    const files = { states: this.states, sent: this.sentTexts, source: await this.source(), overBudget: this.overBudget };
    return placements ? { ...files, placements } : files;
  }

  /** Which folder each path is read from: with several folders, where its path says (folders.ts; ambiguous ones are not read). */
  private async whereEach(paths: string[], targets: NamedTarget[]): Promise<{ wanted: (Located & { planPath: string })[]; placements?: Placement[] }> {
    const folders = this.folders;
    if (folders.all.length <= 1) return { wanted: paths.map(p => ({ folder: folders.first, path: p, planPath: p })) };
    const placements = await reviewPart().placeTargets(targets, folders.all.map(f => f.name), this.sourceIn?.folder.name ?? this.homeName, async path => {
      const found: string[] = [];
      for (const f of folders.all) {
        const c = await folders.confine(f, path);
        if (c.ok && c.exists) found.push(f.name);
      }
      return found;
    });
    const wanted: (Located & { planPath: string })[] = [];
    placements.forEach((placed, i) => {
      const folder = 'path' in placed ? folders.named(placed.folder) : undefined;
      if (folder && 'path' in placed) wanted.push({ folder, path: targets[i].path, planPath: placed.path });
    });
    return { wanted, placements };
  }

  private async readOne(folder: vscode.WorkspaceFolder, path: string, p: string, budget: ReadBudget): Promise<void> {
    const confined = await this.folders.confine(folder, path);
    let state: FileState;
    if (!confined.ok) {
      state =
        confined.problem === 'outside'
          ? { kind: 'refused', outside: true, reason: '' }
          : { kind: 'refused', reason: confined.problem === 'directory' ? vscode.l10n.t('not applied: the path names a folder') : vscode.l10n.t('not applied: the path is not a regular file') };
    } else {
      const uri = fileUri(folder, confined.absolute);
      this.uris.set(key(p), uri);
      try {
        const other = confined.exists ? undefined : await sameNameOtherCase(uri);
        if (other) {
          // Issue 43: never a second module beside the real one (nor, on macOS and Windows, that one overwritten whole).
          this.states.set(key(p), { kind: 'refused', reason: vscode.l10n.t('"{0}" differs only in letter case from the file "{1}" beside it; ask for that file by its name', path.split('/').pop() ?? path, other) });
          return;
        }
        const read = confined.exists ? await readNow(uri, budget) : { kind: 'missing' as const };
        if (!read) {
          this.overBudget.push(p);
          return;
        }
        state = read;
      } catch {
        state = { kind: 'refused', reason: vscode.l10n.t('not applied: the file cannot be read') };
      }
    }
    this.states.set(key(p), state);
    const sent = this.sentFiles.get(key(p));
    const text = sent ? await this.d.store.readSent(this.task.id, sent) : undefined;
    if (text !== undefined) this.sentTexts.set(key(p), text);
    else if (state.kind === 'file') this.twoWayReasons.set(p, sent ? (sent.notRecorded ?? 'unreadable') : 'notSent');
  }

  /** The range the task was sent from, in the plan's paths; with no text kept, where the user's edits moved it. */
  private async source(): Promise<SentSource | undefined> {
    const { task, sourceIn } = this;
    if (!task.source || !sourceIn) return undefined;
    const planPath = this.folders.planPath(sourceIn.folder, sourceIn.path);
    const source: SentSource = { path: planPath, range: task.source.range };
    if (task.source.range && !this.sentTexts.has(key(planPath))) {
      try {
        source.currentRange = rangeRecordOf((await this.d.tracker.now(task)).range);
      } catch {
        // the source is gone: the plan says so
      }
    }
    return source;
  }
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
  const folders = new ReviewFolders(home);
  const located = task.source ? folders.locate(task.source.uri) : undefined;
  const sourceIn = located && (!home || located.folder === home) ? located : undefined;
  const reads = new ReviewReads(d, task, folders, sourceIn, home?.name, signal);

  // Parsing and planning run on the planner's thread: no answer blocks the extension host (issue 25).
  const plan = await reviewPart().planOffThread(
    reviewPart().workerScript(__dirname),
    {
      answer,
      block,
      sourcePath: sourceIn?.path,
      folders: await folders.names(),
      home: sourceIn?.folder.name ?? home?.name,
      caseless,
      bundle: vscode.l10n.bundle,
      newFileEol: process.platform === 'win32' ? '\r\n' : '\n',
    },
    (paths, targets, budget) => reads.read(paths, targets, budget),
    signal,
  );

  const current = new Map<string, string>();
  for (const f of plan.files) {
    const state = reads.states.get(key(f.path));
    if (f.kind === 'modify' && state?.kind === 'file') current.set(f.path, state.text);
  }
  const twoWayReasons = reads.twoWayReasons;
  for (const p of [...twoWayReasons.keys()]) if (!plan.files.some(f => f.kind !== 'skip' && f.path === p && f.twoWay)) twoWayReasons.delete(p);
  return {
    task,
    folder: folders.first,
    plan,
    uriOf: planPath => reads.uris.get(key(planPath)) ?? folders.uriOf(planPath),
    current,
    twoWayReasons,
  };
}
