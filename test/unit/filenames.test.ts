import * as assert from 'node:assert/strict';
import { safeName } from '../../src/api';

describe('safe file names from the server (Save As)', () => {
  const cases: [string, string | undefined][] = [
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['CON', '_CON'],
    ['lpt1.log', '_lpt1.log'],
    ['a:b.txt', 'a_b.txt'],
    ['what?*<>|".txt', 'what______.txt'],
    ['name. . ', 'name'],
    ['evil\u202egpj.exe', 'evilgpj.exe'],
    ['zero\u200bwidth\u2066.txt', 'zerowidth.txt'],
    ['tab\there.txt', 'tabhere.txt'],
    ['..', undefined],
    ['  ', undefined],
    ['ordinary name (1).pdf', 'ordinary name (1).pdf'],
  ];
  for (const [given, expected] of cases) {
    it(`${JSON.stringify(given)} → ${JSON.stringify(expected)}`, () => assert.equal(safeName(given), expected));
  }

  it('keeps names within 255 bytes, extension kept, on a character boundary', () => {
    for (const long of ['x'.repeat(300) + '.txt', 'é'.repeat(200) + '.md', '😀'.repeat(100) + '.json']) {
      const safe = safeName(long)!;
      assert.ok(Buffer.byteLength(safe, 'utf8') <= 255, `${Buffer.byteLength(safe)} bytes`);
      assert.ok(safe.endsWith(long.slice(long.lastIndexOf('.'))));
      assert.ok(!safe.includes('\ufffd'));
    }
  });
});
