/**
 * Issue 16's speed target: parse + merge + build the review plan for an answer of 50 files × 20 hunks
 * against 10,000-line files, in under 200 ms. Plain Node (no code-server): the core is pure.
 * Half the files come as unified diffs, half as whole files; every file was edited by the user since it was
 * sent (20 lines typed at the top, one line changed inside one hunk), so every hunk is shifted and one per
 * file is a conflict: the merge does its full work. Prints a JSON line and markdown rows.
 * Issue 25's hostile answers (each planned as Review Changes plans it, on the planner's thread, with the
 * host's longest event-loop stall measured around the call): 20,000 insertions at one place, 1,000,000 hunk
 * headers (15 MB), 20 hunks at line 999,999,999, a 100,000-line file changed on every line. Target: each
 * under 1 s, no stall over 50 ms.
 * Issue 35's bounded reads: an answer of about 108 KB naming 100 existing 7 MB files, read as Review Changes
 * reads them (stat, the review's read budget, an asynchronous read, a UTF-8 decode), handed to the planner in
 * slices: the host's longest stall (< 50 ms) and the peak memory growth.
 * `node out/test/bench/review.js [runs]`
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseAnswer } from '../../src/review/answer';
import { readAnswer } from '../../src/review/reader';
import { REVIEW_READ_BYTES, type ReadBudget, planOffThread, workerScript } from '../../src/review/offThread';
import { type FileState, type ReviewFiles, buildPlan } from '../../src/review/plan';
import { HOST_READ_CHARS } from '../../src/constants';
import { answerShapeOf } from '../../src/tasks/offers';
import { renderMarkdown } from '../../src/views/pages/markdown';

const FILES = 50;
const HUNKS = 20;
const LINES = 10_000;
const RUNS = Number(process.argv[2] || 15);

/** Code-like lines: mostly unique, with the repeated braces and blank lines real files have. */
function sourceFile(f: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < LINES; i++) {
    out.push(`export function f${f}_${i}(value: number): number {`, `  const scaled = value * ${i % 97} + ${f};`, '  return scaled;', '}', '');
  }
  return out.slice(0, LINES);
}

const HUNK_STRIDE = LINES / HUNKS;

