/** File names and titles chosen by the server, made safe to save and to show. No dependencies. */

/**
 * Characters that hide or reorder what a name shows: C0, DEL and C1 controls (U+0080–U+009F), zero-width
 * and bidi controls, the BOM.
 */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
/** What a tab's file name cannot hold besides: path and URI separators, Windows' reserved characters. */
const UNSAFE_IN_TITLE = /[\\/:*?"<>|#%]/g;

/**
 * Server text shown on one line (a thread's title, a message's first line, a tab title): the characters that
 * hide or reorder what it shows (HIDDEN, as in file names) and line breaks become spaces; spaces collapse.
 */
export function shownText(text: string): string {
  return text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
}

/** Server text (a task title, a file name) as a short tab title: hidden characters and separators become spaces. */
export function readableName(text: string, fallback: string, max = 60): string {
  return shownText(shownText(text).replace(UNSAFE_IN_TITLE, ' ')).slice(0, max).trim() || fallback;
}

/** Reads the file name of a Content-Disposition header: RFC 5987 `filename*` first, then `filename`. */
export function filenameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return safeName(decodeURIComponent(extended[2].trim().replace(/^"|"$/g, '')));
    } catch {
      // Badly encoded: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return undefined;
  return safeName(plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim());
}

/** Names Windows reserves for devices, with or without an extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;
/** Bytes in a file name on common file systems. */
const MAX_NAME_BYTES = 255;

/**
 * A server-chosen name made safe to save on any system: no folders, no control characters (C0, DEL and C1)
 * or bidi characters (which can disguise an extension), none of `<>:"|?*`, no trailing dots or spaces, no reserved device names, at
 * most 255 bytes (the extension kept). Undefined when nothing usable is left.
 */
export function safeName(name: string): string | undefined {
  let base = (name.split(/[\\/]/).pop() ?? '')
    .replace(HIDDEN, '')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    .replace(/[. ]+$/, '');
  if (!base || base === '.' || base === '..') return undefined;
  if (WINDOWS_RESERVED.test(base)) base = `_${base}`;
  return truncateBytes(base, MAX_NAME_BYTES);
}

/**
 * A server-given file name as every view shows it (produced files in the result view, the Tasks and Files
 * views, their tooltips, chat's buttons, pickers): cleaned as Save As cleans it (`safeName`), so a right-to-left
 * override or a control character cannot make "invoice\u202efdp.exe" read as "invoiceexe.pdf".
 */
export function shownFileName(name: string): string {
  return safeName(name) ?? '_';
}

/** Cuts the stem (never the extension, if it is short) so the UTF-8 name fits `max` bytes. */
function truncateBytes(name: string, max: number): string {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  if (bytes(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  // The longest prefix of whole characters that fits beside the extension.
  let stem = '';
  let used = bytes(ext);
  for (const ch of name.slice(0, name.length - ext.length)) {
    used += bytes(ch);
    if (used > max) break;
    stem += ch;
  }
  return (stem.replace(/[. ]+$/, '') || '_') + ext;
}
