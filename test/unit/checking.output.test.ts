/** A check's output kept bounded and shown as plain text (tasks/checking/output.ts, issue 37). */
import * as assert from 'node:assert/strict';
import { BoundedOutput, lastLines, stripAnsi } from '../../src/tasks/checking/output';
import { assertLinear, fiveMegabytesOf } from './linearTime';

describe('checking: output kept bounded', () => {
  it('keeps everything while it fits, counting every byte', () => {
    const out = new BoundedOutput({ headBytes: 10, tailBytes: 10 });
    out.push('hello ');
    out.push(Buffer.from('world\n'));
    assert.equal(out.bytes, 12);
    assert.equal(out.text(), 'hello world\n');
  });

  it('issue 45: at its defaults, 1 MB written keeps at most 512 KB, with its first and its last lines', () => {
    const out = new BoundedOutput();
    const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(48)}\n`;
    let n = 0;
    while (out.bytes < 1024 * 1024) out.push(line(n++));
    const kept = out.text();
    assert.ok(Buffer.byteLength(kept) <= 512 * 1024 + 100, `${Buffer.byteLength(kept)} bytes kept`);
    assert.ok(kept.startsWith(line(0)), 'the first line');
    assert.ok(kept.endsWith(line(n - 1)), 'the last line');
    assert.match(kept, /… \d+ bytes left out …/);
  });

  it('keeps the head and the tail, says how many bytes were left out', () => {
    const out = new BoundedOutput({ headBytes: 9, tailBytes: 9 });
    for (let i = 0; i < 100; i++) out.push(`line ${String(i).padStart(3, '0')}\n`);
    assert.equal(out.bytes, 900);
    assert.equal(out.text(), 'line 000\n… 882 bytes left out …\nline 099\n');
    assert.equal(out.droppedBytes, 882);
  });

  it('a chunk larger than the tail keeps only its end, and memory stays bounded', () => {
    const out = new BoundedOutput({ headBytes: 4, tailBytes: 6 });
    out.push('x'.repeat(1_000_000) + 'abcdef');
    out.push('');
    assert.equal(out.bytes, 1_000_006);
    assert.equal(out.text(), 'xxxx\n… 999996 bytes left out …\nabcdef');
    // Many small chunks: the tail keeps only what it needs.
    const many = new BoundedOutput({ headBytes: 2, tailBytes: 5 });
    for (let i = 0; i < 10_000; i++) many.push(String(i % 10));
    assert.equal(many.text().split('\n').pop(), '56789');
    assert.ok((many as unknown as { tailChunks: Buffer[] }).tailChunks.length <= 6, 'old chunks are dropped');
  });

  it('a multi-byte character cut by either edge is left out whole, never garbled', () => {
    // "é" is 2 bytes, "€" 3, "😀" 4 (a surrogate pair in JS).
    for (const char of ['é', '€', '😀']) {
      const width = Buffer.byteLength(char);
      for (let headBytes = 1; headBytes <= 8; headBytes++) {
        for (let tailBytes = 1; tailBytes <= 8; tailBytes++) {
          const out = new BoundedOutput({ headBytes, tailBytes });
          const text = char.repeat(20);
          out.push(Buffer.from(text));
          const shown = out.text();
          assert.ok(!shown.includes('\ufffd'), `${char} ${headBytes}/${tailBytes}: ${JSON.stringify(shown)}`);
          const [, head, left, tail] = /^([^]*?)\n?… (\d+) bytes left out …\n([^]*)$/.exec(shown)!;
          assert.equal(head, char.repeat(Math.floor(headBytes / width)));
          assert.equal(tail, char.repeat(Math.floor(tailBytes / width)));
          const leftOut = Number(left);
          assert.equal(leftOut + Buffer.byteLength(head) + Buffer.byteLength(tail), 20 * width, 'every byte is kept or counted');
        }
      }
    }
    // A character split across two pushes, all kept: whole again.
    const out = new BoundedOutput({ headBytes: 100, tailBytes: 100 });
    const bytes = Buffer.from('a😀b');
    out.push(bytes.subarray(0, 3));
    out.push(bytes.subarray(3));
    assert.equal(out.text(), 'a😀b');
  });

  it('text() and tail() are without ANSI codes; tail() is the last lines, bounded', () => {
    const out = new BoundedOutput();
    for (let i = 1; i <= 100; i++) out.push(`\x1b[32m✔\x1b[0m test ${i}\n`);
    out.push('\n\n');
    assert.ok(!out.text().includes('\x1b'));
    const tail = out.tail(3);
    assert.equal(tail, '✔ test 98\n✔ test 99\n✔ test 100');
    assert.equal(out.tail(40, 12), '9\n✔ test 100', 'at most maxChars characters, the end kept');
    assert.equal(lastLines('a\nb\nc\n', 5), 'a\nb\nc');
    assert.equal(lastLines('😀😀😀', 10, 3), '😀', 'a surrogate pair is not split at the cut');
  });
});

describe('checking: stripAnsi', () => {
  it('removes CSI sequences (colors, cursor moves, erase), including unfinished ones', () => {
    assert.equal(stripAnsi('\x1b[31mred\x1b[0m \x1b[1;32mbold green\x1b[39;49m'), 'red bold green');
    assert.equal(stripAnsi('a\x1b[2Kb\x1b[1Ac\x1b[?25ld'), 'abcd');
    assert.equal(stripAnsi('\x9b31mC1\x9b0m'), 'C1', 'the 8-bit CSI');
    assert.equal(stripAnsi('x\x1b['), 'x');
    assert.equal(stripAnsi('x\x1b[12;'), 'x');
  });

  it('removes OSC strings ended by BEL or ST (hyperlinks, titles); an unfinished one does not swallow the next line', () => {
    assert.equal(stripAnsi('\x1b]0;title\x07after'), 'after');
    assert.equal(stripAnsi('\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ text'), 'link text');
    assert.equal(stripAnsi('\x1b]8;;file:///x\x9clink'), 'link');
    assert.equal(stripAnsi('\x1b]unfinished\nnext line'), '\nnext line');
    assert.equal(stripAnsi('\x1b(Bcharset \x1b7saved\x1b8 \x1b=keypad'), 'charset saved keypad');
  });

  it('keeps what follows the last carriage return of a line; a CRLF is a line end', () => {
    assert.equal(stripAnsi('progress 10%\rprogress 50%\rprogress 100%\nnext'), 'progress 100%\nnext');
    assert.equal(stripAnsi('windows\r\nlines\r\n'), 'windows\nlines\n');
    assert.equal(stripAnsi('done\r\r\n'), 'done\n');
    assert.equal(stripAnsi('spinner |\r\x1b[Kspinner /\r\x1b[K✔ done\n'), '✔ done\n');
    assert.equal(stripAnsi('last\r'), 'last');
    assert.equal(stripAnsi('plain text, nothing to do\n'), 'plain text, nothing to do\n');
  });
});

describe('checking: stripAnsi is linear (5 MB of adversarial output)', function () {
  this.timeout(60_000);
  const ADVERSARIAL: Record<string, string> = {
    'unfinished CSI parameters': `\x1b[${'1;'.repeat(1000)}`,
    'unfinished OSC strings': `\x1b]8;;${'x'.repeat(1000)}`,
    'OSC starts only': '\x1b]',
    'ESC only': '\x1b',
    'carriage returns': 'abc\r',
    'CR runs': '\r'.repeat(1000) + 'x',
    'CSI without a final byte, then text': '\x1b[1;2;3 x',
    'C1 CSI and OSC': '\x9b1;\x9d0;t',
    'plain lines': 'plain text of a line\n',
  };
  for (const [name, unit] of Object.entries(ADVERSARIAL)) {
    it(name, () => {
      assertLinear(fiveMegabytesOf(unit), stripAnsi);
    });
  }
});
