/**
 * The `*** Begin Patch` … `*** End Patch` format (the apply_patch format models write): its files as diffs
 * whose hunks are placed by their context lines. Also how a hunk with no place at all is marked, for unified
 * diffs too (`unanchored`).
 */
import type { DiffHunk, DiffLine, FileDiff } from './patch';

/** `*** Begin Patch` … `*** End Patch` (the apply_patch format): its files as diffs placed by their context. */
export function parseBeginPatch(body: string): { path: string; action: 'update' | 'add' | 'delete'; diff: FileDiff; movedTo?: string }[] {
  const lines = body.split('\n');
  const out: { path: string; action: 'update' | 'add' | 'delete'; diff: FileDiff; movedTo?: string }[] = [];
  let cur: (typeof out)[number] | undefined;
  let hunk: DiffHunk | undefined;
  const fresh = (): FileDiff => ({ created: false, deleted: false, renamed: false, binary: false, hunks: [], eolMarked: false, headersPastCap: 0 });
  const close = () => {
    if (cur && hunk && hunk.lines.length) cur.diff.hunks.push(hunk);
    hunk = undefined;
  };
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const file = /^\*\*\* (Update|Add|Delete) File:\s*(.*?)\s*$/.exec(line.length > 4200 ? line.slice(0, 4200) : line);
    if (file) {
      close();
      const action = file[1].toLowerCase() as 'update' | 'add' | 'delete';
      cur = { path: file[2], action, diff: fresh() };
      cur.diff.oldPath = file[2];
      cur.diff.newPath = file[2];
      if (action === 'add') {
        cur.diff.created = true;
        hunk = { header: '*** Add File', lines: [] };
      }
      if (action === 'delete') cur.diff.deleted = true;
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('*** Move to:')) {
      cur.movedTo = line.slice(12).trim();
      cur.diff.renamed = true;
      continue;
    }
    if (line.startsWith('*** End of File') || line.startsWith('*** End Patch') || line.startsWith('*** Begin Patch')) {
      if (!line.startsWith('*** End of File')) close();
      continue;
    }
    if (line.startsWith('@@')) {
      const anchor = line.slice(2).trim().slice(0, 200);
      // Stacked anchors (`@@ class Cart`, then `@@ def total`) narrow one hunk's place, outermost first.
      if (hunk && !hunk.lines.length && hunk.anchors && anchor) {
        hunk.anchors.push(anchor);
        hunk.header = `${hunk.header} ${line}`.slice(0, 400);
        continue;
      }
      close();
      hunk = { header: line.length > 200 ? `${line.slice(0, 200)}…` : line, lines: [], ...(anchor ? { anchors: [anchor] } : {}) };
      continue;
    }
    if (cur.action === 'delete') continue;
    const c = line[0];
    const add = (op: DiffLine['op'], text: string) => {
      hunk ??= { header: '@@', lines: [] };
      hunk.lines.push({ op, text, noEol: false });
    };
    if (cur.action === 'add') {
      if (c === '+') add('+', line.slice(1));
      continue;
    }
    if (c === ' ' || c === '-' || c === '+') add(c, line.slice(1));
    else if (line === '' && hunk) add(' ', '');
  }
  close();
  for (const f of out) {
    // Trailing blank lines are separators, as in a unified diff.
    for (const h of f.diff.hunks) while (h.lines.length && h.lines[h.lines.length - 1].op === ' ' && h.lines[h.lines.length - 1].text === '') h.lines.pop();
    f.diff.hunks = f.diff.hunks.filter(h => h.lines.length);
    if (f.action === 'update') {
      for (const h of f.diff.hunks) {
        // Only added lines: the `@@ <line>` header is where they go (right after that line).
        const anchor = h.anchors?.[h.anchors.length - 1] ?? '';
        if (anchor && !h.lines.some(l => l.op !== '+')) h.lines.unshift({ op: ' ', text: anchor, noEol: false });
      }
      unanchored(f.diff);
    }
  }
  return out;
}

/** Never matches a line of a file (a NUL and a line break cannot be in one line). */
const NOWHERE = '\u0000\n';

/**
 * A hunk with neither line numbers nor a line to find (only added lines) has no place: given a line that is
 * in no file, so the plan lists it ("does not apply") instead of putting it at the top of the file.
 */
export function unanchored(diff: FileDiff): void {
  if (diff.created) return;
  for (const h of diff.hunks) if (h.oldStart === undefined && !h.lines.some(l => l.op !== '+')) h.lines.unshift({ op: ' ', text: NOWHERE, noEol: false });
}
