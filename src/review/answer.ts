/**
 * An answer's text → the changes it proposes, per the landing format (docs: LANDING-FORMAT in the team notes,
 * summarised here). One pass over the lines; every regex is anchored and linear; server text of any size.
 *
 * - A fenced block whose info string holds `path=<p>` (or `path="<p with spaces>"`) names a file: a unified
 *   diff when its language is `diff`/`patch` or its body starts like one, else the whole new file.
 * - A diff block without `path=` is named by its `+++ b/<p>` headers (one proposal per file in it).
 * - Other blocks are unnamed. When there is exactly one unnamed block, it is not a diff, and no block names
 *   the task's source file, it is the proposal for the range that was sent (`rangeBlock`).
 * - Deletions, renames, binary patches, bad paths and an unclosed named block are listed in `rejected`.
 * Blocks are numbered as `codeBlocks()` (tasks/resultText.ts) numbers them, so Apply to Source… can still
 * take any of them by index.
 */
import { type FileDiff, parseUnifiedDiff } from './patch';
import { checkPath, displayPath } from './paths';
import type { PathProblem, SkipCode } from './words';

export interface FencedBlock {
  /** Index among the closed blocks, as `codeBlocks()` counts. */
  index: number;
  /** 0-based line of the opening fence. */
  line: number;
  info: string;
  /** The body, `\n`-separated, ending with `\n` unless empty. */
  code: string;
}

/**
 * The fenced blocks of a markdown text by `codeBlocks()`'s rules (a closing fence has the same character, at
 * least the same length and nothing after it; an unclosed block is not a block), plus the unclosed one.
 */
export function fencedBlocks(text: string): { blocks: FencedBlock[]; unclosed?: { line: number; info: string } } {
  const blocks: FencedBlock[] = [];
  const crlf = text.includes('\r');
  let open: { char: string; size: number; info: string; line: number; bodyStart: number } | undefined;
  let lineNo = 0;
  let from = 0;
  for (;;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    // Only a line that starts (after at most 3 spaces) with ` or ~ can be a fence: no other line is sliced.
    let s = from;
    while (s < end && s - from < 4 && text.charCodeAt(s) === 32) s++;
    const c = text.charCodeAt(s);
    let fence: RegExpExecArray | null = null;
    if ((c === 96 || c === 126) && s - from < 4) {
      const line = text.charCodeAt(end - 1) === 13 && end > from ? text.slice(from, end - 1) : text.slice(from, end);
      fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    }
    if (open) {
      if (fence && fence[1][0] === open.char && fence[1].length >= open.size && !fence[2].trim()) {
        const body = text.slice(open.bodyStart, from);
        blocks.push({ index: blocks.length, line: open.line, info: open.info, code: crlf ? body.replace(/\r\n/g, '\n') : body });
        open = undefined;
      }
    } else if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      open = { char: fence[1][0], size: fence[1].length, info: fence[2].trim(), line: lineNo, bodyStart: end + 1 };
    }
    lineNo++;
    if (nl === -1) break;
    from = nl + 1;
  }
  return { blocks, unclosed: open && { line: open.line, info: open.info } };
}

const MAX_INFO = 2048;

/** The info string's language (its first word, unless that is an attribute) and `path=` value. */
export function parseInfo(info: string): { language: string; path?: string } {
  const text = info.length > MAX_INFO ? info.slice(0, MAX_INFO) : info;
  const firstWord = text.split(/\s/, 1)[0] ?? '';
  const language = firstWord.includes('=') ? '' : firstWord.toLowerCase();
  let at = -1;
  for (let i = text.indexOf('path='); i !== -1; i = text.indexOf('path=', i + 1)) {
    if (i === 0 || /\s/.test(text[i - 1])) {
      at = i + 5;
      break;
    }
  }
  if (at === -1) return { language };
  if (text[at] === '"') {
    const close = text.indexOf('"', at + 1);
    // An unterminated quote names nothing usable: an empty path, which the check refuses.
    return { language, path: close === -1 ? '' : text.slice(at + 1, close) };
  }
  let end = at;
  while (end < text.length && !/\s/.test(text[end])) end++;
  return { language, path: text.slice(at, end) };
}

const DIFF_LANGUAGES = new Set(['diff', 'patch', 'udiff']);

export function looksLikeDiff(language: string, code: string): boolean {
  if (DIFF_LANGUAGES.has(language)) return true;
  let i = 0;
  while (i < code.length && (code[i] === '\n' || code[i] === ' ' || code[i] === '\t')) i++;
  return code.startsWith('--- ', i) || code.startsWith('diff --git', i) || code.startsWith('@@ ', i);
}

export interface WholeFileProposal {
  kind: 'whole';
  /** Normalised workspace-relative path (see `checkPath`). */
  path: string;
  block: number;
  line: number;
  language: string;
  text: string;
}

