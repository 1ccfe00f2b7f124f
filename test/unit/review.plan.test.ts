/**
 * Issue 16, the pure core: the review plan, from an answer + the texts sent + the files now to hunks with
 * their place in the text now, and everything not applied with its reason.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { diffLines } from '../../src/review/diff';
import { type FileState, type PlanFile, type ReviewFiles, type ReviewPlan, applyHunks, buildPlan, conflictText } from '../../src/review/plan';
import { keepsEnough } from '../../src/review/proof';

const fence = (info: string, body: string, f = '```') => `${f}${info}\n${body}${body.endsWith('\n') || !body ? '' : '\n'}${f}\n`;
const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
const text = (lines: string[], eol = '\n', final = true) => lines.join(eol) + (final && lines.length ? eol : '');

/** The workspace as the plan sees it: texts now, texts sent; anything else is missing. */
function workspace(now: Record<string, string | FileState>, sent: Record<string, string> = {}): ReviewFiles & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    current: p => {
      asked.push(p);
      const v = now[p];
      return v === undefined ? { kind: 'missing' } : typeof v === 'string' ? { kind: 'file', text: v } : v;
    },
    sent: p => sent[p],
  };
}

const file = (plan: ReviewPlan, path: string, from?: PlanFile['from']): PlanFile => {
  const f = plan.files.find(x => x.path === path && (!from || x.from === from));
  assert.ok(f, `no entry for ${path}: ${plan.files.map(x => `${x.path}:${x.kind}`).join(', ')}`);
  return f;
};

/** The text a user gets when applying every offered hunk that is not a conflict. */
const applied = (now: string, f: PlanFile) => applyHunks(now, f.hunks, h => !h.conflict);

/** An answer in the emulator's shape for a source sent as lines 5-20 of a 30-line file, plus an attached file. */
function emulatorAnswer(source: string[], attached: string[]): string {
  const hunk1 = ['@@ -5,3 +5,4 @@', '+// Reviewed by the agents.', ...source.slice(4, 7).map(l => ` ${l}`)];
  const hunk2 = ['@@ -18,3 +19,3 @@', ` ${source[17]}`, ` ${source[18]}`, `-${source[19]}`, `+${source[19]} // Checked by the agents.`];
  return [
    '# Synthesized answer',
    '',
    '> Review this',
    '',
    fence('diff path=src/sample.ts', [...hunk1, ...hunk2].join('\n')),
    fence('ts path=src/util.ts', text(['// Updated by the agents.', ...attached])),
    'Usage:',
    fence('ts', 'sample();'),
    fence('text path=../outside-notes.txt', 'notes'),
  ].join('\n');
}

/** A unified diff of two texts (LF), 3 lines of context, `\ No newline` where a side lacks its last break. */
function unifiedDiff(a: string, b: string, path: string): string {
  const split = (t: string) => {
    const lines = t.split('\n');
    const final = lines[lines.length - 1] === '';
    if (final) lines.pop();
    return { lines, final };
  };
  const A = split(a);
  const B = split(b);
  // Line keys that tell a missing last break apart, so the edits cover it.
  const key = (s: { lines: string[]; final: boolean }) => s.lines.map((l, i) => (i === s.lines.length - 1 && !s.final ? `${l}\u0000` : l));
  const edits = diffLines(key(A), key(B)).edits;
  const out = [`--- a/${path}`, `+++ b/${path}`];
  const groups: (typeof edits)[] = [];
  for (const e of edits) {
    const g = groups[groups.length - 1];
    if (g && e.aStart - g[g.length - 1].aEnd <= 6) g.push(e);
    else groups.push([e]);
  }
  const noEol = (side: typeof A, i: number) => i === side.lines.length - 1 && !side.final;
  for (const g of groups) {
    const aFrom = Math.max(0, g[0].aStart - 3);
    const aTo = Math.min(A.lines.length, g[g.length - 1].aEnd + 3);
    const bFrom = g[0].bStart - (g[0].aStart - aFrom);
    const body: string[] = [];
    let ai = aFrom;
    let bi = bFrom;
    const context = (to: number) => {
      for (; ai < to; ai++, bi++) {
        body.push(` ${A.lines[ai]}`);
        if (noEol(A, ai)) body.push('\\ No newline at end of file');
      }
    };
    for (const e of g) {
      context(e.aStart);
      for (; ai < e.aEnd; ai++) body.push(`-${A.lines[ai]}`, ...(noEol(A, ai) ? ['\\ No newline at end of file'] : []));
      for (; bi < e.bEnd; bi++) body.push(`+${B.lines[bi]}`, ...(noEol(B, bi) ? ['\\ No newline at end of file'] : []));
    }
    context(aTo);
    const oldCount = aTo - aFrom;
    const newCount = bi - bFrom;
    out.push(`@@ -${oldCount ? aFrom + 1 : aFrom},${oldCount} +${newCount ? bFrom + 1 : bFrom},${newCount} @@`, ...body);
  }
  return out.join('\n');
}

