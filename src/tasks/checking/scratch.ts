/**
 * The scratch copy a check runs in (issue 37): the files a check needs, copied outside every workspace folder,
 * with the proposal's texts written over them and the dependency folders linked, not copied. Pure Node (no
 * vscode): `listFiles` says what to copy (git's tracked and untracked-not-ignored files where the folder is in a
 * work tree, else a bounded walk that honours `files.exclude`), `buildScratch` makes the copy and
 * `removeScratch` removes it. Nothing here ever writes under the user's folder.
 */
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { excludeMatcher } from './globs';
import { SCRATCH_PREFIX } from './types';

export { SCRATCH_PREFIX };

/**
 * Folders of installed dependencies, never tracked and never copied: linked from the copy to the real one
 * beside a manifest (a check that writes into them writes into the user's, as running the command there would).
 */
export const DEPENDENCY_FOLDERS: readonly string[] = ['node_modules', 'bower_components', '.venv', 'venv'];
/**
 * Build outputs and tool environments (Cargo's and Maven's `target`, Gradle's, tox's and nox's): never copied and
 * never linked. A check builds its own in the copy: a link would let the proposal's build overwrite the user's.
 */
export const BUILD_FOLDERS: readonly string[] = ['target', '.gradle', '.tox', '.nox'];
/** What a check's listing leaves out: the dependency folders (linked) and the build folders (rebuilt). */
const LEFT_OUT_FOLDERS: readonly string[] = [...DEPENDENCY_FOLDERS, ...BUILD_FOLDERS];
/** Files that say "dependencies are installed beside me": their folder's dependency folders are linked. */
export const MANIFESTS: readonly string[] = ['package.json', 'pyproject.toml', 'requirements.txt', 'setup.py', 'Cargo.toml', 'Gemfile', 'build.gradle', 'build.gradle.kts', 'pom.xml'];
/** The most files a check copies (`listFiles`' default). */
export const MAX_CHECK_FILES = 20_000;
/** At most this many bytes of files go into a copy (dependency folders are linked, not copied). */
export const MAX_COPY_BYTES = 2 * 1024 ** 3;

/** Files copied (or stat'ed) at once. */
const COPY_CONCURRENCY = 48;
/** git's listing is read up to this many bytes (paths of 20,000 files are a few MB). */
const GIT_OUTPUT_LIMIT = 64 * 1024 * 1024;

export interface CheckFileList {
  /** Relative POSIX paths of files (and symbolic links) under the folder. */
  files: string[];
  via: 'git' | 'walk';
}

export interface ListOptions {
  /** `files.exclude` globs (the walk honours them; git's own ignore rules decide where there is a repository). */
  exclude?: string[];
  /** More files than this is refused with an Error (default MAX_CHECK_FILES). */
  maxFiles?: number;
  signal?: AbortSignal;
}

export interface ScratchInput {
  /** The user's folder (never written). */
  root: string;
  /** What `listFiles` listed. */
  files: readonly string[];
  /** Relative POSIX path → the text the copy holds instead; null → the file is deleted in the copy. */
  overlay: ReadonlyMap<string, string | null>;
  signal?: AbortSignal;
  /** The copy's folder name (default: the folder's own): a kept copy's says what it is, in its window's title. */
  name?: string;
}

export interface Scratch {
  /** The temp folder made for this copy (`removeScratch` removes it). */
  base: string;
  /** The copy of the folder, `base/<the folder's name>`: the check runs here. */
  dir: string;
  /** Files copied (symbolic links recreated included). */
  copied: number;
  /** Relative POSIX paths in the copy of the dependency folders linked to the real ones. */
  linked: string[];
  /** How long the copy took. */
  ms: number;
}

/**
 * The files a check needs, as relative POSIX paths. In a git work tree: `git ls-files --cached --others
 * --exclude-standard` (untracked dependency folders left out, tracked files that no longer exist dropped, a
 * submodule or nested repository walked); without git, where git fails or lists nothing: a walk that follows no symbolic link,
 * skips `.git` and the dependency folders and honours `exclude`. More than `maxFiles` throws.
 */