function build() {
  const sent: Record<string, string> = {};
  const now: Record<string, string> = {};
  const blocks: string[] = ['# Synthesized answer', '', 'The agents changed these files:', ''];
  for (let f = 0; f < FILES; f++) {
    const path = `src/module${f}.ts`;
    const base = sourceFile(f);
    sent[path] = `${base.join('\n')}\n`;
    // The user typed 20 lines at the top and changed one line inside the 11th hunk's lines.
    const ours = [...Array.from({ length: 20 }, (_, i) => `// note ${i} typed while the agents worked`), ...base];
    ours[20 + 10 * HUNK_STRIDE + 6] = '  const scaled = value; // edited by the user';
    now[path] = `${ours.join('\n')}\n`;
    if (f % 2 === 0) {
      const diff: string[] = [`--- a/${path}`, `+++ b/${path}`];
      for (let h = 0; h < HUNKS; h++) {
        const at = h * HUNK_STRIDE + 6; // 0-based line of the changed line
        diff.push(`@@ -${at - 2},7 +${at - 2 + h},8 @@`);
        for (let k = at - 3; k < at; k++) diff.push(` ${base[k]}`);
        diff.push(`-${base[at]}`, `+${base[at].replace('scaled', 'result')} // by the agents`, `+  // checked`);
        for (let k = at + 1; k < at + 4; k++) diff.push(` ${base[k]}`);
      }
      blocks.push('```diff path=' + path, ...diff, '```', '');
    } else {
      const theirs = base.slice();
      for (let h = 0; h < HUNKS; h++) theirs[h * HUNK_STRIDE + 6] = `${base[h * HUNK_STRIDE + 6]} // by the agents`;
      blocks.push('```ts path=' + path, ...theirs, '```', '');
    }
  }
  blocks.push('Usage:', '', '```ts', 'run();', '```', '');
  const files: ReviewFiles = {
    current: p => (now[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: now[p] }),
    sent: p => sent[p],
  };
  return { answer: blocks.join('\n'), files };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main() {
  const { answer, files } = build();
  const parseMs: number[] = [];
  const planMs: number[] = [];
  const totalMs: number[] = [];
  let hunks = 0;
  let conflicts = 0;
  for (let run = 0; run < RUNS + 3; run++) {
    const t0 = performance.now();
    const parsed = parseAnswer(answer);
    const t1 = performance.now();
    const plan = buildPlan(parsed, files);
    const t2 = performance.now();
    hunks = plan.hunkCount;
    conflicts = plan.conflictCount;
    if (run < 3) continue; // warm-up: the JIT
    parseMs.push(t1 - t0);
    planMs.push(t2 - t1);
    totalMs.push(t2 - t0);
  }
  const expected = FILES * HUNKS;
  if (hunks !== expected || conflicts !== FILES) throw new Error(`the plan is wrong: ${hunks} hunks (want ${expected}), ${conflicts} conflicts (want ${FILES})`);
  const result = {
    files: FILES,
    hunksPerFile: HUNKS,
    linesPerFile: LINES,
    answerMB: Buffer.byteLength(answer) / 1024 / 1024,
    runs: RUNS,
    parseMedianMs: median(parseMs),
    planMedianMs: median(planMs),
    totalMedianMs: median(totalMs),
    totalMaxMs: Math.max(...totalMs),
    hunks,
    conflicts,
  };
  console.log(`bench-review: ${JSON.stringify(result)}`);
  const met = result.totalMedianMs < 200 ? 'yes' : 'NO';
  console.log(
    `| review plan: parse + merge + plan, ${FILES} files × ${HUNKS} hunks, ${LINES.toLocaleString('en')}-line files (${result.answerMB.toFixed(1)} MB answer), median of ${RUNS} | ${result.totalMedianMs.toFixed(1)} ms (parse ${result.parseMedianMs.toFixed(1)}, merge + plan ${result.planMedianMs.toFixed(1)}; max ${result.totalMaxMs.toFixed(1)}) | < 200 ms | ${met} |`,
  );
}

/**
 * An answer as models write them, `mb` megabytes of it: prose, naming lines, whole files named four ways,
 * partial files, diffs, patches, output blocks, long lines.
 */
function mixedAnswer(mb: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const body = Array.from({ length: 40 }, (_, k) => `  const v${k} = compute(${i}, ${k}); // line ${k} of block ${i}`);
    const piece = [
      `The change for module ${i} keeps the API; it only guards the empty case, as discussed above.`,
      '',
      `**src/m${i}/a.ts**`,
      '',
      '```ts',
      ...body,
      '```',
      '',
      `\`\`\`ts src/m${i}/b.ts`,
      '// ... existing code ...',
      ...body.slice(0, 10),
      '```',
      '',
      '```diff',
      `--- a/src/m${i}/c.ts`,
      `+++ b/src/m${i}/c.ts`,
      '@@ -1,3 +1,3 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '```',
      '```',
      '*** Begin Patch',
      `*** Update File: src/m${i}/d.ts`,
      '@@',
      '-x',
      '+y',
      '*** End Patch',
      '```',
      '```console',
      '$ npm test',
      `ok ${'.'.repeat(200)}`,
      '```',
      '',
    ].join('\n');
    parts.push(piece);
    size += piece.length + 1;
  }
  return parts.join('\n');
}

