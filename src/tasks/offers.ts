/**
 * What a task's answer offers (issue 24): the one rule every surface follows (the done notification,
 * `@agents`' buttons, the result view's buttons, the Tasks view's menus), so a button appears only where
 * it can do something and does what the block's kind calls for. Pure: over the reader's blocks
 * (`review/reader.ts`) and the task's state.
 */

/** The reader's kinds (review/reader.ts `BlockKind`). */
type Kind = 'file' | 'partial' | 'diff' | 'patch' | 'range' | 'snippet' | 'output';

/** What the rule reads of a block. */
export interface BlockFacts {
  kind: Kind;
  /** The files it is for (several for a multi-file diff or patch). */
  targets: readonly unknown[];
  /** Namings found but refused: the block still names a file (the review lists why it is not landed). */
  problems: readonly unknown[];
}

/**
 * What Apply… does with a block: `review` reviews its hunks / its file in the Refactor Preview (a diff or
 * patch, a block named for a file, a partial file); `range` proposes it for the range that was sent, as a
 * diff to accept (the unnamed block for the range, a snippet); undefined: no Apply (prose and output).
 */
export type ApplyWay = 'review' | 'range' | undefined;

export function applyWayOf(block: BlockFacts, task: { source?: unknown }): ApplyWay {
  switch (block.kind) {
    case 'output':
      return undefined;
    case 'file':
      return 'review';
    case 'diff':
    case 'patch':
      // A diff that names no file is for the file the task was sent from (its hunks placed by their context).
      return namesFile(block) || task.source ? 'review' : undefined;
    case 'partial':
      // Never pasted over a range (its elision markers would replace code): its shown parts land by context.
      return namesFile(block) || task.source ? 'review' : undefined;
    default:
      // A block without a target goes where the code was sent from, or nowhere.
      return block.targets.length || block.problems.length ? 'review' : task.source ? 'range' : undefined;
  }
}

/** Whether Insert at Cursor may put a block into a file: code, not prose or output, not a diff or patch. */
export function isInsertable(block: Pick<BlockFacts, 'kind'>): boolean {
  return block.kind !== 'output' && block.kind !== 'diff' && block.kind !== 'patch';
}

/** Whether a block names a file (landed through the review, or listed with why not). */
export function namesFile(block: Pick<BlockFacts, 'targets' | 'problems'>): boolean {
  return block.targets.length > 0 || block.problems.length > 0;
}

/** The counts a task keeps of its answer when it finishes, so that lists and menus need not read it again. */
export interface AnswerShape {
  /** Files the answer names (landable or not): Review Changes… is offered when there are any. */
  namedFiles: number;
  /** Blocks Apply… can do something with. */
  applicable: number;
  /** Blocks Insert at Cursor may insert. */
  insertable: number;
}

export function shapeOf(blocks: readonly BlockFacts[], task: { source?: unknown }): AnswerShape {
  const shape: AnswerShape = { namedFiles: 0, applicable: 0, insertable: 0 };
  for (const b of blocks) {
    shape.namedFiles += namesFile(b) ? Math.max(1, b.targets.length + b.problems.length) : 0;
    if (applyWayOf(b, task)) shape.applicable++;
    if (isInsertable(b)) shape.insertable++;
  }
  return shape;
}

/** What a finished task offers as a whole. */
export interface TaskOffers {
  /** Review Changes… and Open All Changes: the answer names files. */
  review: boolean;
  /** Apply to Source…: a block for the range that was sent, or code to apply, and no named files (the review covers those). */
  apply: boolean;
  /** Insert at Cursor: a code block to insert. */
  insert: boolean;
  /** Copy (the whole answer): always, once there is one. */
  copy: boolean;
}

export interface OfferedTask {
  status: string;
  source?: unknown;
  resultChars?: number;
  namedFiles?: number;
  /** Undefined for a task kept by an earlier version: then Apply and Insert are offered as they were. */
  applicableBlocks?: number;
  insertableBlocks?: number;
}

export function offersOf(task: OfferedTask): TaskOffers {
  const done = task.status === 'completed';
  const review = done && !!task.namedFiles;
  const known = task.applicableBlocks !== undefined;
  return {
    review,
    apply: done && !!task.source && !review && (known ? task.applicableBlocks! > 0 : true),
    insert: done && (task.insertableBlocks !== undefined ? task.insertableBlocks > 0 : true),
    copy: done,
  };
}
