/**
 * The review plan: an answer, the texts recorded when the task was sent and the files now → per file, the
 * hunks to offer (each with its place in the text now and the text that lands) and everything not offered,
 * with its reason. Nothing here writes; the integration builds one WorkspaceEdit entry per hunk from it.
 *
 * How a file's proposal becomes hunks:
 * - Whole file: diffed against the text that was sent (three-way with the file now), or against the file now
 *   when no text was recorded (two-way: nothing can conflict). A fenced block cannot say "no newline at end",
 *   so the file keeps its final-newline state. A block that elides parts ("// ... existing code ...", not
 *   in the file) or is empty for a non-empty file is not applied.
 * - Diff: each hunk is placed in the text that was sent (exactly, anywhere, nearest its stated line first).
 *   A hunk that does not fit there is placed in the file now by its context with up to `fuzz` (default 2)
 *   context lines left out at each end, within 100 lines of where the other hunks put it: it is flagged
 *   `byContext`. A hunk that fits neither is listed in `skippedHunks`; the file's other hunks stay offered.
 * - Several blocks for one file: the later block wins over earlier ones (listed as superseded), except that
 *   diffs in a row are combined; where hunks of two diffs overlap or touch, the later block's hunk wins.
 * - The range proposal (one unnamed block): replaces the sent range in the sent text (or, when no text was
 *   recorded, the range where it is now, `source.currentRange`), then merges like a whole file. A named
 *   "whole file" for the source that drops every line before the sent range, or every line after it, is
 *   taken the same way: the agents saw only the range, so that block is the range's new code, not the file.
 * - Diff hunks for the source when its range started or ended inside a line are matched against those lines
 *   cut as they were sent; a changed cut line gets back the part the agents did not see (`asSeen`).
 * - Three-way merge rules: merge.ts. Conflicts are hunks with `conflict: true`: offer them unchecked.
 * - New files: created when missing and never sent; a missing file that was sent was moved or deleted since
 *   (not re-created). Deletions and renames are listed, never applied.
 *
 * Paths are checked lexically (paths.ts). The caller's `ReviewFiles.current` must answer `refused` for a path
 * that the file system says leads outside the workspace (use `confinePath`), is not a regular file, or is too
 * large or binary to merge; the plan then lists it with that reason.
 */
import { type ParsedAnswer, type Proposal, parseAnswer } from './answer';
import type { Budget } from './diff';
import { MAX_HUNK_HEADERS } from './patch';
import { type PlanContext, planFile, planRange } from './planFile';
import { landablePartials } from './planPartials';
import { type FileState, type PlanFile, type PlanOptions, type ReviewFiles, type ReviewPlan, emptyFile } from './planTypes';
import { checkPath } from './paths';
import { type SkipCode, type TooComplex, pathProblem, plain, skipReason } from './words';

// The plan's parts live beside it (planTypes, planFile, planHunks, planPartials); its importers keep one door.
export type { FileState, PlanFile, PlanHunk, PlanOptions, Position, RangeRecord, ReviewFiles, ReviewPlan, SentSource, SkippedHunk } from './planTypes';
export { applyHunks, conflictText } from './planHunks';
export { asSeen } from './planFile';
export { elidedLine } from './planPartials';

export const WORK_BUDGET = 40_000_000;
/** Unnamed blocks tried as the range's new code when there are several. */
const MAX_RANGE_CANDIDATES = 8;

