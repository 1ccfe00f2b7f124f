/**
 * What a copy may hold and how long it stays (issue 44): a link to a file outside the folder is left out of the copy
 * (a key linked into a repository is not copied where the check can read it), and the copies a dead extension host
 * left behind are swept at activation, never a kept or a recent one. tasks/checking/scratch.ts, sweep.ts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildScratch, listFiles, removeScratch } from '../../src/tasks/checking/scratch';
import { STALE_COPY_MS, sweepStaleCopies } from '../../src/tasks/checking/sweep';
import { KEPT_SCRATCH_MARKER, SCRATCH_PREFIX } from '../../src/tasks/checking/types';

describe('checking: what a copy holds and how long it stays (issue 44)', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-sweep-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a link to a file outside the folder is left out; one to a file inside is kept', async function () {
    if (process.platform === 'win32') this.skip();
    const folder = path.join(root, 'project');
    fs.mkdirSync(path.join(folder, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'id_ed25519'), 'PRIVATE-KEY');
    fs.writeFileSync(path.join(folder, 'src', 'a.js'), 'a');
    fs.symlinkSync(path.join(root, 'id_ed25519'), path.join(folder, 'key'));
    fs.symlinkSync('src/a.js', path.join(folder, 'alias.js'));
    const listed = await listFiles(folder);
    const scratch = await buildScratch({ root: folder, files: listed.files, overlay: new Map() });
    try {
      assert.equal(fs.existsSync(path.join(scratch.dir, 'key')), false, 'the key outside is not copied in');
      assert.equal(fs.readFileSync(path.join(scratch.dir, 'alias.js'), 'utf8'), 'a');
    } finally {
      await removeScratch(scratch);
    }
  });

  it('sweeps our stale copies only: not a recent one, not a kept one, not another program\'s folder', async () => {
    const make = (name: string, ageMs: number, kept = false) => {
      const dir = path.join(root, name);
      fs.mkdirSync(path.join(dir, 'project'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'project', '.env'), 'SECRET=1');
      if (kept) fs.writeFileSync(path.join(dir, KEPT_SCRATCH_MARKER), '{}');
      const when = new Date(Date.now() - ageMs);
      fs.utimesSync(dir, when, when);
      return dir;
    };
    const stale = make(`${SCRATCH_PREFIX}old`, STALE_COPY_MS + 60_000);
    const recent = make(`${SCRATCH_PREFIX}new`, 60_000);
    const kept = make(`${SCRATCH_PREFIX}kept`, STALE_COPY_MS * 10, true);
    const other = make('someone-else-old', STALE_COPY_MS * 10);
    assert.deepEqual(await sweepStaleCopies(root), [stale]);
    assert.deepEqual([stale, recent, kept, other].map(d => fs.existsSync(d)), [false, true, true, true]);
  });
});
