/** The texts a task keeps of the files it sent, for the three-way merge (issue 16): bounded, by hash, the source first. */
import * as assert from 'node:assert/strict';
import { SENT_TEXT_LIMITS } from '../../src/constants';
import { boundSent, sha256 } from '../../src/tasks/store/sentTexts';

describe('texts kept of the files sent', () => {
  const limits = { fileMaxBytes: 10, taskMaxBytes: 16 };

  it('keeps each text under the bounds, by hash, the source first', () => {
    const { files, texts } = boundSent(
      [
        { uri: 'file:///w/a.ts', label: 'a.ts', text: 'source!' },
        { uri: 'file:///w/b.ts', label: 'b.ts', text: 'eleven byte' },
        { uri: 'file:///w/c.ts', label: 'c.ts', text: '1234567890' },
        { uri: 'file:///w/d.ts', label: 'd.ts', text: 'ok' },
        { uri: 'file:///w/e.bin', label: 'e.bin', bytes: 99, notText: true },
        { uri: 'file:///w/f.ts', label: 'f.ts', bytes: 5000 },
        { uri: 'file:///w/a.ts', label: 'a.ts', text: 'again' },
      ],
      limits,
    );
    assert.deepEqual(
      files.map(f => [f.label, f.bytes, f.notRecorded ?? f.sha256]),
      [
        ['a.ts', 7, sha256('source!')],
        ['b.ts', 11, 'fileBound'],
        ['c.ts', 10, 'taskBound'],
        ['d.ts', 2, sha256('ok')],
        ['e.bin', 99, 'notText'],
        ['f.ts', 5000, 'fileBound'],
      ],
    );
    assert.deepEqual([...texts.values()], ['source!', 'ok']);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const { files } = boundSent([{ uri: 'u', label: 'x', text: 'ééééé€' }], limits);
    assert.equal(files[0].bytes, 13);
    assert.equal(files[0].notRecorded, 'fileBound');
  });

  it('defaults to 1 MB per file and 4 MB per task', () => {
    assert.deepEqual(SENT_TEXT_LIMITS, { fileMaxBytes: 1024 * 1024, taskMaxBytes: 4 * 1024 * 1024 });
    const big = 'x'.repeat(1024 * 1024);
    const { files } = boundSent(['a', 'b', 'c', 'd', 'e'].map(n => ({ uri: n, label: n, text: big })));
    assert.deepEqual(files.map(f => f.notRecorded), [undefined, undefined, undefined, undefined, 'taskBound']);
    assert.equal(boundSent([{ uri: 'z', label: 'z', text: `${big}x` }]).files[0].notRecorded, 'fileBound');
  });
});
