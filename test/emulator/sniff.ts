// Content sniffing exactly as the service does it: Go's net/http DetectContentType over the first 512 bytes
// (the WHATWG MIME sniffing table, in Go's order), the parameters after ';' dropped. Plus the service's rules
// for attachments: how an upload's type is normalized, and which types a task may carry.

const SNIFF_LEN = 512;

type Matcher = (data: Buffer, firstNonWs: number) => string | undefined;

const isWs = (b: number): boolean => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
/** Tag-terminating byte: space or '>'. */
const isTt = (b: number): boolean => b === 0x20 || b === 0x3e;
const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

/** An HTML tag start, compared case-insensitively (ASCII letters only), then a tag-terminating byte. */
function htmlSig(sig: string): Matcher {
  const pattern = bytes(sig);
  return (data, firstNonWs) => {
    const d = data.subarray(firstNonWs);
    if (d.length < pattern.length + 1) {
      return undefined;
    }
    for (let i = 0; i < pattern.length; i++) {
      const b = pattern[i];
      const db = b >= 0x41 && b <= 0x5a ? d[i] & 0xdf : d[i];
      if (db !== b) {
        return undefined;
      }
    }
    return isTt(d[pattern.length]) ? 'text/html; charset=utf-8' : undefined;
  };
}

function exactSig(sig: string, ct: string): Matcher {
  const pattern = bytes(sig);
  return (data) => (data.length >= pattern.length && data.subarray(0, pattern.length).equals(pattern) ? ct : undefined);
}

function maskedSig(mask: string, pat: string, ct: string, skipWs = false): Matcher {
  const m = bytes(mask);
  const p = bytes(pat);
  return (data, firstNonWs) => {
    const d = skipWs ? data.subarray(firstNonWs) : data;
    if (m.length !== p.length || d.length < p.length) {
      return undefined;
    }
    for (let i = 0; i < p.length; i++) {
      if ((d[i] & m[i]) !== p[i]) {
        return undefined;
      }
    }
    return ct;
  };
}

const mp4Sig: Matcher = (data) => {
  if (data.length < 12) {
    return undefined;
  }
  const boxSize = data.readUInt32BE(0);
  if (data.length < boxSize || boxSize % 4 !== 0) {
    return undefined;
  }
  if (data.toString('latin1', 4, 8) !== 'ftyp') {
    return undefined;
  }
  for (let st = 8; st < boxSize; st += 4) {
    if (st === 12) {
      continue; // the major brand's version number
    }
    if (data.toString('latin1', st, st + 3) === 'mp4') {
      return 'video/mp4';
    }
  }
  return undefined;
};

const textSig: Matcher = (data, firstNonWs) => {
  for (let i = firstNonWs; i < data.length; i++) {
    const b = data[i];
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) {
      return undefined;
    }
  }
  return 'text/plain; charset=utf-8';
};

const NUL34 = '\x00'.repeat(34);

