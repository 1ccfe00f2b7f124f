/**
 * Paths an answer names are server text: they are checked here, without a file system, before anything looks
 * at the disk. What needs one (inside the workspace after symlinks, file or folder) is `confinePath`, which
 * asks a resolver the caller provides.
 */
import type { PathProblem, RunsCode } from './words';

export const MAX_PATH_CHARS = 1024;
const MAX_SEGMENT_CHARS = 255;

export type PathCheck = { ok: true; path: string } | { ok: false; problem: PathProblem };

// Windows device names: writing "nul.txt", "con", "CON .txt" or "conout$" would reach a device, not a file.
const RESERVED = /^(con|prn|aux|nul|clock\$|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(\..*)?$/i;

// Characters Windows refuses in a name (`:` is refused as a drive or a stream; control characters by `badChar`).
const WINDOWS_FORBIDDEN = /[<>"|?*]/;

/**
 * A name as Windows resolves it (trailing dots and spaces dropped, a `:stream` cut off) and as a case-insensitive
 * file system matches it (NTFS, APFS, HFS+): upper- then lower-cased, so `ſ` and `ı` fold with `s` and `i` too.
 */
function windowsName(segment: string): string {
  const colon = segment.indexOf(':');
  const name = (colon >= 0 ? segment.slice(0, colon) : segment).replace(/[. ]+$/, '');
  return name.toUpperCase().toLowerCase();
}

/** Control, invisible and direction characters: a name holding one can read as another. */
export function badChar(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    // every bidi control (Unicode's Bidi_Control: the Arabic letter mark, LRM/RLM, embeddings and overrides,
    // isolates), and the invisible ones around them
    code === 0x061c ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff ||
    (code >= 0xfff9 && code <= 0xfffb)
  );
}

// A Windows 8.3 short name ("GIT~1", "VSCODE~1", "PACKAG~1.JSO"): it may stand for any long name (`.git`).
const SHORT_NAME = /~\d/;

/**
 * A workspace-relative path with `/` separators, or the problem with it. Backslashes count as separators;
 * `./`, empty segments and `..` inside the path are resolved; a path that is absolute (`/x`, `C:`, `\\host`,
 * `~/x`, a URL), climbs out, holds control, invisible or bidi characters or a `:` (a drive, a URL, an NTFS
 * stream), names a device, a folder (`x/`), anything inside `.git`, or holds a Windows 8.3 short name (`GIT~1`,
 * which can be `.git` on disk) is refused.
 *
 * Every segment is judged as Windows resolves it, on every platform, before `.git` and `RUNS_CODE` are matched:
 * a name ending in a dot or a space (`.git.`, `.vscode `, `package.json.`: Windows opens `.git`, `.vscode`,
 * `package.json`) or holding a character Windows refuses (`< > " | ? *`) is refused, and `.git` is matched in
 * any case.
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
    if (SHORT_NAME.test(segment)) return { ok: false, problem: 'shortName' };
    if (WINDOWS_FORBIDDEN.test(segment)) return { ok: false, problem: 'windowsChar' };
    if (/[. ]$/.test(segment)) return { ok: false, problem: 'windowsAlias' };
    if (windowsName(segment) === '.git') return { ok: false, problem: 'gitDir' };
    out.push(segment);
  }
  if (!out.length) return { ok: false, problem: 'directory' };
  return { ok: true, path: out.join('/') };
}

/**
 * The one list of files that can run code or change the editor when written: the review starts them
 * unchecked and says why. Matched case-insensitively (`.VSCode`, `PACKAGE.JSON` on Windows and macOS are the
 * same files): a folder anywhere in the path, or the file's own name.
 */
export const RUNS_CODE: readonly { what: string; folder?: string; name?: string | RegExp; reason: RunsCode }[] = [
  { what: '.vscode/', folder: '.vscode', reason: 'editorConfig' }, // tasks, launch configurations, settings
  { what: '.github/', folder: '.github', reason: 'ci' }, // workflows and actions
  { what: '.circleci/', folder: '.circleci', reason: 'ci' },
  { what: '.gitlab-ci.yml', name: '.gitlab-ci.yml', reason: 'ci' },
  { what: '.devcontainer/', folder: '.devcontainer', reason: 'devContainer' }, // its commands run when opened
  { what: '.devcontainer.json', name: '.devcontainer.json', reason: 'devContainer' },
  { what: '.husky/', folder: '.husky', reason: 'gitHooks' },
  { what: '.githooks/', folder: '.githooks', reason: 'gitHooks' },
  { what: 'pre-commit, lefthook, husky configs', name: /^(\.pre-commit-config\.ya?ml|lefthook\.ya?ml|\.lefthook\.ya?ml|\.huskyrc(\.json|\.js)?)$/, reason: 'gitHooks' },
  { what: '.git/ (also refused by checkPath)', folder: '.git', reason: 'gitDir' },
  { what: '.gitmodules, .gitattributes', name: /^\.git(modules|attributes)$/, reason: 'gitConfig' }, // filters and submodule commands
  { what: 'package manifests with scripts', name: /^(package\.json|composer\.json|pyproject\.toml|setup\.py|setup\.cfg|cargo\.toml|build\.rs|gemfile|rakefile|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|pom\.xml|deno\.jsonc?|justfile|taskfile\.ya?ml|tox\.ini|noxfile\.py|conftest\.py)$/, reason: 'packageScripts' },
  { what: '.npmrc, .yarnrc, .yarnrc.yml, .pnpmfile.cjs', name: /^(\.npmrc|\.yarnrc(\.ya?ml)?|\.pnpmfile\.c?js|\.bunfig\.toml|bunfig\.toml)$/, reason: 'packageManagerConfig' },
  { what: 'Makefile', name: /^(gnu)?makefile$|\.mk$/, reason: 'makefile' },
  // Issue 44: what a check's runner reads to choose what runs (pytest's addopts = --co makes a broken proposal pass).
  { what: '.cargo/ (config, config.toml)', folder: '.cargo', reason: 'runnerConfig' },
  {
    what: 'test runner and toolchain configs (pytest.ini, .mocharc.*, jest/babel/ava/nyc JSON, go.work, rust-toolchain, mise, .tool-versions, .nvmrc, …)',
    name: /^(\.?pytest\.ini|\.mocharc(\.(c?js|json|jsonc|ya?ml))?|jest\.config\.json|\.babelrc(\.json)?|babel\.config\.json|\.swcrc|ava\.config\.json|\.nycrc(\.json|\.ya?ml)?|\.c8rc(\.json)?|\.taprc|karma\.conf\.(c|m)?(j|t)s|gruntfile\.(c|m)?(j|t)s|gulpfile\.(c|m)?(j|t)s|go\.work|rust-toolchain(\.toml)?|\.?mise(\.local)?\.toml|\.tool-versions|\.nvmrc|\.node-version|\.python-version|\.ruby-version|\.mocha\.opts|vitest\.workspace\.json|nx\.json|turbo\.json|lerna\.json)$/,
    reason: 'runnerConfig',
  },
  { what: '.envrc', name: /^\.envrc$|^\.env\.sh$/, reason: 'envrc' }, // direnv runs it on entering the folder
  { what: 'tool configs that are code (*.config.js, .eslintrc.js, …)', name: /\.config\.(c|m)?(j|t)s$|^\.[\w-]+rc\.(c|m)?(j|t)s$/, reason: 'toolConfigCode' },
  { what: '*.code-workspace', name: /\.code-workspace$/, reason: 'workspaceFile' }, // tasks, launch, settings
  { what: 'shell scripts', name: /\.(sh|bash|zsh|fish|ksh|command|ps1|psm1|bat|cmd|vbs)$/, reason: 'script' },
  { what: 'Windows 8.3 short names (GIT~1, VSCODE~1)', name: SHORT_NAME, reason: 'shortName' }, // any segment, see below
];

/**
 * Why the file at a workspace-relative path can run code, or undefined. Each segment is matched as Windows and a
 * case-insensitive file system read it (`windowsName`): `.VSCode./tasks.json` is `.vscode/tasks.json`.
 */
export function runsCode(path: string): RunsCode | undefined {
  const segments = path.replace(/\\/g, '/').split('/').map(windowsName);
  const name = segments[segments.length - 1];
  for (const entry of RUNS_CODE) {
    if (entry.folder !== undefined && segments.slice(0, -1).includes(entry.folder)) return entry.reason;
    if (typeof entry.name === 'string' && name === entry.name) return entry.reason;
    // A short name may hide any of the above, in a folder as in the file's name.
    if (entry.name instanceof RegExp && (entry.reason === 'shortName' ? segments.some(s => SHORT_NAME.test(s)) : entry.name.test(name))) return entry.reason;
  }
  return undefined;
}

export function isSensitive(path: string): boolean {
  return runsCode(path) !== undefined;
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
