/**
 * A line diff that stays fast on large files and bounded on hostile ones.
 *
 * 1. The common prefix and suffix are cut off (a user who typed in one place costs nothing else).
 * 2. Lines unique to both sides anchor the rest (patience diff: their longest increasing run, O(n log n)).
 * 3. Between anchors, Myers' O((N+M)·D) greedy diff finds the fewest changes.
 * Step 2 is skipped when Myers alone finds at most 64 changes in linear work (the usual case: one
 * proposal, or one user's typing, against a file).
 * One call does at most 4 million steps of Myers work (some tens of ms), fewer when the shared `Budget` a
 * caller passes has less left: a stretch that would cost more, or needs more than 1,024 changes, becomes one
 * coarse edit instead of going quadratic. Total: O(n log n + budget) time, O(n + 1,024²) memory.
 */

/** `a[aStart, aEnd)` is replaced by `b[bStart, bEnd)`. Edits are sorted and never touch each other. */
export interface Edit {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export interface DiffResult {
  edits: Edit[];
  /** True when some stretch was over the budget and became one coarse edit. */
  coarse: boolean;
}

/** Work left for a whole job (a review plan): every diff and hunk search takes from it. */
export interface Budget {
  left: number;
}

export const DIFF_BUDGET = 4_000_000;
const MAX_D = 1024;
const QUICK_D = 64;

export function diffLines(a: readonly string[], b: readonly string[], shared?: Budget): DiffResult {
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a[start] === b[start]) start++;
  let aEnd = a.length;
  let bEnd = b.length;
  while (aEnd > start && bEnd > start && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd--;
    bEnd--;
  }
  if (start === aEnd && start === bEnd) return { edits: [], coarse: false };
  if (start === aEnd || start === bEnd) return { edits: [{ aStart: start, aEnd, bStart: start, bEnd }], coarse: false };

  // Few changes (the usual case): Myers straight on the lines, linear work, no table of lines to build.
  const quick = myers(a, start, aEnd - start, b, start, bEnd - start, { budget: { left: 4 * (aEnd + bEnd - 2 * start) + 20_000 }, coarse: false }, QUICK_D);
  if (quick) return { edits: quick.map(e => ({ aStart: start + e.aStart, aEnd: start + e.aEnd, bStart: start + e.bStart, bEnd: start + e.bEnd })), coarse: false };

  // Lines become small integers: every later comparison is an integer comparison.
  const ids = new Map<string, number>();
  const n = aEnd - start;
  const m = bEnd - start;
  const A = new Int32Array(n);
  const B = new Int32Array(m);
  for (let i = 0; i < n; i++) {
    const key = a[start + i];
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    A[i] = id;
  }
  for (let j = 0; j < m; j++) {
    const key = b[start + j];
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    B[j] = id;
  }

  const allowed = Math.max(0, Math.min(DIFF_BUDGET, shared?.left ?? DIFF_BUDGET));
  const state: State = { budget: { left: allowed }, coarse: false };
  const edits: Edit[] = [];
  const push = (e: Edit) => {
    const last = edits[edits.length - 1];
    if (last && last.aEnd >= e.aStart && last.bEnd >= e.bStart) {
      last.aEnd = e.aEnd;
      last.bEnd = e.bEnd;
    } else edits.push(e);
  };
  let prevA = 0;
  let prevB = 0;
  for (const [ai, bi] of anchors(A, B, ids.size)) {
    segment(A, prevA, ai, B, prevB, bi, state, start, push);
    prevA = ai + 1;
    prevB = bi + 1;
  }
  segment(A, prevA, n, B, prevB, m, state, start, push);
  if (shared) shared.left -= allowed - Math.max(0, state.budget.left);
  return { edits, coarse: state.coarse };
}

