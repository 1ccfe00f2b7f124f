/** Blocks that leave parts out (elision markers) or show only a fragment of a file: they land by their parts (partial.ts), or are listed. */
import type { Proposal } from './answer';
import type { Budget } from './diff';
import { joinLines, toLines, withoutNoEol } from './lines';
import { landPartial, partialHunks } from './partial';
import type { ReviewFiles } from './planTypes';
import { isElisionLine } from './elisions';

const ELISION =
  /^\s*(?:\/\/+|#+|\/\*+|\{\/\*|<!--|--|;+|%+|\*)\s*(?:\.\.\.|…|\[\.\.\.\]|(?:[^\n]*?\b(?:existing code|rest of (?:the )?(?:file|code|class|function|method|module|implementation)|(?:remains?|stays?|is) (?:the same|unchanged)|unchanged code|code (?:omitted|unchanged)|same as before|omitted for brevity)\b))/i;

/** A line that stands for left-out code and is not in `reference`, or undefined. */
export function elidedLine(keys: readonly string[], reference: readonly string[], language?: string): string | undefined {
  let candidates: Set<string> | undefined;
  for (const k of keys) {
    if (k.length < 240 && (ELISION.test(k) || (language !== undefined && isElisionLine(withoutNoEol(k), language)))) (candidates ??= new Set()).add(withoutNoEol(k));
  }
  if (!candidates) return undefined;
  for (const r of reference) candidates.delete(withoutNoEol(r));
  const first = candidates.values().next();
  return first.done ? undefined : first.value.trim().slice(0, 80);
}

/**
 * Whole-file proposals that leave parts out become diffs of the parts they show (partial.ts), so two partial
 * blocks for one file combine like diffs instead of the later replacing the earlier; one whose parts cannot be
 * placed (or for a file that does not exist) is listed through `skip`. A marker line the file itself has is
 * content: such a block stays a whole file.
 * A "whole file" with less than half the lines (and four fifths of the characters) of a file of 12 lines or more is a fragment of it ("In `a.ts`:" above
 * one function): it lands by its lines like a partial block, or is listed; never replaces the file. The
 * task's source with a sent range is left to the range rule (`planFile`).
 */
export function landablePartials(
  proposals: readonly Proposal[],
  files: ReviewFiles,
  budget: Budget,
  rangeSourcePath: string | undefined,
  skip: (p: Proposal, code: 'elided' | 'partial' | 'fragment', ...args: (string | number)[]) => void,
): Proposal[] {
  const out: Proposal[] = [];
  for (const p of proposals) {
    if (p.kind !== 'whole') {
      out.push(p);
      continue;
    }
    const state = files.current(p.path);
    if (state.kind === 'refused' || (p.elision === undefined && (state.kind !== 'file' || p.path === rangeSourcePath))) {
      out.push(p);
      continue;
    }
    const sent = files.sent(p.path);
    const referenceText = sent ?? (state.kind === 'file' ? state.text : undefined);
    // The usual whole file is about as long as the file: ruled out by its length in characters, nothing split.
    if (p.elision === undefined && (referenceText === undefined || p.text.length * 1.25 >= referenceText.length)) {
      out.push(p);
      continue;
    }
    const reference = referenceText !== undefined ? toLines(referenceText).keys : undefined;
    const keys = toLines(p.text).keys;
    if (p.elision === undefined) {
      if (!reference || reference.length < 12 || keys.length * 2 >= reference.length) {
        out.push(p);
        continue;
      }
      const hunks = partialHunks(keys, reference, p.language, budget);
      if (!hunks) skip(p, 'fragment', keys.length, reference.length);
      else if (!hunks.length) out.push({ ...p, text: joinLines(reference, '\n') });
      else out.push({ kind: 'diff', path: p.path, block: p.block, line: p.line, diff: { created: false, deleted: false, renamed: false, binary: false, hunks, eolMarked: false, headersPastCap: 0 }, ...(p.folder !== undefined ? { folder: p.folder } : {}), ...(p.naming ? { naming: p.naming } : {}) });
      continue;
    }
    const elided = elidedLine(keys, reference ?? [], p.language);
    const outcome = landPartial(keys, reference, elided, p.language, budget);
    if (outcome.kind === 'whole') out.push({ ...p, elision: undefined });
    else if (outcome.kind === 'skip') skip(p, outcome.code, outcome.marker);
    else if (!outcome.hunks.length) out.push({ ...p, elision: undefined, text: reference ? joinLines(reference, '\n') : p.text });
    else {
      const diff = { created: false, deleted: false, renamed: false, binary: false, hunks: outcome.hunks, eolMarked: false, headersPastCap: 0 };
      out.push({ kind: 'diff', path: p.path, block: p.block, line: p.line, diff, ...(p.folder !== undefined ? { folder: p.folder } : {}), ...(p.naming ? { naming: p.naming } : {}) });
    }
  }
  return out;
}
