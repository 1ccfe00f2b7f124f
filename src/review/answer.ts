/**
 * An answer's text → the changes it proposes, read by the one reader of answers (`reader.ts`): every naming
 * models write (the landing format's `path=` and the others), diffs, `*** Begin Patch` patches.
 *
 * - A block named for a file (see namings.ts for the namings): a unified diff or patch → one proposal per file
 *   in it; anything else → the whole new file (`elision` set when it leaves parts out: the plan then lands
 *   the parts it shows by their unchanged lines, never as a whole file).
 * - A diff without any naming is unnamed. An unnamed code block is the proposal for the range that was sent
 *   (`rangeBlock`) when it is the only unnamed code block, no unnamed diff is there and no block names the
 *   task's source file (output blocks such as ```text do not count, unless there is nothing else).
 * - Deletions, renames, binary patches, bad or ambiguous namings and an unclosed named block are listed in
 *   `rejected` with their reason.
 * Blocks are numbered as the reader numbers them (every surface shares that numbering).
 */
import { readInfo } from './namings';
import type { FileDiff } from './patch';
import { readAnswer } from './reader';
import type { AnswerBlock, Naming, ReadAnswer, ReadOptions } from './readerTypes';
import type { PathProblem, SkipCode } from './words';

export interface FencedBlock {
  /** Index among the closed blocks. */
  index: number;
  /** 0-based line of the opening fence. */
  line: number;
  info: string;
  /** The body, `\n`-separated, ending with `\n` unless empty. */
  code: string;
}

/** The fenced blocks of a markdown text (the reader's, in the older shape), plus the unclosed one. */
export function fencedBlocks(text: string): { blocks: FencedBlock[]; unclosed?: { line: number; info: string } } {
  const read = readAnswer(text);
  return {
    blocks: read.blocks.map(b => ({ index: b.index, line: b.startLine, info: b.info, code: b.body })),
    unclosed: read.unclosed && { line: read.unclosed.startLine, info: read.unclosed.info },
  };
}

/** The info string's language and its `path=` (or other) naming, as the reader reads it. */
export function parseInfo(info: string): { language: string; path?: string } {
  const read = readInfo(info);
  return read.names.length ? { language: read.language, path: read.names[0].raw } : { language: read.language };
}

export interface WholeFileProposal {
  kind: 'whole';
  /** Normalised workspace-relative path (see `checkPath`). */
  path: string;
  block: number;
  line: number;
  language: string;
  text: string;
  /** The block leaves parts of the file out: this line stands for them (see elisions.ts `isElisionLine`). */
  elision?: string;
  /** The workspace folder the path is in (multi-root), when its first segment named one. */
  folder?: string;
  naming?: Naming;
}

export interface DiffProposal {
  kind: 'diff';
  path: string;
  block: number;
  line: number;
  diff: FileDiff;
  folder?: string;
  naming?: Naming;
}

export type Proposal = WholeFileProposal | DiffProposal;

export interface UnnamedBlock {
  block: number;
  line: number;
  language: string;
  code: string;
  isDiff: boolean;
  /** The reader's kind: `snippet`, `range`, `partial`, `output` or `diff` (a diff without a naming). */
  kind?: AnswerBlock['kind'];
}

export interface RejectedBlock {
  block: number;
  line: number;
  /** The path as named, printable and bounded ('' when none). */
  path: string;
  code: SkipCode;
  /** A diff block (else a whole file, or a fence that never closed). */
  isDiff: boolean;
  /** For `invalidPath`: what is wrong with it. */
  problem?: PathProblem;
  /** For `conflictingHeader` / `ambiguousName`: the other name; for `ambiguousFolder`: the folder's name. */
  detail?: string;
}

export interface ParsedAnswer {
  /** Closed fenced blocks in the answer. */
  blockCount: number;
  proposals: Proposal[];
  unnamed: UnnamedBlock[];
  /** The unnamed block that stands for the range that was sent, if the rule above picks one. */
  rangeBlock?: UnnamedBlock;
  /** Several unnamed code blocks that may stand for the range: the plan takes the one proven to, if only one is. */
  rangeCandidates?: UnnamedBlock[];
  rejected: RejectedBlock[];
  /** Names the answer's prose says it removes, renames, moves or merges (see `statedRemovals`). */
  statedRemovals?: ReadonlySet<string>;
}

export interface ParseOptions extends ReadOptions {
  /** Proposals beyond this many are rejected as `tooMany` (default 1,000). */
  maxProposals?: number;
}

export function parseAnswer(text: string, options: ParseOptions = {}): ParsedAnswer {
  return proposalsOf(readAnswer(text, options), options);
}

/** Apply… on one block: the proposals of that block alone (see `onlyBlock`). */
export function parseAnswerBlock(text: string, index: number, options: ParseOptions = {}): ParsedAnswer {
  return proposalsOf(onlyBlock(readAnswer(text, options), index, options.sourcePath), options);
}

/**
 * The answer with one block left (the range block stays the range block only if it is that one). A diff
 * that names no file, applied on its own to a task sent from a file, is for that file: its hunks are placed
 * by their context there (a hunk whose context is not found is listed, never forced).
 */