export async function listFiles(root: string, options: ListOptions = {}): Promise<CheckFileList> {
  const max = options.maxFiles ?? MAX_CHECK_FILES;
  const exclude = excludeMatcher(options.exclude ?? []);
  const listed = await gitListing(root, max, options.signal);
  // No repository, or a folder git ignores or has nothing of (it lists no file): the walk.
  if (listed === undefined || listed.length === 0) {
    const files: string[] = [];
    await walkFolder(root, '', exclude, max, options.signal, files);
    return { files, via: 'walk' };
  }
  const kept: (string | undefined)[] = new Array(listed.length);
  const folders: string[] = [];
  await eachLimited(listed, COPY_CONCURRENCY, options.signal, async (rel, i) => {
    const st = await fs.promises.lstat(path.join(root, rel)).catch(() => undefined);
    if (st?.isDirectory()) folders.push(rel);
    else if (st?.isFile() || st?.isSymbolicLink()) kept[i] = rel;
  });
  const files = kept.filter((f): f is string => f !== undefined);
  for (const folder of folders.sort()) await walkFolder(root, folder, exclude, max, options.signal, files);
  if (files.length > max) throw tooManyFiles(root, `${files.length.toLocaleString('en-US')} files`, max);
  return { files, via: 'git' };
}

function tooManyFiles(root: string, how: string, max: number): Error {
  return new Error(`${path.basename(root) || root} holds ${how}; a check copies at most ${max.toLocaleString('en-US')} files.`);
}

/**
 * git's files for `root`, relative to it, or undefined when git is missing or `root` is in no work tree. The
 * repository's config cannot start a program here (`core.fsmonitor` off). Throws past `max` files.
 */
async function gitListing(root: string, max: number, signal?: AbortSignal): Promise<string[] | undefined> {
  signal?.throwIfAborted();
  const args = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', ...LEFT_OUT_FOLDERS.flatMap(f => ['-x', f])];
  const out = await new Promise<{ code: number | null; chunks: Buffer[]; bytes: number; entries: number } | undefined>(resolve => {
    let child: cp.ChildProcess;
    try {
      child = cp.spawn('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } });
    } catch {
      resolve(undefined);
      return;
    }
    const state = { code: null as number | null, chunks: [] as Buffer[], bytes: 0, entries: 0 };
    const onAbort = () => child.kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (chunk: Buffer) => {
      state.bytes += chunk.length;
      for (let i = chunk.indexOf(0); i >= 0; i = chunk.indexOf(0, i + 1)) state.entries++;
      if (state.entries <= max) state.chunks.push(chunk);
      if (state.bytes > GIT_OUTPUT_LIMIT) child.kill();
    });
    child.on('error', () => resolve(undefined));
    child.on('close', code => {
      signal?.removeEventListener('abort', onAbort);
      state.code = code;
      resolve(state);
    });
  });
  signal?.throwIfAborted();
  if (out === undefined) return undefined;
  if (out.entries > max) throw tooManyFiles(root, out.bytes > GIT_OUTPUT_LIMIT ? `more than ${out.entries.toLocaleString('en-US')} files` : `${out.entries.toLocaleString('en-US')} files`, max);
  if (out.code !== 0) return undefined;
  const names = Buffer.concat(out.chunks).toString('utf8').split('\0').filter(n => n !== '');
  return [...new Set(names.map(n => n.replace(/\/$/, '')))];
}

/**
 * Appends to `out` the files under `root/sub` (relative POSIX paths), breadth first, following no symbolic link:
 * a link is listed as a file. Skips `.git`, the dependency folders and what `exclude` matches; throws past `max`.
 */
async function walkFolder(root: string, sub: string, exclude: (rel: string) => boolean, max: number, signal: AbortSignal | undefined, out: string[]): Promise<void> {
  const pending = [sub];
  while (pending.length) {
    signal?.throwIfAborted();
    const rel = pending.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, rel), { withFileTypes: true });
    } catch (e) {
      if (rel === sub) throw e;
      continue;
    }
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === '.git' || exclude(child)) continue;
      if (entry.isDirectory()) {
        if (!LEFT_OUT_FOLDERS.includes(entry.name)) pending.push(child);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        out.push(child);
        if (out.length > max) throw tooManyFiles(root, `more than ${max.toLocaleString('en-US')} files (the walk stopped there)`, max);
      }
    }
  }
}

