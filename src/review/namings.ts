/**
 * How a block names its file, read from bounded pieces of text: the info string (```ts src/b.ts,
 * ```ts:src/b.ts, path= / file= / filename= / title="…", ```src/b.ts), the line just before the fence
 * (**src/b.ts**, `src/b.ts`, ### src/b.ts, File: src/b.ts, In `src/b.ts`: — the whole line is the naming,
 * never a sentence that mentions a file) and a first comment line (// src/b.ts, # app/util.py, <!-- x.html -->).
 * Each returns the path as written; `reader.ts` checks it and picks among namings.
 */
import type { Naming } from './readerTypes';

/** The longest info string read (longer ones are cut). */
export const MAX_INFO = 512;
/** The longest line read as a naming (a line before a fence, a first comment line). */
export const MAX_NAMING_LINE = 200;

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

/** A path as a naming wrote it, before `reader.ts` checks it. */
export interface Named {
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
  /^(?:(?:file(?:\s*name)?|filename|path|location)\s*:\s*|(?:(?:here(?:'s| is)|this is)\s+)?(?:the\s+)?(?:(?:in|for|inside|update|updated|updating|edit|edited|modify|modified|change|(?:changes|edits)\s+(?:to|in|for)|create|created|creating|add|added|new(?:\s+file)?|replace|full|complete|revised|final|fixed|corrected)\s+)?(?:the\s+)?(?:(?:new|updated|full|complete|modified|revised|final|fixed|corrected)\s+)?(?:(?:file|version\s+of|contents?\s+of|code\s+(?:for|of|in))\s+)?)/i;

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
  const m = /^\s*(?:\/\/+|#+|--|;+|%+|\/\*+|<!--|\{\/\*|\(\*|'|REM\s)\s*(?:(?:file(?:name)?|file ?path|path)\s*:\s*)?(.*?)\s*(?:\*+\/\}?|-->|\*\))?\s*$/i.exec(line);
  if (!m) return undefined;
  const p = m[1].replace(/^`(.*)`$/, '$1');
  return isPathLike(p) ? p : undefined;
}