/** Pairs of positions of lines that occur exactly once on each side, increasing on both (patience sorting). */
function anchors(A: Int32Array, B: Int32Array, idCount: number): [number, number][] {
  const countA = new Int32Array(idCount);
  const countB = new Int32Array(idCount);
  const posB = new Int32Array(idCount);
  for (let i = 0; i < A.length; i++) countA[A[i]]++;
  for (let j = 0; j < B.length; j++) {
    countB[B[j]]++;
    posB[B[j]] = j;
  }
  const candA: number[] = [];
  const candB: number[] = [];
  for (let i = 0; i < A.length; i++) {
    const id = A[i];
    if (countA[id] === 1 && countB[id] === 1) {
      candA.push(i);
      candB.push(posB[id]);
    }
  }
  // Longest increasing subsequence of candB: tails[k] holds the index of the smallest tail of a run of k+1.
  const tails: number[] = [];
  const prev = new Int32Array(candB.length);
  for (let c = 0; c < candB.length; c++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candB[tails[mid]] < candB[c]) lo = mid + 1;
      else hi = mid;
    }
    prev[c] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = c;
  }
  const out: [number, number][] = new Array(tails.length);
  for (let c = tails.length ? tails[tails.length - 1] : -1, k = tails.length - 1; c !== -1; c = prev[c], k--) out[k] = [candA[c], candB[c]];
  return out;
}

interface State {
  budget: Budget;
  coarse: boolean;
}

function segment(
  A: Int32Array,
  a0: number,
  a1: number,
  B: Int32Array,
  b0: number,
  b1: number,
  state: State,
  base: number,
  push: (e: Edit) => void,
): void {
  while (a0 < a1 && b0 < b1 && A[a0] === B[b0]) {
    a0++;
    b0++;
  }
  while (a1 > a0 && b1 > b0 && A[a1 - 1] === B[b1 - 1]) {
    a1--;
    b1--;
  }
  if (a0 === a1 && b0 === b1) return;
  if (a0 === a1 || b0 === b1) {
    push({ aStart: base + a0, aEnd: base + a1, bStart: base + b0, bEnd: base + b1 });
    return;
  }
  const found = myers(A, a0, a1 - a0, B, b0, b1 - b0, state);
  if (!found) {
    state.coarse = true;
    push({ aStart: base + a0, aEnd: base + a1, bStart: base + b0, bEnd: base + b1 });
    return;
  }
  for (const e of found) push({ aStart: base + a0 + e.aStart, aEnd: base + a0 + e.aEnd, bStart: base + b0 + e.bStart, bEnd: base + b0 + e.bEnd });
}

/** Myers' greedy shortest edit script with a trace for the way back; undefined when over the budget or MAX_D. */
function myers(
  A: ArrayLike<number | string>,
  aOff: number,
  N: number,
  B: ArrayLike<number | string>,
  bOff: number,
  M: number,
  state: State,
  maxD = MAX_D,
): Edit[] | undefined {
  const dCap = Math.min(N + M, maxD);
  const offset = dCap + 1;
  const V = new Int32Array(2 * dCap + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= dCap; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && V[offset + k - 1] < V[offset + k + 1]) ? V[offset + k + 1] : V[offset + k - 1] + 1;
      let y = x - k;
      const x0 = x;
      while (x < N && y < M && A[aOff + x] === B[bOff + y]) {
        x++;
        y++;
      }
      state.budget.left -= x - x0 + 1;
      V[offset + k] = x;
      if (x >= N && y >= M) {
        trace.push(V.slice(offset - d, offset + d + 1));
        return backtrack(trace, N, M);
      }
    }
    if (state.budget.left < 0) return undefined;
    trace.push(V.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

function backtrack(trace: Int32Array[], N: number, M: number): Edit[] {
  const edits: Edit[] = [];
  let x = N;
  let y = M;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]; // index k + (d - 1)
    const k = x - y;
    const down = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[prevK + d - 1];
    const prevY = prevX - prevK;
    // One line inserted (down) or deleted (right) at (prevX, prevY), then a snake to (x, y).
    const e: Edit = down
      ? { aStart: prevX, aEnd: prevX, bStart: prevY, bEnd: prevY + 1 }
      : { aStart: prevX, aEnd: prevX + 1, bStart: prevY, bEnd: prevY };
    const first = edits[edits.length - 1];
    if (first && first.aStart === e.aEnd && first.bStart === e.bEnd) {
      first.aStart = e.aStart;
      first.bStart = e.bStart;
    } else edits.push(e);
    x = prevX;
    y = prevY;
  }
  return edits.reverse();
}
