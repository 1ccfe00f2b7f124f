// The emulator's port of Go's http.DetectContentType (the service sniffs every upload with it) and the
// service's attachment type rules.
import * as assert from 'assert';
import { attachmentMimeType, attachmentTypeRule, detectContentType, sniffMimeType } from '../emulator/sniff';

const b = (text: string) => Buffer.from(text, 'latin1');

describe('emulator: sniffing like Go’s http.DetectContentType', () => {
  it('the table, in Go’s order', () => {
    const cases: [Buffer, string][] = [
      // HTML: case-insensitive, after leading white space, ended by a space or '>'.
      [b('<!DOCTYPE HTML><p>'), 'text/html; charset=utf-8'],
      [b('  \n\t<html>'), 'text/html; charset=utf-8'],
      [b('<HtMl lang="en">'), 'text/html; charset=utf-8'],
      [b('<script>alert(1)</script>'), 'text/html; charset=utf-8'],
      [b('<!-- a Markdown comment -->\n# Title'), 'text/html; charset=utf-8'],
      [b('<p>x'), 'text/html; charset=utf-8'],
      [b('<b>bold'), 'text/html; charset=utf-8'],
      [b('<htmlx>'), 'text/plain; charset=utf-8'],
      [b('<html'), 'text/plain; charset=utf-8'],
      [b('<br/>'), 'text/plain; charset=utf-8'],
      [b('\n <?xml version="1.0"?><svg/>'), 'text/xml; charset=utf-8'],
      [b('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'text/plain; charset=utf-8'],
      [b('%PDF-1.7'), 'application/pdf'],
      [b('%!PS-Adobe-3.0'), 'application/postscript'],
      // Byte order marks need four bytes.
      [Buffer.from([0xfe, 0xff, 0x00, 0x68]), 'text/plain; charset=utf-16be'],
      [Buffer.from([0xff, 0xfe, 0x68, 0x00]), 'text/plain; charset=utf-16le'],
      [Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'text/plain; charset=utf-8'],
      [Buffer.from([0xef, 0xbb, 0xbf]), 'text/plain; charset=utf-8'],
      [Buffer.from([0x00, 0x00, 0x01, 0x00, 0x01]), 'image/x-icon'],
      [Buffer.from([0x00, 0x00, 0x02, 0x00, 0x01]), 'image/x-icon'],
      [b('BM anything at all'), 'image/bmp'],
      [b('GIF87a'), 'image/gif'],
      [b('GIF89a....'), 'image/gif'],
      [b('RIFF\x10\x00\x00\x00WEBPVP8 '), 'image/webp'],
      [b('\x89PNG\r\n\x1a\n....'), 'image/png'],
      [b('\xff\xd8\xff\xe0'), 'image/jpeg'],
      [b('FORM\x00\x00\x00\x00AIFF'), 'audio/aiff'],
      [b('ID3\x03'), 'audio/mpeg'],
      [b('OggS\x00\x02'), 'application/ogg'],
      [b('MThd\x00\x00\x00\x06\x00'), 'audio/midi'],
      [b('RIFF\x00\x00\x00\x00AVI LIST'), 'video/avi'],
      [b('RIFF\x00\x00\x00\x00WAVEfmt '), 'audio/wave'],
      [b('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp41isom'), 'video/mp4'],
      [b('\x1a\x45\xdf\xa3'), 'video/webm'],
      [Buffer.concat([Buffer.alloc(34), b('LP')]), 'application/vnd.ms-fontobject'],
      [b('\x00\x01\x00\x00\x00'), 'font/ttf'],
      [b('OTTO'), 'font/otf'],
      [b('ttcf'), 'font/collection'],
      [b('wOFF'), 'font/woff'],
      [b('wOF2'), 'font/woff2'],
      [b('\x1f\x8b\x08\x00'), 'application/x-gzip'],
      [b('PK\x03\x04\x14\x00'), 'application/zip'],
      [b('Rar!\x1a\x07\x00'), 'application/x-rar-compressed'],
      [b('Rar!\x1a\x07\x01\x00'), 'application/x-rar-compressed'],
      [b('\x00asm\x01\x00\x00\x00'), 'application/wasm'],
      [b('caf\xe9 na\xefve'), 'text/plain; charset=utf-8'],
      [b('{"json": true}'), 'text/plain; charset=utf-8'],
      [b('a,b\n1,2\n'), 'text/plain; charset=utf-8'],
      [Buffer.alloc(0), 'text/plain; charset=utf-8'],
      [b('text\x00with a NUL'), 'application/octet-stream'],
      [b('\x1b[31mred'), 'text/plain; charset=utf-8'],
      [b('form\x0cfeed'), 'text/plain; charset=utf-8'],
      [b('vertical\x0btab'), 'application/octet-stream'],
    ];
    for (const [data, expected] of cases) {
      assert.equal(detectContentType(data), expected, JSON.stringify(data.toString('latin1')));
    }
  });

  it('only the first 512 bytes count', () => {
    assert.equal(detectContentType(Buffer.concat([Buffer.alloc(512, 'a'), Buffer.from([0])])), 'text/plain; charset=utf-8');
    assert.equal(detectContentType(Buffer.concat([Buffer.alloc(511, 'a'), Buffer.from([0])])), 'application/octet-stream');
    assert.equal(detectContentType(Buffer.concat([Buffer.alloc(600, ' '), b('<html>')])), 'text/plain; charset=utf-8');
  });

  it('the service drops the parameters', () => {
    assert.equal(sniffMimeType(b('<html>')), 'text/html');
    assert.equal(sniffMimeType(Buffer.from([0xff, 0xfe, 0x68, 0x00])), 'text/plain');
  });

  it('attachments: Office names turn a zip into their type, .csv turns text into text/csv; nothing else reads the name', () => {
    assert.equal(attachmentMimeType('deck.pptx', b('PK\x03\x04')), 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
    assert.equal(attachmentMimeType('sheet.XLSX', b('PK\x03\x04')), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.equal(attachmentMimeType('data.csv', b('a,b')), 'text/csv');
    assert.equal(attachmentMimeType('notes.md', b('# Title')), 'text/plain');
    assert.equal(attachmentMimeType('data.json', b('{}')), 'text/plain');
    assert.equal(attachmentMimeType('page.txt', b('<html>')), 'text/html');
    assert.equal(attachmentMimeType('archive.zip', b('PK\x03\x04')), 'application/zip');
  });

  it('attachment types a task accepts, and the refusals it gives', () => {
    for (const ok of ['text/plain', 'text/csv', 'text/markdown', 'application/json', 'application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'audio/mpeg']) {
      assert.equal(attachmentTypeRule(ok).refusal, undefined, ok);
    }
    assert.equal(attachmentTypeRule('video/mp4').limit, 100 * 1024 * 1024);
    assert.equal(attachmentTypeRule('text/plain').limit, 20 * 1024 * 1024);
    assert.equal(attachmentTypeRule('text/html').refusal, 'unsupported attachment type "text/html"');
    assert.equal(attachmentTypeRule('image/bmp').refusal, 'unsupported image type "image/bmp"; allowed: image/jpeg, image/png, image/gif, image/webp');
    assert.equal(attachmentTypeRule('video/avi').refusal, 'unsupported video type "video/avi"; allowed: video/mp4, video/webm');
    assert.equal(attachmentTypeRule('audio/midi').refusal, 'unsupported audio format "audio/midi"; allowed: wav, mp3, webm, ogg');
  });
});
