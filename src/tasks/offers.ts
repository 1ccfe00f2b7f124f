/**
 * What a task offers, in one place (issues 24 and 28). Two parts: what an ANSWER offers (per block: Apply…,
 * Insert; per task: Review Changes…, Apply to Source…, Insert), over the reader's blocks (`review/reader.ts`);
 * and THE TABLE of what a TASK offers in its state (`TASK_OFFERS`): each action's id, command, label, the
 * condition on the task, and the surfaces that show it. Every surface asks `offersOf(task, surface)`: the
 * result view (its buttons and the messages its page may post), the completion notification, `@team`'
 * buttons, the pickers of the commands, the status bar's links and the Tasks view (its `contextValue` is the
 * task's capability words, which `package.json`'s menus match: `viewItem =~ /\breview\b/`). Adding an action
 * is one row here plus its command (`commands/`, `constants.ts`, `package.json`). Pure: no vscode.
 */
import type { Settings } from '../config';
import { Commands, HOST_READ_CHARS } from '../constants';
import { type TrackedTask, isFinished } from './model';
import { reviewPart } from '../parts';
import type { BlockKind } from '../review';
import type { CheckRecord } from './checking/types';
import { teamCanFix } from './checking/policy';


/** What the rule reads of a block. */
export interface BlockFacts {
  kind: BlockKind;
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
  // A block whose every naming was refused (`.git/config`, a path out of the folder…) has nothing Apply could
  // land, here or in the source: no Apply (issue 35 item 9); Review Changes… still lists it with why not.
  if (!block.targets.length && block.problems.length) return undefined;
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
      return block.targets.length ? 'review' : task.source ? 'range' : undefined;
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

/** Signs of code the reader reads no block of (HTML's <pre>, a tool's edit markup, a patch, a conflict marker). */
const CODE_MARKS = /<pre[\s>]|<code[\s>]|<(?:replace_in_file|write_to_file|apply_diff|edits|old_text|new_text)\b|\*\*\* Begin Patch|^<{7} |^<{5,9} ?SEARCH\b/m;

/**
 * What a finished task keeps of its answer, counted once by the one reader. Linear, and of the first
 * HOST_READ_CHARS only (this runs on the extension host as the task ends): for a longer answer Apply and Insert
 * are offered as for an answer not counted, and the review reads the whole answer.
 */
export function answerShapeOf(task: { source?: unknown }, result: string | undefined): Pick<TrackedTask, 'namedFiles' | 'applicableBlocks' | 'insertableBlocks' | 'unlandedCode'> {
  if (result === undefined) return { namedFiles: undefined, applicableBlocks: undefined, insertableBlocks: undefined, unlandedCode: undefined };
  const long = result.length > HOST_READ_CHARS;
  const text = long ? result.slice(0, HOST_READ_CHARS) : result;
  const read = reviewPart().readAnswer(text);
  const shape = shapeOf(read.blocks, task);
  if (long) return { namedFiles: shape.namedFiles || undefined, applicableBlocks: undefined, insertableBlocks: undefined, unlandedCode: undefined };
  const lands = shape.namedFiles + shape.applicable + shape.insertable > 0;
  return { namedFiles: shape.namedFiles || undefined, applicableBlocks: shape.applicable, insertableBlocks: shape.insertable, unlandedCode: !lands && (read.blocks.some(b => b.kind !== 'output') || CODE_MARKS.test(text)) ? true : undefined };
}

/** What a finished task's answer offers as a whole (the table's conditions read it). */
export interface AnswerOffers {
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
  /** Its checks (issue 37), newest last: what the check actions read. */
  checks?: readonly Pick<CheckRecord, 'verdict'>[];
  /** A check of its proposal is running now (the checks store): Cancel Check instead of Check Proposal…. */
  checking?: boolean;
}

export function answerOffersOf(task: OfferedTask): AnswerOffers {
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

/* ------------------------------------------------------------------------------------------------------ */
/* The table of what a task offers (issue 28)                                                             */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * Where an action may be shown. `view`: the result view's buttons (and the messages its page may post);
 * `notification`: the toast of a completed task; `failureNotification`: the toast of a task that ended
 * otherwise; `chat`: the buttons under a `@team` answer; `picker`: the tasks a command offers to pick
 * from when it is run without one; `tree`: the Tasks view's context menu (and a row's click: Open);
 * `treeInline`: the row's inline buttons; `status`: the links in the status bar's tooltip.
 */
export type Surface = 'view' | 'notification' | 'failureNotification' | 'chat' | 'picker' | 'tree' | 'treeInline' | 'status';

/** What a condition may read besides the task: how a result opens (`multiAgent.resultView`, read by `openingOf`). */
export interface OfferContext {
  /** Results open in the rendered view (which also shows a running or failed task), not as raw markdown. */
  rendered: boolean;
}

/** One action a task offers. */
export interface TaskOffer {
  /** The word for it: the result view's message, the Tasks view's capability word (`viewItem =~ /\bid\b/`). */
  readonly id: string;
  readonly command: string;
  /**
   * Its one label, the same as its command's title in `package.nls.json` (unit test): English, localized where
   * it is shown (`vscode.l10n.t(offer.label)`).
   */
  readonly label: string;
  /** Where a line of text has room for a word only (the status bar's links). */
  readonly shortLabel?: string;
  /** Its codicon where a surface shows one beside the label (the status bar's links); the command's icon in package.json. */
  readonly icon?: string;
  /** What it does, in a sentence (a button's tooltip). */
  readonly detail?: string;
  /** The action a finished answer is for (landing it): the result view shows it first, as a primary button. */
  readonly primary?: boolean;
  /** The condition on the task, the same on every surface. */
  readonly when: (task: OfferedTaskState, context: OfferContext) => boolean;
  readonly surfaces: readonly Surface[];
}

/** What the conditions read of a task. */
export type OfferedTaskState = OfferedTask & Pick<TrackedTask, 'status'> & Partial<Pick<TrackedTask, 'trackingStopped'>>;

const completedTask = (t: OfferedTaskState) => t.status === 'completed';
const runningTask = (t: OfferedTaskState) => !isFinished(t);

/** The actions a task offers, in the order every surface shows them. */
export const TASK_OFFERS = [
  {
    id: 'open',
    command: Commands.openResult,
    label: 'Open Result',
    // The rendered view shows a running task's agents and a failed task's reason; raw markdown needs an answer.
    when: (t, c) => completedTask(t) || (c.rendered && (runningTask(t) || t.status === 'failed')),
    surfaces: ['notification', 'chat', 'picker', 'tree', 'treeInline'],
  },
  { id: 'copy', command: Commands.copyResult, label: 'Copy Result', when: t => answerOffersOf(t).copy, surfaces: ['view', 'notification', 'picker', 'tree'] },
  {
    id: 'review',
    command: Commands.reviewChanges,
    label: 'Review Changes…',
    detail: 'Review the changes to the files the answer names, hunk by hunk; nothing is written before you apply them',
    primary: true,
    when: t => answerOffersOf(t).review,
    surfaces: ['view', 'notification', 'chat', 'picker', 'tree', 'treeInline'],
  },
  { id: 'allChanges', command: Commands.openAllChanges, label: 'Open All Changes', when: t => answerOffersOf(t).review, surfaces: ['view', 'picker', 'tree'] },
  // Issue 37: wherever Review Changes… is offered, the proposal can be proven first, in a scratch copy.
  {
    id: 'check',
    command: Commands.checkProposal,
    label: 'Check Proposal…',
    icon: 'beaker',
    detail: 'Run your check command on the proposal in a scratch copy, outside your files; nothing of yours changes',
    // Proving the proposal is part of landing it: beside Review Changes…, not among the other buttons.
    primary: true,
    when: t => answerOffersOf(t).review && !t.checking,
    // In chat it is a follow-up (`/check`): the verdict is the participant's answer (chat/checkLoop.ts).
    surfaces: ['view', 'notification', 'picker', 'tree'],
  },
  {
    id: 'cancelCheck',
    command: Commands.cancelCheck,
    label: 'Cancel Check',
    icon: 'debug-stop',
    detail: 'Stop the check of this proposal and everything it started',
    primary: true,
    when: t => t.checking === true,
    surfaces: ['view', 'picker', 'tree', 'status'],
  },
  {
    id: 'askToFix',
    command: Commands.askTeamToFix,
    label: 'Ask the Team to Fix',
    detail: 'Send what was checked and the failing output to the task\'s thread; the answer is a new proposal to review',
    when: t => completedTask(t) && teamCanFix(t) && !t.checking,
    // In chat it is a follow-up (`/fix`): the fix's answer is the participant's (chat/checkLoop.ts).
    surfaces: ['view', 'picker', 'tree'],
  },
  { id: 'checkOutput', command: Commands.showCheckOutput, label: 'Show Check Output', when: t => !!t.checks?.length, surfaces: ['view', 'picker', 'tree'] },
  {
    id: 'scratch',
    command: Commands.openScratchCopy,
    label: 'Open Scratch Copy',
    detail: 'A copy of the folder with the proposal in it, opened in a new window and kept until you delete it',
    when: t => answerOffersOf(t).review && !!t.checks?.length,
    surfaces: ['view', 'picker'],
  },
  {
    id: 'apply',
    command: Commands.applyToSource,
    label: 'Apply to Source…',
    detail: 'Review the answer against the code that was sent; nothing is written before you accept',
    primary: true,
    when: t => answerOffersOf(t).apply,
    surfaces: ['notification', 'chat', 'picker', 'tree', 'treeInline'],
  },
  { id: 'insert', command: Commands.insertResult, label: 'Insert Result at Cursor', when: t => answerOffersOf(t).insert, surfaces: ['picker', 'tree'] },
  { id: 'raw', command: Commands.openRawResult, label: 'Open Raw Markdown', when: completedTask, surfaces: ['view', 'picker'] },
  { id: 'prompt', command: Commands.showPromptSent, label: 'Show Prompt Sent', when: () => true, surfaces: ['view', 'picker', 'tree'] },
  // A canceled task's trace says nothing the user does not know (the service may not have saved one).
  // Not under a chat answer: its buttons stack there, so they are kept to the next steps (issue 45); the result view's trace section has it.
  { id: 'trace', command: Commands.showTrace, label: 'Show How the Team Worked', when: t => t.status !== 'canceled', surfaces: ['picker', 'tree'] },
  { id: 'continue', command: Commands.continueInThread, label: 'Continue in Thread…', when: completedTask, surfaces: ['view', 'picker', 'tree'] },
  { id: 'source', command: Commands.revealSource, label: 'Reveal Source', detail: 'Reveal the code that was sent', when: t => !!t.source, surfaces: ['view', 'tree'] },
  // In the view too: a failed or canceled task's view had nothing to go on with (issue 35).
  { id: 'runAgain', command: Commands.runAgain, label: 'Run Again', when: t => !!t.source && isFinished(t), surfaces: ['view', 'failureNotification', 'tree'] },
  {
    id: 'cancel',
    command: Commands.cancelTask,
    label: 'Cancel Task',
    shortLabel: 'Cancel',
    icon: 'stop-circle',
    detail: 'Stop the task on the service, so that it stops costing',
    when: runningTask,
    surfaces: ['view', 'picker', 'tree', 'treeInline', 'status'],
  },
  { id: 'stopFollowing', command: Commands.stopTracking, label: 'Stop Following (Task Keeps Running)', shortLabel: 'Stop Following', when: runningTask, surfaces: ['picker', 'tree'] },
  {
    id: 'followAgain',
    command: Commands.followAgain,
    label: 'Follow Again',
    icon: 'refresh',
    detail: 'Follow this task again and open its result',
    when: t => t.trackingStopped === true,
    surfaces: ['picker', 'tree', 'treeInline', 'status'],
  },
  { id: 'remove', command: Commands.removeTask, label: 'Remove Task', when: () => true, surfaces: ['tree'] },
] as const satisfies readonly TaskOffer[];

export type OfferId = (typeof TASK_OFFERS)[number]['id'];

/** The row of an action: its command, to run it from code (`vscode.commands.executeCommand(offer('review').command, …)`). */
export function offer(id: OfferId): TaskOffer {
  return TASK_OFFERS.find(o => o.id === id)!;
}

/** What a task offers on a surface now, in the table's order. */
export function offersOf(task: OfferedTaskState, surface: Surface, context: OfferContext = { rendered: true }): TaskOffer[] {
  return TASK_OFFERS.filter(o => (o.surfaces as readonly Surface[]).includes(surface) && o.when(task, context));
}

/** Whether the task offers the action on a surface (a picker's filter: `isOffered(t, 'copy')`). */
export function isOffered(task: OfferedTaskState, id: OfferId, surface: Surface = 'picker', context?: OfferContext): boolean {
  return offersOf(task, surface, context).some(o => o.id === id);
}

/**
 * The Tasks view's `contextValue` of a task: `task` and the words of what it offers there, inline or in the
 * menu (`task open copy review allChanges …`); `package.json`'s menus match one word each (`\bword\b`).
 */
export function capabilityWords(task: OfferedTaskState, context: OfferContext): string {
  const words = new Set(['task']);
  for (const o of [...offersOf(task, 'tree', context), ...offersOf(task, 'treeInline', context)]) words.add(o.id);
  return [...words].join(' ');
}

/** Every word `capabilityWords` can produce (the architecture test checks `package.json`'s menus against it). */
export function allCapabilityWords(): string[] {
  return ['task', ...TASK_OFFERS.filter(o => (o.surfaces as readonly Surface[]).some(s => s === 'tree' || s === 'treeInline')).map(o => o.id)];
}

/**
 * How a result opens: the one reading of `multiAgent.resultView` (the Open offer's condition, the Open command,
 * the completion notification, a task sent from the editor, a thread's transcript). `rendered` only where there
 * is a result view to render in.
 */
export function openingOf(settings: Pick<Settings, 'resultView'>, hasView = true): OfferContext {
  return { rendered: hasView && settings.resultView === 'rendered' };
}
