/** The review plan's shapes (plan.ts builds them): the caller's files and options, and the plan's files and hunks. */
import type { Eol } from './lines';
import { runsCode } from './paths';
import type { HunkSkipCode, RunsCode, SkipCode, TooComplex, Translate } from './words';

export type FileState = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'refused'; reason: string; outside?: boolean };

/** The caller's view of the workspace. Both are called with paths that passed `checkPath`, once each. */
export interface ReviewFiles {
  /** The file now (an open document's text, else the disk's), missing, or refused (see plan.ts); a missing path whose name differs only in letter case from an entry beside it is refused (issue 43: never a second file beside it). */
  current(path: string): FileState;
  /** The text recorded when the task was sent; undefined when not sent or over the recorded-size bound. */
  sent(path: string): string | undefined;
}

/** Zero-based, as in vscode.Range. */
export interface RangeRecord {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** The task's source: where the range proposal goes. */
export interface SentSource {
  /** Workspace-relative path (the task's source label). */
  path: string;
  /** The range that was sent, in the sent text; absent when the whole file was sent. */
  range?: RangeRecord;
  /** Where that range is in the file now (SourceRangeTracker), for when no text was recorded. */
  currentRange?: RangeRecord;
}

export interface PlanOptions {
  source?: SentSource;
  /** `vscode.l10n.t` in the extension. Default: English templates filled in. */
  translate?: Translate;
  /** Line break of created files. Default LF. */
  newFileEol?: Eol;
  /** Context lines a hunk placed in the file now may leave out at each end. Default 2. */
  fuzz?: number;
  /** Hunks offered at most, over all files; files beyond are listed as `tooMany`. Default 5,000. */
  maxHunks?: number;
  /**
   * Steps of diff and search work for the whole plan (default 40 million, well under a second): past it,
   * diffs become coarse and unplaced hunks are listed, so a hostile answer of many files stays bounded.
   */
  workBudget?: number;
  /** Paths differing only in case name one file (Windows, macOS by default): their blocks are grouped. */
  caseInsensitivePaths?: boolean;
  /** Hunk headers in the answer's diffs at most; past it the plan is `tooComplex` at once. Default 50,000. */
  maxHunkHeaders?: number;
}

export interface Position {
  line: number;
  character: number;
}

export interface PlanHunk {
  /** `<path>#<index>`: stable for the same plan inputs. */
  id: string;
  /** 1-based, in the order of the file. */
  index: number;
  label: string;
  /** Lines `[startLine, endLine)` of the text now (0-based) are replaced; equal for an insertion. */
  currentRange: { startLine: number; endLine: number };
  /** The same as valid editor positions (the end of an unterminated last line, not past it). */
  start: Position;
  end: Position;
  /** The same as offsets into the text now. */
  startOffset: number;
  endOffset: number;
  /** The text now in that range, exactly. */
  oldText: string;
  /** The text that lands, in the file's line break. */
  newText: string;
  /** Touches lines the user changed since the task was sent: offer unchecked. */
  conflict: boolean;
  /** For a conflict: the region as sent, as it is now, and as the proposal has it. */
  sides?: { base: string; ours: string; theirs: string };
  /** Lands at another line than in the text that was sent. */
  shifted: boolean;
  /** Next to (not on) lines the user changed. */
  nearUserEdit: boolean;
  /** Placed in the file now by its context (a diff hunk that did not fit the text that was sent, or fuzz). */
  byContext: boolean;
}

export interface SkippedHunk {
  /** 1-based index of the hunk in its diff block. */
  hunk: number;
  block: number;
  header: string;
  code: HunkSkipCode;
  reason: string;
}

export interface PlanFile {
  /** Normalised workspace-relative path; '' for a block that names none. */
  path: string;
  kind: 'modify' | 'create' | 'skip';
  reasonCode?: SkipCode;
  reason?: string;
  from: 'whole' | 'diff' | 'range' | 'unnamed';
  /** Answer blocks (codeBlocks() indexes) this entry comes from; -1 for an unclosed block. */
  blocks: number[];
  /** 0-based line of the first block's fence in the answer. */
  line: number;
  /** No text was recorded: merged against the file now only. */
  twoWay: boolean;
  eol: Eol;
  /** A file that can run code (.vscode, package.json, Makefile, … `RUNS_CODE`): it starts unchecked. */
  sensitive: boolean;
  /** Why it can run code (`runsCodeReason` words it). */
  runsCode?: RunsCode;
  alreadyApplied: number;
  /** The diff hit its work bound somewhere: hunks may be coarser than needed. */
  coarse: boolean;
  hunks: PlanHunk[];
  skippedHunks: SkippedHunk[];
}

export interface ReviewPlan {
  files: PlanFile[];
  hunkCount: number;
  conflictCount: number;
  /**
   * The answer is more than a review here can take (more hunk headers than `maxHunkHeaders`, or the work
   * budget was spent): the caller says so with these numbers (`tooComplexReason`) and offers the raw answer
   * instead of a preview that would be partial.
   */
  tooComplex?: TooComplex;
}

/** A plan entry with nothing planned yet: the fields every kind of entry starts from. */
export function emptyFile(path: string, from: PlanFile['from'], blocks: number[], line: number): PlanFile {
  const code = path ? runsCode(path) : undefined;
  return {
    path,
    kind: 'modify',
    from,
    blocks,
    line,
    twoWay: false,
    eol: '\n',
    sensitive: !!code,
    ...(code ? { runsCode: code } : {}),
    alreadyApplied: 0,
    coarse: false,
    hunks: [],
    skippedHunks: [],
  };
}

/** Lists a block (or blocks) as not offered, with its reason's words. */
export type Skip = (path: string, from: PlanFile['from'], blocks: number[], line: number, code: SkipCode, ...args: (string | number)[]) => PlanFile;
