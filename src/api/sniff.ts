/**
 * The service decides a file's type from its bytes, not from its name or declared type, and refuses
 * anything but text (plain, JSON, CSV, Markdown, SVG), PDF, PNG, JPEG, GIF and WebP with 415. The same
 * rule, checked here on the first bytes before anything is sent.
 */

/** How many leading bytes decide (the service's sniffer reads 512; text is checked a little further). */
export const SNIFF_BYTES = 8192;

export type SniffedType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'text/plain';

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map(c => c.charCodeAt(0));

/** The accepted type of these leading bytes, or undefined when the service would refuse the file (415). */
export function sniffUploadType(head: Uint8Array): SniffedType | undefined {
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return looksLikeText(head) ? 'text/plain' : undefined;
}

/** UTF-8 without NUL or other binary control bytes (a multi-byte character cut at the end is fine). */
function looksLikeText(head: Uint8Array): boolean {
  if (!head.length) return false;
  for (const byte of head) {
    if (byte === 0 || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b)) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastCompleteChar(head)));
    return true;
  } catch {
    return false;
  }
}

/** The length up to the last complete UTF-8 sequence. */
function lastCompleteChar(b: Uint8Array): number {
  let i = b.length - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (b[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return b.length;
  const lead = b[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + need <= b.length ? b.length : i;
}
