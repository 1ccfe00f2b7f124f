/**
 * Issue 26 (item 8): a workspace of two folders, in the real extension host. Runs in the harness's two-folder
 * run (`MAT_MULTI_ROOT=1`, test/harness/runIntegration.js: folders `client` and `server`); with one folder it
 * skips. A selection in the second folder goes with its folder's name, files are attached from both folders,
 * and Review Changes lands each file of the emulator's answer in its own folder: the same relative path in both
 * folders is two files, never confused. An unprefixed path found in both folders, for a task sent from
 * neither, is listed with its reason and not written.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { folderOf, prepareReview } from '../../src/documents/reviewPlan';
import { reviewUri } from '../../src/documents/uris';
import { applyHunks } from '../../src/review';
import type { TrackedTask } from '../../src/tasks/model';
import { setSetting, useExtensionWithEmulator, waitFor } from './helpers';

const SHARED = (who: string) => `${Array.from({ length: 12 }, (_, i) => `export const ${who}${i + 1} = ${i + 1};`).join('\n')}\n`;

describe('several folders (multi-root)', () => {
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  const folder = (name: string) => folders().find(f => f.name === name)!;
  const uri = (name: string, ...segments: string[]) => vscode.Uri.joinPath(folder(name).uri, ...segments);
  const sharedOf = (name: string) => uri(name, 'tmp-multi', 'shared.ts');
  /**
   * Puts a file at `content`: through its document when one is open (saved), else on disk, and not at all when it
   * already holds it. A write VS Code's file watcher reports late, after a Refactor Preview opened, makes the
   * preview refuse ("other files have changed in the meantime"), so a file is never written twice or needlessly.
   */
  const write = async (u: vscode.Uri, content: string) => {
    const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === u.toString());
    if (doc && !doc.isClosed) {
      if (doc.getText() !== content) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(u, new vscode.Range(0, 0, doc.lineCount, 0), content);
        await vscode.workspace.applyEdit(edit);
      }
      if (doc.isDirty) await doc.save();
      return;
    }
    const onDisk = await vscode.workspace.fs.readFile(u).then(b => new TextDecoder().decode(b), () => undefined);
    if (onDisk !== content) await vscode.workspace.fs.writeFile(u, new TextEncoder().encode(content));
  };
  const text = async (u: vscode.Uri) => {
    const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === u.toString());
    return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(u));
  };

  before(async function () {
    if (folders().length < 2) this.skip();
    await setSetting('openResultOnCompletion', false);
  });
  after(async () => {
    if (folders().length < 2) return;
    await setSetting('openResultOnCompletion', undefined);
    for (const name of ['client', 'server']) await vscode.workspace.fs.delete(uri(name, 'tmp-multi'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('refactorPreview.discard').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await write(sharedOf('client'), SHARED('client'));
    await write(sharedOf('server'), SHARED('server'));
    await write(uri('server', 'tmp-multi', 'util.ts'), 'export const util = 1;\n');
  });

  const ctx = useExtensionWithEmulator();
  const runs = () => ctx.emulator.requests.filter(r => r.path.endsWith('/run'));

  async function done(id: string): Promise<TrackedTask> {
    return waitFor(() => (ctx.api.store.get(id)?.status === 'completed' ? ctx.api.store.get(id) : undefined), 'the answer', 30_000);
  }

  it('multi-root: a selection in the second folder is sent as <folder>/<path>, files attached from both folders', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sharedOf('server')), { preview: false });
    editor.selection = new vscode.Selection(2, 0, 6, 0);
    await ctx.api.attachments.add([sharedOf('client'), uri('server', 'tmp-multi', 'util.ts')]);
    ctx.user.inputs = ['Check these constants'];
    const task = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateSelection');
    assert.ok(task, 'sent');
    const prompt = (runs().at(-1)!.body as { prompt: string }).prompt;
    assert.ok(prompt.startsWith('Check these constants\n\nserver/tmp-multi/shared.ts (lines 3-6):\n\n```typescript\nexport const server3 = 3;'), prompt.slice(0, 200));
    assert.ok(prompt.includes('Attached file client/tmp-multi/shared.ts:'), 'the client folder\'s file, with its folder');
    assert.ok(prompt.includes('Attached file server/tmp-multi/util.ts:'), 'the server folder\'s file, with its folder');
    assert.ok(prompt.includes('The workspace has several folders (client, server): start each path with its folder\'s name'), prompt.slice(-400));
    assert.strictEqual(ctx.api.store.get(task.id)?.source?.label, 'server/tmp-multi/shared.ts');
  });

  it('multi-root: Review Changes lands each file in its own folder; the same relative path in both is two files', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sharedOf('server')), { preview: false });
    editor.selection = new vscode.Selection(2, 0, 6, 0);
    await ctx.api.attachments.add([sharedOf('client'), uri('server', 'tmp-multi', 'util.ts')]);
    ctx.user.inputs = ['Check these constants'];
    const sent = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateSelection');
    const task = await done(sent!.id);

    // The plan: every file under its folder's name, each resolved inside its own folder.
    const answer = (await ctx.api.store.readResult(task.id))!;
    const review = await prepareReview({ store: ctx.api.store, tracker: ctx.api.tracker }, task, answer, folder('server'));
    const offered = review.plan.files.filter(f => f.kind !== 'skip');
    assert.deepStrictEqual(offered.map(f => f.path).sort(), ['client/tmp-multi/shared.ts', 'server/tmp-multi/shared.ts', 'server/tmp-multi/util.ts']);
    for (const f of offered) {
      const [name, ...rest] = f.path.split('/');
      assert.strictEqual(review.uriOf(f.path).toString(), uri(name, ...rest).toString(), `${f.path} in its own folder`);
    }
    const expected = new Map<string, string>();
    for (const f of offered) expected.set(review.uriOf(f.path).toString(), applyHunks(review.current.get(f.path)!, f.hunks, h => !h.conflict));

    // The real command, applied in the Refactor Preview.
    const notes = reviewUri(task.id, 'notes', `Review of ${task.title}`);
    ctx.api.reviews.setAll(task.id, new Map());
    const outcome = vscode.commands.executeCommand('multiAgent.reviewChanges', task.id);
    await waitFor(() => ctx.api.reviews.provideTextDocumentContent(notes).startsWith('# Review of'), 'the review to be planned', 60_000);
    await new Promise(r => setTimeout(r, 1500));
    assert.strictEqual(await text(sharedOf('client')), SHARED('client'), 'nothing written before Apply');
    await vscode.commands.executeCommand('refactorPreview.apply');
    assert.strictEqual(await outcome, 'applied');
    for (const [u, after] of expected) assert.strictEqual(await text(vscode.Uri.parse(u)), after, `${u} as planned`);
    const client = await text(sharedOf('client'));
    const server = await text(sharedOf('server'));
    assert.notStrictEqual(client, SHARED('client'), 'the client folder\'s file changed');
    assert.notStrictEqual(server, SHARED('server'), 'the server folder\'s file changed');
    assert.ok(client.includes('client1') && !client.includes('server1'), 'the client file has only its own text');
    assert.ok(server.includes('server1') && !server.includes('client1'), 'the server file has only its own text');
  });

  it('multi-root: an unprefixed path found in both folders, for a task sent from neither, is listed with its reason', async () => {
    ctx.emulator.setNextTask({ result: ['Done:', '', '```diff path=tmp-multi/shared.ts', '@@ -1 +1 @@', '-export const client1 = 1;', '+export const client1 = 100;', '```', ''].join('\n') });
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sharedOf('client')), { preview: false });
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    ctx.user.inputs = ['Change the first constant'];
    const sent = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateSelection');
    // The same task as one sent from no folder (a chat or MCP task of the instruction alone).
    const task: TrackedTask = { ...(await done(sent!.id)), source: undefined, sent: undefined, workspace: undefined };
    const answer = (await ctx.api.store.readResult(task.id))!;
    const review = await prepareReview({ store: ctx.api.store, tracker: ctx.api.tracker }, task, answer, folderOf(task));
    assert.strictEqual(review.plan.hunkCount, 0);
    assert.deepStrictEqual(
      review.plan.files.map(f => [f.path, f.reasonCode]),
      [['tmp-multi/shared.ts', 'inSeveralFolders']],
    );
    assert.match(review.plan.files[0].reason ?? '', /more than one workspace folder \(client, server\)/);
    assert.strictEqual(await text(sharedOf('client')), SHARED('client'));
  });
});
