/**
 * Scratch copies left behind (issue 44): a check removes its copies when it ends, but an extension host that dies
 * mid-check leaves one in the temp folder, with whatever the folder held (a `.env`). At activation the copies
 * older than any check can run are removed; a kept one (Open Scratch Copy, its marker beside it) stays until the
 * user deletes it. Only our own folders (`multi-agent-check-*`) are looked at, and removing never follows a link.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KEPT_SCRATCH_MARKER, SCRATCH_PREFIX } from './types';

/** Older than this, no check of any window can still be running in a copy (the longest timeout is an hour). */
export const STALE_COPY_MS = 2 * 60 * 60 * 1000;

/** Removes the stale scratch copies in `tmp`; returns the folders removed. Never throws. */
export async function sweepStaleCopies(tmp = os.tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const names = await fs.promises.readdir(tmp).catch(() => [] as string[]);
  for (const name of names.filter(n => n.startsWith(SCRATCH_PREFIX))) {
    const base = path.join(tmp, name);
    const st = await fs.promises.lstat(base).catch(() => undefined);
    if (!st?.isDirectory() || now - st.mtimeMs < STALE_COPY_MS) continue;
    if (await fs.promises.access(path.join(base, KEPT_SCRATCH_MARKER)).then(() => true, () => false)) continue;
    if (await fs.promises.rm(base, { recursive: true, force: true, maxRetries: 2 }).then(() => true, () => false)) removed.push(base);
  }
  return removed;
}