/**
 * Makes the scratch copy: a fresh temp folder, the listed files copied into `base/<the folder's name>`
 * (copy-on-write clones where the file system has them; never hard links, since the check may write), the overlay
 * written over them (a path that would leave the copy is refused), then the dependency folders beside each
 * manifest and at the root linked to the real ones. On failure or abort the temp folder is removed.
 */
export async function buildScratch(input: ScratchInput): Promise<Scratch> {
  const started = performance.now();
  const { root, files, overlay, signal } = input;
  signal?.throwIfAborted();
  const tmp = os.tmpdir();
  if (isInside(path.resolve(root), path.resolve(tmp))) throw new Error(`The temp folder ${tmp} is inside ${root}: a check never makes its copy inside the folder.`);
  const segments = [...overlay.keys()].map(rel => [rel, overlaySegments(rel)] as const);
  const base = await fs.promises.mkdtemp(path.join(tmp, SCRATCH_PREFIX));
  const dir = path.join(base, input.name ?? (path.basename(path.resolve(root)) || 'folder'));
  try {
    const targets = segments.map(([rel, parts]) => [rel, path.join(dir, ...parts)] as const);
    await fs.promises.mkdir(dir);
    const copied = await copyFiles(root, dir, files, signal);
    signal?.throwIfAborted();
    const realDir = await fs.promises.realpath(dir);
    for (const [rel, target] of targets) await writeOverlay(realDir, rel, target, overlay.get(rel) ?? null);
    signal?.throwIfAborted();
    const linked = await linkDependencies(root, dir, files);
    signal?.throwIfAborted();
    return { base, dir, copied, linked, ms: performance.now() - started };
  } catch (e) {
    await fs.promises.rm(base, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    throw e;
  }
}

/** Copies the listed files, each folder made once; returns how many were copied (vanished files are skipped). */
async function copyFiles(root: string, dir: string, files: readonly string[], signal?: AbortSignal): Promise<number> {
  const folders = [...new Set(files.map(f => path.posix.dirname(f)).filter(d => d !== '.'))].sort();
  for (const folder of folders) {
    signal?.throwIfAborted();
    await fs.promises.mkdir(path.join(dir, folder), { recursive: true });
  }
  const realRoot = await fs.promises.realpath(root);
  let copied = 0;
  let bytes = 0;
  await eachLimited(files, COPY_CONCURRENCY, signal, async rel => {
    const from = path.join(root, rel);
    const to = path.join(dir, rel);
    const st = await fs.promises.lstat(from).catch(() => undefined);
    if (st?.isFile()) {
      // A bound on what a copy may take (issue 44), checked before each file is copied.
      bytes += st.size;
      if (bytes > MAX_COPY_BYTES) throw new Error(`The folder holds more than ${MAX_COPY_BYTES / 1024 ** 3} GB of files to copy; a check copies at most that. Leave large files out with files.exclude or .gitignore.`);
      await fs.promises.copyFile(from, to, fs.constants.COPYFILE_FICLONE);
      copied++;
    } else if (st?.isSymbolicLink() && (await copyLink(from, to, realRoot, dir))) copied++;
  });
  return copied;
}

/**
 * A symbolic link of the folder: recreated where its target is relative and really inside the folder (so it
 * points into the copy), else the file it points to is copied; a link to a folder outside (or a dangling one) is
 * left out, so that nothing in the copy leads back into the user's files.
 */
async function copyLink(from: string, to: string, realRoot: string, dir: string): Promise<boolean> {
  const target = await fs.promises.readlink(from);
  const real = await fs.promises.realpath(from).catch(() => undefined);
  if (real === undefined) return false;
  const st = await fs.promises.stat(real);
  // Inside the folder from where it is, and inside the copy from where it is made: a link that climbs out of the
  // copy and back into the user's folder (`../../../home/u/proj/src`) is not recreated.
  if (!path.isAbsolute(target) && isInside(realRoot, real) && isInside(path.resolve(dir), path.resolve(path.dirname(to), target))) {
    // Windows may refuse to make a link (no privilege): a file's text is copied instead.
    const made = await fs.promises.symlink(target, to, st.isDirectory() ? 'dir' : 'file').then(() => true, () => false);
    if (made) return true;
  }
  // A link to a file outside the folder is left out like one to a folder (issue 44): its target (a key, a large
  // file linked many times) is not the folder's to copy.
  if (!st.isFile() || !isInside(realRoot, real)) return false;
  await fs.promises.copyFile(real, to, fs.constants.COPYFILE_FICLONE);
  return true;
}

/** An overlay path's names; refuses an empty or absolute path and any `..`, so that it stays inside the copy. */
function overlaySegments(rel: string): string[] {
  const refuse = () => new Error(`The proposal's path "${rel}" would leave the scratch copy; the check refuses it.`);
  if (typeof rel !== 'string' || rel.trim() === '' || rel.includes('\0')) throw refuse();
  if (path.posix.isAbsolute(rel) || path.win32.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel)) throw refuse();
  const segments = rel.split(/[\\/]+/).filter(s => s !== '' && s !== '.');
  if (!segments.length || segments.includes('..')) throw refuse();
  return segments;
}