function onlyBlock(read: ReadAnswer, index: number, sourcePath: string | undefined): ReadAnswer {
  let blocks = read.blocks.filter(b => b.index === index);
  const b = blocks[0];
  if (b && b.kind === 'diff' && sourcePath !== undefined && !b.targets.length && !b.problems.length && b.sections?.length) {
    const target = { path: sourcePath, raw: sourcePath, naming: 'diffHeader' as const };
    blocks = [{ ...b, targets: [target], path: sourcePath, sections: b.sections.map(s => (s.target || s.problem ? s : { ...s, target })) }];
  }
  return { ...read, blocks, rangeBlock: read.rangeBlock && blocks.includes(read.rangeBlock) ? read.rangeBlock : undefined, rangeCandidates: undefined };
}

/** The proposals of an answer the reader has read (see the module comment). */
export function proposalsOf(read: ReturnType<typeof readAnswer>, options: ParseOptions = {}): ParsedAnswer {
  const max = options.maxProposals ?? 1000;
  const out: ParsedAnswer = { blockCount: read.blocks.length, proposals: [], unnamed: [], rejected: [], statedRemovals: read.statedRemovals };
  const reject = (b: AnswerBlock, raw: string, code: SkipCode, isDiff: boolean, extra: Partial<RejectedBlock> = {}) =>
    out.rejected.push({ block: b.closed ? b.index : -1, line: b.startLine, path: raw, code, isDiff, ...extra });
  const rejectProblem = (b: AnswerBlock, p: AnswerBlock['problems'][number], isDiff: boolean) =>
    reject(b, p.raw, p.code, isDiff, {
      ...(p.problem ? { problem: p.problem } : {}),
      ...(p.detail !== undefined ? { detail: p.detail } : {}),
    });
  const propose = (b: AnswerBlock, p: Proposal) => {
    if (out.proposals.length >= max) reject(b, p.path, 'tooMany', p.kind === 'diff');
    else out.proposals.push(p);
  };
  const where = (t: { folder?: string; naming: Naming }) => (t.folder !== undefined ? { folder: t.folder, naming: t.naming } : { naming: t.naming });
  const unnamed = (b: AnswerBlock, isDiff: boolean) => {
    const u: UnnamedBlock = { block: b.index, line: b.startLine, language: b.language, code: isDiff ? b.body : b.code, isDiff, kind: b.kind };
    out.unnamed.push(u);
    if (read.rangeBlock === b) out.rangeBlock = u;
    if (read.rangeCandidates?.includes(b)) (out.rangeCandidates ??= []).push(u);
  };

  for (const b of read.blocks) {
    if (b.kind === 'diff' || b.kind === 'patch') {
      if (b.problems.length) {
        rejectProblem(b, b.problems[0], true);
        continue;
      }
      const sections = b.sections ?? [];
      if (b.targets.length && !sections.length) {
        reject(b, b.targets[0].path, 'doesNotApply', true);
        continue;
      }
      let any = false;
      for (const s of sections) {
        if (s.problem) {
          any = true;
          rejectProblem(b, s.problem, true);
          continue;
        }
        if (!s.target) continue;
        any = true;
        const path = s.target.path;
        if (s.diff.deleted) reject(b, path, 'deletion', true);
        else if (s.diff.renamed) reject(b, path, 'rename', true);
        else if (s.diff.binary) reject(b, path, 'binary', true);
        else if (!s.diff.hunks.length) reject(b, path, 'doesNotApply', true);
        else propose(b, { kind: 'diff', path, block: b.index, line: b.startLine, diff: s.diff, ...where(s.target) });
      }
      if (!any) unnamed(b, true);
      continue;
    }
    if (b.problems.length) {
      rejectProblem(b, b.problems[0], false);
      continue;
    }
    const target = b.targets[0];
    if (!target) {
      unnamed(b, false);
      continue;
    }
    const p: WholeFileProposal = { kind: 'whole', path: target.path, block: b.index, line: b.startLine, language: b.language, text: b.code, ...where(target) };
    if (b.elision !== undefined) p.elision = b.elision;
    propose(b, p);
  }

  const u = read.unclosed;
  if (u) {
    const isDiff = u.kind === 'diff' || u.kind === 'patch';
    const named = u.targets[0]?.raw ?? u.problems[0]?.raw;
    if (named !== undefined) reject(u, named, 'unclosed', isDiff);
  }
  return out;
}

/**
 * Multi-root: the proposals per workspace folder (by name). Proposals whose path named a folder
 * (`ParseOptions.folders`) go to that folder; everything else (unnamed blocks, the range block, what is
 * rejected) stays with `home`, the folder the task was sent from. Build one plan per folder.
 */
export function byFolder(parsed: ParsedAnswer, home: string): Map<string, ParsedAnswer> {
  const out = new Map<string, ParsedAnswer>([[home, { ...parsed, proposals: [] }]]);
  for (const p of parsed.proposals) {
    const name = p.folder ?? home;
    let entry = out.get(name);
    if (!entry) {
      entry = { blockCount: parsed.blockCount, proposals: [], unnamed: [], rejected: [] };
      out.set(name, entry);
    }
    entry.proposals.push(p);
  }
  return out;
}
