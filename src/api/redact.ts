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
