/**
 * The service decides a file's type from its first 512 bytes with Go's `http.DetectContentType`, whatever
 * the name or the declared type say. This is that algorithm (the WHATWG MIME Sniffing rules as Go applies
 * them, in Go's order), so the client judges a file exactly as the service will. No dependencies.
 */

/** How many leading bytes decide. */
export const SNIFF_BYTES = 512;

type Signature = (data: Uint8Array, firstNonWs: number) => string | undefined;

const bytes = (s: string) => Uint8Array.from(s, c => c.charCodeAt(0));
/** Whitespace as the sniffer skips it: tab, line feed, form feed, carriage return, space. */
const isWs = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
/** A byte that ends a tag name: space or `>`. */
const isTagEnd = (b: number) => b === 0x20 || b === 0x3e;

/** The data starts with `sig`, byte for byte. */
function exact(sig: string, type: string): Signature {
  const s = bytes(sig);
  return data => (data.length >= s.length && s.every((b, i) => data[i] === b) ? type : undefined);
}

/** `(data[i] & mask[i]) === pattern[i]` for every i, optionally after leading whitespace. */
function masked(mask: string, pattern: string, type: string, skipWs = false): Signature {
  const m = bytes(mask);
  const p = bytes(pattern);
  return (data, firstNonWs) => {
    const at = skipWs ? firstNonWs : 0;
    if (m.length !== p.length || data.length - at < p.length) return undefined;
    for (let i = 0; i < p.length; i++) if ((data[at + i] & m[i]) !== p[i]) return undefined;
    return type;
  };
}

/** An HTML tag after leading whitespace, letters in any case, followed by a space or `>`. */
function html(tag: string): Signature {
  const t = bytes(tag);
  return (data, firstNonWs) => {
    if (data.length - firstNonWs < t.length + 1) return undefined;
    for (let i = 0; i < t.length; i++) {
      let b = data[firstNonWs + i];
      if (t[i] >= 0x41 && t[i] <= 0x5a) b &= 0xdf; // upper-case the data where the pattern has a letter
      if (b !== t[i]) return undefined;
    }
    return isTagEnd(data[firstNonWs + t.length]) ? 'text/html; charset=utf-8' : undefined;
  };
}

/** An ISO base media file (`ftyp` box) whose brands include one starting with `mp4`. */
const mp4: Signature = data => {
  if (data.length < 12) return undefined;
  const boxSize = ((data[0] << 24) | (data[1] << 16) | (data[2] << 8) | data[3]) >>> 0;
  if (data.length < boxSize || boxSize % 4 !== 0) return undefined;
  if (data[4] !== 0x66 || data[5] !== 0x74 || data[6] !== 0x79 || data[7] !== 0x70) return undefined; // "ftyp"
  for (let at = 8; at < boxSize; at += 4) {
    if (at === 12) continue; // the minor version, not a brand
    if (data[at] === 0x6d && data[at + 1] === 0x70 && data[at + 2] === 0x34) return 'video/mp4'; // "mp4"
  }
  return undefined;
};

/** Text: no byte that is a control character outside the usual whitespace and ESC (after leading whitespace). */
const text: Signature = (data, firstNonWs) => {
  for (let i = firstNonWs; i < data.length; i++) {
    const b = data[i];
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return undefined;
  }
  return 'text/plain; charset=utf-8';
};

const SIGNATURES: readonly Signature[] = [
  ...['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'].map(html),
  masked('\xff\xff\xff\xff\xff', '<?xml', 'text/xml; charset=utf-8', true),
  exact('%PDF-', 'application/pdf'),
  exact('%!PS-Adobe-', 'application/postscript'),
  // Byte order marks (the mask needs four bytes, so a bare BOM is judged as text below).
  masked('\xff\xff\x00\x00', '\xfe\xff\x00\x00', 'text/plain; charset=utf-16be'),
  masked('\xff\xff\x00\x00', '\xff\xfe\x00\x00', 'text/plain; charset=utf-16le'),
  masked('\xff\xff\xff\x00', '\xef\xbb\xbf\x00', 'text/plain; charset=utf-8'),
  // Images.
  exact('\x00\x00\x01\x00', 'image/x-icon'),
  exact('\x00\x00\x02\x00', 'image/x-icon'),
  exact('BM', 'image/bmp'),
  exact('GIF87a', 'image/gif'),
  exact('GIF89a', 'image/gif'),
  masked('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00WEBPVP', 'image/webp'),
  exact('\x89PNG\x0d\x0a\x1a\x0a', 'image/png'),
  exact('\xff\xd8\xff', 'image/jpeg'),
  // Audio and video.
  masked('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'FORM\x00\x00\x00\x00AIFF', 'audio/aiff'),
  masked('\xff\xff\xff', 'ID3', 'audio/mpeg'),
  masked('\xff\xff\xff\xff\xff', 'OggS\x00', 'application/ogg'),
  masked('\xff\xff\xff\xff\xff\xff\xff\xff', 'MThd\x00\x00\x00\x06', 'audio/midi'),
  masked('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00AVI ', 'video/avi'),
  masked('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00WAVE', 'audio/wave'),
  mp4,
  exact('\x1a\x45\xdf\xa3', 'video/webm'),
  // Fonts.
  masked(`${'\x00'.repeat(34)}\xff\xff`, `${'\x00'.repeat(34)}LP`, 'application/vnd.ms-fontobject'),
  exact('\x00\x01\x00\x00', 'font/ttf'),
  exact('OTTO', 'font/otf'),
  exact('ttcf', 'font/collection'),
  exact('wOFF', 'font/woff'),
  exact('wOF2', 'font/woff2'),
  // Archives.
  exact('\x1f\x8b\x08', 'application/x-gzip'),
  exact('PK\x03\x04', 'application/zip'),
  exact('Rar!\x1a\x07\x00', 'application/x-rar-compressed'),
  exact('Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'),
  exact('\x00asm', 'application/wasm'),
  // Last: anything without binary control bytes is text.
  text,
];

/**
 * The content type Go's `http.DetectContentType` gives these bytes (only the first 512 count), with its
 * parameters, e.g. `text/plain; charset=utf-8`; `application/octet-stream` when nothing matches.
 */
export function detectContentType(head: Uint8Array): string {
  const data = head.length > SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES) : head;
  let firstNonWs = 0;
  while (firstNonWs < data.length && isWs(data[firstNonWs])) firstNonWs++;
  for (const signature of SIGNATURES) {
    const type = signature(data, firstNonWs);
    if (type) return type;
  }
  return 'application/octet-stream';
}

/** A content type without its parameters, lower-cased: `text/plain; charset=utf-8` → `text/plain`. */
export function essence(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}
