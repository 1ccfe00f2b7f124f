/**
 * The reader's shapes (`reader.ts`): a read answer, its blocks, their kinds, targets, namings and problems,
 * and what the reader is told (the task's source file, the workspace folders).
 */
import type { FileDiff } from './patch';
import type { PathProblem, SkipCode } from './words';

/**
 * - `file`: a whole file for its target. - `partial`: a file's text with parts left out ("// ... existing code ...").
 * - `diff`: a unified diff, or search/replace edit blocks (editBlocks.ts). - `patch`: a `*** Begin Patch` multi-file patch. - `range`: the unnamed block that
 * stands for the range that was sent. - `snippet`: code with no target. - `output`: prose or program output
 * (`text`, `output`, `console`, `log`, a shell transcript), never code to land.
 */
export type BlockKind = 'file' | 'partial' | 'diff' | 'patch' | 'range' | 'snippet' | 'output';

/** How a block named its file. */
export type Naming =
  /** ```ts src/b.ts */
  | 'afterLanguage'
  /** ```ts:src/b.ts */
  | 'colon'
  /** path= file= filename= title= (see `attribute`) */
  | 'attribute'
  /** ```src/b.ts */
  | 'infoAlone'
  /** a bold / code span / heading / "File: …" line just before the fence */
  | 'lineBefore'
  /** the block's first line is a comment naming the file (left out of the text) */
  | 'comment'
  /** a unified diff's `diff --git` / `---` / `+++` lines */
  | 'diffHeader'
  /** `*** Update File:` / `*** Add File:` / `*** Delete File:` */
  | 'patchHeader'
  /** An edit block that names no file, taken for the task's source file (its SEARCH text must be found there once). */
  | 'source'
  /** An unnamed block that is a later version of the named whole file before it (the same first declaration). */
  | 'sameAs';

export interface BlockTarget {
  /**
   * Checked, normalised, workspace-relative path (`/` separators, `./` and backslashes resolved). When `folder`
   * is set, relative to that workspace folder (its name was the path's first segment), else to the folder the
   * task was sent from.
   */
  path: string;
  /** A workspace folder named by the path's first segment (see `ReadOptions.folders`). */
  folder?: string;
  /** The path as written, printable and bounded. */
  raw: string;
  naming: Naming;
  /** For `attribute`: which one (`path`, `file`, `filename`, `title`). */
  attribute?: string;
}

/** A naming found but not used: its code (words.ts) and what to say. */
export interface BlockProblem {
  code: SkipCode;
  /** The name as written, printable and bounded ('' when none). */
  raw: string;
  naming?: Naming;
  /** For `invalidPath`. */
  problem?: PathProblem;
  /** For `conflictingHeader` / `ambiguousName`: the other name; for `ambiguousFolder`: the folder. */
  detail?: string;
}

/** One file of a diff or patch block. */
export interface BlockSection {
  diff: FileDiff;
  /** Where it goes; undefined when unnamed (a headerless diff) or refused (then `problem`). */
  target?: BlockTarget;
  problem?: BlockProblem;
  /** A patch's `*** Move to:` (never applied: listed as a rename). */
  movedTo?: string;
}

export interface AnswerBlock {
  /** Position among the blocks: the closed blocks are 0, 1, 2…; an unclosed last block comes after them. */
  index: number;
  /** 0-based line of the opening fence. */
  startLine: number;
  /** 0-based line of the closing fence; for an unclosed block, the answer's last line. */
  endLine: number;
  closed: boolean;
  /** The opening fence as written (``` or ~~~~…), without its indentation. */
  fence: string;
  /** Spaces before the opening fence (0–3), taken off each body line as markdown does. */
  indent: number;
  /** The info string, trimmed, at most 512 characters. */
  info: string;
  /** Lower-case language ('' when none; from the extension when the info string is only a path). */
  language: string;
  /** The block's lines, `\n`-separated, ending with `\n` unless empty (CRLF read as LF). */
  body: string;
  /** What lands for a file or partial: the body without a first comment line that named the file. */
  code: string;
  kind: BlockKind;
  /** Every file the block is for (several for a multi-file diff or patch). */
  targets: BlockTarget[];
  /** The one target's path when there is exactly one. */
  path?: string;
  /** Namings found but refused or ambiguous; a block with a problem and no target is not landed. */
  problems: BlockProblem[];
  /** For `diff` / `patch`: the files in it, in order. */
  sections?: BlockSection[];
  /** A `diff` of search/replace edit blocks (aider, Cline, Roo): its hunks are found by their SEARCH text once. */
  edits?: boolean;
  /** For `partial`: the first line that stands for left-out code, trimmed and bounded. */
  elision?: string;
  /** The line before the fence that named the file (0-based), when that naming was used. */
  namingLine?: number;
}

export interface ReadAnswer {
  /** The closed blocks, in order (`index` 0, 1, …). */
  blocks: AnswerBlock[];
  /** A last block whose fence never closed (the answer may be cut off): shown, never landed. */
  unclosed?: AnswerBlock;
  /** The block that stands for the range that was sent (also in `blocks`, kind `range`). */
  rangeBlock?: AnswerBlock;
  /** With several unnamed code blocks and no range block: the blocks that may stand for the range (the plan proves one). */
  rangeCandidates?: AnswerBlock[];
  /** Lines in the answer. */
  lineCount: number;
  /** Names the answer's prose says it removes, renames, moves or merges (the landing guard lets those go). */
  statedRemovals: Set<string>;
}

export interface WorkspaceFolderName {
  name: string;
  /** The folder holds an entry named like itself at its root (a package folder): `name/x` then means that entry. */
  hasSelfNamedChild?: boolean;
}

export interface ReadOptions {
  /** The task's source file, workspace-relative, when it is in the workspace: picks the range block. */
  sourcePath?: string;
  /** The folder (its name) `sourcePath` is in, with several folders: a block naming `<that folder>/<sourcePath>` names the source. */
  sourceFolder?: string;
  /**
   * The workspace folders (their names). A path whose first segment is a folder's name is relative to that
   * folder (`target.folder`); a name two folders share is ambiguous. With one folder, its name as a leading
   * segment is dropped (models often start paths with the project's folder).
   */
  folders?: readonly (string | WorkspaceFolderName)[];
}
