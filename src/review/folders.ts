/**
 * Several workspace folders (multi-root, issue 26): which folder each file an answer names lands in. A path
 * whose first segment is a folder's name (the reader's `target.folder`) goes to that folder; an unprefixed path
 * goes to the folder the task was sent from; without such a folder, to the one folder where the file exists. A
 * path that exists in several folders, or in none, with no folder to go by is listed with its reason, never
 * guessed. The plan then speaks of `<folder>/<path>` ("qualified" paths), so the same relative path in two
 * folders is two files. Pure: the host says where files exist.
 */
import type { ParsedAnswer, Proposal, RejectedBlock } from './answer';

/** A file an answer names: its path, relative to `folder` when its first segment named one. */
export interface NamedTarget {
  folder?: string;
  path: string;
}

/** Where a target lands: its qualified path, or why it is not placed (with the folders it was found in). */
export type Placement = { path: string; folder: string } | { problem: 'inSeveralFolders' | 'noFolder'; folders: string[] };

/** One key per target (a folder's name cannot hold the separator a path never has). */
export const targetKey = (t: NamedTarget) => `${t.folder ?? ''}\u0000${t.path}`;

/** The path the plan uses for a file of `folder`: `<folder>/<path>` with several folders, else the path itself. */
export function qualified(folder: string, path: string, folderCount: number): string {
  return folderCount > 1 ? `${folder}/${path}` : path;
}

/** The unique targets of an answer's proposals (and the task's source, when it has one), in order. */
export function targetsOf(parsed: ParsedAnswer, source?: NamedTarget): NamedTarget[] {
  const seen = new Map<string, NamedTarget>();
  const add = (t: NamedTarget) => {
    const k = targetKey(t);
    if (!seen.has(k)) seen.set(k, t.folder !== undefined ? { folder: t.folder, path: t.path } : { path: t.path });
  };
  for (const p of parsed.proposals) add(p);
  if (source) add(source);
  return [...seen.values()];
}

/**
 * Places each target (see the module comment). `home`: the folder the task was sent from, if it is open.
 * `foundIn(path)`: the folders (names) that hold an entry at `path`; asked only for an unprefixed path when
 * there is no home and several folders.
 */
export async function placeTargets(
  targets: readonly NamedTarget[],
  folders: readonly string[],
  home: string | undefined,
  foundIn: (path: string) => Promise<string[]>,
): Promise<Placement[]> {
  const out: Placement[] = [];
  for (const t of targets) {
    let folder = t.folder ?? home ?? (folders.length === 1 ? folders[0] : undefined);
    if (folder === undefined) {
      const found = await foundIn(t.path);
      if (found.length !== 1) {
        out.push({ problem: found.length ? 'inSeveralFolders' : 'noFolder', folders: found });
        continue;
      }
      folder = found[0];
    }
    out.push({ folder, path: qualified(folder, t.path, folders.length) });
  }
  return out;
}

/**
 * The answer with each proposal's path qualified by its placement; a proposal not placed is moved to
 * `rejected` with its reason. `placements` is aligned with `targets`.
 */
export function placeProposals(parsed: ParsedAnswer, targets: readonly NamedTarget[], placements: readonly Placement[]): ParsedAnswer {
  const byKey = new Map<string, Placement>();
  targets.forEach((t, i) => byKey.set(targetKey(t), placements[i]));
  const proposals: Proposal[] = [];
  const rejected: RejectedBlock[] = [...parsed.rejected];
  for (const p of parsed.proposals) {
    const placed = byKey.get(targetKey(p));
    if (!placed) {
      rejected.push({ block: p.block, line: p.line, path: p.path, code: 'noFolder', isDiff: p.kind === 'diff', detail: '' });
    } else if ('problem' in placed) {
      rejected.push({ block: p.block, line: p.line, path: p.path, code: placed.problem, isDiff: p.kind === 'diff', detail: placed.folders.join(', ') });
    } else {
      proposals.push({ ...p, path: placed.path, folder: placed.folder });
    }
  }
  return { ...parsed, proposals, rejected };
}
