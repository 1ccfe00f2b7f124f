/**
 * Issue 16, the pure core: the line diff and the three-way merge (base = sent, ours = now, theirs = proposal).
 */
import * as assert from 'node:assert/strict';
import { type Edit, diffLines } from '../../src/review/diff';
import { NO_EOL, joinLines, toLines } from '../../src/review/lines';
import { type Change, type MergedHunk, changesBetween, merge3 } from '../../src/review/merge';

/** Applies edits of a→b to a: must give b. */
function applyEdits(a: readonly string[], b: readonly string[], edits: Edit[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const e of edits) {
    out.push(...a.slice(at, e.aStart), ...b.slice(e.bStart, e.bEnd));
    at = e.aEnd;
  }
  return [...out, ...a.slice(at)];
}

/** Applies merged hunks to ours. */
function land(ours: readonly string[], hunks: MergedHunk[], pick: (h: MergedHunk) => boolean = h => !h.conflict): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks.filter(pick)) {
    out.push(...ours.slice(at, h.oursStart), ...h.lines);
    at = h.oursEnd;
  }
  return [...out, ...ours.slice(at)];
}

/** A deterministic pseudo-random generator, so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

function merge(base: string[], ours: string[], theirs: string[]) {
  return merge3(base, ours, changesBetween(base, theirs).changes);
}

describe('review: line diff', () => {
  it('finds no edit in equal texts and one edit for an insert, a delete, a replace', () => {
    const a = ['a', 'b', 'c'];
    assert.deepEqual(diffLines(a, a.slice()).edits, []);
    assert.deepEqual(diffLines(a, ['a', 'x', 'b', 'c']).edits, [{ aStart: 1, aEnd: 1, bStart: 1, bEnd: 2 }]);
    assert.deepEqual(diffLines(a, ['a', 'c']).edits, [{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 1 }]);
    assert.deepEqual(diffLines(a, ['a', 'B', 'c']).edits, [{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 }]);
    assert.deepEqual(diffLines([], ['x']).edits, [{ aStart: 0, aEnd: 0, bStart: 0, bEnd: 1 }]);
  });

  it('edits always turn a into b, and are minimal on small random texts (checked against an LCS)', () => {
    const r = rng(7);
    for (let round = 0; round < 300; round++) {
      const alphabet = 2 + Math.floor(r() * 5);
      const a = Array.from({ length: Math.floor(r() * 14) }, () => String.fromCharCode(97 + Math.floor(r() * alphabet)));
      const b = Array.from({ length: Math.floor(r() * 14) }, () => String.fromCharCode(97 + Math.floor(r() * alphabet)));
      const { edits, coarse } = diffLines(a, b);
      assert.deepEqual(applyEdits(a, b, edits), b, `${a.join('')} → ${b.join('')}`);
      assert.equal(coarse, false);
      for (let k = 1; k < edits.length; k++) assert.ok(edits[k].aStart > edits[k - 1].aEnd, 'edits never touch');
      // Patience anchors may cost a little minimality; Myers alone is exact. Allow none on texts without unique lines.
      const lcs = (() => {
        const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
        for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
        return t[0][0];
      })();
      const changed = edits.reduce((s, e) => s + (e.aEnd - e.aStart) + (e.bEnd - e.bStart), 0);
      assert.ok(changed >= a.length + b.length - 2 * lcs, 'never below the optimum');
      if (alphabet <= 2) assert.equal(changed, a.length + b.length - 2 * lcs, `minimal: ${a.join('')} → ${b.join('')}`);
    }
  });

  it('finds 20 small changes in a 10,000-line file exactly', () => {
    const a = numbered(10_000);
    const b = a.slice();
    for (let k = 0; k < 20; k++) b[k * 500 + 7] = `changed ${k}`;
    const { edits, coarse } = diffLines(a, b);
    assert.equal(coarse, false);
    assert.equal(edits.length, 20);
    assert.deepEqual(edits[3], { aStart: 1507, aEnd: 1508, bStart: 1507, bEnd: 1508 });
  });

  it('stays bounded on hostile input: no common line at all, or only repeated lines, gives one coarse edit', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i % 3}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `a${(i + 1) % 3}x`);
    const r = diffLines(a, b);
    assert.deepEqual(applyEdits(a, b, r.edits), b);
    const c = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? '}' : ''));
    const d = Array.from({ length: 20_000 }, (_, i) => (i % 3 ? '}' : ''));
    const budget = { left: 200_000 };
    const r2 = diffLines(c, d, budget);
    assert.equal(r2.coarse, true, 'over the budget: coarse');
    assert.ok(budget.left <= 0, 'the shared budget is spent');
    assert.equal(diffLines(c, d, budget).coarse, true, 'nothing left: coarse at once');
    assert.deepEqual(applyEdits(c, d, r2.edits), d);
  });
});

describe('review: three-way merge', () => {
  const base = numbered(30);

  it('the user typed 20 lines above: the change lands 20 lines lower, flagged shifted', () => {
    const ours = [...base.slice(0, 2), ...numbered(20, 'typed'), ...base.slice(2)];
    const theirs = base.slice();
    theirs[14] = 'line 15 // better';
    const { hunks } = merge(base, ours, theirs);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].oursStart, 34);
    assert.equal(hunks[0].shifted, true);
    assert.equal(hunks[0].conflict, undefined);
    assert.deepEqual(land(ours, hunks).slice(33, 36), ['line 14', 'line 15 // better', 'line 16']);
  });

  it('the user deleted lines below: the change above stays where it was', () => {
    const ours = [...base.slice(0, 20), ...base.slice(25)];
    const theirs = [...base.slice(0, 5), 'inserted', ...base.slice(5)];
    const { hunks } = merge(base, ours, theirs);
    assert.deepEqual(hunks.map(h => [h.oursStart, h.oursEnd, h.shifted]), [[5, 5, false]]);
    assert.deepEqual(land(ours, hunks), [...base.slice(0, 5), 'inserted', ...base.slice(5, 20), ...base.slice(25)]);
  });

  it('an insertion inside the target range lands between the right lines', () => {
    const ours = ['new top', ...base];
    const theirs = [...base.slice(0, 10), 'between 10 and 11', ...base.slice(10)];
    assert.deepEqual(land(ours, merge(base, ours, theirs).hunks).slice(10, 13), ['line 10', 'between 10 and 11', 'line 11']);
  });

  it('the user deleted the range the proposal changes: a conflict with both sides, not applied', () => {
    const ours = [...base.slice(0, 10), ...base.slice(15)];
    const theirs = base.slice();
    theirs[12] = 'line 13 improved';
    const { hunks } = merge(base, ours, theirs);
    assert.equal(hunks.length, 1);
    const h = hunks[0];
    assert.ok(h.conflict);
    assert.deepEqual(h.conflict.base, base.slice(10, 15));
    assert.deepEqual(h.conflict.ours, []);
    assert.deepEqual(h.conflict.theirs, ['line 11', 'line 12', 'line 13 improved', 'line 14', 'line 15']);
    assert.deepEqual([h.oursStart, h.oursEnd], [10, 10]);
    assert.deepEqual(land(ours, hunks), ours, 'a conflict is never applied unless picked');
  });

  it('the user edited a line inside the second hunk: the first lands, the second is a conflict', () => {
    const ours = [...numbered(20, 'typed'), ...base];
    ours[20 + 25] = 'line 26 edited by the user';
    const theirs = base.slice();
    theirs.splice(3, 0, '// Reviewed by the agents.');
    theirs[26] = 'line 26 // Checked by the agents.';
    const { hunks } = merge(base, ours, theirs);
    assert.deepEqual(
      hunks.map(h => [h.oursStart, !!h.conflict]),
      [
        [23, false],
        [45, true],
      ],
    );
    assert.deepEqual(hunks[1].conflict!.ours, ['line 26 edited by the user']);
    assert.deepEqual(hunks[1].conflict!.theirs, ['line 26 // Checked by the agents.']);
  });

  it('changes next to the user\'s edit are not conflicts; they land and say they are near', () => {
    const ours = base.slice();
    ours[9] = 'line 10 user';
    const theirs = base.slice();
    theirs[10] = 'line 11 agent';
    theirs[8] = 'line 9 agent';
    const { hunks } = merge(base, ours, theirs);
    assert.deepEqual(
      hunks.map(h => [h.oursStart, !!h.conflict, h.nearUserEdit]),
      [
        [8, false, true],
        [10, false, true],
      ],
    );
    assert.deepEqual(land(ours, hunks).slice(8, 11), ['line 9 agent', 'line 10 user', 'line 11 agent']);
  });

  it('both inserting at the same place: no conflict, the proposal goes after the user\'s lines unless it attaches before', () => {
    const ours = [...base.slice(0, 5), 'user line', ...base.slice(5)];
    const theirs = [...base.slice(0, 5), 'agent line', ...base.slice(5)];
    const { hunks } = merge(base, ours, theirs);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].nearUserEdit, true);
    assert.deepEqual(land(ours, hunks).slice(4, 8), ['line 5', 'user line', 'agent line', 'line 6']);
    const before: Change[] = [{ start: 5, end: 5, lines: ['agent line'], group: 0, attach: 'before' }];
    assert.deepEqual(land(ours, merge3(base, ours, before).hunks).slice(4, 8), ['line 5', 'agent line', 'user line', 'line 6']);
  });

  it('the same change on both sides is no conflict and no hunk', () => {
    const ours = base.slice();
    ours[4] = 'same fix';
    ours.splice(20, 0, 'same insert');
    const theirs = ours.slice();
    theirs[27] = 'agent only';
    const r = merge(base, ours, theirs);
    assert.equal(r.alreadyApplied, 2);
    assert.deepEqual(r.hunks.map(h => [h.oursStart, !!h.conflict]), [[27, false]]);
  });

  it('overlapping changes that end up the same are not a conflict; different ones are, over their whole region', () => {
    const ours = base.slice();
    ours.splice(10, 3, 'user A', 'user B');
    const theirs = base.slice();
    theirs[11] = 'agent X';
    theirs[14] = 'agent Y';
    const { hunks } = merge(base, ours, theirs);
    assert.equal(hunks.length, 2, 'the second change is outside the region');
    assert.deepEqual(hunks[0].conflict?.base, ['line 11', 'line 12', 'line 13']);
    assert.deepEqual(hunks[0].conflict?.ours, ['user A', 'user B']);
    assert.deepEqual(hunks[0].conflict?.theirs, ['line 11', 'agent X', 'line 13']);
    assert.deepEqual([hunks[1].oursStart, hunks[1].lines], [13, ['agent Y']]);
  });

  it('a conflict region grows over every change it overlaps, on both sides', () => {
    const ours = base.slice();
    ours.splice(10, 6, 'user rewrote 11-16');
    const theirs = base.slice();
    theirs[10] = 'agent 11';
    theirs[15] = 'agent 16';
    const { hunks } = merge(base, ours, theirs);
    assert.equal(hunks.length, 1);
    assert.deepEqual(hunks[0].groups.length, 2, 'two changes of the proposal in one conflict');
    assert.deepEqual(hunks[0].conflict?.theirs, ['agent 11', ...base.slice(11, 15), 'agent 16']);
  });

  it('two-way (no text recorded): base is the file now, nothing conflicts', () => {
    const ours = base.slice();
    const theirs = base.slice();
    theirs[3] = 'x';
    theirs.push('appended');
    const r = merge3(ours, ours, changesBetween(ours, theirs).changes);
    assert.deepEqual(r.hunks.map(h => [h.oursStart, h.oursEnd, !!h.conflict]), [
      [3, 4, false],
      [30, 30, false],
    ]);
    assert.deepEqual(land(ours, r.hunks), theirs);
  });

  it('keeps a missing final newline as a change like any other (tagged last line)', () => {
    const sent = toLines('a\nb');
    assert.deepEqual(sent.keys, ['a', `b${NO_EOL}`]);
    assert.equal(joinLines(sent.keys, '\r\n'), 'a\r\nb');
    const now = toLines('a\r\nb\r\nc\r\n');
    assert.equal(now.eol, '\r\n');
    assert.deepEqual(now.keys, ['a', 'b', 'c']);
  });

  it('random edits of both sides that neither overlap nor touch always combine cleanly (property)', () => {
    const r = rng(42);
    for (let round = 0; round < 200; round++) {
      const b = numbered(40);
      // Ours edits lines 0-19 region at random, theirs 21-39: never overlapping, never adjacent.
      const ours = b.slice();
      const theirs = b.slice();
      const o = Math.floor(r() * 18);
      const t = 21 + Math.floor(r() * 17);
      ours.splice(o, Math.floor(r() * 2), ...Array.from({ length: Math.floor(r() * 3) }, (_, i) => `o${round}.${i}`));
      theirs.splice(t, Math.floor(r() * 2), ...Array.from({ length: Math.floor(r() * 3) }, (_, i) => `t${round}.${i}`));
      const expected = [...ours.slice(0, 20 + (ours.length - b.length)), ...theirs.slice(20)];
      const result = merge(b, ours, theirs);
      assert.ok(result.hunks.every(h => !h.conflict));
      assert.deepEqual(land(ours, result.hunks), expected, `round ${round}`);
    }
  });
});