export interface DiffProposal {
  kind: 'diff';
  path: string;
  block: number;
  line: number;
  diff: FileDiff;
}

export type Proposal = WholeFileProposal | DiffProposal;

export interface UnnamedBlock {
  block: number;
  line: number;
  language: string;
  code: string;
  isDiff: boolean;
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
  /** For `conflictingHeader`: the other name. */
  detail?: string;
}

export interface ParsedAnswer {
  /** Closed fenced blocks in the answer. */
  blockCount: number;
  proposals: Proposal[];
  unnamed: UnnamedBlock[];
  /** The unnamed block that stands for the range that was sent, if the rule above picks one. */
  rangeBlock?: UnnamedBlock;
  rejected: RejectedBlock[];
}

export interface ParseOptions {
  /** The task's source file, workspace-relative (its `label`), when it is in the workspace. */
  sourcePath?: string;
  /** Proposals beyond this many are rejected as `tooMany` (default 1,000). */
  maxProposals?: number;
}

export function parseAnswer(text: string, options: ParseOptions = {}): ParsedAnswer {
  const { blocks, unclosed } = fencedBlocks(text);
  const max = options.maxProposals ?? 1000;
  const out: ParsedAnswer = { blockCount: blocks.length, proposals: [], unnamed: [], rejected: [] };
  const named = new Set<string>();
  let isDiff = false;
  const reject = (b: { index?: number; line: number }, raw: string, code: SkipCode, extra: Partial<RejectedBlock> = {}) =>
    out.rejected.push({ block: b.index ?? -1, line: b.line, path: displayPath(raw), code, isDiff, ...extra });
  /** A checked path, or undefined after listing why not. */
  const usable = (b: FencedBlock, raw: string): string | undefined => {
    const checked = checkPath(raw);
    if (checked.ok) {
      named.add(checked.path);
      return checked.path;
    }
    const outside = checked.problem === 'absolute' || checked.problem === 'escapes';
    reject(b, raw, outside ? 'outside' : 'invalidPath', outside ? {} : { problem: checked.problem });
    return undefined;
  };
  const propose = (b: FencedBlock, p: Proposal) => {
    if (out.proposals.length >= max) reject(b, p.path, 'tooMany');
    else out.proposals.push(p);
  };

  for (const b of blocks) {
    const info = parseInfo(b.info);
    isDiff = looksLikeDiff(info.language, b.code);
    if (!isDiff) {
      if (info.path === undefined) out.unnamed.push({ block: b.index, line: b.line, language: info.language, code: b.code, isDiff });
      else {
        const path = usable(b, info.path);
        if (path !== undefined) propose(b, { kind: 'whole', path, block: b.index, line: b.line, language: info.language, text: b.code });
      }
      continue;
    }
    const sections = parseUnifiedDiff(b.code);
    if (info.path !== undefined) {
      const path = usable(b, info.path);
      if (path === undefined) continue;
      if (!sections.length) {
        reject(b, path, 'doesNotApply');
        continue;
      }
      const other = sections.map(s => s.newPath ?? s.oldPath).find(p => p !== undefined && (checkPath(p) as { path?: string }).path !== path);
      if (other !== undefined) {
        reject(b, path, 'conflictingHeader', { detail: displayPath(other) });
        continue;
      }
      for (const s of sections) sectionProposal(b, path, s);
      continue;
    }
    let any = false;
    for (const s of sections) {
      const raw = s.deleted ? s.oldPath : (s.newPath ?? s.oldPath);
      if (raw === undefined) continue;
      any = true;
      const path = usable(b, raw);
      if (path !== undefined) sectionProposal(b, path, s);
    }
    if (!any) out.unnamed.push({ block: b.index, line: b.line, language: info.language, code: b.code, isDiff });
  }

  function sectionProposal(b: FencedBlock, path: string, s: FileDiff) {
    if (s.deleted) reject(b, path, 'deletion');
    else if (s.renamed) reject(b, path, 'rename');
    else if (s.binary) reject(b, path, 'binary');
    else if (!s.hunks.length) reject(b, path, 'doesNotApply');
    else propose(b, { kind: 'diff', path, block: b.index, line: b.line, diff: s });
  }

  if (unclosed) {
    const info = parseInfo(unclosed.info);
    isDiff = DIFF_LANGUAGES.has(info.language);
    if (info.path !== undefined) reject({ line: unclosed.line }, info.path, 'unclosed');
  }

  const source = options.sourcePath !== undefined ? checkPath(options.sourcePath) : undefined;
  if (source?.ok && out.unnamed.length === 1 && !out.unnamed[0].isDiff && !named.has(source.path)) out.rangeBlock = out.unnamed[0];
  return out;
}
