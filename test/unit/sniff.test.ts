/**
 * The client sniffs a file exactly as the service does (Go's `http.DetectContentType` on the first 512
 * bytes), and judges an upload by the service's rules: what `/files` stores, what `/run` takes as an
 * attachment, and the size of the request.
 */
import * as assert from 'node:assert/strict';
import { MAX_FILE_BYTES, PLATFORM_BODY_LIMIT_BYTES, attachmentTypeOf, detectContentType, judgeUpload, multipartBytes } from '../../src/api';
import { detectContentType as emulatorSniff } from '../emulator/sniff';

const b = (s: string) => Uint8Array.from(s, c => c.charCodeAt(0));
const TEXT = 'text/plain; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

describe('sniffing like the service (http.DetectContentType)', () => {
  const cases: [string, string, string][] = [
    ['empty', '', TEXT],
    ['plain text', 'Hello, agents.\n', TEXT],
    ['JSON', '{"a": [1, 2]}', TEXT],
    ['CSV', 'a,b,c\n1,2,3\n', TEXT],
    ['Markdown', '# Title\n\nText', TEXT],
    ['an SVG without an XML declaration', '<svg xmlns="http://www.w3.org/2000/svg"/>', TEXT],
    ['Latin-1 text', 'caf\xe9 cr\xe8me', TEXT],
    ['ESC sequences', '\x1b[31mred\x1b[0m', TEXT],
    ['a form feed and tabs', '\f\tpage', TEXT],
    ['a control byte', 'Hello\x01', 'application/octet-stream'],
    ['a NUL byte', 'a\x00b', 'application/octet-stream'],
    ['UTF-16 without a BOM', 'h\x00i\x00', 'application/octet-stream'],
    ['UTF-16BE with a BOM', '\xfe\xff\x00h\x00i', 'text/plain; charset=utf-16be'],
    ['UTF-16LE with a BOM', '\xff\xfeh\x00i\x00', 'text/plain; charset=utf-16le'],
    ['UTF-8 with a BOM', '\xef\xbb\xbfhello', TEXT],
    ['a bare two-byte BOM (too short for the mask, judged as text)', '\xfe\xff', TEXT],
    ['<!DOCTYPE html>', '<!DOCTYPE html><html></html>', HTML],
    ['HTML after whitespace, in mixed case', ' \n\t<HtMl><bOdY>x</body></html>', HTML],
    ['<script>', '<script>alert(1)</script>', HTML],
    ['<p>', '<p>para</p>', HTML],
    ['<b>', '<b>bold</b>', HTML],
    ['<a href>', '<a href="x">y</a>', HTML],
    ['a Markdown comment "<!-- "', '<!-- toc -->\n# Title', HTML],
    ['"<!--" without a space is not HTML', '<!--x-->', TEXT],
    ['<br/> (a slash does not end the tag name)', '<br/>line', TEXT],
    ['<htmlx (no tag end)', '<htmlx>', TEXT],
    ['"<html" at the very end (no byte after it)', '<html', TEXT],
    ['<?xml', '<?xml version="1.0"?><feed/>', 'text/xml; charset=utf-8'],
    ['an SVG with an XML declaration, after whitespace', '\n  <?xml version="1.0"?><svg/>', 'text/xml; charset=utf-8'],
    ['PDF', '%PDF-1.7\n', 'application/pdf'],
    ['PDF after whitespace is text', ' %PDF-1.7', TEXT],
    ['PostScript', '%!PS-Adobe-3.0', 'application/postscript'],
    ['a text starting with BM', 'BMW notes', 'image/bmp'],
    ['icon', '\x00\x00\x01\x00\x01\x00', 'image/x-icon'],
    ['cursor', '\x00\x00\x02\x00\x01\x00', 'image/x-icon'],
    ['GIF87a', 'GIF87a...', 'image/gif'],
    ['GIF89a', 'GIF89a...', 'image/gif'],
    ['WebP', 'RIFF\x10\x00\x00\x00WEBPVP8 ', 'image/webp'],
    ['WebP without VP', 'RIFF\x10\x00\x00\x00WEBPXX8 ', 'application/octet-stream'],
    ['PNG', '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', 'image/png'],
    ['JPEG', '\xff\xd8\xff\xe0\x00\x10JFIF', 'image/jpeg'],
    ['AIFF', 'FORM\x00\x00\x00\x00AIFFCOMM', 'audio/aiff'],
    ['MP3 with ID3', 'ID3\x04\x00\x00', 'audio/mpeg'],
    ['Ogg', 'OggS\x00\x02', 'application/ogg'],
    ['MIDI', 'MThd\x00\x00\x00\x06\x00\x01', 'audio/midi'],
    ['AVI', 'RIFF\x00\x00\x00\x00AVI LIST', 'video/avi'],
    ['WAVE', 'RIFF\x24\x00\x00\x00WAVEfmt ', 'audio/wave'],
    ['MP4', '\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom', 'video/mp4'],
    ['MP4 brand only in the minor version slot', '\x00\x00\x00\x10ftypisommp41', 'application/octet-stream'],
    ['ftyp box larger than the data', '\x00\x00\x04\x00ftypmp42\x00\x00\x00\x00mp42', 'application/octet-stream'],
    ['WebM', '\x1a\x45\xdf\xa3\x01\x00', 'video/webm'],
    ['EOT font', `${'\x00'.repeat(34)}LP\x00\x00`, 'application/vnd.ms-fontobject'],
    ['TTF', '\x00\x01\x00\x00\x00\x0e', 'font/ttf'],
    ['OTF', 'OTTO\x00\x0e', 'font/otf'],
    ['font collection', 'ttcf\x00\x01', 'font/collection'],
    ['WOFF', 'wOFF\x00\x01', 'font/woff'],
    ['WOFF2', 'wOF2\x00\x01', 'font/woff2'],
    ['gzip', '\x1f\x8b\x08\x00', 'application/x-gzip'],
    ['zip (also every Office document)', 'PK\x03\x04\x14\x00', 'application/zip'],
    ['RAR 4', 'Rar!\x1a\x07\x00\xcf', 'application/x-rar-compressed'],
    ['RAR 5', 'Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'],
    ['WebAssembly', '\x00asm\x01\x00\x00\x00', 'application/wasm'],
  ];
  for (const [name, data, type] of cases) {
    it(`${name} → ${type}`, () => assert.equal(detectContentType(b(data)), type));
  }

  it("agrees with the emulator's own port of the same algorithm on every case", () => {
    for (const [name, data] of cases) assert.equal(detectContentType(b(data)), emulatorSniff(Buffer.from(data, 'latin1')), name);
  });

  it('reads the first 512 bytes only', () => {
    const text = 'a'.repeat(512);
    assert.equal(detectContentType(b(`${text}\x00\x01`)), TEXT, 'a binary byte after 512 does not count');
    assert.equal(detectContentType(b(`${'a'.repeat(511)}\x01`)), 'application/octet-stream', 'one within 512 does');
    assert.equal(detectContentType(b(`${' '.repeat(600)}<html>`)), TEXT, 'a tag past 512 bytes of whitespace is not seen');
  });
});

