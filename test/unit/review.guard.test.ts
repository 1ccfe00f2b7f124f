/**
 * Issue 34: the lost-line guard as a property. Random answers of every form (unified diffs with and without line
 * numbers, search/replace edit blocks, whole files, range blocks, partial files) over random files never yield a
 * plan that removes a line the answer does not show removed, nor one that writes edit syntax the file lacks; and
 * the reader never throws on fuzzed answers. The oracle is the answer's own text, read here, not the planner's.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { type ReviewFiles, applyHunks, buildPlan } from '../../src/review/plan';
import { readAnswer } from '../../src/review/reader';

let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const int = (n: number) => Math.floor(rnd() * n);

/** File lines: repeats on purpose (braces, returns), so places are ambiguous now and then. */
const CODE = ['}', '', 'return null;', 'return x;', '  let total = 0;', 'for (const x of xs) total += x;', 'export function mean(xs) {', 'export function add(a, b) {', '  return a + b;', 'if (!xs.length) return 0;', 'const id = 1;', 'def read(path):', '    return f.read()', '# heading', 'x++;'];
/** Words no file holds: a block of them is unrelated to every file. */
const ALIEN = ['zebra();', 'quux = 9', 'print("lorem")', 'SELECT 1;', '<div>ipsum</div>', 'yield* gen', 'fmt.Println("x")'];

const fence = (info: string, body: string[]) => ['```' + info, ...body, '```'].join('\n');
const text = (lines: readonly string[]) => (lines.length ? `${lines.join('\n')}\n` : '');

interface Made {
  block: string;
  /** Lines the answer shows removed (trimmed): `-` lines, SEARCH text. */
  shown: string[];
  /** The block is a whole-file or range block that keeps most of what it replaces. */
  related: boolean;
}

function diffBlock(path: string, file: string[]): Made {
  const at = int(file.length + 1);
  const old = file.slice(at, at + 1 + int(3));
  const removed = rnd() < 0.3 ? [pick(CODE)] : old.slice(0, int(old.length + 1));
  const lines = [
    ...(rnd() < 0.5 ? [`@@ -${at + 1},${old.length} +${at + 1},${old.length} @@`] : ['@@']),
    ...old.slice(0, 1).map(l => ` ${l}`),
    ...removed.map(l => `-${l}`),
    ...(rnd() < 0.7 ? [`+${pick(ALIEN)}`] : []),
    ...old.slice(removed.length + 1, removed.length + 2).map(l => ` ${l}`),
  ];
  return { block: fence(`diff path=${path}`, lines), shown: removed.map(l => l.trim()), related: false };
}

function editBlock(path: string, file: string[]): Made {
  const at = int(file.length + 1);
  const search = rnd() < 0.2 ? [pick(ALIEN)] : file.slice(at, at + 1 + int(3));
  const marks = pick([
    ['<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE'],
    ['------- SEARCH', '=======', '+++++++ REPLACE'],
  ]);
  const replace = rnd() < 0.5 ? [pick(ALIEN)] : search.map(l => l.replace('return', 'yield'));
  const body = [marks[0], ...(rnd() < 0.2 ? [`:start_line:${at + 1}`, '-------'] : []), ...search, marks[1], ...replace, marks[2]];
  return { block: `${path}\n${fence('', body)}`, shown: search.map(l => l.trim()), related: false };
}

function wholeBlock(path: string, file: string[]): Made {
  if (rnd() < 0.5) {
    const next = file.slice();
    if (next.length) next[int(next.length)] = pick(ALIEN);
    return { block: fence(`ts ${path}`, next), shown: [], related: true };
  }
  return { block: fence(`ts ${path}`, Array.from({ length: 1 + int(6) }, () => pick(ALIEN))), shown: [], related: false };
}

function partialBlock(path: string, file: string[]): Made {
  const at = int(file.length + 1);
  const region = file.slice(at, at + 2 + int(4));
  const shownPart = region.map(l => (rnd() < 0.3 ? pick(ALIEN) : l));
  // A part between markers stands for the file's lines it spans: those, and only those, it may change.
  return { block: fence(`ts ${path}`, ['// ... existing code ...', ...shownPart, '// ... existing code ...']), shown: region.map(l => l.trim()), related: false };
}

function workspace(now: Record<string, string>): ReviewFiles {
  return { current: p => (now[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: now[p] }), sent: p => now[p] };
}

