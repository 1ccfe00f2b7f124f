/**
 * Paths an answer names are server text: they are checked here, without a file system, before anything looks
 * at the disk. What needs one (inside the workspace after symlinks, file or folder) is `confinePath`, which
 * asks a resolver the caller provides.
 */
import type { PathProblem } from './words';

export const MAX_PATH_CHARS = 1024;
const MAX_SEGMENT_CHARS = 255;

export type PathCheck = { ok: true; path: string } | { ok: false; problem: PathProblem };

// Windows device names: writing "nul.txt" or "con" would reach a device, not a file.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function badChar(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    // invisible and direction marks, which make a path read as another
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * A workspace-relative path with `/` separators, or the problem with it. Backslashes count as separators;
 * `./`, empty segments and `..` inside the path are resolved; a path that is absolute (`/x`, `C:`, `\\host`,
 * `~/x`, a URL), climbs out, holds control or invisible characters or a `:` (a drive, a URL, an NTFS stream),
 * names a device, a folder (`x/`) or anything inside `.git` is refused.
 */
export function checkPath(raw: string): PathCheck {
  if (raw.length > MAX_PATH_CHARS) return { ok: false, problem: 'tooLong' };
  const text = raw.trim();
  if (!text) return { ok: false, problem: 'empty' };
  for (let i = 0; i < text.length; i++) if (badChar(text.charCodeAt(i))) return { ok: false, problem: 'control' };
  const slashed = text.replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~') || slashed.includes(':')) return { ok: false, problem: 'absolute' };
  if (slashed.endsWith('/') || slashed.endsWith('/.') || slashed.endsWith('/..') || slashed === '.' || slashed === '..') {
    return { ok: false, problem: 'directory' };
  }
  const out: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!out.length) return { ok: false, problem: 'escapes' };
      out.pop();
      continue;
    }
    if (segment.length > MAX_SEGMENT_CHARS) return { ok: false, problem: 'tooLong' };
    if (RESERVED.test(segment)) return { ok: false, problem: 'reserved' };
    if (segment.toLowerCase() === '.git') return { ok: false, problem: 'gitDir' };
    out.push(segment);
  }
  if (!out.length) return { ok: false, problem: 'directory' };
  return { ok: true, path: out.join('/') };
}

/** Folders whose files can run code or change the editor when written: the review flags them. */
const SENSITIVE = new Set(['.vscode', '.devcontainer', '.github', '.husky', '.circleci', '.gitlab-ci.yml', '.gitmodules', '.gitattributes']);

export function isSensitive(path: string): boolean {
  return SENSITIVE.has(path.split('/', 1)[0].toLowerCase());
}

/** A printable, bounded form of a path that failed the check, for the skip list. */
export function displayPath(raw: string, max = 120): string {
  let out = '';
  for (const ch of raw) {
    if (out.length >= max) return `${out}…`;
    out += badChar(ch.codePointAt(0)!) ? '�' : ch;
  }
  return out;
}

/** What is at an absolute path, as `lstat` sees it (a symlink is not followed). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other' | 'missing';

/** The file system questions `confinePath` asks; Node's `fs.promises.lstat` / `realpath` answer them. */
export interface PathResolver {
  /** The workspace folder, absolute, with `/` separators (also on Windows: `C:/work/project`). */
  readonly root: string;
  kind(absolute: string): Promise<EntryKind>;
  /** Every symlink resolved, like `fs.realpath`; undefined when it cannot be resolved (missing, a loop). */
  realpath(absolute: string): Promise<string | undefined>;
}

export type Confined =
  | { ok: true; absolute: string; exists: boolean }
  | { ok: false; problem: 'outside' | 'directory' | 'other' };

const inside = (root: string, p: string, caseless: boolean) => {
  const [r, x] = caseless ? [root.toLowerCase(), p.toLowerCase()] : [root, p];
  return x === r || x.startsWith(r.endsWith('/') ? r : `${r}/`);
};

/**
 * Where a path from `checkPath` really leads. The deepest part of it that exists (the file, or the folder
 * that will hold a new file) must resolve, symlinks followed, to a place inside the workspace folder's real
 * path; a dangling symlink on the way is refused (writing through it would create its target wherever it
 * points). Set `caseless` on case-insensitive file systems (Windows, macOS by default).
 */
export async function confinePath(path: string, resolver: PathResolver, caseless = false): Promise<Confined> {
  const root = resolver.root.replace(/\/+$/, '');
  const realRoot = (await resolver.realpath(root))?.replace(/\/+$/, '');
  if (!realRoot) return { ok: false, problem: 'outside' };
  const segments = path.split('/');
  for (let depth = segments.length; depth >= 0; depth--) {
    const absolute = depth ? `${root}/${segments.slice(0, depth).join('/')}` : root;
    const kind = await resolver.kind(absolute);
    if (kind === 'missing') continue;
    const real = await resolver.realpath(absolute);
    if (!real || !inside(realRoot, real, caseless)) return { ok: false, problem: 'outside' };
    const full = `${root}/${path}`;
    if (depth === segments.length) {
      const target = kind === 'symlink' ? await resolver.kind(real) : kind;
      if (target === 'directory') return { ok: false, problem: 'directory' };
      if (target !== 'file') return { ok: false, problem: 'other' };
      return { ok: true, absolute: full, exists: true };
    }
    const parent = kind === 'symlink' ? await resolver.kind(real) : kind;
    if (parent !== 'directory') return { ok: false, problem: 'other' };
    return { ok: true, absolute: full, exists: false };
  }
  return { ok: false, problem: 'outside' };
}
