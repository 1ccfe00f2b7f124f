/**
 * What a block's body is, from its language and first lines: a unified diff, a `*** Begin Patch`, program
 * output or a shell transcript (never code to land). Each looks at a few bounded lines only.
 */

/** Languages whose blocks are program output or prose, never code to land (unless a path names them). */
const OUTPUT_LANGUAGES = new Set(['text', 'txt', 'plaintext', 'plain', 'output', 'out', 'console', 'terminal', 'log', 'logs', 'stdout', 'stderr', 'shell-session', 'sh-session', 'ansi', 'none', 'nohighlight', 'pycon']);
const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh', 'fish', 'powershell', 'ps1', 'pwsh', 'cmd', 'bat', 'batch', '']);
const DIFF_LANGUAGES = new Set(['diff', 'patch', 'udiff', 'git-diff', 'gitdiff']);

/** The first non-blank line among the first `max` lines of a body (cut at 4,096 characters), its offset and the next line's. */
export function firstNonBlank(body: string, max = 8): { line: string; offset: number; next: number } | undefined {
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

/** A `*** Begin Patch` (see beginPatch.ts). */
export function looksLikePatch(body: string): boolean {
  const first = firstNonBlank(body, 4);
  return !!first && first.line.trim() === '*** Begin Patch';
}

/** A shell transcript: the first line is a prompt (`$ npm test`, `> node x`, `PS C:\> …`, `C:\> …`). */
function looksLikeTranscript(body: string): boolean {
  const first = firstNonBlank(body, 4);
  return !!first && /^\s*(?:\$|PS [^>]{0,200}>|[A-Za-z]:\\[^>]{0,200}>|>>>|%)\s/.test(first.line);
}

/** Program output or prose: an output language (```text, ```log…), or a shell language whose first line is a prompt. */
export function looksLikeOutput(language: string, body: string): boolean {
  return OUTPUT_LANGUAGES.has(language) || (SHELL_LANGUAGES.has(language) && looksLikeTranscript(body));
}
