/**
 * What Review Changes… lands when the user changes nothing in its preview (issue 42): one rule, read by the
 * review (which hunks start checked, what Open All Changes shows) and by Check Proposal… (what its scratch copy
 * holds), so that a check proves exactly what a click on Apply would write. A hunk starts unchecked when it
 * conflicts with the user's edits or lies in a file that can run code; such a file lands nothing by default.
 */
import { applyHunks } from './planHunks';
import type { PlanFile, PlanHunk } from './planTypes';

/** The hunk starts checked in the Refactor Preview. */
export function checkedByDefault(file: Pick<PlanFile, 'sensitive'>, hunk: Pick<PlanHunk, 'conflict'>): boolean {
  return !file.sensitive && !hunk.conflict;
}

/** A file as Review Changes… lands it by default: its text then (null: nothing of it lands), and what is left out and why. */
export interface DefaultLanding {
  /** The file's whole text with the hunks checked by default applied; for a new file, its text; null when none is checked. */
  text: string | null;
  /** Why some or all of it is left out: a file that can run code (all of it), hunks in conflict (those). */
  leftOut?: 'runsCode' | 'conflict';
}

/** `file` (a modified or created file of a plan) landed by default on `now`, the file's text now. */
export function landedByDefault(file: PlanFile, now: string): DefaultLanding {
  if (file.sensitive) return { text: null, leftOut: 'runsCode' };
  const chosen = file.hunks.filter(h => checkedByDefault(file, h));
  const leftOut = chosen.length < file.hunks.length ? ('conflict' as const) : undefined;
  if (!chosen.length) return { text: null, leftOut };
  const text = file.kind === 'create' ? chosen[0].newText : applyHunks(now, chosen);
  return leftOut ? { text, leftOut } : { text };
}