/** The lines a hunk loses: old lines less those written again (multiset), trimmed, non-blank. */
function lost(oldText: string, newText: string): string[] {
  const again = new Map<string, number>();
  for (const l of newText.split(/\r?\n/)) again.set(l.trim(), (again.get(l.trim()) ?? 0) + 1);
  const out: string[] = [];
  for (const l of oldText.split(/\r?\n/)) {
    const t = l.trim();
    if (!t) continue;
    const n = again.get(t) ?? 0;
    if (n) again.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

const MARKERS = /^(?:<{7}(?:\s|$)|={7}\s*$|>{7}(?:\s|$)|\s*(?:<{5,9}|-{5,9})\s*SEARCH\s*$|\s*(?:>{5,9}|\+{5,9})\s*REPLACE\s*$|@@ -\d)/;

describe('review: the lost-line guard (issue 34, property)', () => {
  it('random answers of every form over random files never remove a line the answer does not show removed', () => {
    let offered = 0;
    let held = 0;
    for (let round = 0; round < 600; round++) {
      const files: Record<string, string[]> = {
        'src/a.ts': Array.from({ length: 4 + int(20) }, () => pick(CODE)),
        'src/b.ts': Array.from({ length: 4 + int(20) }, () => pick(CODE)),
      };
      const made: (Made & { path: string })[] = [];
      for (let k = 1 + int(3); k > 0; k--) {
        const path = pick(Object.keys(files));
        const make = pick([diffBlock, editBlock, wholeBlock, partialBlock]);
        made.push({ ...make(path, files[path]), path });
      }
      // An unnamed block for a sent range of src/a.ts: related (the range, one line changed) or not.
      const a = files['src/a.ts'];
      const start = int(a.length);
      const end = Math.min(a.length, start + 1 + int(4));
      const rangeRelated = rnd() < 0.5;
      const rangeLines = rangeRelated ? a.slice(start, end).map((l, i) => (i === 0 ? `${l} // changed` : l)) : [pick(ALIEN), pick(ALIEN)];
      const answer = [...made.map(m => m.block), 'And for the selection:', fence('ts', rangeLines)].join('\n\n');
      const now = Object.fromEntries(Object.entries(files).map(([p, l]) => [p, text(l)]));
      const source = { path: 'src/a.ts', range: { startLine: start, startCharacter: 0, endLine: end, endCharacter: 0 } };
      const plan = buildPlan(parseAnswer(answer, { sourcePath: 'src/a.ts' }), workspace(now), { source });
      for (const f of plan.files) {
        if (f.kind !== 'modify') continue;
        const allowed = new Set(made.filter(m => m.path === f.path).flatMap(m => m.shown));
        // A whole file may replace what it keeps most of, and a named file of one line (its naming targets it).
        const oneLine = files[f.path].filter(l => l.trim()).length <= 1;
        if (made.some(m => m.path === f.path && (m.related || (oneLine && m.block.startsWith('```ts '))))) for (const l of files[f.path]) allowed.add(l.trim());
        if (f.path === 'src/a.ts' && rangeRelated) for (const l of a.slice(start, end)) allowed.add(l.trim());
        for (const h of f.hunks) {
          if (h.conflict) continue;
          offered++;
          for (const l of lost(h.oldText, h.newText)) assert.ok(allowed.has(l), `round ${round}: ${JSON.stringify(files[f.path])} ${f.path} hunk ${h.index} removes "${l}", which the answer does not show removed\n${answer}`);
          for (const l of h.newText.split(/\r?\n/)) assert.ok(!MARKERS.test(l), `round ${round}: ${f.path} hunk ${h.index} writes edit syntax "${l}"`);
        }
        held += f.skippedHunks.length;
        // Offered hunks apply cleanly: they never overlap.
        assert.equal(typeof applyHunks(now[f.path], f.hunks), 'string');
      }
    }
    // The generator makes both kinds: the property is not vacuous.
    assert.ok(offered > 200, `${offered} hunks offered`);
    assert.ok(held > 50, `${held} hunks held back`);
  });

  it('the reader and the planner never throw on fuzzed answers, and stay linear', () => {
    const pieces = ['```', '````', '~~~', '```ts src/a.ts', '```diff', '```md', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '------- SEARCH', '+++++++ REPLACE', ':start_line:3', '-------', '@@', '@@ -1,2 +1,2 @@', '--- a/src/a.ts', '+++ b/src/a.ts', '-x', '+y', ' z', '*** Begin Patch', '*** Update File: src/a.ts', '*** End Patch', '// ... existing code ...', '15 | x', '3: y', '**src/b.ts**', 'src/a.ts', '\u202e', '\r', '', '}', 'export function f() {', 'def g():', '# h', '\t', ' '.repeat(5), 'ÿ'.repeat(3)];
    const now = { 'src/a.ts': 'export function f() {\n  return 1;\n}\n', 'src/b.ts': 'x\ny\n' };
    for (let round = 0; round < 1500; round++) {
      const answer = Array.from({ length: int(40) }, () => (rnd() < 0.1 ? String.fromCharCode(int(0x3000)) : pick(pieces))).join(rnd() < 0.9 ? '\n' : '\r\n');
      const read = readAnswer(answer, { sourcePath: 'src/a.ts', folders: ['app'] });
      assert.ok(read.blocks.length <= read.lineCount);
      const source = { path: 'src/a.ts', range: { startLine: 0, startCharacter: 0, endLine: 3, endCharacter: 0 } };
      buildPlan(parseAnswer(answer, { sourcePath: 'src/a.ts' }), workspace(now), { source });
    }
  });
});
