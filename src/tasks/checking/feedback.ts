/**
 * What "Ask the Team to Fix" sends in the task's thread (issue 37): what was checked, what failed, and the end of
 * the output, redacted (the keys, the user's home and absolute paths) and bounded. Pure: no vscode. Linear time:
 * the redaction is a scan of the text (indexOf per root and one pass for other paths), no backtracking regex.
 */
import { redactSecrets } from '../../api/redact';
import { fencedBlock } from '../sending/prompt';
import { stripAnsi } from './output';
import { cutUrlPasswords, hasUrlPassword, isSecretName } from './secrets';
import { type CheckRecord, type CheckVerdict, FIX_REQUEST_OPENING } from './types';

export const FIX_REQUEST_MAX_CHARS = 12_000;
/** A secret shorter than this is not looked for (it would garble the text and protect nothing). */
const MIN_SECRET = 8;
/** How many newly failing names the request lists (the rest are counted). */
const MAX_NAMES = 30;

/** Characters a path segment is made of (anything but blanks, quotes, brackets and separators of a message). */
function isPathChar(code: number): boolean {
  if (code <= 0x20 || code === 0x7f) return false;
  // " ' ` ( ) [ ] { } < > , ; | : = and the separators themselves are handled by the caller.
  return !'"\'`()[]{}<>,;|:='.includes(String.fromCharCode(code));
}

/** A character that may stand before a path: anything not part of a word or a path (a URL's `//` is not a path). */
function startsPathAfter(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text.charCodeAt(i - 1);
  if (before === 0x2f /* / */ && text.startsWith('file://', i - 7)) return true;
  return !isPathChar(before) || before === 0x3d /* = */;
}

/** Replaces each occurrence of `from` that is a whole path (not inside a longer path) with `to`. Linear per root. */
function replacePath(text: string, from: string, to: string): string {
  if (!from || from.length < 2) return text;
  const out: string[] = [];
  let last = 0;
  let at = text.indexOf(from);
  while (at >= 0) {
    const after = at + from.length < text.length ? text.charCodeAt(at + from.length) : 0x20;
    const endsWhole = from.endsWith('/') || from.endsWith('\\') || !isPathChar(after) || after === 0x2f || after === 0x5c;
    if (startsPathAfter(text, at) && endsWhole) {
      out.push(text.slice(last, at), to);
      last = at + from.length;
      at = text.indexOf(from, last);
    } else {
      at = text.indexOf(from, at + 1);
    }
  }
  if (!out.length) return text;
  out.push(text.slice(last));
  return out.join('');
}

/** Each root as it may be printed: with and without its trailing separator, with `/` for `\`; longest first. */
function rootForms(roots: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const root of roots) {
    let end = root.length;
    while (end > 0 && (root[end - 1] === '/' || root[end - 1] === '\\')) end--;
    const bare = root.slice(0, end);
    if (bare.length < 2) continue;
    forms.add(bare);
    if (bare.includes('\\')) forms.add(bare.split('\\').join('/'));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Any other absolute path (POSIX `/a/b…` of two segments or more, Windows `C:\a\b…`) → `…/` and its last segment.
 * One pass over the text.
 */
function shortenAbsolutePaths(text: string): string {
  const out: string[] = [];
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    let start = -1;
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      // `scheme://…`: a URL, not a path (after `file:` the path starts at the third slash).
      i += 2;
      if (text.startsWith('file:', i - 7)) continue;
      while (i < n && (isPathChar(text.charCodeAt(i)) || ':/\\='.includes(text[i]))) i++;
      continue;
    }
    if (c === 0x2f && startsPathAfter(text, i)) start = i;
    else if (/[A-Za-z]/.test(text[i]) && text.charCodeAt(i + 1) === 0x3a && (text.charCodeAt(i + 2) === 0x5c || text.charCodeAt(i + 2) === 0x2f) && startsPathAfter(text, i)) start = i;
    if (start < 0) {
      i++;
      continue;
    }
    // The path: from its start, path characters and separators (a drive's colon is skipped).
    let end = c === 0x2f ? i : i + 2;
    const segments: [number, number][] = [];
    let segStart = -1;
    while (end < n) {
      const d = text.charCodeAt(end);
      if (d === 0x2f || d === 0x5c) {
        if (segStart >= 0) segments.push([segStart, end]);
        segStart = -1;
      } else if (isPathChar(d) || d === 0x3d) {
        if (segStart < 0) segStart = end;
      } else break;
      end++;
    }
    if (segStart >= 0) segments.push([segStart, end]);
    if (segments.length >= 2) {
      const [s, e] = segments[segments.length - 1];
      const trailing = text.slice(e, end);
      out.push(text.slice(last, start), '…/', text.slice(s, e), trailing);
      last = end;
    }
    i = Math.max(end, i + 1);
  }
  if (!out.length) return text;
  out.push(text.slice(last));
  return out.join('');
}