describe('review: the plan', () => {
  it('round trip (property): any proposal, as a whole file or as a unified diff, lands exactly; CRLF and missing final breaks too', () => {
    let seed = 11;
    const r = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const words = ['{', '}', '', 'return x;', 'let a = 1;', '\tindented', '    spaced', 'x++;'];
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(r() * 30) }, () => words[Math.floor(r() * words.length)]);
      const b = a.slice();
      for (let k = Math.floor(r() * 5); k > 0; k--) {
        const at = Math.floor(r() * (b.length + 1));
        b.splice(at, Math.floor(r() * 3), ...Array.from({ length: Math.floor(r() * 3) }, (_, i) => `new ${round}.${k}.${i}`));
      }
      const aFinal = r() < 0.8 || !a.length;
      const bFinal = r() < 0.5 ? aFinal : r() < 0.8 || !b.length;
      const aText = text(a, '\n', aFinal);
      const bText = text(b, '\n', bFinal);
      const crlf = r() < 0.3 && aText.includes('\n'); // an empty file has no line break to keep
      const now = crlf ? aText.replace(/\n/g, '\r\n') : aText;
      const want = crlf ? bText.replace(/\n/g, '\r\n') : bText;
      const ws = () => workspace({ 'p.txt': now }, { 'p.txt': aText });
      // The diff form states the final break exactly.
      const diffPlan = file(buildPlan(fence('diff path=p.txt', unifiedDiff(aText, bText, 'p.txt'), '````'), ws()), 'p.txt');
      const got = diffPlan.kind === 'skip' ? now : applyHunks(now, diffPlan.hunks);
      assert.equal(got, want, `diff, round ${round}: ${JSON.stringify(aText)} → ${JSON.stringify(bText)}\n${unifiedDiff(aText, bText, 'p.txt')}`);
      // A whole file cannot say "no final break": the file keeps its own.
      if (!b.length && aText) continue; // an empty block is refused for a non-empty file
      let keepLf = text(b);
      if (aText && !aText.endsWith('\n') && keepLf.endsWith('\n')) keepLf = keepLf.slice(0, -1);
      const keep = crlf ? keepLf.replace(/\n/g, '\r\n') : keepLf;
      const wholePlan = file(buildPlan(fence('txt path=p.txt', text(b), '````'), ws()), 'p.txt');
      // Issue 34: a whole file that keeps too little of the file is not shown to be its new text: listed, nothing lost.
      if (!keepsEnough(b, a, true)) {
        assert.equal(wholePlan.reasonCode, 'unproven', `whole, round ${round}: ${JSON.stringify(aText)} → ${JSON.stringify(bText)}`);
        continue;
      }
      assert.equal(wholePlan.kind === 'skip' ? now : applyHunks(now, wholePlan.hunks), keep, `whole, round ${round}`);
      for (const f of [diffPlan, wholePlan]) {
        for (let k = 1; k < f.hunks.length; k++) assert.ok(f.hunks[k].startOffset >= f.hunks[k - 1].endOffset, 'hunks never overlap');
        for (const h of f.hunks) assert.equal(now.slice(h.startOffset, h.endOffset), h.oldText);
      }
    }
  });

  const source = numbered(30, 'const s');
  const util = numbered(8, 'export const u');

  it('plans the emulator\'s answer: two hunks, one whole file, an unnamed block and an outside path listed', () => {
    const now = { 'src/sample.ts': text(source), 'src/util.ts': text(util) };
    const plan = buildPlan(emulatorAnswer(source, util), workspace(now, now), { source: { path: 'src/sample.ts', range: { startLine: 4, startCharacter: 0, endLine: 20, endCharacter: 0 } } });
    assert.deepEqual(
      plan.files.map(f => [f.path, f.kind, f.reasonCode ?? '', f.hunks.length]),
      [
        ['src/sample.ts', 'modify', '', 2],
        ['src/util.ts', 'modify', '', 1],
        ['', 'skip', 'noPath', 0],
        ['../outside-notes.txt', 'skip', 'outside', 0],
      ],
    );
    const s = file(plan, 'src/sample.ts');
    assert.deepEqual(s.hunks.map(h => h.label), ['Hunk 1 of 2 · before line 5 · inserts 1 line', 'Hunk 2 of 2 · line 20 · changes 1 line']);
    assert.deepEqual(s.hunks.map(h => h.id), ['src/sample.ts#1', 'src/sample.ts#2']);
    assert.equal(s.hunks[0].newText, '// Reviewed by the agents.\n');
    assert.deepEqual(s.hunks[1], {
      ...s.hunks[1],
      currentRange: { startLine: 19, endLine: 20 },
      start: { line: 19, character: 0 },
      end: { line: 20, character: 0 },
      oldText: 'const s 20\n',
      newText: 'const s 20 // Checked by the agents.\n',
      conflict: false,
      shifted: false,
    });
    assert.equal(file(plan, '').reason, 'not applied (no path)');
    assert.equal(file(plan, '../outside-notes.txt').reason, 'not applied: the path leads outside the workspace');
    assert.equal(plan.hunkCount, 3);
    assert.equal(plan.conflictCount, 0);
  });

  it('the drift case: 20 lines typed above, a line inside the second hunk edited → hunk 1 shifted, hunk 2 a conflict', () => {
    const nowLines = [...source.slice(0, 2), ...numbered(20, '// typed'), ...source.slice(2)];
    nowLines[20 + 19] = 'const s 20 edited by the user';
    const now = text(nowLines);
    const plan = buildPlan(emulatorAnswer(source, util), workspace({ 'src/sample.ts': now, 'src/util.ts': text(util) }, { 'src/sample.ts': text(source), 'src/util.ts': text(util) }));
    const s = file(plan, 'src/sample.ts');
    assert.deepEqual(
      s.hunks.map(h => [h.currentRange.startLine, h.shifted, h.conflict, h.label]),
      [
        [24, true, false, 'Hunk 1 of 2 · before line 25 · inserts 1 line'],
        [39, true, true, 'Hunk 2 of 2 · line 40 · changes 1 line · conflict: you changed these lines'],
      ],
    );
    assert.deepEqual(s.hunks[1].sides, {
      base: 'const s 20\n',
      ours: 'const s 20 edited by the user\n',
      theirs: 'const s 20 // Checked by the agents.\n',
    });
    assert.equal(plan.conflictCount, 1);
    const result = applied(now, s).split('\n');
    assert.deepEqual(result.slice(21, 26), ['// typed 20', 'const s 3', 'const s 4', '// Reviewed by the agents.', 'const s 5']);
    assert.equal(result[40], 'const s 20 edited by the user', 'the user\'s line is kept');
    assert.equal(result.length, nowLines.length + 2, 'one line added, and the final empty part');
    assert.ok(conflictText(s.hunks[1], '\n').startsWith('<<<<<<< your version\nconst s 20 edited by the user\n||||||| as sent\n'));
  });

  it('three-way (property): with random user edits, no hunk overlaps, none loses a line of either side outside a conflict', () => {
    const words = ['{', '}', '', 'return x;', 'let a = 1;', '\tindented', 'x++;'];
    let conflicts = 0;
    for (let s0 = 1; s0 < 60; s0++) {
      let seed = s0;
      const r = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      for (let round = 0; round < 300; round++) {
        const edit = (src: string[], tag: string) => {
          const o = src.slice();
          for (let k = Math.floor(r() * 4); k > 0; k--) {
            o.splice(Math.floor(r() * (o.length + 1)), Math.floor(r() * 3), ...Array.from({ length: Math.floor(r() * 3) }, (_, i) => `${tag} ${s0}.${round}.${k}.${i}`));
          }
          return o;
        };
        const base = Array.from({ length: Math.floor(r() * 40) }, () => words[Math.floor(r() * words.length)]);
        const ours = edit(base, 'user');
        const theirs = edit(base, 'agent');
        const baseFinal = r() < 0.8;
        const baseText = text(base, '\n', baseFinal);
        const oursText = text(ours, '\n', r() < 0.8 ? baseFinal : !baseFinal);
        const answers = [fence('txt path=p.txt', text(theirs), '````'), fence('diff path=p.txt', unifiedDiff(baseText, text(theirs, '\n', baseFinal), 'p.txt'), '````')];
        for (const answer of answers) {
          const f = file(buildPlan(answer, workspace({ 'p.txt': oursText }, { 'p.txt': baseText })), 'p.txt');
          if (f.kind === 'skip') continue;
          const where = `seed ${s0} round ${round}`;
          for (let k = 0; k < f.hunks.length; k++) {
            const h = f.hunks[k];
            assert.equal(oursText.slice(h.startOffset, h.endOffset), h.oldText);
            const prev = f.hunks[k - 1];
            if (prev) {
              assert.ok(h.startOffset >= prev.endOffset, `${where}: overlap`);
              assert.ok(!(h.startOffset === h.endOffset && prev.startOffset === prev.endOffset && h.startOffset === prev.startOffset), `${where}: two insertions at one point`);
            }
          }
          conflicts += f.hunks.filter(h => h.conflict).length;
          const out = new Set(applyHunks(oursText, f.hunks, h => !h.conflict).split('\n'));
          const inConflict = (side: 'ours' | 'theirs') => new Set(f.hunks.flatMap(h => (h.sides ? h.sides[side].split('\n') : [])));
          const keptOurs = inConflict('ours');
          const keptTheirs = inConflict('theirs');
          for (const u of ours.filter(l => l.startsWith('user'))) assert.ok(out.has(u) || keptOurs.has(u), `${where}: lost ${u}`);
          for (const a of theirs.filter(l => l.startsWith('agent'))) assert.ok(out.has(a) || keptTheirs.has(a), `${where}: lost ${a}`);
        }
      }
    }
    assert.ok(conflicts > 1000, `conflicts were exercised: ${conflicts}`);
  });

  it('a selection that started and ended inside lines: the diff matches the lines as sent, and the unseen parts stay', () => {
    const lines = ['function f() {', '    const a = 1;', '    const b = 2;', '    const c = 3;', '    return a + b + c; // sum', '}'];
    const now = text(lines);
    // Sent: from the first non-blank character of line 2 to just before "// sum" on line 5.
    const range = { startLine: 1, startCharacter: 4, endLine: 4, endCharacter: 21 };
    const diff = ['--- a/src/f.ts', '+++ b/src/f.ts', '@@ -2,4 +2,5 @@', '+// Reviewed by the agents.', '-const a = 1;', '+const a = 10;', '     const b = 2;', '     const c = 3;', '-    return a + b + c;', '+    return a + b + c; // Checked by the agents.'];
    const plan = buildPlan(fence('diff path=src/f.ts', diff.join('\n')), workspace({ 'src/f.ts': now }, { 'src/f.ts': now }), { source: { path: 'src/f.ts', range } });
    const f = file(plan, 'src/f.ts');
    assert.equal(f.hunks.length, 1, f.skippedHunks.map(s => s.reason).join());
    assert.equal(
      applyHunks(now, f.hunks),
      text(['function f() {', '// Reviewed by the agents.', '    const a = 10;', '    const b = 2;', '    const c = 3;', '    return a + b + c; // Checked by the agents. // sum', '}']),
    );
  });

  it('unchecking one hunk leaves exactly that hunk out (every hunk of a 20-hunk plan)', () => {
    const base = numbered(400);
    const theirs = base.slice();
    for (let k = 0; k < 20; k++) theirs[k * 20 + 3] = `changed ${k}`;
    const now = text(base);
    const plan = buildPlan(fence('ts path=a.ts', text(theirs)), workspace({ 'a.ts': now }, { 'a.ts': now }));
    const f = file(plan, 'a.ts');
    assert.equal(f.hunks.length, 20);
    const all = applyHunks(now, f.hunks);
    assert.equal(all, text(theirs));
    for (const left of f.hunks) {
      const without = applyHunks(now, f.hunks, h => h !== left).split('\n');
      const expected = all.split('\n');
      expected[left.currentRange.startLine] = base[left.currentRange.startLine];
      assert.deepEqual(without, expected, left.label);
    }
  });

  it('a CRLF file keeps CRLF: hunks carry the file\'s line break, the untouched lines are untouched', () => {
    const base = numbered(10);
    const now = text(base, '\r\n');
    const answer = fence('diff path=w.txt', '@@ -3,3 +3,4 @@\n line 3\n-line 4\n+line four\n+line 4b\n line 5\n');
    const plan = buildPlan(answer, workspace({ 'w.txt': now }, { 'w.txt': now }));
    const f = file(plan, 'w.txt');
    assert.equal(f.eol, '\r\n');
    assert.equal(f.hunks[0].newText, 'line four\r\nline 4b\r\n');
    assert.equal(f.hunks[0].oldText, 'line 4\r\n');
    const out = applyHunks(now, f.hunks);
    assert.equal(out, text(['line 1', 'line 2', 'line 3', 'line four', 'line 4b', ...base.slice(4)], '\r\n'));
    assert.ok(!/[^\r]\n/.test(out), 'no lone LF');
    // The whole-file form of an LF answer against a CRLF file changes only the changed line.
    const whole = buildPlan(fence('txt path=w.txt', text(['line 1', 'LINE 2', ...base.slice(2)])), workspace({ 'w.txt': now }, { 'w.txt': now }));
    assert.deepEqual(file(whole, 'w.txt').hunks.map(h => [h.oldText, h.newText]), [['line 2\r\n', 'LINE 2\r\n']]);
  });

  it('tabs vs spaces: the proposal\'s bytes land as they are; a diff whose context has spaces where the file has tabs does not apply', () => {
    const now = 'function f() {\n    return 1;\n}\n';
    const plan = buildPlan(fence('js path=f.js', 'function f() {\n\treturn 2;\n}\n'), workspace({ 'f.js': now }, { 'f.js': now }));
    assert.equal(file(plan, 'f.js').hunks[0].newText, '\treturn 2;\n');
    const tabbed = 'function g() {\n\tconst a = 1;\n\treturn a;\n}\n';
    const diff = fence('diff path=g.js', '@@ -1,4 +1,4 @@\n function g() {\n     const a = 1;\n-    return a;\n+    return a + 1;\n }\n');
    const r = file(buildPlan(diff, workspace({ 'g.js': tabbed }, { 'g.js': tabbed })), 'g.js');
    assert.equal(r.kind, 'skip');
    assert.equal(r.reasonCode, 'doesNotApply');
    assert.equal(r.skippedHunks[0].reason, 'hunk 1 (@@ -1,4 +1,4 @@) does not apply: its lines are not in the file');
  });

  it('a whole-file rewrite against a file that kept changing: every change is a hunk, user edits elsewhere kept', () => {
    const base = numbered(12);
    const nowLines = ['// header the user added', ...base];
    const theirs = base.map((l, i) => (i % 4 === 0 ? l.toUpperCase() : l));
    const plan = buildPlan(fence('txt path=r.txt', text(theirs)), workspace({ 'r.txt': text(nowLines) }, { 'r.txt': text(base) }));
    const f = file(plan, 'r.txt');
    assert.deepEqual(f.hunks.map(h => h.currentRange.startLine), [1, 5, 9]);
    assert.equal(applied(text(nowLines), f), text(['// header the user added', ...theirs]));
  });

  it('no final newline: a whole file keeps the state; a diff marker changes it; an append keeps it', () => {
    const now = 'a\nb';
    const whole = file(buildPlan(fence('txt path=n.txt', 'a\nB\n'), workspace({ 'n.txt': now }, { 'n.txt': now })), 'n.txt');
    assert.equal(applyHunks(now, whole.hunks), 'a\nB');
    assert.deepEqual(whole.hunks[0].end, { line: 1, character: 1 }, 'a valid position: the end of the last line');
    const marked = fence('diff path=n.txt', '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
    assert.equal(applyHunks(now, file(buildPlan(marked, workspace({ 'n.txt': now }, { 'n.txt': now })), 'n.txt').hunks), 'a\nb\n');
    const append = fence('diff path=n.txt', '@@ -2 +2,2 @@\n b\n+c\n');
    assert.equal(applyHunks(now, file(buildPlan(append, workspace({ 'n.txt': now }, { 'n.txt': now })), 'n.txt').hunks), 'a\nb\nc');
    const dropLast = fence('diff path=n.txt', '@@ -1,2 +1 @@\n a\n-b\n');
    assert.equal(applyHunks(now, file(buildPlan(dropLast, workspace({ 'n.txt': now }, { 'n.txt': now })), 'n.txt').hunks), 'a');
  });

  it('each hunk\'s label says what it does, in lines (Refactor Preview\'s rows, issue 26)', () => {
    const lines = numbered(40, 'export const w');
    const next = [...lines];
    next.splice(33, 2, 'export const w34 = 0;', 'export const w35 = 0;'); // lines 34–35 changed
    next.splice(28, 0, '// a', '// b'); // two lines before line 29
    next.splice(9, 1, '// x', '// y', '// z'); // line 10 becomes three
    next.splice(2, 3); // lines 3–5 go
    next.push('// the end');
    const plan = buildPlan(fence('ts path=w.ts', text(next)), workspace({ 'w.ts': text(lines) }, { 'w.ts': text(lines) }));
    assert.deepEqual(file(plan, 'w.ts').hunks.map(h => h.label), [
      'Hunk 1 of 5 · lines 3–5 · removes 3 lines',
      'Hunk 2 of 5 · line 10 · replaces 1 line with 3',
      'Hunk 3 of 5 · before line 29 · inserts 2 lines',
      'Hunk 4 of 5 · lines 34–35 · changes 2 lines',
      'Hunk 5 of 5 · at the end · inserts 1 line',
    ]);
  });

  it('empty files: filling an empty file, creating a new one, and refusing an empty block over a non-empty file', () => {
    const fill = buildPlan(fence('txt path=e.txt', 'hello'), workspace({ 'e.txt': '' }, { 'e.txt': '' }));
    assert.equal(applyHunks('', file(fill, 'e.txt').hunks), 'hello\n');
    const created = buildPlan(fence('ts path=src/new.ts', 'export {};'), workspace({}));
    const c = file(created, 'src/new.ts');
    assert.equal(c.kind, 'create');
    assert.equal(c.hunks[0].newText, 'export {};\n');
    assert.equal(c.hunks[0].label, 'Hunk 1 of 1 · new file · 1 line');
    const crlfNew = buildPlan(fence('ts path=n.ts', 'a\nb'), workspace({}), { newFileEol: '\r\n' });
    assert.equal(file(crlfNew, 'n.ts').hunks[0].newText, 'a\r\nb\r\n');
    const emptied = buildPlan(fence('ts path=x.ts', ''), workspace({ 'x.ts': 'code\n' }));
    assert.equal(file(emptied, 'x.ts').reasonCode, 'emptyBlock');
  });

  it('a file moved, deleted or closed since sending: sent but missing now is skipped, never re-created', () => {
    const gone = buildPlan(fence('ts path=a.ts', 'x'), workspace({}, { 'a.ts': 'old\n' }));
    assert.equal(file(gone, 'a.ts').reasonCode, 'gone');
    assert.equal(file(gone, 'a.ts').reason, 'not applied: the file was moved or deleted since the task was sent');
    const goneDiff = buildPlan(fence('diff path=a.ts', '@@ -1 +1 @@\n-old\n+new\n'), workspace({}, { 'a.ts': 'old\n' }));
    assert.equal(file(goneDiff, 'a.ts').reasonCode, 'gone');
    const missing = buildPlan(fence('diff path=b.ts', '@@ -1 +1 @@\n-old\n+new\n'), workspace({}));
    assert.equal(file(missing, 'b.ts').reasonCode, 'missing');
    // Closed since sending: the integration reads it from disk; same text, the plan does not care.
    const closed = buildPlan(fence('diff path=c.ts', '@@ -1 +1 @@\n-old\n+new\n'), workspace({ 'c.ts': 'old\n' }, { 'c.ts': 'old\n' }));
    assert.equal(file(closed, 'c.ts').hunks.length, 1);
  });

  it('a file that was not sent (or over the recorded bound) merges two-way against the file now', () => {
    const now = text(numbered(10));
    const plan = buildPlan(fence('diff path=t.txt', '@@ -4,3 +4,3 @@\n line 4\n-line 5\n+line five\n line 6\n'), workspace({ 't.txt': now }));
    const f = file(plan, 't.txt');
    assert.equal(f.twoWay, true);
    assert.deepEqual(f.hunks.map(h => [h.currentRange.startLine, h.conflict, h.byContext]), [[4, false, false]]);
  });

  it('a diff with wrong context is listed hunk by hunk; the hunks that fit are still offered', () => {
    const now = text(numbered(40));
    const answer = fence('diff path=w.txt', '@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n@@ -20,3 +20,3 @@\n line 20\n-no such line\n+x\n line 22\n');
    const f = file(buildPlan(answer, workspace({ 'w.txt': now }, { 'w.txt': now })), 'w.txt');
    assert.equal(f.kind, 'modify');
    assert.equal(f.hunks.length, 1);
    assert.deepEqual(f.skippedHunks.map(s => [s.hunk, s.code]), [[2, 'doesNotApply']]);
  });

  it('line numbers off by 30 still place a hunk by its exact context', () => {
    const now = text(numbered(100));
    const answer = fence('diff path=o.txt', '@@ -10,3 +10,3 @@\n line 40\n-line 41\n+line forty-one\n line 42\n');
    const f = file(buildPlan(answer, workspace({ 'o.txt': now }, { 'o.txt': now })), 'o.txt');
    assert.deepEqual(f.hunks.map(h => [h.currentRange.startLine, h.byContext]), [[40, false]]);
  });

  it('a hunk that no longer fits the sent text but fits the file now by context lands there, flagged', () => {
    // The agent's diff was made against a version with an edit the recorded text does not have.
    const sent = text(numbered(30));
    const nowLines = numbered(30);
    nowLines[14] = 'line 15 (user)';
    const answer = fence('diff path=c.txt', '@@ -14,3 +14,3 @@\n line 14\n-line 15 (user)\n+line 15 (agent)\n line 16\n');
    const f = file(buildPlan(answer, workspace({ 'c.txt': text(nowLines) }, { 'c.txt': sent })), 'c.txt');
    assert.deepEqual(f.hunks.map(h => [h.currentRange.startLine, h.byContext, h.label]), [[14, true, 'Hunk 1 of 1 · line 15 · changes 1 line · placed by its context']]);
  });

  it('fuzz: a context line the user changed is left out (within 2 lines), in the file now', () => {
    const nowLines = numbered(30);
    nowLines[9] = 'line 10 changed';
    const answer = fence('diff path=f.txt', '@@ -10,4 +10,4 @@\n line 10\n line 11\n-line 12\n+line twelve\n line 13\n');
    const f = file(buildPlan(answer, workspace({ 'f.txt': text(nowLines) })), 'f.txt');
    assert.deepEqual(f.hunks.map(h => [h.currentRange.startLine, h.byContext]), [[11, true]]);
    const strict = file(buildPlan(answer, workspace({ 'f.txt': text(nowLines) }), { fuzz: 0 }), 'f.txt');
    assert.equal(strict.reasonCode, 'doesNotApply');
  });

  it('deletions are listed, never applied; the other files of the answer still are', () => {
    const answer = fence('diff', '--- a/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n') + fence('ts path=keep.ts', 'y');
    const plan = buildPlan(answer, workspace({ 'old.ts': 'x\n', 'keep.ts': 'x\n' }));
    assert.deepEqual(plan.files.map(f => [f.path, f.kind, f.reasonCode ?? '']), [
      ['old.ts', 'skip', 'deletion'],
      ['keep.ts', 'modify', ''],
    ]);
  });

  it('several blocks for one file: the later whole file wins; diffs in a row are combined; overlapping diffs → the later hunk', () => {
    const now = text(numbered(20));
    // (Whole files: a block much shorter than the file would be a fragment of it, landed by its lines.)
    const version = (word: string) => text(numbered(20).map((l, i) => (i === 9 ? `${l} ${word}` : l)));
    const twice = fence('txt path=a.txt', version('first')) + fence('txt path=a.txt', version('second'));
    const p1 = buildPlan(twice, workspace({ 'a.txt': now }, { 'a.txt': now }));
    assert.deepEqual(p1.files.map(f => [f.kind, f.reasonCode ?? '', f.blocks[0]]), [
      ['skip', 'superseded', 0],
      ['modify', '', 1],
    ]);
    assert.deepEqual(p1.files[1].hunks.map(h => h.newText), ['line 10 second\n']);
    const d1 = fence('diff path=a.txt', '@@ -2 +2 @@\n-line 2\n+two\n');
    const d2 = fence('diff path=a.txt', '@@ -15 +15 @@\n-line 15\n+fifteen\n');
    const combined = file(buildPlan(d1 + d2, workspace({ 'a.txt': now }, { 'a.txt': now })), 'a.txt');
    assert.deepEqual(combined.blocks, [0, 1]);
    assert.deepEqual(combined.hunks.map(h => h.newText), ['two\n', 'fifteen\n']);
    const d3 = fence('diff path=a.txt', '@@ -2 +2 @@\n-line 2\n+TWO (corrected)\n');
    const corrected = file(buildPlan(d1 + d2 + d3, workspace({ 'a.txt': now }, { 'a.txt': now })), 'a.txt');
    assert.deepEqual(corrected.hunks.map(h => h.newText), ['TWO (corrected)\n', 'fifteen\n']);
    assert.deepEqual(corrected.skippedHunks.map(s => [s.block, s.code]), [[0, 'superseded']]);
  });

  it('a whole-file block that leaves code out ("// ... existing code ...") is not a whole file: its shown parts land by context, or it is listed', () => {
    const now = text(numbered(50));
    const plan = buildPlan(fence('ts path=e.ts', 'line 1 changed\nline 2\n// ... existing code ...\nline 49\nline 50 changed\n'), workspace({ 'e.ts': now }, { 'e.ts': now }));
    const f = file(plan, 'e.ts');
    assert.equal(f.kind, 'modify');
    const landed = numbered(50);
    landed[0] = 'line 1 changed';
    landed[49] = 'line 50 changed';
    assert.equal(applyHunks(now, f.hunks), text(landed), 'the 46 lines left out stay');
    // Shown parts that are nowhere in the file: nothing lands, the reason says why.
    const lost = file(buildPlan(fence('ts path=e.ts', 'alpha beta\n// ... existing code ...\ngamma delta\n'), workspace({ 'e.ts': now }, { 'e.ts': now })), 'e.ts');
    assert.equal(lost.reasonCode, 'partial');
    assert.equal(lost.reason, 'not applied: the block shows only parts of the file ("// ... existing code ...") and they could not be placed by their unchanged lines');
    // For a file that does not exist, a block with left-out parts is not created.
    const created = file(buildPlan(fence('ts path=new.ts', 'a\n// ... existing code ...\nb\n'), workspace({})), 'new.ts');
    assert.equal(created.reasonCode, 'elided');
    assert.equal(created.reason, 'not applied: the block leaves parts of the file out ("// ... existing code ..."), so it is not a whole file');
    // The same comment already in the file is just a comment.
    const withIt = text(['// ... existing code ...', ...numbered(3)]);
    assert.equal(file(buildPlan(fence('ts path=e.ts', text(['// ... existing code ...', 'line 1', 'line 2 changed', 'line 3'])), workspace({ 'e.ts': withIt })), 'e.ts').kind, 'modify');
    assert.equal(file(buildPlan(fence('py path=p.py', 'def f():\n    ...\n'), workspace({ 'p.py': 'def f():\n    pass\n' })), 'p.py').kind, 'modify', "Python's ... is code");
  });

  it('the range proposal: one unnamed block replaces the sent range, shifted past the user\'s edits above', () => {
    const base = numbered(20);
    const nowLines = ['// a new first line', ...base];
    const answer = `Try this:\n\n${fence('ts', 'line 6 better\nline 7 better\n')}`;
    const range = { startLine: 5, startCharacter: 0, endLine: 7, endCharacter: 0 };
    const plan = buildPlan(answer, workspace({ 'src/s.ts': text(nowLines) }, { 'src/s.ts': text(base) }), { source: { path: 'src/s.ts', range } });
    const f = file(plan, 'src/s.ts', 'range');
    assert.deepEqual(f.hunks.map(h => [h.currentRange, h.newText, h.shifted]), [[{ startLine: 6, endLine: 8 }, 'line 6 better\nline 7 better\n', true]]);
    // A selection inside a line: the block keeps the range's own (absent) final line break.
    const partial = buildPlan(fence('ts', 'X\n'), workspace({ 'src/s.ts': text(base) }, { 'src/s.ts': text(base) }), {
      source: { path: 'src/s.ts', range: { startLine: 2, startCharacter: 5, endLine: 2, endCharacter: 6 } },
    });
    assert.equal(applyHunks(text(base), file(partial, 'src/s.ts').hunks).split('\n')[2], 'line X');
    // No text recorded: the tracked range now is used; without it the proposal is listed.
    const tracked = buildPlan(answer, workspace({ 'src/s.ts': text(nowLines) }), { source: { path: 'src/s.ts', range, currentRange: { ...range, startLine: 6, endLine: 8 } } });
    assert.deepEqual(file(tracked, 'src/s.ts').hunks.map(h => h.currentRange), [{ startLine: 6, endLine: 8 }]);
    const lost = buildPlan(answer, workspace({ 'src/s.ts': text(nowLines) }), { source: { path: 'src/s.ts', range } });
    assert.equal(file(lost, 'src/s.ts').reasonCode, 'noRange');
  });

  it('a "whole file" for the source that drops everything outside the sent range is the range\'s new code', () => {
    const base = numbered(40);
    const now = text(base);
    const range = { startLine: 9, startCharacter: 0, endLine: 15, endCharacter: 0 };
    const snippet = text(['line 10', 'line 11 better', ...base.slice(11, 15)]);
    const plan = buildPlan(fence('ts path=./src/s.ts', snippet), workspace({ 'src/s.ts': now }, { 'src/s.ts': now }), { source: { path: 'src/s.ts', range } });
    const f = file(plan, 'src/s.ts');
    assert.equal(f.from, 'range');
    assert.deepEqual(f.hunks.map(h => [h.currentRange, h.newText]), [[{ startLine: 10, endLine: 11 }, 'line 11 better\n']]);
    // A real whole file (it keeps the lines outside the range) stays a whole file.
    const whole = text([...base.slice(0, 10), 'line 11 better', ...base.slice(11)]);
    const g = file(buildPlan(fence('ts path=src/s.ts', whole), workspace({ 'src/s.ts': now }, { 'src/s.ts': now }), { source: { path: 'src/s.ts', range } }), 'src/s.ts');
    assert.equal(g.from, 'whole');
    assert.equal(g.hunks.length, 1);
  });

  it('a new-file diff creates; for a file that exists it is refused unless the file already matches', () => {
    const answer = fence('diff', '--- /dev/null\n+++ b/src/n.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n');
    assert.equal(applyHunks('', file(buildPlan(answer, workspace({})), 'src/n.ts').hunks), 'a\nb\n');
    assert.equal(file(buildPlan(answer, workspace({ 'src/n.ts': 'other\n' })), 'src/n.ts').reasonCode, 'exists');
    assert.equal(file(buildPlan(answer, workspace({ 'src/n.ts': 'a\nb\n' })), 'src/n.ts').reasonCode, 'unchanged');
  });

  it('what the integration refuses (a symlink out, too large, binary) is listed with its reason; nothing else is read', () => {
    const ws = workspace({ 'link/x.ts': { kind: 'refused', reason: 'x', outside: true }, 'big.bin': { kind: 'refused', reason: 'the file is too large to merge' } });
    const plan = buildPlan(fence('ts path=link/x.ts', 'a') + fence('ts path=big.bin', 'b') + fence('ts path=../../etc/x', 'c'), ws);
    assert.deepEqual(plan.files.map(f => [f.reasonCode, f.reason]), [
      ['outside', 'not applied: the path leads outside the workspace'],
      ['refused', 'not applied: the file is too large to merge'],
      ['outside', 'not applied: the path leads outside the workspace'],
    ]);
    assert.deepEqual(ws.asked, ['link/x.ts', 'big.bin'], 'a lexically bad path never reaches the file system');
  });

  it('labels go through the translator; sensitive folders are flagged; a limit on hunks skips whole files', () => {
    const calls: string[] = [];
    const t = (m: string, ...args: (string | number)[]) => {
      calls.push(m);
      return `«${m}»${args.join(',')}`;
    };
    const plan = buildPlan(fence('json path=.vscode/settings.json', '{"a": 2}'), workspace({ '.vscode/settings.json': '{"a": 1}\n' }), { translate: t });
    const f = file(plan, '.vscode/settings.json');
    assert.equal(f.sensitive, true);
    assert.ok(calls.includes('Hunk {0} of {1} · {2}') && calls.includes('line {0}'), calls.join(' | '));
    const many = buildPlan(fence('txt path=a.txt', 'x') + fence('txt path=b.txt', 'y'), workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' }), { maxHunks: 1 });
    assert.deepEqual(many.files.map(x => [x.kind, x.reasonCode ?? '']), [
      ['modify', ''],
      ['skip', 'tooMany'],
    ]);
  });

  it('on a case-insensitive file system, paths differing in case are one file: the later block wins', () => {
    const answer = fence('ts path=src/A.ts', 'first') + fence('ts path=src/a.ts', 'second');
    const ws = () => workspace({ 'src/A.ts': 'old\n', 'src/a.ts': 'old\n' });
    const apart = buildPlan(answer, ws());
    assert.deepEqual(apart.files.map(f => [f.path, f.kind]), [
      ['src/A.ts', 'modify'],
      ['src/a.ts', 'modify'],
    ]);
    const together = buildPlan(answer, ws(), { caseInsensitivePaths: true });
    assert.deepEqual(together.files.map(f => [f.kind, f.reasonCode ?? '', f.from]), [
      ['skip', 'superseded', 'whole'],
      ['modify', '', 'whole'],
    ]);
  });

  it('a parsed answer can be passed instead of its text (the integration parses once)', () => {
    const answer = emulatorAnswer(source, util);
    const parsed = parseAnswer(answer, { sourcePath: 'src/sample.ts' });
    const now = { 'src/sample.ts': text(source), 'src/util.ts': text(util) };
    assert.deepEqual(buildPlan(parsed, workspace(now, now)), buildPlan(answer, workspace(now, now), { source: { path: 'src/sample.ts' } }));
  });
});