function readerRows() {
  const rows: { mb: number; ms: number; blocks: number }[] = [];
  for (const mb of [1, 10]) {
    const answer = mixedAnswer(mb);
    const times: number[] = [];
    let blocks = 0;
    for (let run = 0; run < (mb > 1 ? 5 : 10) + 2; run++) {
      const t0 = performance.now();
      blocks = readAnswer(answer).blocks.length;
      const t1 = performance.now();
      if (run >= 2) times.push(t1 - t0);
    }
    rows.push({ mb, ms: median(times), blocks });
  }
  console.log(`bench-reader: ${JSON.stringify(rows)}`);
  const [one, ten] = rows;
  const ratio = ten.ms / one.ms;
  for (const r of rows) {
    console.log(`| review reader: readAnswer on a ${r.mb} MB answer of every kind and naming (${r.blocks.toLocaleString('en')} blocks), median | ${r.ms.toFixed(1)} ms | linear | ${r === ten ? `${ratio.toFixed(1)}× the 1 MB time for 10× the text` : '—'} |`);
  }
}

const numbered = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

/**
 * What the host reads of an answer unasked, on its own thread, as a task ends: its blocks counted (the
 * store's answerShapeOf in tasks/offers.ts, over the first HOST_READ_CHARS) and the result view's page rendered (cut at the same
 * size). A 3 MB answer of 20,000 small named blocks, the costliest shape per character for the reader.
 */
function hostRows(): void {
  const piece = 'Some prose with `code` and **bold** text.\n\n```ts src/a.ts\nexport const f = (x: number) => x + 1;\n```\n\n';
  const answer = piece.repeat(Math.ceil((3 * 1024 * 1024) / piece.length));
  const blocks = answer.split('```ts').length - 1;
  const times: number[] = [];
  for (let run = 0; run < 7; run++) {
    const t0 = performance.now();
    answerShapeOf({}, answer);
    renderMarkdown(answer);
    const t1 = performance.now();
    if (run >= 2) times.push(t1 - t0);
  }
  const ms = median(times);
  const worst = Math.max(...times);
  console.log(`bench-host-read: ${JSON.stringify({ answerMB: answer.length / 1024 / 1024, blocks, medianMs: ms, maxMs: worst })}`);
  console.log(`| review, on the host: a 3 MB answer of ${blocks.toLocaleString('en')} small blocks, counted and rendered as its task ends (one step on the host, at most HOST_READ_CHARS), median of 5 | ${ms.toFixed(1)} ms (max ${worst.toFixed(1)}) | < 50 ms | ${worst < 50 ? 'yes' : 'NO'} |`);
}

interface Hostile {
  name: string;
  answer: string;
  now: Record<string, string>;
  sent: Record<string, string>;
  /** What a right plan looks like (the row fails loudly otherwise). */
  check(plan: import('../../src/review/plan').ReviewPlan): string | undefined;
}

function hostileCases(): Hostile[] {
  const small = `${numbered(10, i => `line ${i}`).join('\n')}\n`;
  const insertions = ['```diff path=a.txt', '--- a/a.txt', '+++ b/a.txt', ...numbered(20_000, i => `@@ -5,0 +6 @@\n+x${i}`), '```'].join('\n');
  const headers = ['```diff path=a.txt', ...numbered(1_000_000, i => `@@ -1,0 +1 @@\n+${i % 10}`), '```'].join('\n');
  const thousand = `${numbered(1000, i => `row ${i}`).join('\n')}\n`;
  const far = ['```diff path=b.txt', ...numbered(20, h => `@@ -999999999,3 +999999999,3 @@\n row ${h * 40}\n-row ${h * 40 + 1}\n+ROW ${h * 40 + 1}\n row ${h * 40 + 2}`), '```'].join('\n');
  const big = numbered(100_000, i => `const v${i} = ${i};`);
  const bigNow = big.slice();
  bigNow[50_000] = 'const edited = true; // by the user';
  const everyLine = ['```ts path=c.ts', ...big.map(l => `${l} // changed`), '```'].join('\n');
  return [
    {
      name: '20,000 one-line insertions at one place',
      answer: insertions,
      now: { 'a.txt': small },
      sent: { 'a.txt': small },
      check: p => (p.hunkCount === 1 && p.files[0].hunks[0].newText.split('\n').length === 20_001 ? undefined : `${p.hunkCount} hunks`),
    },
    {
      name: '1,000,000 hunk headers',
      answer: headers,
      now: { 'a.txt': small },
      sent: { 'a.txt': small },
      check: p => (p.tooComplex?.hunkHeaders === 1_000_000 ? undefined : 'not refused as too complex'),
    },
    {
      name: '20 hunks at line 999,999,999',
      answer: far,
      now: { 'b.txt': thousand },
      sent: { 'b.txt': thousand },
      check: p => (p.hunkCount === 20 ? undefined : `${p.hunkCount} hunks`),
    },
    {
      name: 'a 100,000-line file changed on every line (and by the user)',
      answer: everyLine,
      now: { 'c.ts': `${bigNow.join('\n')}\n` },
      sent: { 'c.ts': `${big.join('\n')}\n` },
      check: p => (p.hunkCount >= 1 && !p.tooComplex ? undefined : `${p.hunkCount} hunks, too complex: ${!!p.tooComplex}`),
    },
  ];
}

