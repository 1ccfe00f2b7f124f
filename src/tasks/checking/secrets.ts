/**
 * What looks like a secret in a check's text (issue 44), read in linear time: a variable named like one, and a URL
 * that carries a password (`postgres://app:s3cret@db/…`). The runner drops such variables; the fix request, the
 * kept output and the kept command cut such passwords (feedback.ts).
 */

/** A variable named like a secret (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, an agent's socket …). */
const SECRET_NAME = /TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|COOKIE|SESSION|_KEY$|^KEY$/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A URL's user and password are each at most this long here: longer runs are not read as one (the scan stays linear). */
const MAX_PART = 256;
const ENDS_USER = (c: string) => c === ':' || c === '@' || c === '/' || /\s/.test(c);
const ENDS_PASSWORD = (c: string) => c === '@' || c === '/' || /\s/.test(c);

/** Each `scheme://user:password@` in `text`: where its password starts and ends. */
function urlPasswords(text: string): [number, number][] {
  const found: [number, number][] = [];
  for (let at = text.indexOf('://'); at > 0; at = text.indexOf('://', at + 3)) {
    if (!/[A-Za-z0-9+.-]/.test(text[at - 1])) continue;
    let i = at + 3;
    while (i < text.length && i - at < MAX_PART && !ENDS_USER(text[i])) i++;
    if (text[i] !== ':') continue;
    let j = i + 1;
    while (j < text.length && j - i < MAX_PART && !ENDS_PASSWORD(text[j])) j++;
    if (text[j] === '@' && j > i + 1) found.push([i + 1, j]);
  }
  return found;
}

/** Whether `text` holds a URL with a password. */
export function hasUrlPassword(text: string): boolean {
  return urlPasswords(text).length > 0;
}

/** `text` with every URL's password replaced by `***`. */
export function cutUrlPasswords(text: string): string {
  const found = urlPasswords(text);
  if (!found.length) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of found) {
    out += `${text.slice(last, start)}***`;
    last = end;
  }
  return out + text.slice(last);
}
