/**
 * Issue 26 (item 8): several workspace folders. Which folder each file of an answer lands in: a path that names
 * a folder goes there, an unprefixed one to the folder the task was sent from, and one that is in several
 * folders (or in none) with no folder to go by is listed with its reason, never guessed. Then the planner's
 * thread, with two real folders on disk: the same relative path in both is two files.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAnswer } from '../../src/review/answer';
import { type NamedTarget, type Placement, placeProposals, placeTargets, qualified, targetsOf } from '../../src/review/folders';
import { planOffThread, workerScript } from '../../src/review/offThread';
import type { FileState } from '../../src/review/plan';

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\`\n`;
const FOLDERS = ['client', 'server'];

describe('review: several workspace folders (issue 26)', () => {
  /** Where each path exists, as the host would find it. */
  const existing: Record<string, string[]> = { 'src/shared.ts': ['client', 'server'], 'src/only-server.ts': ['server'] };
  const foundIn = async (p: string) => existing[p] ?? [];

  it('a path that names a folder goes to that folder; an unprefixed one to the folder the task was sent from', async () => {
    const targets: NamedTarget[] = [{ folder: 'server', path: 'src/shared.ts' }, { path: 'src/shared.ts' }, { path: 'src/new.ts' }];
    assert.deepEqual(await placeTargets(targets, FOLDERS, 'client', foundIn), [
      { folder: 'server', path: 'server/src/shared.ts' },
      { folder: 'client', path: 'client/src/shared.ts' },
      { folder: 'client', path: 'client/src/new.ts' },
    ]);
  });

  it('without a source folder: the one folder that holds the file; in several or in none, a reason, never a guess', async () => {
    const targets: NamedTarget[] = [{ path: 'src/only-server.ts' }, { path: 'src/shared.ts' }, { path: 'src/new.ts' }, { folder: 'client', path: 'src/new.ts' }];
    assert.deepEqual(await placeTargets(targets, FOLDERS, undefined, foundIn), [
      { folder: 'server', path: 'server/src/only-server.ts' },
      { problem: 'inSeveralFolders', folders: ['client', 'server'] },
      { problem: 'noFolder', folders: [] },
      { folder: 'client', path: 'client/src/new.ts' },
    ]);
  });

  it('one folder: paths stay as they are and nothing is looked up', async () => {
    let asked = 0;
    const placed = await placeTargets([{ path: 'src/a.ts' }], ['app'], undefined, async () => {
      asked++;
      return [];
    });
    assert.deepEqual(placed, [{ folder: 'app', path: 'src/a.ts' }]);
    assert.equal(asked, 0);
    assert.equal(qualified('app', 'src/a.ts', 1), 'src/a.ts');
    assert.equal(qualified('app', 'src/a.ts', 2), 'app/src/a.ts');
  });

  it('the proposals take their placed paths; an unplaced one is rejected with the folders it was found in', async () => {
    const answer = fence('ts path=server/src/shared.ts', 'export const s = 1;') + fence('ts path=src/shared.ts', 'export const c = 1;');
    const parsed = parseAnswer(answer, { folders: FOLDERS });
    const targets = targetsOf(parsed);
    assert.deepEqual(targets, [{ folder: 'server', path: 'src/shared.ts' }, { path: 'src/shared.ts' }]);
    const placed = placeProposals(parsed, targets, await placeTargets(targets, FOLDERS, undefined, foundIn));
    assert.deepEqual(
      placed.proposals.map(p => [p.path, p.folder]),
      [['server/src/shared.ts', 'server']],
    );
    assert.deepEqual(
      placed.rejected.map(r => [r.path, r.code, r.detail]),
      [['src/shared.ts', 'inSeveralFolders', 'client, server']],
    );
  });

  describe('the planner\'s thread with two real folders', () => {
    const script = workerScript(path.join(__dirname, '../../src/review'));
    let root: string;
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-folders-'));
      for (const f of FOLDERS) {
        fs.mkdirSync(path.join(root, f, 'src'), { recursive: true });
        fs.writeFileSync(path.join(root, f, 'src', 'shared.ts'), `export const where = '${f}';\n`);
      }
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    /** The host's part: places the targets on the real folders and reads each placed file. */
    const plan = (answer: string, home: string | undefined, sourcePath?: string) =>
      planOffThread(script, { answer, caseless: false, folders: FOLDERS.map(name => ({ name })), home, sourcePath }, async (_paths, targets) => {
        const placements: Placement[] = await placeTargets(targets, FOLDERS, home, async p => FOLDERS.filter(f => fs.existsSync(path.join(root, f, p))));
        const states = new Map<string, FileState>();
        placements.forEach((placed, i) => {
          if (!('path' in placed)) return;
          const file = path.join(root, placed.folder, targets[i].path);
          states.set(placed.path, fs.existsSync(file) ? { kind: 'file', text: fs.readFileSync(file, 'utf8') } : { kind: 'missing' });
        });
        // The source, as the host gives it: its plan path in its own folder.
        const source = home && sourcePath ? { path: qualified(home, sourcePath, FOLDERS.length) } : undefined;
        return { states, sent: new Map(), placements, source };
      });

    it('lands the same relative path in both folders as two files, each with its own text', async () => {
      const answer =
        fence('diff path=client/src/shared.ts', "@@ -1 +1 @@\n-export const where = 'client';\n+export const where = 'CLIENT';") +
        fence('diff path=server/src/shared.ts', "@@ -1 +1 @@\n-export const where = 'server';\n+export const where = 'SERVER';");
      const p = await plan(answer, undefined);
      assert.deepEqual(
        p.files.map(f => [f.path, f.kind, f.hunks.map(h => h.newText)]),
        [
          ['client/src/shared.ts', 'modify', ["export const where = 'CLIENT';\n"]],
          ['server/src/shared.ts', 'modify', ["export const where = 'SERVER';\n"]],
        ],
      );
    });

    it('an unprefixed path goes to the folder the task was sent from; with none, it is listed as in both folders', async () => {
      const answer = fence('diff path=src/shared.ts', "@@ -1 +1 @@\n-export const where = 'server';\n+export const where = 'changed';");
      const fromServer = await plan(answer, 'server', 'src/other.ts');
      assert.deepEqual(
        fromServer.files.map(f => [f.path, f.kind]),
        [['server/src/shared.ts', 'modify']],
      );
      const fromNowhere = await plan(answer, undefined);
      assert.equal(fromNowhere.hunkCount, 0);
      assert.deepEqual(
        fromNowhere.files.map(f => [f.path, f.kind, f.reasonCode]),
        [['src/shared.ts', 'skip', 'inSeveralFolders']],
      );
      assert.match(fromNowhere.files[0].reason ?? '', /more than one workspace folder \(client, server\)/);
    });

    it('the range block lands in the source file of its own folder', async () => {
      const answer = `Here:\n${fence('ts', "export const where = 'ranged';")}`;
      const p = await plan(answer, 'server', 'src/shared.ts');
      assert.deepEqual(
        p.files.map(f => [f.path, f.from]),
        [['server/src/shared.ts', 'range']],
      );
    });
  });
});
