/**
 * Keeps secrets out of anything a server can make us show, log or store. A server that echoes the request's
 * `x-api-key` (or the gateway key) in its error text must not get it into a notification, the log or the task
 * store. No dependencies: the upper floors use it for whatever they persist.
 */

export const REDACTED = '[redacted]';

/** Shorter values are not redacted: replacing every "k" of a text would garble it and protect nothing. */
const MIN_SECRET_LENGTH = 6;

/** Replaces every occurrence of each secret (as is and URL-encoded) in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    const value = secret?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    out = out.split(value).join(REDACTED);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

/** The texts to look for: each secret long enough, as is and URL-encoded. */
function needlesOf(secrets: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    const value = secret?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    out.add(value);
    out.add(encodeURIComponent(value));
  }
  return [...out];
}

/**
 * The one redaction of what a server says (issue 35): every string of a parsed JSON body or event, and every
 * object key, without the secrets. The body is the caller's own fresh parse, so it is cleaned in place and
 * returned. Linear in the body; nothing is copied when no secret occurs.
 */
export function redactJson<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const needles = needlesOf(secrets);
  if (!needles.length) return value;
  const clean = (text: string): string => {
    let out = text;
    for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  };
  // An explicit stack: a deeply nested body cannot overflow the call stack.
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') node[i] = clean(item);
        else if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      for (const name of Object.keys(record)) {
        const item = record[name];
        const cleanName = clean(name);
        if (cleanName !== name) {
          delete record[name];
          record[cleanName] = item;
        }
        if (typeof item === 'string') record[cleanName] = clean(item);
        else if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return typeof value === 'string' ? (clean(value) as T) : value;
}
