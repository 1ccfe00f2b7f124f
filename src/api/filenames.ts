/** File names chosen by the server, made safe to save: no folders, no control characters. No dependencies. */

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

/** A server-chosen name must not lead outside the folder it is saved in. */
export function safeName(name: string): string | undefined {
  const base = name.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f]/g, '').trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}
