/**
 * Every sentence the review core produces, in one place. The core cannot import vscode, so the caller passes
 * its translator (`vscode.l10n.t`); the templates are the l10n keys. Tests and the benchmark use `plain`.
 */

export type Translate = (message: string, ...args: (string | number)[]) => string;

/** Fills `{0}`, `{1}`… like `vscode.l10n.t` does when no bundle is loaded. */
export const plain: Translate = (message, ...args) => {
  let out = '';
  let i = 0;
  while (i < message.length) {
    const open = message.indexOf('{', i);
    if (open === -1) break;
    const close = message.indexOf('}', open);
    const index = close === -1 ? NaN : Number(message.slice(open + 1, close));
    if (close === -1 || !Number.isInteger(index) || index < 0 || index >= args.length) {
      out += message.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    out += message.slice(i, open) + String(args[index]);
    i = close + 1;
  }
  return out + message.slice(i);
};

/** Why a proposal (a whole file, a diff, a block) is listed but not offered for applying. */
export type SkipCode =
  | 'noPath'
  | 'invalidPath'
  | 'outside'
  | 'refused'
  | 'missing'
  | 'gone'
  | 'exists'
  | 'doesNotApply'
  | 'deletion'
  | 'rename'
  | 'binary'
  | 'superseded'
  | 'unchanged'
  | 'elided'
  | 'emptyBlock'
  | 'unclosed'
  | 'conflictingHeader'
  | 'noRange'
  | 'tooMany'
  | 'ambiguousName'
  | 'ambiguousFolder'
  | 'inSeveralFolders'
  | 'noFolder'
  | 'partial'
  | 'fragment'
  | 'unproven'
  | 'tooLargeToReview';

/** Why one hunk of a diff is listed but not offered. */
export type HunkSkipCode = 'doesNotApply' | 'superseded' | 'overlaps' | 'tooMany' | 'notFound' | 'ambiguous' | 'unproven' | 'editSyntax' | 'definitionLost' | 'definitionTwice' | 'linesTwice';

const SKIP: Record<SkipCode, string> = {
  noPath: 'not applied (no path)',
  invalidPath: 'not applied: "{0}" is not a usable workspace path ({1})',
  outside: 'not applied: the path leads outside the workspace',
  refused: 'not applied: {0}',
  missing: 'not applied: the file to change does not exist',
  gone: 'not applied: the file was moved or deleted since the task was sent',
  exists: 'not applied: the diff creates a file that already exists',
  doesNotApply: 'not applied: the diff does not apply to the file',
  deletion: 'not applied: deleting files is never applied',
  rename: 'not applied: renaming files is never applied',
  binary: 'not applied: binary patches are never applied',
  superseded: 'not applied: a later block for the same file replaces it',
  unchanged: 'nothing to apply: the file already has these changes',
  elided: 'not applied: the block leaves parts of the file out ("{0}"), so it is not a whole file',
  emptyBlock: 'not applied: the block is empty and would empty the file',
  unclosed: 'not applied: the block is not closed (the answer may be cut off)',
  conflictingHeader: 'not applied: the diff\'s header names another file ({0})',
  noRange: 'not applied: the range that was sent is not known any more',
  tooMany: 'not applied: the answer has too many changes to review at once',
  ambiguousName: 'not applied: the block names two different files ({0}), so it is not guessed',
  ambiguousFolder: 'not applied: more than one workspace folder is named "{0}", so the file is not guessed',
  inSeveralFolders: 'not applied: the path is in more than one workspace folder ({0}) and the task was not sent from one of them, so the file is not guessed: name the folder first (folder/path)',
  noFolder: 'not applied: the workspace has several folders and the path names none of them, nor was the task sent from one',
  partial: 'not applied: the block shows only parts of the file ("{0}") and they could not be placed by their unchanged lines',
  fragment: 'not applied: the block ({0} lines) is a fragment of the file ({1} lines) and its lines could not be placed, so it does not replace the file',
  unproven: 'not applied: the block does not show that it replaces this file (it keeps none of its declarations and few of its lines); copy or insert it instead',
  tooLargeToReview: 'not applied: too large to review here (the files this answer names pass {0} MB together)',
};

const HUNK_SKIP: Record<HunkSkipCode, string> = {
  doesNotApply: 'hunk {0} ({1}) does not apply: its lines are not in the file',
  superseded: 'hunk {0} ({1}) is replaced by a later block for the same file',
  overlaps: 'hunk {0} ({1}) overlaps another change',
  tooMany: 'hunk {0} ({1}) is over the limit of changes per answer',
  notFound: 'edit {0} ({1}) does not apply: its SEARCH text is not in the file',
  ambiguous: 'hunk {0} ({1}) is not placed: its lines occur in several places (lines {2}), so its place is not guessed',
  unproven: 'hunk {0} ({1}) is held back: it would remove lines that the answer does not show removed',
  editSyntax: 'hunk {0} ({1}) is held back: it would write edit markers, diff lines or line numbers into the file',
  definitionLost: 'hunk {0} ({1}) is held back: it would remove "{2}", which the answer does not say it removes',
  definitionTwice: 'hunk {0} ({1}) is held back: "{2}" would be defined twice in the file',
  linesTwice: 'hunk {0} ({1}) is held back: the file would hold the same lines twice (from "{2}")',
};

/** Why an answer is not reviewed at all: its size against the limits (see `ReviewPlan.tooComplex`). */
export interface TooComplex {
  hunkHeaders: number;
  maxHunkHeaders: number;
  blocks: number;
  /** Steps of diff and search work done, and the plan's budget. */
  work: number;
  workBudget: number;
}

const millions = (n: number) => (n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1);

/** "too complex to review here", with the numbers that made it so. */
export function tooComplexReason(t: Translate, c: TooComplex): string {
  return c.hunkHeaders > c.maxHunkHeaders
    ? t('The answer is too complex to review here: {0} hunk headers in {1} blocks, over the limit of {2}. Open the raw answer to read it.', c.hunkHeaders, c.blocks, c.maxHunkHeaders)
    : t('The answer is too complex to review here: planning it took more than {0} million steps of work ({1} hunk headers in {2} blocks). Open the raw answer to read it.', millions(c.workBudget), c.hunkHeaders, c.blocks);
}

/** Path problems found without a file system (see `checkPath`). */
export type PathProblem = 'empty' | 'absolute' | 'escapes' | 'control' | 'reserved' | 'directory' | 'tooLong' | 'gitDir' | 'shortName' | 'windowsAlias' | 'windowsChar';

const PATH: Record<PathProblem, string> = {
  empty: 'empty',
  absolute: 'not relative to the workspace',
  escapes: 'leads outside the workspace',
  control: 'holds control, invisible or direction characters',
  reserved: 'a reserved name',
  directory: 'names a folder',
  tooLong: 'too long',
  gitDir: 'inside .git',
  shortName: 'a Windows short name (like GIT~1), which may stand for another name',
  windowsAlias: 'ends in a dot or a space, which Windows drops: it would open another file',
  windowsChar: 'holds a character Windows does not allow in a name (< > " | ? *)',
};

/** Why a file can run code (or change the editor) when written: see `RUNS_CODE` in paths.ts. */
export type RunsCode =
  | 'editorConfig'
  | 'ci'
  | 'devContainer'
  | 'gitHooks'
  | 'gitDir'
  | 'gitConfig'
  | 'packageScripts'
  | 'packageManagerConfig'
  | 'runnerConfig'
  | 'makefile'
  | 'envrc'
  | 'toolConfigCode'
  | 'workspaceFile'
  | 'script'
  | 'shortName';

/** Why a file starts unchecked: it can run code (see `RUNS_CODE` in paths.ts). */
const RUNS_CODE_REASON: Record<RunsCode, string> = {
  editorConfig: 'VS Code runs its tasks and launch configurations and applies its settings',
  ci: 'a CI service runs it',
  devContainer: 'its commands run when the dev container opens',
  gitHooks: 'git runs its hooks',
  gitDir: 'it is inside .git',
  gitConfig: 'git runs its filters and submodule commands',
  packageScripts: 'a package manager runs its scripts (install, build, test)',
  packageManagerConfig: 'it configures the package manager that runs scripts',
  runnerConfig: 'it chooses what a test runner or toolchain runs (a check would run it too)',
  makefile: 'make runs its commands',
  envrc: 'direnv runs it when you enter the folder',
  toolConfigCode: 'it is code that the tool runs',
  workspaceFile: 'VS Code runs its tasks and launch configurations and applies its settings',
  script: 'it is a script',
  shortName: 'a Windows short name may stand for a folder like .git or .vscode',
};

export function runsCodeReason(t: Translate, code: RunsCode): string {
  return t(RUNS_CODE_REASON[code]);
}

export function skipReason(t: Translate, code: SkipCode, ...args: (string | number)[]): string {
  return t(SKIP[code], ...args);
}

export function hunkSkipReason(t: Translate, code: HunkSkipCode, index: number, header: string, detail = ''): string {
  return t(HUNK_SKIP[code], index, header, detail);
}

export function pathProblem(t: Translate, problem: PathProblem): string {
  return t(PATH[problem]);
}

/** Where a hunk lands, for its label (1-based lines of the text now). */
export interface LabelParts {
  index: number;
  total: number;
  /** 1-based first and last line replaced; `last < first` for an insertion before `first`. */
  first: number;
  last: number;
  /** Lines in the file now: an insertion at `lineCount + 1` is "at the end". */
  lineCount: number;
  /** Lines the hunk takes out and puts in. */
  removed: number;
  inserted: number;
  conflict: boolean;
  nearUserEdit: boolean;
  byContext: boolean;
  create: boolean;
}

export function hunkLabel(t: Translate, p: LabelParts): string {
  let where: string;
  if (p.create) where = t('new file');
  else if (p.last < p.first) where = p.first > p.lineCount ? t('at the end') : t('before line {0}', p.first);
  else if (p.first === p.last) where = t('line {0}', p.first);
  else where = t('lines {0}–{1}', p.first, p.last);
  let label = `${t('Hunk {0} of {1} · {2}', p.index, p.total, where)} · ${hunkSize(t, p)}`;
  if (p.conflict) label += ` · ${t('conflict: you changed these lines')}`;
  else if (p.nearUserEdit) label += ` · ${t('next to your edit')}`;
  if (p.byContext) label += ` · ${t('placed by its context')}`;
  return label;
}

/** What a hunk does, in lines: "inserts 1 line", "removes 3 lines", "changes 2 lines", "replaces 2 lines with 5". */
function hunkSize(t: Translate, { create, removed, inserted }: Pick<LabelParts, 'create' | 'removed' | 'inserted'>): string {
  if (create) return inserted === 1 ? t('1 line') : t('{0} lines', inserted);
  if (!removed) return inserted === 1 ? t('inserts 1 line') : t('inserts {0} lines', inserted);
  if (!inserted) return removed === 1 ? t('removes 1 line') : t('removes {0} lines', removed);
  if (removed === inserted) return removed === 1 ? t('changes 1 line') : t('changes {0} lines', removed);
  return removed === 1 ? t('replaces 1 line with {0}', inserted) : t('replaces {0} lines with {1}', removed, inserted);
}

/** The conflict markers for showing both sides in one text (git's diff3 style). */
export function conflictMarkers(t: Translate): { ours: string; base: string; sep: string; theirs: string } {
  return {
    ours: `<<<<<<< ${t('your version')}`,
    base: `||||||| ${t('as sent')}`,
    sep: '=======',
    theirs: `>>>>>>> ${t('proposal')}`,
  };
}
