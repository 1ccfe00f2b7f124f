/**
 * The one reader of answers (issue 24): an answer's markdown → its fenced blocks, each with its place (fence
 * lines), language, body, kind and target file(s). Every surface (the rendered result, Copy, Apply…, Insert at
 * Cursor, Review Changes, the chat buttons, the done notification) reads blocks here and nowhere else, so they
 * all number and understand blocks alike.
 *
 * Linear in the answer: one pass over the lines; only a line that starts (after at most 3 spaces) with ` or ~
 * is sliced; every regex is anchored and runs on a bounded piece (an info string, one line before a fence, a
 * block's first line, a line of a block's body).
 *
 * Namings understood (first the info string, then the diff's own headers, then a first comment line, then the
 * line just before the fence): ```ts src/b.ts · ```ts:src/b.ts · path= / file= / filename= / title="…" ·
 * ```src/b.ts · **src/b.ts** / `src/b.ts` / ### src/b.ts / File: src/b.ts / In `src/b.ts`: on the line before
 * (the whole line is the naming: never a sentence that mentions a file) · a first line `// src/b.ts`,
 * `# app/util.py`, `<!-- x.html -->`, `/* x.css *\/` (that line is then not part of the file's text) · unified
 * diff headers (`diff --git`, `---`/`+++`, `a/` `b/`) · `*** Begin Patch` files. Two different names for one
 * block, or a name that matches two workspace folders, is a problem with its reason, never a guess.
 */
import { type DiffHunk, type DiffLine, type FileDiff, parseUnifiedDiff } from './patch';
import { checkPath, displayPath } from './paths';
import type { PathProblem, SkipCode } from './words';

/**
 * - `file`: a whole file for its target. - `partial`: a file's text with parts left out ("// ... existing code ...").
 * - `diff`: a unified diff. - `patch`: a `*** Begin Patch` multi-file patch. - `range`: the unnamed block that
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
  | 'patchHeader';

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
  /** Lines in the answer. */
  lineCount: number;
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

const MAX_INFO = 512;
const MAX_NAMING_LINE = 200;
const MAX_ELISION_LINE = 240;

/** Languages whose blocks are program output or prose, never code to land (unless a path names them). */
const OUTPUT_LANGUAGES = new Set(['text', 'txt', 'plaintext', 'plain', 'output', 'out', 'console', 'terminal', 'log', 'logs', 'stdout', 'stderr', 'shell-session', 'sh-session', 'ansi', 'none', 'nohighlight', 'pycon']);
const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh', 'fish', 'powershell', 'ps1', 'pwsh', 'cmd', 'bat', 'batch', '']);
const DIFF_LANGUAGES = new Set(['diff', 'patch', 'udiff', 'git-diff', 'gitdiff']);
const PYTHON_LANGUAGES = new Set(['py', 'python', 'python3', 'pyi']);

// ——— fences ———

/** A fenced block as split, before its kind and targets are read. */
interface RawBlock extends Pick<AnswerBlock, 'startLine' | 'endLine' | 'closed' | 'fence' | 'indent' | 'info' | 'body'> {
  /** The line before the opening fence that may name the file, trimmed; undefined when none qualifies. */
  before?: { line: number; text: string };
}