/** Writes (or deletes) one overlay file, after checking that its real folder is inside the copy. */
async function writeOverlay(realDir: string, rel: string, target: string, text: string | null): Promise<void> {
  const parent = path.dirname(target);
  if (text !== null) await fs.promises.mkdir(parent, { recursive: true });
  const realParent = await fs.promises.realpath(parent).catch(() => undefined);
  if (realParent === undefined) return;
  if (!isInside(realDir, realParent)) throw new Error(`The proposal's path "${rel}" leads out of the scratch copy through a link; the check refuses it.`);
  const at = path.join(realParent, path.basename(target));
  if (text === null) await fs.promises.rm(at, { force: true });
  else {
    await fs.promises.rm(at, { force: true });
    await fs.promises.writeFile(at, text);
  }
}

/** Links `dir/<d>/<F>` → `root/<d>/<F>` for each dependency folder F beside a manifest (and at the root). */
async function linkDependencies(root: string, dir: string, files: readonly string[]): Promise<string[]> {
  const places = new Set<string>(['']);
  for (const f of files) if (MANIFESTS.includes(path.posix.basename(f))) places.add(path.posix.dirname(f) === '.' ? '' : path.posix.dirname(f));
  const linked: string[] = [];
  for (const place of [...places].sort()) {
    for (const name of DEPENDENCY_FOLDERS) {
      const rel = place ? `${place}/${name}` : name;
      const real = path.join(root, rel);
      const st = await fs.promises.stat(real).catch(() => undefined);
      if (!st?.isDirectory()) continue;
      const link = path.join(dir, rel);
      if (await fs.promises.lstat(link).then(() => true, () => false)) continue;
      if (!(await fs.promises.stat(path.dirname(link)).then(s => s.isDirectory(), () => false))) continue;
      // A folder that cannot be linked is left out (`linked` says which are in): the check runs without it.
      const made = await fs.promises.symlink(path.resolve(real), link, process.platform === 'win32' ? 'junction' : 'dir').then(() => true, () => false);
      if (made) linked.push(rel);
    }
  }
  return linked;
}

/**
 * Removes a scratch copy. `fs.rm` removes a symbolic link (or junction) itself, never what it points to, so the
 * linked dependency folders stay as they are. Refuses a folder that is not a scratch copy's.
 */
export async function removeScratch(s: Scratch): Promise<void> {
  if (!path.basename(s.base).startsWith(SCRATCH_PREFIX) || !isInside(s.base, s.dir)) throw new Error(`${s.base} is not a scratch copy; nothing was removed.`);
  await fs.promises.rm(s.base, { recursive: true, force: true, maxRetries: 3 });
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** Runs `fn` over `items`, at most `limit` at once; waits for all that started, then throws the first error. */
async function eachLimited<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const i = next++;
      try {
        signal?.throwIfAborted();
        await fn(items[i], i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
