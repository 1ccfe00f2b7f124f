/**
 * `files.exclude` globs for the scratch copy's walk (issue 37): `**` (any folders), `*` and `?` (within a name),
 * `{a,b}` (alternatives), matched against the whole relative path (`*.log` is a file at the top; `**\/*.log` one
 * anywhere). Linear backtracking: a pattern never costs more than its length times the path's.
 */

/** A `{a,b}` pattern expands to at most this many alternatives; the rest are ignored. */
const BRACE_LIMIT = 256;

/** One test for a set of globs: does any match the relative POSIX path? */
export function excludeMatcher(patterns: readonly string[]): (rel: string) => boolean {
  const compiled = patterns.flatMap(p => expandBraces(p.trim().replace(/^\.?\/+/, '').replace(/\/+$/, ''))).filter(p => p !== '').map(p => p.split('/').filter(s => s !== ''));
  if (!compiled.length) return () => false;
  return rel => {
    const parts = rel.split('/');
    return compiled.some(segments => matchSegments(segments, parts));
  };
}

/** Does `pattern` (a glob as above) match the relative POSIX path `rel`? */
export function globMatches(pattern: string, rel: string): boolean {
  return excludeMatcher([pattern])(rel);
}

/** `a{b,c}d` → `abd`, `acd`; nested braces expand too; an unmatched `{` is literal. At most BRACE_LIMIT results. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length && close < 0; i++) {
    if (pattern[i] === '{') depth++;
    else if (pattern[i] === '}' && --depth === 0) close = i;
    else if (pattern[i] === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return [pattern];
  const cuts = [open, ...commas, close];
  const head = pattern.slice(0, open);
  const tails = expandBraces(pattern.slice(close + 1));
  const out: string[] = [];
  for (let k = 0; k + 1 < cuts.length && out.length < BRACE_LIMIT; k++) {
    for (const middle of expandBraces(pattern.slice(cuts[k] + 1, cuts[k + 1]))) {
      for (const tail of tails) if (out.length < BRACE_LIMIT) out.push(head + middle + tail);
    }
  }
  return out;
}

/** Path segments against pattern segments, `**` matching any number of segments (the last `**` backtracked). */
function matchSegments(pattern: readonly string[], parts: readonly string[]): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < parts.length) {
    if (p < pattern.length && pattern[p] === '**') {
      star = p++;
      mark = s;
    } else if (p < pattern.length && matchName(pattern[p], parts[s])) {
      p++;
      s++;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '**') p++;
  return p === pattern.length;
}

/** One name against one pattern segment: `*` any characters, `?` one character (the last `*` backtracked). */
function matchName(pattern: string, name: string): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[s])) {
      p++;
      s++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = s;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
