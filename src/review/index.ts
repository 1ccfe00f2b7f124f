/** The review core's API (issue 16): what the integration layer builds on. Pure: no vscode. */
export { type FencedBlock, type ParsedAnswer, type ParseOptions, type Proposal, type RejectedBlock, type UnnamedBlock, byFolder, fencedBlocks, parseAnswer, parseAnswerBlock, parseInfo, proposalsOf } from './answer';
export {
  type AnswerBlock,
  type BlockKind,
  type BlockProblem,
  type BlockSection,
  type BlockTarget,
  type Naming,
  type ReadAnswer,
  type ReadOptions,
  type WorkspaceFolderName,
} from './readerTypes';
export { readAnswer } from './reader';
export { fenceMask } from './fences';
export { commentNaming, isPathLike, namingLine, readInfo } from './namings';
export { isElisionLine } from './elisions';
export { type Budget, type Edit, diffLines } from './diff';
export { type Eol, eolOf, toLines } from './lines';
export { type Change, type MergedHunk, type MergeResult, changesBetween, merge3 } from './merge';
export { type DiffHunk, type FileDiff, parseUnifiedDiff } from './patch';
export { type NamedTarget, type Placement, placeProposals, placeTargets, qualified, targetsOf } from './folders';
export { PlanCancelled, type PlanFiles, REVIEW_READ_BYTES, ReadBudget, planOffThread, workerScript } from './offThread';
export { type Confined, type EntryKind, type PathResolver, RUNS_CODE, checkPath, confinePath, isSensitive, runsCode } from './paths';
export {
  type FileState,
  type PlanFile,
  type PlanHunk,
  type PlanOptions,
  type Position,
  type RangeRecord,
  type ReviewFiles,
  type ReviewPlan,
  type SentSource,
  type SkippedHunk,
  applyHunks,
  buildPlan,
  conflictText,
} from './plan';
export { type UnnamedPlace, placeUnnamed } from './proof';
export { type Held, insertionRepeats } from './landingGuard';
export { type DefaultLanding, checkedByDefault, landedByDefault } from './defaults';
export { type HunkSkipCode, type RunsCode, type SkipCode, type TooComplex, type Translate, conflictMarkers, pathProblem, plain, runsCodeReason, skipReason, tooComplexReason } from './words';
// The review part's bundle is also the planner's thread (offThread.ts starts dist/review.js as a worker): the
// worker's code acts only there, and the review modules are shipped once.
import './worker';
