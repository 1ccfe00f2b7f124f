/** Secrets echoed back by a server are cut out of any text before it is shown, logged or stored. */

export const REDACTED = '[redacted]';
/** Shorter values are not redacted: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 6;

/** `text` with every occurrence of each secret replaced by `[redacted]`. Linear in the text's length. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