/** Plans one case as the extension does (off the host's thread) and measures the host's longest stall. */
async function planHostile(c: Hostile, script: string): Promise<{ ms: number; stallMs: number; plan: import('../../src/review/plan').ReviewPlan }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  histogram.enable();
  const t0 = performance.now();
  last = t0;
  const plan = await planOffThread(script, { answer: c.answer, caseless: false }, async () => ({
    states: new Map<string, FileState>(Object.entries(c.now).map(([p, text]) => [p, { kind: 'file', text }])),
    sent: new Map(Object.entries(c.sent)),
  }));
  const ms = performance.now() - t0;
  clearInterval(ticker);
  histogram.disable();
  // The ticker's gap is the stall as the host feels it; the histogram's max is in ns.
  return { ms, stallMs: Math.max(longest, histogram.max / 1e6), plan };
}

async function hostile(): Promise<void> {
  const script = workerScript(path.join(__dirname, '../../src/review'));
  for (const c of hostileCases()) {
    const runs: { ms: number; stallMs: number }[] = [];
    for (let run = 0; run < 3; run++) {
      const r = await planHostile(c, script);
      const wrong = c.check(r.plan);
      if (wrong) throw new Error(`${c.name}: the plan is wrong (${wrong})`);
      runs.push(r);
    }
    const ms = median(runs.map(r => r.ms));
    const stall = Math.max(...runs.map(r => r.stallMs));
    const mb = Buffer.byteLength(c.answer) / 1024 / 1024;
    console.log(`bench-review-hostile: ${JSON.stringify({ name: c.name, answerMB: mb, medianMs: ms, maxMs: Math.max(...runs.map(r => r.ms)), longestStallMs: stall })}`);
    const met = ms < 1000 && stall < 50 ? 'yes' : 'NO';
    console.log(`| review, hostile: ${c.name} (${mb < 1 ? `${Math.round(mb * 1024)} KB` : `${mb.toFixed(1)} MB`} answer), median of 3 | ${ms.toFixed(0)} ms, longest host stall ${stall.toFixed(1)} ms | < 1 s, stall < 50 ms | ${met} |`);
  }
}

main();
readerRows();
hostRows();
/** The workspace's per-file bound of a review (documents/reviewPlan.ts: MAX_MERGE_BYTES). */
const MAX_MERGE_BYTES = 8 * 1024 * 1024;

