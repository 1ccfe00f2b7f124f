/**
 * Lines that stand for code left out ("// ... existing code ...", "# rest unchanged", a lone `...`): what
 * makes a named block a `partial` (its shown parts land by context, `partial.ts`). Most lines are ruled out
 * by their first character, without a regex; a line longer than 240 characters is never one.
 */

const MAX_ELISION_LINE = 240;
const PYTHON_LANGUAGES = new Set(['py', 'python', 'python3', 'pyi']);

/** First characters an elision line can start with (after blanks): / # * < - ; % ' . … ( [ {. */
const ELISION_START = new Set([47, 35, 42, 60, 45, 59, 37, 39, 46, 0x2026, 40, 91, 123]);

const ELISION_COMMENT =
  /^\s*(?:\/\/+|#+|\/\*+|\{\/\*|<!--|--|;+|%+|\*|')\s*(?:\.\.\.|…|\[\.\.\.\]|\(\.\.\.\)|(?:[^\n]*?\b(?:existing code|rest of (?:the )?(?:file|code|class|function|method|module|implementation|component|body|test|tests|config|imports)|(?:remains?|stays?|is|are) (?:the same|unchanged|as (?:before|is))|unchanged(?: code| lines| parts)?|code (?:omitted|unchanged)|same as before|omitted for brevity|(?:other|more|previous|remaining) (?:code|methods|functions|imports|tests|lines)(?: \w+)?(?: here| unchanged| omitted| as before)|(?:keep|leave) (?:the )?(?:rest|existing|as is)|snip|truncated)\b))/i;

/**
 * Whether a line stands for code left out: a comment that says so (`// ... existing code ...`,
 * `# rest unchanged`, `/* ... *\/`, `<!-- ... -->`), "(rest of file unchanged)", Windsurf's `{{ ... }}`, or a lone `...` / `…`
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
  // Windsurf's placeholder for code left out (issue 43).
  if (/^\{\{\s*(?:\.\.\.|…)\s*\}\}$/.test(t)) return true;
  if (/^\((?:\.\.\.\s*)?(?:rest of (?:the )?(?:file|code)|remaining code|the rest|other code|existing code)[^)]{0,60}\)$/i.test(t)) return true;
  if (/^\[(?:\.\.\.\s*)?(?:rest of (?:the )?(?:file|code)|remaining code|existing code)[^\]]{0,60}\]$/i.test(t)) return true;
  return ELISION_COMMENT.test(line);
}

/** The first elision line of a block's code, trimmed and bounded; undefined when it leaves nothing out. */
export function firstElision(code: string, language: string): string | undefined {
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
