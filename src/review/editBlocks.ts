/**
 * Search/replace edit blocks, as agents write them (issue 34):
 * - aider: `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`, several in one fence;
 * - Cline: `------- SEARCH` / `=======` / `+++++++ REPLACE`;
 * - Roo Code: aider's markers with `:start_line:N` (and `:end_line:N`) and a `-------` line after SEARCH;
 * - Zed: `<old_text line=N>` … `</old_text>` then `<new_text>` … `</new_text>`, inside `<edits>` (issue 43);
 * - Cline's and Roo's tool XML around the markers (`<replace_in_file>`, `<apply_diff>`, `<diff>`): the tags are
 *   read as the wrapper they are, and a `<path>` line names the file.
 * Each pair becomes a diff hunk with no context: its SEARCH lines removed, its REPLACE lines added, and no line
 * numbers, so placement (placement.ts) must find the SEARCH text exactly once (whitespace-tolerant only) or
 * list the hunk. One pass over the lines; a line is tested against the markers only after its first character.
 */
import type { DiffHunk, DiffLine } from './patch';

const SEARCH = /^\s*(?:<{5,9}|-{5,9})\s*SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const REPLACE = /^\s*(?:>{5,9}|\+{5,9})\s*REPLACE\s*$/;
const ROO_LINE = /^\s*:(start|end)_line:\s*(\d{1,9})\s*$/;
const ROO_RULE = /^\s*-{3,9}\s*$/;
const OLD_OPEN = /^\s*<old_text(?:\s+line=["']?(\d{1,9})["']?)?\s*>\s*$/;
const OLD_CLOSE = /^\s*<\/old_text>\s*$/;
const NEW_OPEN = /^\s*<new_text>\s*$/;
const NEW_CLOSE = /^\s*<\/new_text>\s*$/;
/** The tool XML around edit blocks: read past, never as text. */
const WRAPPER = /^\s*<\/?(?:edits|replace_in_file|apply_diff|diff|args|file|content|line_count)(?:\s[^>]{0,200})?>\s*$/;
const PATH_TAG = /^\s*<path>\s*([^<]{1,400}?)\s*<\/path>\s*$/;

/** The longest block read for markers: bounded like every other shape test. */
const MAX_PROBE_LINES = 64;

/** Whether a body holds an edit block: a SEARCH marker among its first lines, and a REPLACE marker later. */
export function looksLikeEditBlocks(body: string): boolean {
  let from = 0;
  for (let k = 0; k < MAX_PROBE_LINES && from < body.length; k++) {
    const nl = body.indexOf('\n', from);
    const end = nl === -1 ? body.length : nl;
    const c = body.charCodeAt(from);
    if ((c === 60 || c === 45 || c === 32) && end - from < 40 && SEARCH.test(body.slice(from, end))) {
      return body.includes('REPLACE', end);
    }
    if ((c === 60 || c === 32) && end - from < 40 && OLD_OPEN.test(body.slice(from, end))) return body.includes('</new_text>', end);
    from = end + 1;
  }
  return false;
}

export interface EditBlocks {
  hunks: DiffHunk[];
  /** A path written inside the fence, on the first line before the first SEARCH marker (aider's variant). */
  namedInside?: string;
  /** A pair whose markers are broken (no divider, no REPLACE): the block is not landed. */
  malformed: boolean;
}

/** The edit blocks of a body, in order. */
export function parseEditBlocks(body: string): EditBlocks {
  const lines = body.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hunks: DiffHunk[] = [];
  let state: 'out' | 'search' | 'replace' | 'old' | 'between' | 'new' = 'out';
  let search: string[] = [];
  let replace: string[] = [];
  let startLine: number | undefined;
  let namedInside: string | undefined;
  let malformed = false;
  let before: string[] = [];
  let first = true;
  const strip = (l: string) => (l.endsWith('\r') ? l.slice(0, -1) : l);
  const pushPair = () => {
    const hunkLines: DiffLine[] = [...search.map(text => ({ op: '-' as const, text, noEol: false })), ...replace.map(text => ({ op: '+' as const, text, noEol: false }))];
    const header = `SEARCH ${search.length ? JSON.stringify(firstShown(search)).slice(0, 80) : '(empty)'}`;
    hunks.push({ header, lines: hunkLines, edit: startLine !== undefined ? { startLine } : {} });
  };
  for (const raw of lines) {
    const line = strip(raw);
    if (state === 'out' && (WRAPPER.test(line) || PATH_TAG.test(line))) {
      const path = PATH_TAG.exec(line)?.[1];
      if (path !== undefined && first && namedInside === undefined) namedInside = path;
      continue;
    }
    if (state === 'out' && OLD_OPEN.test(line)) {
      if (!first && before.some(l => l.trim())) malformed = true;
      const hint = OLD_OPEN.exec(line)![1];
      startLine = hint !== undefined ? Number(hint) : undefined;
      first = false;
      state = 'old';
      search = [];
      replace = [];
      before = [];
      continue;
    }
    if (state === 'old' || state === 'between' || state === 'new') {
      if (state === 'old') {
        if (OLD_CLOSE.test(line)) state = 'between';
        else if (OLD_OPEN.test(line) || NEW_OPEN.test(line)) malformed = true;
        else search.push(line);
      } else if (state === 'between') {
        if (NEW_OPEN.test(line)) state = 'new';
        else if (line.trim()) malformed = true;
      } else if (NEW_CLOSE.test(line)) {
        pushPair();
        state = 'out';
        before = [];
      } else if (OLD_OPEN.test(line) || NEW_OPEN.test(line)) malformed = true;
      else replace.push(line);
      continue;
    }
    if (state === 'out') {
      if (SEARCH.test(line)) {
        if (first) {
          const named = before.filter(l => l.trim());
          if (named.length === 1) namedInside = named[0].trim();
          else if (named.length > 1) malformed = true;
        } else if (before.some(l => l.trim())) {
          // Text between two pairs: a file name (several files in one fence) is not read here.
          malformed = true;
        }
        first = false;
        state = 'search';
        search = [];
        replace = [];
        startLine = undefined;
        before = [];
      } else before.push(line);
      continue;
    }
    if (state === 'search') {
      // Roo: `:start_line:N` (and `:end_line:`) then a `-------` rule, before the SEARCH text.
      const roo = !search.length ? ROO_LINE.exec(line) : null;
      if (roo) {
        if (roo[1] === 'start') startLine = Number(roo[2]);
        continue;
      }
      if (!search.length && startLine !== undefined && ROO_RULE.test(line)) continue;
      if (DIVIDER.test(line)) state = 'replace';
      else if (REPLACE.test(line) || SEARCH.test(line)) malformed = true;
      else search.push(line);
      continue;
    }
    if (REPLACE.test(line)) {
      pushPair();
      state = 'out';
      before = [];
    } else if (DIVIDER.test(line) || SEARCH.test(line)) malformed = true;
    else replace.push(line);
  }
  if (state !== 'out') malformed = true;
  return { hunks, ...(namedInside !== undefined ? { namedInside } : {}), malformed };
}

const firstShown = (lines: readonly string[]) => (lines.find(l => l.trim()) ?? lines[0] ?? '').trim();