/** The table, in Go's order (the first match wins). */
const SIGNATURES: Matcher[] = [
  ...['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'].map(htmlSig),
  maskedSig('\xff\xff\xff\xff\xff', '<?xml', 'text/xml; charset=utf-8', true),
  exactSig('%PDF-', 'application/pdf'),
  exactSig('%!PS-Adobe-', 'application/postscript'),
  // Byte order marks (each needs four bytes).
  maskedSig('\xff\xff\x00\x00', '\xfe\xff\x00\x00', 'text/plain; charset=utf-16be'),
  maskedSig('\xff\xff\x00\x00', '\xff\xfe\x00\x00', 'text/plain; charset=utf-16le'),
  maskedSig('\xff\xff\xff\x00', '\xef\xbb\xbf\x00', 'text/plain; charset=utf-8'),
  // Images.
  exactSig('\x00\x00\x01\x00', 'image/x-icon'),
  exactSig('\x00\x00\x02\x00', 'image/x-icon'),
  exactSig('BM', 'image/bmp'),
  exactSig('GIF87a', 'image/gif'),
  exactSig('GIF89a', 'image/gif'),
  maskedSig('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00WEBPVP', 'image/webp'),
  exactSig('\x89PNG\x0d\x0a\x1a\x0a', 'image/png'),
  exactSig('\xff\xd8\xff', 'image/jpeg'),
  // Audio and video.
  maskedSig('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'FORM\x00\x00\x00\x00AIFF', 'audio/aiff'),
  maskedSig('\xff\xff\xff', 'ID3', 'audio/mpeg'),
  maskedSig('\xff\xff\xff\xff\xff', 'OggS\x00', 'application/ogg'),
  maskedSig('\xff\xff\xff\xff\xff\xff\xff\xff', 'MThd\x00\x00\x00\x06', 'audio/midi'),
  maskedSig('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00AVI ', 'video/avi'),
  maskedSig('\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff', 'RIFF\x00\x00\x00\x00WAVE', 'audio/wave'),
  mp4Sig,
  exactSig('\x1a\x45\xdf\xa3', 'video/webm'),
  // Fonts.
  maskedSig(`${NUL34}\xff\xff`, `${NUL34}LP`, 'application/vnd.ms-fontobject'),
  exactSig('\x00\x01\x00\x00', 'font/ttf'),
  exactSig('OTTO', 'font/otf'),
  exactSig('ttcf', 'font/collection'),
  exactSig('wOFF', 'font/woff'),
  exactSig('wOF2', 'font/woff2'),
  // Archives.
  exactSig('\x1f\x8b\x08', 'application/x-gzip'),
  exactSig('PK\x03\x04', 'application/zip'),
  exactSig('Rar!\x1a\x07\x00', 'application/x-rar-compressed'),
  exactSig('Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'),
  exactSig('\x00asm', 'application/wasm'),
  textSig, // last
];

/** Go's http.DetectContentType, with its parameters (`; charset=…`) kept. */
export function detectContentType(input: Buffer): string {
  const data = input.subarray(0, SNIFF_LEN);
  let firstNonWs = 0;
  while (firstNonWs < data.length && isWs(data[firstNonWs])) {
    firstNonWs++;
  }
  for (const match of SIGNATURES) {
    const ct = match(data, firstNonWs);
    if (ct !== undefined) {
      return ct;
    }
  }
  return 'application/octet-stream';
}

/** The service's sniffed type: DetectContentType with everything from ';' dropped. */
export function sniffMimeType(data: Buffer): string {
  const ct = detectContentType(data);
  const semi = ct.indexOf(';');
  return semi < 0 ? ct : ct.slice(0, semi).trim();
}

// ---- attachments ----

const OFFICE_BY_EXTENSION: Record<string, string> = {
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The extension with its dot, lower case; '' for none (a leading dot alone is no extension). */
function extensionOf(filename: string): string {
  const base = filename.trim().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 || dot === base.length - 1 ? '' : base.slice(dot).toLowerCase();
}

/**
 * The type an attachment upload is stored with: the sniffed type, except that an Office extension turns a zip
 * (or unknown) into its Office type and a `.csv` turns text into text/csv. Nothing else looks at the name.
 */
export function attachmentMimeType(filename: string, data: Buffer): string {
  const detected = sniffMimeType(data).toLowerCase();
  const ext = extensionOf(filename);
  const office = OFFICE_BY_EXTENSION[ext];
  if (office && (detected === '' || detected === 'application/zip' || detected === 'application/octet-stream')) {
    return office;
  }
  if (ext === '.csv' && (detected === 'text/plain' || detected === 'application/octet-stream')) {
    return 'text/csv';
  }
  return detected;
}

export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
export const MAX_VIDEO_ATTACHMENT_BYTES = 100 * 1024 * 1024;
export const MAX_TOTAL_ATTACHMENT_BYTES = 100 * 1024 * 1024;

const SUPPORTED_IMAGES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const SUPPORTED_VIDEOS = ['video/mp4', 'video/webm'];
const SUPPORTED_DOCUMENTS = [
  'application/pdf',
  OFFICE_BY_EXTENSION['.docx'],
  OFFICE_BY_EXTENSION['.pptx'],
  'text/plain',
  'text/markdown',
  'application/json',
  OFFICE_BY_EXTENSION['.xlsx'],
  'text/csv',
];

function isSupportedAudio(mime: string): boolean {
  return mime.startsWith('audio/') && ['/wav', '/wave', '/mpeg', '/mp3', '/webm', '/ogg'].some((s) => mime.endsWith(s));
}

/**
 * What a task accepts as an attachment type: the byte limit, or the refusal text (a 422 at submission).
 * The same rule decides the per-type size limit at upload.
 */
export function attachmentTypeRule(mimeType: string): { limit: number; refusal?: string } {
  const mime = mimeType.split(';')[0].trim().toLowerCase();
  if (mime.startsWith('video/')) {
    return SUPPORTED_VIDEOS.includes(mime)
      ? { limit: MAX_VIDEO_ATTACHMENT_BYTES }
      : { limit: MAX_VIDEO_ATTACHMENT_BYTES, refusal: `unsupported video type "${mimeType}"; allowed: video/mp4, video/webm` };
  }
  if (mime.startsWith('audio/')) {
    return isSupportedAudio(mime)
      ? { limit: MAX_ATTACHMENT_BYTES }
      : { limit: MAX_ATTACHMENT_BYTES, refusal: `unsupported audio format "${mimeType}"; allowed: wav, mp3, webm, ogg` };
  }
  if (mime.startsWith('image/')) {
    return SUPPORTED_IMAGES.includes(mime)
      ? { limit: MAX_ATTACHMENT_BYTES }
      : { limit: MAX_ATTACHMENT_BYTES, refusal: `unsupported image type "${mimeType}"; allowed: image/jpeg, image/png, image/gif, image/webp` };
  }
  if (SUPPORTED_DOCUMENTS.includes(mime)) {
    return { limit: MAX_ATTACHMENT_BYTES };
  }
  return { limit: MAX_ATTACHMENT_BYTES, refusal: `unsupported attachment type "${mimeType}"` };
}