export function buildPlan(answer: ParsedAnswer | string, files: ReviewFiles, options: PlanOptions = {}): ReviewPlan {
  const t = options.translate ?? plain;
  const allowed = options.workBudget ?? WORK_BUDGET;
  const budget: Budget = { left: allowed };
  const parsed = typeof answer === 'string' ? parseAnswer(answer, { sourcePath: options.source?.path }) : answer;
  let headers = 0;
  for (const p of parsed.proposals) if (p.kind === 'diff') headers += p.diff.hunks.length + (p.diff.headersPastCap ?? 0);
  const maxHeaders = options.maxHunkHeaders ?? MAX_HUNK_HEADERS;
  const verdict = (): TooComplex => ({ hunkHeaders: headers, maxHunkHeaders: maxHeaders, blocks: parsed.proposals.length, work: allowed - budget.left, workBudget: allowed });
  if (headers > maxHeaders) return { files: [], hunkCount: 0, conflictCount: 0, tooComplex: verdict() };
  const entries: PlanFile[] = [];
  const skip = (path: string, from: PlanFile['from'], blocks: number[], line: number, code: SkipCode, ...args: (string | number)[]): PlanFile => ({
    ...emptyFile(path, from, blocks, line),
    kind: 'skip',
    reasonCode: code,
    reason: skipReason(t, code, ...args),
  });

  const cx: PlanContext = { t, skipAt: skip, budget, stated: parsed.statedRemovals ?? new Set() };

  // Each path's texts are asked for once (the contract above), also when a partial block asks first.
  files = onceEach(files);
  const byPath = new Map<string, Proposal[]>();
  const rangeSource = options.source?.range ? checkPath(options.source.path) : undefined;
  const partials = landablePartials(parsed.proposals, files, budget, rangeSource?.ok ? rangeSource.path : undefined, (p, code, ...args) =>
    entries.push(skip(p.path, 'whole', [p.block], p.line, code, ...args)),
  );
  for (const p of partials) {
    const key = options.caseInsensitivePaths ? p.path.toLowerCase() : p.path;
    const list = byPath.get(key);
    if (list) list.push(p);
    else byPath.set(key, [p]);
  }
  for (const list of byPath.values()) {
    const path = list[0].path;
    // The later block wins; diffs in a row are combined.
    let effective: Proposal[] = [];
    for (const p of list) {
      if (p.kind === 'whole' || effective[0]?.kind === 'whole') {
        for (const old of effective) entries.push(skip(path, old.kind, [old.block], old.line, 'superseded'));
        effective = [p];
      } else effective.push(p);
    }
    entries.push(planFile(path, effective, files, options, cx));
  }

  const source = options.source && checkPath(options.source.path);
  let rangeBlock = parsed.rangeBlock;
  if (rangeBlock && options.source && source?.ok) {
    entries.push(planRange(source.path, options.source, rangeBlock, files.current(source.path), files.sent(source.path), cx));
  } else if (parsed.rangeCandidates?.length && options.source && source?.ok) {
    // Several unnamed code blocks: the one proven to replace the range (or a definition) is its proposal, if
    // exactly one is; the others (a usage example, a test, a citation) have no proven place.
    const src = options.source;
    const tried = parsed.rangeCandidates.slice(0, MAX_RANGE_CANDIDATES).map(u => ({ u, f: planRange(source.path, src, u, files.current(source.path), files.sent(source.path), cx) }));
    const proven = tried.filter(c => !(c.f.kind === 'skip' && c.f.reasonCode === 'noPath'));
    // An answer that shows the code "before" and "after" in two blocks: the one that is the code now changes nothing,
    // so the other is the proposal (issue 43).
    const changing = proven.filter(c => !(c.f.kind === 'skip' && c.f.reasonCode === 'unchanged'));
    const chosen = proven.length === 1 ? proven[0] : changing.length === 1 ? changing[0] : undefined;
    if (chosen) {
      rangeBlock = chosen.u;
      entries.push(chosen.f);
    }
  }
  for (const u of parsed.unnamed) {
    // Program output and prose blocks (```text, a shell transcript) are not changes: nothing to list.
    if (u.kind === 'output') continue;
    if (u !== rangeBlock || !source?.ok) entries.push(skip('', 'unnamed', [u.block], u.line, 'noPath'));
  }
  for (const r of parsed.rejected) {
    const args =
      r.code === 'invalidPath'
        ? [r.path, pathProblem(t, r.problem ?? 'empty')]
        : r.code === 'conflictingHeader' || r.code === 'ambiguousFolder' || r.code === 'inSeveralFolders'
          ? [r.detail ?? '']
          : r.code === 'ambiguousName'
            ? [`${r.path}, ${r.detail ?? ''}`]
            : [];
    entries.push(skip(r.code === 'invalidPath' ? '' : r.path, r.isDiff ? 'diff' : 'whole', [r.block], r.line, r.code, ...args));
  }
  entries.sort((a, b) => a.line - b.line);

  let hunkCount = 0;
  let conflictCount = 0;
  const max = options.maxHunks ?? 5000;
  const planned: PlanFile[] = entries.map(f => {
    if (f.kind === 'skip') return f;
    if (hunkCount + f.hunks.length > max) return skip(f.path, f.from, f.blocks, f.line, 'tooMany');
    hunkCount += f.hunks.length;
    conflictCount += f.hunks.filter(h => h.conflict).length;
    return f;
  });
  // The budget spent: some diffs were cut coarse and some hunks not searched for. A partial preview would mislead.
  if (budget.left <= 0) return { files: planned, hunkCount, conflictCount, tooComplex: verdict() };
  return { files: planned, hunkCount, conflictCount };
}

/** `files` answering each path once, however often it is asked. */
function onceEach(files: ReviewFiles): ReviewFiles {
  const current = new Map<string, FileState>();
  const sent = new Map<string, string | undefined>();
  return {
    current: p => {
      if (!current.has(p)) current.set(p, files.current(p));
      return current.get(p)!;
    },
    sent: p => {
      if (!sent.has(p)) sent.set(p, files.sent(p));
      return sent.get(p);
    },
  };
}