describe('judging an upload like the service', () => {
  const file = (filename: string, data: string | Uint8Array, size?: number) => {
    const head = typeof data === 'string' ? b(data) : data;
    return { filename, head, size: size ?? head.length };
  };

  describe('as an attachment (what /run refuses with 422, and the request limit)', () => {
    const refused: [string, string, string][] = [
      ['page.html', '<!DOCTYPE html><p>x</p>', 'text/html'],
      ['notes.md', '<!-- draft -->\n# Notes', 'text/html'],
      ['feed.xml', '<?xml version="1.0"?><rss/>', 'text/xml'],
      ['logo.svg', '<?xml version="1.0"?><svg/>', 'text/xml'],
      ['widget.js', '<script>x()</script>', 'text/html'],
      ['cars.txt', 'BMW and Audi', 'image/bmp'],
      ['bundle.zip', 'PK\x03\x04', 'application/zip'],
      ['data.bin', '\x00\x01\x02', 'application/octet-stream'],
      ['utf16.txt', 'h\x00i\x00', 'application/octet-stream'],
      ['icon.ico', '\x00\x00\x01\x00', 'image/x-icon'],
      ['song.ogg', 'OggS\x00', 'application/ogg'],
      ['tune.mid', 'MThd\x00\x00\x00\x06', 'audio/midi'],
      ['sound.aiff', 'FORM\x00\x00\x00\x00AIFF', 'audio/aiff'],
      ['page.docx.html', '<html><body>', 'text/html'],
    ];
    for (const [name, data, type] of refused) {
      it(`refuses ${name} (${type})`, () => assert.deepEqual(judgeUpload('attachment', file(name, data)), { ok: false, problem: 'type', type }));
    }
    const accepted: [string, string, string][] = [
      ['notes.txt', 'plain words', 'text/plain'],
      ['data.json', '{"a":1}', 'text/plain'],
      ['README.md', '# Read me', 'text/plain'],
      ['logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'text/plain'],
      ['latin1.txt', 'caf\xe9', 'text/plain'],
      ['utf16.txt', '\xff\xfeh\x00i\x00', 'text/plain'],
      ['table.csv', 'a,b\n1,2', 'text/csv'],
      ['odd.csv', '\x00\x01', 'text/csv'],
      ['report.docx', 'PK\x03\x04', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['SHEET.XLSX', 'PK\x03\x04', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['deck.pptx', '\x00\x01\x02', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['doc.pdf', '%PDF-1.4', 'application/pdf'],
      ['a.png', '\x89PNG\r\n\x1a\n', 'image/png'],
      ['a.jpg', '\xff\xd8\xff\xe0', 'image/jpeg'],
      ['a.gif', 'GIF89a', 'image/gif'],
      ['a.webp', 'RIFF\x00\x00\x00\x00WEBPVP8 ', 'image/webp'],
      ['a.mp3', 'ID3\x03', 'audio/mpeg'],
      ['a.wav', 'RIFF\x00\x00\x00\x00WAVE', 'audio/wave'],
    ];
    for (const [name, data, type] of accepted) {
      it(`takes ${name} (${type})`, () => assert.deepEqual(judgeUpload('attachment', file(name, data)), { ok: true, type }));
    }

    it('types a file by its bytes, refined by the name only where the service refines it', () => {
      assert.equal(attachmentTypeOf('report.docx', b('<html>')), 'text/html', 'an Office name does not make HTML a document');
      assert.equal(attachmentTypeOf('table.csv', b('<html>')), 'text/html');
      assert.equal(attachmentTypeOf('.docx', b('PK\x03\x04')), 'application/zip', 'a leading-dot name has no extension');
    });

    it('takes a video only for a video-capable model (and when the model is not known yet)', () => {
      const video = file('clip.mp4', '\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom');
      assert.deepEqual(judgeUpload('attachment', video, { modelId: 'zai/glm-5.2' }), { ok: false, problem: 'videoModel', type: 'video/mp4' });
      assert.deepEqual(judgeUpload('attachment', video, { modelId: 'google/gemini-2.5-pro' }), { ok: true, type: 'video/mp4' });
      assert.deepEqual(judgeUpload('attachment', video), { ok: true, type: 'video/mp4' });
    });

    it('refuses an attachment whose request would pass 4,500,000 bytes, and takes one that fits exactly', () => {
      const envelope = multipartBytes('big.txt', 0);
      assert.ok(envelope > 100 && envelope < 1000, `${envelope} bytes around the file`);
      const fits = PLATFORM_BODY_LIMIT_BYTES - envelope;
      assert.deepEqual(judgeUpload('attachment', file('big.txt', 'text', fits)), { ok: true, type: 'text/plain' });
      assert.deepEqual(judgeUpload('attachment', file('big.txt', 'text', fits + 1)), {
        ok: false,
        problem: 'tooLarge',
        limitBytes: PLATFORM_BODY_LIMIT_BYTES,
        size: fits + 1,
      });
      // A longer name makes a longer envelope: the limit is on the request, not the file alone.
      assert.equal(multipartBytes('é'.repeat(40) + '.txt', 10) > multipartBytes('e.txt', 10), true);
    });
  });

  describe('as a stored file (what /files refuses with 415, 400)', () => {
    it('stores text, PDF and images as the service sniffs them', () => {
      for (const [name, data] of [['a.txt', 'x'], ['a.json', '[]'], ['a.svg', '<svg/>'], ['a.pdf', '%PDF-'], ['a.png', '\x89PNG\r\n\x1a\n']]) {
        assert.equal(judgeUpload('file', file(name, data)).ok, true, name);
      }
    });
    it('refuses HTML, XML, BMP, zip (Office documents too) and binary, an empty file, and one over 10 MB', () => {
      for (const [name, data, type] of [
        ['a.html', '<html>', 'text/html'],
        ['a.svg', '<?xml ?>', 'text/xml'],
        ['a.txt', 'BM', 'image/bmp'],
        ['a.docx', 'PK\x03\x04', 'application/zip'],
        ['a.bin', '\x00', 'application/octet-stream'],
      ]) {
        assert.deepEqual(judgeUpload('file', file(name, data)), { ok: false, problem: 'type', type }, name);
      }
      assert.deepEqual(judgeUpload('file', file('e.txt', '')), { ok: false, problem: 'empty' });
      assert.deepEqual(judgeUpload('file', file('big.txt', 'x', MAX_FILE_BYTES + 1)), { ok: false, problem: 'tooLarge', limitBytes: MAX_FILE_BYTES, size: MAX_FILE_BYTES + 1 });
      assert.equal(judgeUpload('file', file('big.txt', 'x', MAX_FILE_BYTES)).ok, true);
    });
  });
});
