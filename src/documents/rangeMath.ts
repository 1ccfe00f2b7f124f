/**
 * Where a range of a document is after an edit: pure position arithmetic (no vscode), so a task's source
 * range can follow the user's typing since it was sent.
 */
import type { Position, RangeRecord } from '../review';

export interface TextChange {
  range: RangeRecord;
  text: string;
}

function cmp(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

const startOf = (r: RangeRecord): Position => ({ line: r.startLine, character: r.startCharacter });
const endOf = (r: RangeRecord): Position => ({ line: r.endLine, character: r.endCharacter });

/** The position after `text` when it is inserted at `at`. */
function endAfterInsert(at: Position, text: string): Position {
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak === -1) return { line: at.line, character: at.character + text.length };
  let breaks = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) breaks++;
  return { line: at.line + breaks, character: text.length - lastBreak - 1 };
}

/** A position at or after the change's end, moved by the change. */
function shift(p: Position, changeEnd: Position, newEnd: Position): Position {
  if (p.line === changeEnd.line) return { line: newEnd.line, character: newEnd.character + (p.character - changeEnd.character) };
  return { line: p.line + (newEnd.line - changeEnd.line), character: p.character };
}

/**
 * The range after one change, and whether the change touched the range's text. Text typed right at the
 * range's start or end stays outside it; a change across a boundary pulls the range over the new text.
 */
export function rangeAfterChange(range: RangeRecord, change: TextChange): { range: RangeRecord; overlapped: boolean } {
  const cStart = startOf(change.range);
  const cEnd = endOf(change.range);
  const newEnd = endAfterInsert(cStart, change.text);
  const rStart = startOf(range);
  const rEnd = endOf(range);
  const overlapped = cmp(cStart, rEnd) < 0 && cmp(cEnd, rStart) > 0;
  // A change that swallows the whole range (a revert, a reload from disk, a paste over everything) says
  // nothing of where the code went: keep the lines, and let the text check tell whether it changed.
  if (overlapped && cmp(cStart, rStart) <= 0 && cmp(cEnd, rEnd) >= 0) return { range, overlapped };

  let start: Position;
  if (cmp(cEnd, rStart) <= 0) start = shift(rStart, cEnd, newEnd);
  else if (cmp(cStart, rStart) >= 0) start = rStart;
  else start = cStart;

  let end: Position;
  if (cmp(cStart, rEnd) >= 0) end = rEnd;
  else if (cmp(cEnd, rEnd) <= 0) end = shift(rEnd, cEnd, newEnd);
  else end = newEnd;
  if (cmp(end, start) < 0) end = start;

  return {
    range: { startLine: start.line, startCharacter: start.character, endLine: end.line, endCharacter: end.character },
    overlapped,
  };
}