/** 100 named 7 MB files: one file on disk under 100 names (hard links), so the bench needs 7 MB of disk. */
async function namedFiles(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-bench-'));
  try {
    const line = (i: number) => `line ${i} ${'x'.repeat(60)}\n`;
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 7 * 1024 * 1024; i++) {
      lines.push(line(i));
      size += lines[lines.length - 1].length;
    }
    const first = path.join(dir, 'big0.txt');
    fs.writeFileSync(first, lines.join(''));
    const names = numbered(100, i => `big${i}.txt`);
    for (const name of names.slice(1)) fs.linkSync(first, path.join(dir, name));
    const blocks = names.map(name =>
      ['```diff', `--- a/${name}`, `+++ b/${name}`, '@@ -1,3 +1,3 @@', ` ${line(0).trimEnd()}`, `-${line(1).trimEnd()}`, `+${line(1).trimEnd()} // changed`, ` ${line(2).trimEnd()}`, '```', '', `Why ${name} changes: ${'the agents explain the change at some length. '.repeat(17)}`, ''].join('\n'),
    );
    const answer = ['# The change', '', ...blocks].join('\n');
    // What reviewPlan.ts does per named file: its size first, the budget, then an asynchronous read and a decode.
    const read = async (paths: string[], _targets: unknown, budget: ReadBudget) => {
      const states = new Map<string, FileState>();
      const overBudget: string[] = [];
      for (const p of paths) {
        const file = path.join(dir, p);
        const stat = await fs.promises.stat(file);
        if (stat.size > MAX_MERGE_BYTES) states.set(p, { kind: 'refused', reason: 'too large to merge' });
        else if (!budget.take(stat.size)) overBudget.push(p);
        else states.set(p, { kind: 'file', text: new TextDecoder('utf-8', { fatal: true }).decode(await fs.promises.readFile(file)) });
      }
      return { states, sent: new Map<string, string>(), overBudget };
    };
    const script = workerScript(path.join(__dirname, '../../src/review'));
    const runs: { ms: number; stallMs: number; peakMb: number }[] = [];
    let planned = 0;
    let tooLarge = 0;
    for (let run = 0; run < 3; run++) {
      (globalThis as { gc?: () => void }).gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      let last = performance.now();
      let longest = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 2);
      const histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      const t0 = performance.now();
      last = t0;
      const plan = await planOffThread(script, { answer, caseless: false }, read);
      const ms = performance.now() - t0;
      clearInterval(ticker);
      clearInterval(probe);
      histogram.disable();
      peak = Math.max(peak, process.memoryUsage().rss);
      runs.push({ ms, stallMs: Math.max(longest, histogram.max / 1e6), peakMb: (peak - base) / 1024 / 1024 });
      planned = plan.files.filter(f => f.hunks.length > 0).length;
      tooLarge = plan.files.filter(f => f.hunks.length === 0 && /too large to review here/.test(f.reason ?? '')).length;
    }
    const expected = Math.floor(REVIEW_READ_BYTES / fs.statSync(first).size);
    if (planned !== expected || tooLarge !== 100 - expected) throw new Error(`100 named 7 MB files: ${planned} planned (want ${expected}), ${tooLarge} too large to review here`);
    const ms = median(runs.map(r => r.ms));
    const stall = Math.max(...runs.map(r => r.stallMs));
    const peakMb = Math.max(...runs.map(r => r.peakMb));
    const kb = Buffer.byteLength(answer) / 1024;
    console.log(`bench-review-named-files: ${JSON.stringify({ answerKB: kb, files: 100, fileMB: 7, planned, tooLarge, medianMs: ms, longestStallMs: stall, peakRssGrowthMB: peakMb })}`);
    console.log(`| review: a ${Math.round(kb)} KB answer naming 100 existing 7 MB files (read ${REVIEW_READ_BYTES / 1024 / 1024} MB at most: ${planned} planned, ${tooLarge} too large to review here), median of 3 | ${ms.toFixed(0)} ms, longest host stall ${stall.toFixed(1)} ms, peak memory +${peakMb.toFixed(0)} MB | stall < 50 ms | ${stall < 50 ? 'yes' : 'NO'} |`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void hostile().then(namedFiles).catch(e => {
  console.error(e);
  process.exit(1);
});