/** Splits an answer into fenced blocks in one pass (see the module comment). */
function scan(text: string): { blocks: RawBlock[]; unclosed?: RawBlock; lineCount: number } {
  const blocks: RawBlock[] = [];
  let open: { fence: string; indent: number; info: string; line: number; bodyStart: number; before?: RawBlock['before'] } | undefined;
  let lineNo = 0;
  let from = 0;
  // The last two lines outside a block that were not blank, for a naming just before a fence.
  let prevStart = -1;
  let prevEnd = -1;
  let prevLine = -1;
  let blankRun = 0;
  const hasCr = text.includes('\r');
  const bodyOf = (start: number, end: number, indent: number) => {
    let body = text.slice(start, end);
    if (hasCr) body = body.replace(/\r\n?/g, '\n');
    if (indent > 0) body = body.replace(new RegExp(`^ {1,${indent}}`, 'gm'), '');
    return body;
  };
  for (;;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    let s = from;
    while (s < end && s - from < 4 && text.charCodeAt(s) === 32) s++;
    const c = text.charCodeAt(s);
    let fence: RegExpExecArray | null = null;
    if ((c === 96 || c === 126) && s - from < 4) {
      const lineEnd = end > from && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      // Bounded: the fence run and the info string are cut at a sane length before any regex runs.
      fence = /^(`{3,}|~{3,})(.*)$/.exec(text.slice(s, Math.min(lineEnd, s + 4096)));
    }
    if (open) {
      if (fence && fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && !fence[2].trim()) {
        blocks.push({
          startLine: open.line,
          endLine: lineNo,
          closed: true,
          fence: open.fence,
          indent: open.indent,
          info: open.info,
          body: bodyOf(open.bodyStart, from, open.indent),
          before: open.before,
        });
        open = undefined;
        prevStart = -1;
        blankRun = 0;
      }
    } else if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      const info = fence[2].trim();
      let before: RawBlock['before'];
      if (prevStart >= 0 && blankRun <= 1 && prevEnd - prevStart <= MAX_NAMING_LINE * 2) {
        before = { line: prevLine, text: text.slice(prevStart, prevEnd).trim() };
      }
      open = { fence: fence[1].slice(0, 64), indent: s - from, info: info.length > MAX_INFO ? info.slice(0, MAX_INFO) : info, line: lineNo, bodyStart: Math.min(text.length, end + 1), before };
    } else {
      // A prose line: remember it (by offsets, nothing sliced) as the candidate naming for the next fence.
      let k = s;
      while (k < end && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9 || text.charCodeAt(k) === 13)) k++;
      if (k === end) blankRun++;
      else {
        prevStart = from;
        prevEnd = end;
        prevLine = lineNo;
        blankRun = 0;
      }
    }
    lineNo++;
    if (nl === -1) break;
    from = nl + 1;
  }
  let unclosed: RawBlock | undefined;
  if (open) {
    unclosed = {
      startLine: open.line,
      endLine: Math.max(open.line, lineNo - 1),
      closed: false,
      fence: open.fence,
      indent: open.indent,
      info: open.info,
      body: bodyOf(open.bodyStart, text.length, open.indent),
      before: open.before,
    };
    if (unclosed.body && !unclosed.body.endsWith('\n')) unclosed.body += '\n';
  }
  return { blocks, unclosed, lineCount: lineNo };
}

/**
 * For each line of `text`: 0 outside any fenced block, 1 a fence line (opening or closing), 2 inside a block.
 * What a renderer or heading shifter needs to leave code alone, by the same rules as `readAnswer`.
 */
export function fenceMask(text: string): Uint8Array {
  const { blocks, unclosed, lineCount } = scan(text);
  const mask = new Uint8Array(lineCount);
  for (const b of unclosed ? [...blocks, unclosed] : blocks) {
    mask[b.startLine] = 1;
    for (let i = b.startLine + 1; i < b.endLine; i++) mask[i] = 2;
    if (b.closed) mask[b.endLine] = 1;
    else if (b.endLine > b.startLine) mask[b.endLine] = 2;
  }
  return mask;
}

// ——— paths and namings ———

/** Words that end with `.js` and are names of things, not files ("**Node.js**" above a block). */
const NOT_FILES = /^(?:node|next|nuxt|vue|react|express|three|d3|chart|socket\.io|nest|ember|backbone|angular|alpine|solid|svelte|deno|bun|p5|anime|moment|day|lodash|jquery|handlebars|mustache|ml5|tensorflow|brain)\.js$/i;

/**
 * A token that reads as a file path: no spaces, no markup characters, and either a `/` or `\` with a name
 * character, or a dot extension with a letter (`b.ts`, `.env`); a drive or a leading `/` counts too (the path
 * check then refuses it with its reason).
 */
export function isPathLike(token: string): boolean {
  if (!token || token.length > 400) return false;
  if (/[\s`*"'<>|?={},;]/.test(token) || token.includes('://')) return false;
  if (/^[A-Za-z]:[\\/]/.test(token)) return true;
  if (token.includes(':')) return false;
  if (NOT_FILES.test(token)) return false;
  if (/[\\/]/.test(token)) return /[\w]/.test(token) && !/^[-+]/.test(token);
  return /^(?:[\w@+\-[\]()]+(?:\.[\w@+\-[\]()]+)*)?\.[A-Za-z][\w-]{0,15}$/.test(token);
}

interface Named {
  raw: string;
  naming: Naming;
  attribute?: string;
}

/** The info string → its language and the paths it names. */
export function readInfo(info: string): { language: string; names: Named[] } {
  const text = info.length > MAX_INFO ? info.slice(0, MAX_INFO) : info;
  const tokens = infoTokens(text);
  const names: Named[] = [];
  let language = '';
  tokens.forEach((raw, i) => {
    const t = raw.replace(/^\{+|\}+$/g, '');
    const eq = /^\.?([A-Za-z][\w-]{0,20})=(.*)$/.exec(t);
    if (eq) {
      const key = eq[1].toLowerCase();
      let value = eq[2];
      if (value.startsWith('"') || value.startsWith("'")) {
        const q = value[0];
        const close = value.indexOf(q, 1);
        // An unterminated quote names nothing usable: an empty path, which the check refuses.
        value = close === -1 ? '' : value.slice(1, close);
      }
      if (key === 'path' || key === 'file' || key === 'filename' || key === 'filepath' || key === 'name' && isPathLike(value)) {
        names.push({ raw: value, naming: 'attribute', attribute: key });
      } else if ((key === 'title' || key === 'caption' || key === 'label') && isPathLike(value.trim())) {
        names.push({ raw: value.trim(), naming: 'attribute', attribute: key });
      }
      return;
    }
    if (i === 0) {
      const colon = /^([A-Za-z0-9_+#-]{1,32}):(.+)$/.exec(t);
      if (colon && isPathLike(colon[2]) && !/^[A-Za-z]$/.test(colon[1])) {
        language = colon[1].toLowerCase();
        names.push({ raw: colon[2], naming: 'colon' });
      } else if (isPathLike(t)) {
        names.push({ raw: t, naming: 'infoAlone' });
        language = pathExtension(t);
      } else language = t.toLowerCase().slice(0, 32);
      return;
    }
    if (isPathLike(t)) names.push({ raw: t, naming: 'afterLanguage' });
  });
  return { language, names };
}

function pathExtension(path: string): string {
  return /\.([A-Za-z][\w-]{0,15})$/.exec(path)?.[1]?.toLowerCase() ?? '';
}

/** Whitespace-separated tokens; a quoted value after `=` keeps its spaces. */
function infoTokens(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    let j = i;
    while (j < text.length && !/\s/.test(text[j])) {
      if ((text[j] === '"' || text[j] === "'") && text[j - 1] === '=') {
        const close = text.indexOf(text[j], j + 1);
        j = close === -1 ? text.length : close + 1;
      } else j++;
    }
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

/** Lead words of a line that names the next block's file ("File:", "In", "Update", "Here is the updated"…). */
const LEAD =
  /^(?:(?:file(?:\s*name)?|filename|path|location)\s*:\s*|(?:(?:here(?:'s| is)|this is)\s+)?(?:the\s+)?(?:(?:in|for|inside|update|updated|updating|edit|edited|modify|modified|change|changes\s+(?:to|in)|create|created|creating|add|added|new(?:\s+file)?|replace|full|complete|revised|final|fixed|corrected)\s+)?(?:the\s+)?(?:(?:new|updated|full|complete|modified|revised|final|fixed|corrected)\s+)?(?:(?:file|version\s+of|contents?\s+of|code\s+(?:for|of|in))\s+)?)/i;

/** Markup around a naming: bold, italics, a heading, a list marker, a trailing colon or note. */
function stripDecoration(s: string): string {
  let t = s.trim();
  for (let k = 0; k < 4; k++) {
    const before = t;
    t = t.replace(/^#{1,6}\s+/, '').replace(/^(?:[-*+]|\d{1,3}[.)])\s+/, '');
    t = t.replace(/\s*\((?:new|new file|updated|modified|changed|created|full file|whole file|complete|unchanged parts omitted)\)\s*:?$/i, '');
    t = t.replace(/:$/, '').trim();
    const wrap = /^(\*\*|__|\*|_)(.+)\1$/.exec(t);
    if (wrap) t = wrap[2].trim();
    t = t.replace(/:$/, '').trim();
    if (t === before) break;
  }
  return t;
}

/**
 * The path a line just before a fence names, when the whole line is that naming: `**src/b.ts**`,
 * `` `src/b.ts` ``, `### src/b.ts`, `File: src/b.ts`, `**File:** `src/b.ts``, ``In `src/b.ts`:``,
 * `1. src/b.ts`. A bare path needs a `/` (a lone "utils.py" line is a naming only when decorated).
 */
export function namingLine(line: string): string | undefined {
  if (line.length > MAX_NAMING_LINE) return undefined;
  // Bold anywhere in so short a line is decoration ("**File:** `x`"); a path never holds `**`.
  const unbolded = line.includes('**') ? line.replace(/\*\*/g, '') : line;
  let t = stripDecoration(unbolded);
  let decorated = t !== line.trim();
  const lead = LEAD.exec(t);
  if (lead && lead[0]) {
    t = stripDecoration(t.slice(lead[0].length));
    decorated = true;
  }
  t = t.replace(/^\*\*\s*/, '').replace(/\s*\*\*$/, '');
  const span = /^`([^`]{1,400})`$/.exec(t) ?? /^"([^"]{1,400})"$/.exec(t);
  if (span) {
    const p = span[1].trim();
    return isPathLike(p) ? p : undefined;
  }
  if (/[`\s]/.test(t) || !isPathLike(t)) return undefined;
  if (!decorated && !/[\\/]/.test(t)) return undefined;
  return t;
}

/** A first line that is a comment naming the file: `// src/b.ts`, `# app/util.py`, `<!-- a.html -->`, `/* a.css *\/`, `-- q.sql`. */
export function commentNaming(line: string): string | undefined {
  if (line.length > MAX_NAMING_LINE) return undefined;
  const m = /^\s*(?:\/\/+|#+|--|;+|%+|\/\*+|<!--|\{\/\*|\(\*|'|REM\s)\s*(?:(?:file(?:name)?|path)\s*:\s*)?(.*?)\s*(?:\*+\/\}?|-->|\*\))?\s*$/i.exec(line);
  if (!m) return undefined;
  const p = m[1].replace(/^`(.*)`$/, '$1');
  return isPathLike(p) ? p : undefined;
}

// ——— elisions ———

/** First characters an elision line can start with (after blanks): / # * < - ; % ' . … ( [ {. */
const ELISION_START = new Set([47, 35, 42, 60, 45, 59, 37, 39, 46, 0x2026, 40, 91, 123]);

const ELISION_COMMENT =
  /^\s*(?:\/\/+|#+|\/\*+|\{\/\*|<!--|--|;+|%+|\*|')\s*(?:\.\.\.|…|\[\.\.\.\]|\(\.\.\.\)|(?:[^\n]*?\b(?:existing code|rest of (?:the )?(?:file|code|class|function|method|module|implementation|component|body|test|tests|config|imports)|(?:remains?|stays?|is|are) (?:the same|unchanged|as (?:before|is))|unchanged(?: code| lines| parts)?|code (?:omitted|unchanged)|same as before|omitted for brevity|(?:other|more|previous|remaining) (?:code|methods|functions|imports|tests|lines)(?: \w+)?(?: here| unchanged| omitted| as before)|(?:keep|leave) (?:the )?(?:rest|existing|as is)|snip|truncated)\b))/i;

/**
 * Whether a line stands for code left out: a comment that says so (`// ... existing code ...`,
 * `# rest unchanged`, `/* ... *\/`, `<!-- ... -->`), "(rest of file unchanged)", or a lone `...` / `…`
 * (except an indented `...` in Python, which is code: a body of a stub).
 */
export function isElisionLine(line: string, language = ''): boolean {
  if (line.length > MAX_ELISION_LINE) return false;
  let s = 0;
  while (s < line.length && (line.charCodeAt(s) === 32 || line.charCodeAt(s) === 9)) s++;
  // Most lines start like code: ruled out without a regex.
  if (s === line.length || !ELISION_START.has(line.charCodeAt(s))) return false;
  const t = line.trim();
  if (!t) return false;
  if (t === '...' || t === '…' || t === '[...]' || t === '. . .') return !(PYTHON_LANGUAGES.has(language) && t === '...' && /^\s/.test(line));
  if (/^\((?:\.\.\.\s*)?(?:rest of (?:the )?(?:file|code)|remaining code|the rest|other code|existing code)[^)]{0,60}\)$/i.test(t)) return true;
  if (/^\[(?:\.\.\.\s*)?(?:rest of (?:the )?(?:file|code)|remaining code|existing code)[^\]]{0,60}\]$/i.test(t)) return true;
  return ELISION_COMMENT.test(line);
}

// ——— patches ———

/** `*** Begin Patch` … `*** End Patch` (the apply_patch format): its files as diffs placed by their context. */
export function parseBeginPatch(body: string): { path: string; action: 'update' | 'add' | 'delete'; diff: FileDiff; movedTo?: string }[] {
  const lines = body.split('\n');
  const out: { path: string; action: 'update' | 'add' | 'delete'; diff: FileDiff; movedTo?: string }[] = [];
  let cur: (typeof out)[number] | undefined;
  let hunk: DiffHunk | undefined;
  const fresh = (): FileDiff => ({ created: false, deleted: false, renamed: false, binary: false, hunks: [], eolMarked: false, headersPastCap: 0 });
  const close = () => {
    if (cur && hunk && hunk.lines.length) cur.diff.hunks.push(hunk);
    hunk = undefined;
  };
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const file = /^\*\*\* (Update|Add|Delete) File:\s*(.*?)\s*$/.exec(line.length > 4200 ? line.slice(0, 4200) : line);
    if (file) {
      close();
      const action = file[1].toLowerCase() as 'update' | 'add' | 'delete';
      cur = { path: file[2], action, diff: fresh() };
      cur.diff.oldPath = file[2];
      cur.diff.newPath = file[2];
      if (action === 'add') {
        cur.diff.created = true;
        hunk = { header: '*** Add File', lines: [] };
      }
      if (action === 'delete') cur.diff.deleted = true;
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('*** Move to:')) {
      cur.movedTo = line.slice(12).trim();
      cur.diff.renamed = true;
      continue;
    }
    if (line.startsWith('*** End of File') || line.startsWith('*** End Patch') || line.startsWith('*** Begin Patch')) {
      if (!line.startsWith('*** End of File')) close();
      continue;
    }
    if (line.startsWith('@@')) {
      close();
      hunk = { header: line.length > 200 ? `${line.slice(0, 200)}…` : line, lines: [] };
      continue;
    }
    if (cur.action === 'delete') continue;
    const c = line[0];
    const add = (op: DiffLine['op'], text: string) => {
      hunk ??= { header: '@@', lines: [] };
      hunk.lines.push({ op, text, noEol: false });
    };
    if (cur.action === 'add') {
      if (c === '+') add('+', line.slice(1));
      continue;
    }
    if (c === ' ' || c === '-' || c === '+') add(c, line.slice(1));
    else if (line === '' && hunk) add(' ', '');
  }
  close();
  for (const f of out) {
    // Trailing blank lines are separators, as in a unified diff.
    for (const h of f.diff.hunks) while (h.lines.length && h.lines[h.lines.length - 1].op === ' ' && h.lines[h.lines.length - 1].text === '') h.lines.pop();
    f.diff.hunks = f.diff.hunks.filter(h => h.lines.length);
    if (f.action === 'update') {
      for (const h of f.diff.hunks) {
        // Only added lines: the `@@ <line>` header is where they go (right after that line).
        const anchor = h.header.startsWith('@@ ') ? h.header.slice(3).trim() : '';
        if (anchor && !h.lines.some(l => l.op !== '+')) h.lines.unshift({ op: ' ', text: anchor, noEol: false });
      }
      unanchored(f.diff);
    }
  }
  return out;
}

/** Never matches a line of a file (a NUL and a line break cannot be in one line). */
const NOWHERE = '\u0000\n';

/**
 * A hunk with neither line numbers nor a line to find (only added lines) has no place: given a line that is
 * in no file, so the plan lists it ("does not apply") instead of putting it at the top of the file.
 */
function unanchored(diff: FileDiff): void {
  if (diff.created) return;
  for (const h of diff.hunks) if (h.oldStart === undefined && !h.lines.some(l => l.op !== '+')) h.lines.unshift({ op: ' ', text: NOWHERE, noEol: false });
}

function firstNonBlank(body: string, max = 8): { line: string; offset: number; next: number } | undefined {
  let from = 0;
  for (let k = 0; k < max && from < body.length; k++) {
    const nl = body.indexOf('\n', from);
    const end = nl === -1 ? body.length : nl;
    const line = body.slice(from, Math.min(end, from + 4096));
    if (line.trim()) return { line, offset: from, next: nl === -1 ? body.length : nl + 1 };
    from = end + 1;
  }
  return undefined;
}

export function looksLikeDiff(language: string, code: string): boolean {
  if (DIFF_LANGUAGES.has(language)) return true;
  let i = 0;
  while (i < code.length && (code[i] === '\n' || code[i] === ' ' || code[i] === '\t')) i++;
  return code.startsWith('--- ', i) || code.startsWith('diff --git', i) || code.startsWith('@@ ', i) || code.startsWith('Index: ', i);
}

function looksLikePatch(body: string): boolean {
  const first = firstNonBlank(body, 4);
  return !!first && first.line.trim() === '*** Begin Patch';
}

/** A shell transcript: the first line is a prompt (`$ npm test`, `> node x`, `PS C:\> …`, `C:\> …`). */
function looksLikeTranscript(body: string): boolean {
  const first = firstNonBlank(body, 4);
  return !!first && /^\s*(?:\$|PS [^>]{0,200}>|[A-Za-z]:\\[^>]{0,200}>|>>>|%)\s/.test(first.line);
}

// ——— reading ———

/** Reads an answer: its blocks, kinds and targets. Linear in its length. */
export function readAnswer(text: string, options: ReadOptions = {}): ReadAnswer {
  const { blocks: raws, unclosed: rawUnclosed, lineCount } = scan(text);
  const folders = (options.folders ?? []).map(f => (typeof f === 'string' ? { name: f } : f));
  const resolve = (named: Named): { target?: BlockTarget; problem?: BlockProblem } => resolveName(named, folders);
  const blocks = raws.map((r, i) => readBlock(r, i, resolve));
  const unclosed = rawUnclosed && readBlock(rawUnclosed, blocks.length, resolve);
  const out: ReadAnswer = { blocks, lineCount };
  if (unclosed) out.unclosed = unclosed;

  // The range block: with a source file that no block names, the one unnamed code block (output blocks do not
  // count, unless it is the only unnamed block of all).
  const source = options.sourcePath !== undefined ? checkPath(options.sourcePath) : undefined;
  if (source?.ok) {
    const namesSource = [...blocks, ...(unclosed ? [unclosed] : [])].some(
      b => b.targets.some(t => t.path === source.path && (!t.folder || t.folder === options.sourceFolder)) || b.problems.some(p => p.raw === source.path),
    );
    const unnamed = blocks.filter(b => !b.targets.length && !b.problems.length && (b.kind === 'snippet' || b.kind === 'partial' || b.kind === 'output'));
    const code = unnamed.filter(b => b.kind !== 'output');
    // An unnamed diff may be for the source too: then no block is taken for the range.
    const unnamedDiff = blocks.some(b => (b.kind === 'diff' || b.kind === 'patch') && !b.targets.length && !b.problems.length && !b.sections?.some(s => s.problem));
    // Output and prose are never code to land (issue 24: Copy only), not even when nothing else is unnamed.
    const pick = code.length === 1 ? code[0] : undefined;
    if (pick && !namesSource && !unnamedDiff) {
      if (pick.kind !== 'partial') pick.kind = 'range';
      out.rangeBlock = pick;
    }
  }
  return out;
}

function resolveName(named: Named, folders: readonly WorkspaceFolderName[]): { target?: BlockTarget; problem?: BlockProblem } {
  let raw = named.raw.trim();
  const shown = displayPath(raw);
  // Diff headers and patches keep their paths; a naming in prose may carry `./` or a quote.
  raw = raw.replace(/^["'`]|["'`]$/g, '');
  const checked = checkPath(raw);
  if (!checked.ok) {
    const outside = checked.problem === 'absolute' || checked.problem === 'escapes';
    return { problem: outside ? { code: 'outside', raw: shown, naming: named.naming } : { code: 'invalidPath', raw: shown, naming: named.naming, problem: checked.problem } };
  }
  const base: BlockTarget = { path: checked.path, raw: shown, naming: named.naming };
  if (named.attribute) base.attribute = named.attribute;
  const slash = checked.path.indexOf('/');
  if (slash > 0 && folders.length) {
    const first = checked.path.slice(0, slash);
    const rest = checked.path.slice(slash + 1);
    let matches = folders.filter(f => f.name === first);
    if (!matches.length) matches = folders.filter(f => f.name.toLowerCase() === first.toLowerCase());
    if (matches.length > 1) return { problem: { code: 'ambiguousFolder', raw: shown, naming: named.naming, detail: first } };
    if (matches.length === 1 && !matches[0].hasSelfNamedChild) {
      if (folders.length === 1) return { target: { ...base, path: rest } };
      return { target: { ...base, path: rest, folder: matches[0].name } };
    }
  }
  return { target: base };
}

const sameTarget = (a: BlockTarget, b: BlockTarget) => a.path === b.path && a.folder === b.folder;

function readBlock(r: RawBlock, index: number, resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  const info = readInfo(r.info);
  const block: AnswerBlock = {
    index,
    startLine: r.startLine,
    endLine: r.endLine,
    closed: r.closed,
    fence: r.fence,
    indent: r.indent,
    info: r.info,
    language: info.language,
    body: r.body,
    code: r.body,
    kind: 'snippet',
    targets: [],
    problems: [],
  };
  const infoTargets: BlockTarget[] = [];
  for (const n of info.names) {
    const res = resolve(n);
    if (res.problem) block.problems.push(res.problem);
    else if (res.target && !infoTargets.some(t => sameTarget(t, res.target!))) infoTargets.push(res.target);
  }
  if (infoTargets.length > 1) {
    block.problems.push({ code: 'ambiguousName', raw: infoTargets[0].raw, detail: infoTargets[1].raw, naming: infoTargets[1].naming });
    infoTargets.length = 0;
  }
  const infoRefused = block.problems.length > 0;

  if (looksLikePatch(r.body)) return readPatch(block, infoTargets, resolve);
  if (looksLikeDiff(info.language, r.body)) return readDiff(block, infoTargets, infoRefused, r, resolve);

  // A first comment line naming the file, and the line before the fence.
  const first = firstNonBlank(r.body, 1);
  const commentRaw = first ? commentNaming(first.line) : undefined;
  const comment = commentRaw !== undefined ? resolve({ raw: commentRaw, naming: 'comment' }) : undefined;
  const beforeRaw = r.before ? namingLine(r.before.text) : undefined;
  const before = beforeRaw !== undefined ? resolve({ raw: beforeRaw, naming: 'lineBefore' }) : undefined;

  let target: BlockTarget | undefined = infoTargets[0];
  if (!infoRefused) {
    // The comment line names the file: unless the info string named another one, it is a naming.
    if (comment?.target) {
      if (!target) target = comment.target;
      else if (!sameTarget(target, comment.target)) {
        // The info string wins; a comment naming another file is the file's own first line (content).
        comment.target = undefined;
      }
    } else if (comment?.problem && !target) block.problems.push(comment.problem);
    if (before?.target) {
      if (!target) {
        target = before.target;
        block.namingLine = r.before!.line;
      } else if (!sameTarget(target, before.target)) {
        block.problems.push({ code: 'ambiguousName', raw: target.raw, detail: before.target.raw, naming: 'lineBefore' });
        target = undefined;
      } else block.namingLine = r.before!.line;
    } else if (before?.problem && !target && !block.problems.length) block.problems.push(before.problem);
  }
  if (comment?.target && target && sameTarget(target, comment.target) && first) {
    // The naming comment is not part of the file.
    block.code = r.body.slice(first.next);
  }
  if (target) {
    block.targets.push(target);
    block.path = target.path;
  }

  if (!target && !block.problems.length && (OUTPUT_LANGUAGES.has(info.language) || (SHELL_LANGUAGES.has(info.language) && looksLikeTranscript(r.body)))) {
    block.kind = 'output';
    return block;
  }
  const elision = firstElision(block.code, info.language);
  if (elision !== undefined) {
    block.kind = 'partial';
    block.elision = elision;
  } else block.kind = target || block.problems.length ? 'file' : 'snippet';
  return block;
}

function firstElision(code: string, language: string): string | undefined {
  let from = 0;
  while (from < code.length) {
    const nl = code.indexOf('\n', from);
    const end = nl === -1 ? code.length : nl;
    let s = from;
    while (s < end && (code.charCodeAt(s) === 32 || code.charCodeAt(s) === 9)) s++;
    // Most lines start like code: no slice, no regex.
    if (s < end && end - from <= MAX_ELISION_LINE && ELISION_START.has(code.charCodeAt(s))) {
      const line = code.slice(from, end);
      if (isElisionLine(line, language)) return line.trim().slice(0, 80);
    }
    from = end + 1;
  }
  return undefined;
}

function readDiff(block: AnswerBlock, infoTargets: BlockTarget[], infoRefused: boolean, r: RawBlock, resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  block.kind = 'diff';
  const files = parseUnifiedDiff(block.body);
  for (const f of files) unanchored(f);
  block.sections = [];
  const named = infoTargets[0];
  if (infoRefused) {
    block.sections = files.map(diff => ({ diff }));
    return block;
  }
  if (named) {
    // The info string names the file: a header naming another file makes the block refused.
    for (const diff of files) {
      const other = diff.newPath ?? diff.oldPath;
      const res = other !== undefined ? resolve({ raw: other, naming: 'diffHeader' }) : undefined;
      if (other !== undefined && !(res?.target && sameTarget(res.target, named))) {
        block.problems.push({ code: 'conflictingHeader', raw: named.raw, detail: displayPath(other), naming: 'diffHeader' });
        block.sections = files.map(d => ({ diff: d }));
        return block;
      }
    }
    block.targets.push(named);
    block.path = named.path;
    block.sections = files.map(diff => ({ diff, target: named }));
    return block;
  }
  const headerless = files.every(f => f.oldPath === undefined && f.newPath === undefined);
  if (headerless) {
    // A diff without headers: named by the line before the fence, else unnamed.
    const beforeRaw = r.before ? namingLine(r.before.text) : undefined;
    const before = beforeRaw !== undefined ? resolve({ raw: beforeRaw, naming: 'lineBefore' }) : undefined;
    if (before?.target && files.length) {
      block.targets.push(before.target);
      block.path = before.target.path;
      block.namingLine = r.before!.line;
      block.sections = files.map(diff => ({ diff, target: before.target }));
    } else {
      if (before?.problem && files.length) block.problems.push(before.problem);
      block.sections = files.map(diff => ({ diff }));
    }
    return block;
  }
  for (const diff of files) {
    const raw = diff.deleted ? diff.oldPath : (diff.newPath ?? diff.oldPath);
    if (raw === undefined) {
      block.sections.push({ diff });
      continue;
    }
    const res = resolve({ raw, naming: 'diffHeader' });
    if (res.target) {
      block.sections.push({ diff, target: res.target });
      if (!block.targets.some(t => sameTarget(t, res.target!))) block.targets.push(res.target);
    } else block.sections.push({ diff, problem: res.problem });
  }
  if (block.targets.length === 1) block.path = block.targets[0].path;
  return block;
}

function readPatch(block: AnswerBlock, infoTargets: BlockTarget[], resolve: (n: Named) => { target?: BlockTarget; problem?: BlockProblem }): AnswerBlock {
  block.kind = 'patch';
  block.sections = [];
  void infoTargets;
  for (const f of parseBeginPatch(block.body)) {
    const res = resolve({ raw: f.path, naming: 'patchHeader' });
    const section: BlockSection = { diff: f.diff };
    if (f.movedTo !== undefined) section.movedTo = f.movedTo;
    if (res.target) {
      section.target = res.target;
      if (!block.targets.some(t => sameTarget(t, res.target!))) block.targets.push(res.target);
    } else section.problem = res.problem;
    block.sections.push(section);
  }
  if (block.targets.length === 1) block.path = block.targets[0].path;
  return block;
}