/**
 * The machine's secrets a check's text may echo (issue 44): the values of the variables named like secrets or
 * holding a URL's password, and the values of the folder's `.env` file (its text, when there is one). Values
 * shorter than 8 characters are left (they would match ordinary text).
 */
export function machineSecrets(env: NodeJS.ProcessEnv, dotEnv?: string): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) if (value && value.trim().length >= MIN_SECRET && (isSecretName(name) || hasUrlPassword(value))) found.add(value.trim());
  for (const line of (dotEnv ?? '').split('\n')) {
    const m = /^\s*(?:export\s+)?[A-Za-z_][\w.]*\s*=\s*(.*?)\s*$/.exec(line);
    const value = m?.[1].replace(/^(['"])(.*)\1$/, '$2');
    if (value && value.length >= MIN_SECRET) found.add(value);
  }
  return [...found];
}

/** A command line's leading `NAME=value` assignments, whose values are the user's (a token, a database URL). */
const LEADING_ASSIGNMENTS = /^(\s*(?:[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|\S*)\s+)+)/;

/** A command line as it is kept and sent: its leading assignments' values cut, then as any text is (`redactText`). */
export function redactCommand(command: string, secrets: readonly string[]): string {
  const cut = command.replace(LEADING_ASSIGNMENTS, prefix => prefix.replace(/([A-Za-z_]\w*=)(?:"[^"]*"|'[^']*'|\S*)/g, '$1***'));
  return redactText(cut, secrets);
}

/** Any text a check keeps or sends: the secrets (exact values) and URL passwords cut. */
export function redactText(text: string, secrets: readonly string[]): string {
  return cutUrlPasswords(redactSecrets(text, secrets.filter(s => s.trim().length >= MIN_SECRET)));
}

/** The request's redaction: secrets, then the roots (→ `.`), the home folder (→ `~`), then any other absolute path. */
export function redactForTeam(text: string, options: { secrets: readonly string[]; home?: string; roots: readonly string[] }): string {
  let out = redactText(text, options.secrets);
  for (const root of rootForms(options.roots)) out = replacePath(out, root, '.');
  if (options.home) for (const home of rootForms([options.home])) out = replacePath(out, home, '~');
  return shortenAbsolutePaths(out);
}

const VERDICT_WORDS: Record<CheckVerdict, string> = {
  passed: 'passed',
  failing: 'fails',
  failingAsBefore: 'fails, as it did before your change (the failures below were already there)',
  flaky: 'failed once and passed when run again (flaky tests)',
  timedOut: 'timed out',
  canceled: 'was canceled',
  notStarted: 'did not start',
};

const LEFT_OUT_WHY: Record<CheckRecord['changes']['leftOut'][number]['why'], string> = {
  runsCode: 'it can run code, so it was not applied for the check',
  conflict: 'it conflicts with my edits',
  otherFolder: 'it belongs to another folder',
};

const CLOSING =
  'Please send a corrected proposal: the whole of each file you change, each in its own fenced code block whose ' +
  'info string is the language and the file\'s workspace-relative path (for example "ts src/app.ts"), so that I can ' +
  'review and check it again.';

/** The end of `text` in at most `max` characters, from a line start where one is near, never half a surrogate pair. */
function outputEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  let start = text.length - max;
  const nl = text.indexOf('\n', start);
  if (nl >= 0 && nl - start < 200 && nl + 1 < text.length) start = nl + 1;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}

/**
 * The instruction "Ask the Team to Fix" sends: FIX_REQUEST_OPENING, the command that ran, the verdict and
 * summary, the newly failing tests, what the check left out, the end of the output in a fenced block no line of
 * it can close, and the request for a corrected proposal of whole files named by path. Redacted before it is
 * bounded; at most `maxChars` characters in all (the output's end is kept: the failures are there).
 */
export function fixRequest(input: { command: string; record: CheckRecord; output: string; secrets: string[]; home?: string; roots: string[]; maxChars?: number }): string {
  const maxChars = input.maxChars ?? FIX_REQUEST_MAX_CHARS;
  const clean = (text: string) => redactForTeam(text, input);
  const { record } = input;
  const head: string[] = [FIX_REQUEST_OPENING, ''];
  const command = redactForTeam(redactCommand(input.command, input.secrets), input);
  // A command holding a backtick cannot be inline code: it goes in a block of its own.
  if (command.includes('`')) head.push(`I ran this command on your proposal:\n\n${fencedBlock(command, 'sh')}\n\nIt ${VERDICT_WORDS[record.verdict]}.`);
  else head.push(`I ran \`${command}\` on your proposal: it ${VERDICT_WORDS[record.verdict]}.`);
  const summary = clean(record.after.summary);
  if (summary) head.push(`Summary: ${summary}`);
  const names = record.newlyFailing.slice(0, MAX_NAMES).map(name => `- ${clean(name)}`);
  if (names.length) {
    head.push('', record.verdict === 'failingAsBefore' ? 'Failing:' : 'Newly failing with your change:', ...names);
    if (record.newlyFailing.length > MAX_NAMES) head.push(`- … and ${record.newlyFailing.length - MAX_NAMES} more`);
  }
  if (record.changes.leftOut.length) {
    head.push('', 'Left out of the check:');
    for (const left of record.changes.leftOut.slice(0, MAX_NAMES)) head.push(`- ${clean(left.path)} (${LEFT_OUT_WHY[left.why]})`);
    if (record.changes.leftOut.length > MAX_NAMES) head.push(`- … and ${record.changes.leftOut.length - MAX_NAMES} more`);
  }
  const opening = head.join('\n');
  const output = clean(stripAnsi(input.output)).trimEnd();
  if (!output) return bounded(`${opening}\n\n${CLOSING}`, maxChars);
  const frame = (block: string, note: string) => `${opening}\n\nThe end of the output${note}:\n\n${block}\n\n${CLOSING}`;
  const whole = frame(fencedBlock(output, 'text'), '');
  if (whole.length <= maxChars) return whole;
  // The block's room: what the frame leaves, less the fences (their length depends on the text kept: recomputed).
  const note = ' (its beginning left out)';
  let room = maxChars - frame(fencedBlock('', 'text'), note).length;
  let kept = outputEnd(output, Math.max(0, room));
  for (let tries = 0; tries < 8 && room > 0; tries++) {
    const over = frame(fencedBlock(kept, 'text'), note).length - maxChars;
    if (over <= 0) break;
    room -= over;
    kept = outputEnd(output, Math.max(0, room));
  }
  const request = frame(fencedBlock(kept, 'text'), note);
  return room > 0 && request.length <= maxChars ? request : bounded(`${opening}\n\n${CLOSING}`, maxChars);
}

/** A request too large for its bound even without output: its end is cut (never expected at the default bound). */
function bounded(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}
