/**
 * Landing a multi-file answer (issue 16) in the real extension host: the instruction the pipeline appends,
 * the texts a task keeps of the files it sent (bounded), the review plan built from the emulator's real
 * answer, the WorkspaceEdit's entries, the Refactor Preview driven by its own Apply / Discard commands, and
 * the drift case (the user types above and inside the change before the answer arrives).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { type ReviewEntry, notOffered, reviewEntries } from '../../src/commands/review';
import { folderOf, prepareReview } from '../../src/documents/reviewPlan';
import { LANDING_INSTRUCTION } from '../../src/tasks/sending/prompt';
import type { TrackedTask } from '../../src/tasks/model';
import * as os from 'os';
import { Commands } from '../../src/constants';
import { reviewUri } from '../../src/documents/uris';
import { setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

const STATS_LINES = Array.from({ length: 30 }, (_, i) => `export const v${i + 1} = ${i + 1};`);
const STATS = `${STATS_LINES.join('\n')}\n`;

describe('landing a multi-file answer', () => {
  const folder = () => workspaceUri('tmp-landing');
  const statsUri = () => workspaceUri('tmp-landing', 'stats.ts');
  const greetUri = () => workspaceUri('src', 'greet.py');
  let greet = '';

  /** Puts a file back to `content`: through its document when one is open (saved), else on disk. */
  async function restore(uri: vscode.Uri, content: string): Promise<void> {
    const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
    if (doc && !doc.isClosed) {
      if (doc.getText() !== content) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), content);
        await vscode.workspace.applyEdit(edit);
      }
      if (doc.isDirty) await doc.save();
    }
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  }

  before(async () => {
    greet = new TextDecoder().decode(await vscode.workspace.fs.readFile(greetUri()));
    await vscode.workspace.fs.writeFile(statsUri(), new TextEncoder().encode(STATS));
    await setSetting('openResultOnCompletion', false);
  });
  after(async () => {
    await setSetting('openResultOnCompletion', undefined);
    await setSetting('askForLandableChanges', undefined);
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });
  // Registered before the shared hooks (which close every editor), so the files are put back first.
  afterEach(async () => {
    await vscode.commands.executeCommand('refactorPreview.discard').then(undefined, () => undefined);
    await vscode.workspace.fs.rename(workspaceUri('src', 'greet-renamed.py'), greetUri()).then(undefined, () => undefined);
    await restore(statsUri(), STATS);
    await restore(greetUri(), greet);
    for (const [name] of await vscode.workspace.fs.readDirectory(folder())) {
      if (name !== 'stats.ts') await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), name), { recursive: true, useTrash: false });
    }
    ctx.api.attachments.clear();
  });

  const ctx = useExtensionWithEmulator();

  const runs = () => ctx.emulator.requests.filter(r => r.path.endsWith('/run'));
  const text = async (uri: vscode.Uri) => {
    const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
    return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  };

  /** Selects lines [from, to) of stats.ts, attaches greet.py and sends; resolves once the task is sent. */
  async function send(options: { attach?: vscode.Uri[]; from?: number; to?: number; instruction?: string } = {}): Promise<{ task: TrackedTask; editor: vscode.TextEditor }> {
    const document = await vscode.workspace.openTextDocument(statsUri());
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    editor.selection = new vscode.Selection(options.from ?? 4, 0, options.to ?? 24, 0);
    if (options.attach?.length) await ctx.api.attachments.add(options.attach);
    ctx.user.inputs = [options.instruction ?? 'Review these constants'];
    const sent = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateSelection');
    assert.ok(sent, 'a task was sent');
    return { task: sent, editor };
  }

  async function done(id: string): Promise<TrackedTask> {
    return waitFor(() => (ctx.api.store.get(id)?.status === 'completed' ? ctx.api.store.get(id) : undefined), 'the answer', 30_000);
  }

  async function entriesOf(task: TrackedTask): Promise<{ entries: ReviewEntry[]; review: Awaited<ReturnType<typeof prepareReview>> }> {
    const answer = (await ctx.api.store.readResult(task.id))!;
    const review = await prepareReview({ store: ctx.api.store, tracker: ctx.api.tracker }, task, answer, folderOf(task)!);
    return { entries: reviewEntries(review), review };
  }

  /** Starts Review Changes, waits until the preview has had time to open, and checks nothing was written yet. */
  async function startReview(id: string, unchanged: Map<vscode.Uri, string>): Promise<{ outcome: Thenable<unknown> }> {
    const title = ctx.api.store.get(id)!.title;
    const notes = reviewUri(id, 'notes', `Review of ${title}`);
    ctx.api.reviews.setAll(id, new Map());
    const outcome = vscode.commands.executeCommand('multiAgent.reviewChanges', id);
    // Planned on its own thread first (as long as the machine needs): its documents are set just before the
    // preview is asked for; then the preview has its time to open.
    await waitFor(() => ctx.api.reviews.provideTextDocumentContent(notes).startsWith('# Review of'), 'the review to be planned', 60_000);
    await new Promise(r => setTimeout(r, 1500));
    for (const [uri, before] of unchanged) assert.strictEqual(await text(uri), before, `${path.basename(uri.path)} unchanged before Apply`);
    // Wrapped: an async function returning a thenable would wait for it.
    return { outcome };
  }

  it('landing: the prompt ends with the instruction when code goes, Show Prompt Sent shows it, and the setting turns it off', async () => {
    const { task } = await send();
    const prompt = (runs()[0].body as { prompt: string }).prompt;
    assert.ok(prompt.startsWith('Review these constants\n\ntmp-landing/stats.ts (lines 5-24):\n\n```typescript\nexport const v5 = 5;'), prompt);
    assert.ok(prompt.endsWith(`\`\`\`\n\n${LANDING_INSTRUCTION}\n`), prompt.slice(-400));
    assert.strictEqual(ctx.api.store.get(task.id)?.prompt, prompt);
    const shown = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.showPromptSent', task.id);
    assert.ok(shown?.document.getText().includes(LANDING_INSTRUCTION), 'Show Prompt Sent shows the instruction');

    await setSetting('askForLandableChanges', false);
    try {
      await send({ instruction: 'Again, without' });
      const second = (runs()[1].body as { prompt: string }).prompt;
      assert.ok(!second.includes('whose info string names'), second);
      assert.ok(second.endsWith('```\n'), second.slice(-100));
    } finally {
      await setSetting('askForLandableChanges', undefined);
    }
  });

  it('landing: the instruction is left out (and the log says so) when it would take the prompt over the limit', async () => {
    // A prompt of 9,900 characters: it fits alone, not with the instruction.
    const instruction = 'Fit exactly';
    const header = `${instruction}\n\ntmp-landing/fill.txt:\n\n\`\`\`\n`;
    const code = `${'x'.repeat(9_900 - header.length - '```\n'.length - 1)}\n`;
    const uri = workspaceUri('tmp-landing', 'fill.txt');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(code));
    ctx.user.inputs = [instruction];
    const task = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateFile', uri);
    assert.ok(task, 'sent, not refused');
    const prompt = (runs()[0].body as { prompt: string }).prompt;
    assert.strictEqual(prompt.length, 9_900, prompt.slice(0, 200));
    assert.ok(!prompt.includes('whose info string names'));
    await new Promise(r => setTimeout(r, 1500)); // the log channel flushes to disk asynchronously
    const logDir = path.dirname(ctx.api.context.logUri.fsPath);
    const logs = fs.readdirSync(logDir, { recursive: true, withFileTypes: true }).filter(e => e.isFile()).map(e => fs.readFileSync(path.join(e.parentPath ?? e.path, e.name), 'utf8'));
    assert.ok(logs.some(l => l.includes('landing instruction left out: with it the prompt would have')), 'the log says why');
  });

  it('landing: a task keeps the text of each file it sent (bounded) and forgets it when removed', async () => {
    const big = workspaceUri('tmp-landing', 'big.txt');
    await vscode.workspace.fs.writeFile(big, new TextEncoder().encode('a line of a large text file\n'.repeat(40_000))); // 1.1 MB
    const { task, editor } = await send({ attach: [greetUri(), big] });
    const atSubmission = editor.document.getText();
    await editor.edit(e => e.insert(new vscode.Position(0, 0), '// typed after sending\n'));
    const sent = await waitFor(() => ctx.api.store.get(task.id)?.sent, 'the record of the files sent');
    assert.deepStrictEqual(
      sent.map(f => [f.label, f.notRecorded ?? 'kept']),
      [
        ['tmp-landing/stats.ts', 'kept'],
        ['src/greet.py', 'kept'],
        ['tmp-landing/big.txt', 'fileBound'],
      ],
    );
    assert.strictEqual(await ctx.api.store.readSent(task.id, sent[0]), atSubmission, 'the whole document as it was when sent');
    assert.strictEqual(await ctx.api.store.readSent(task.id, sent[1]), greet);
    assert.deepStrictEqual(ctx.api.store.get(task.id)?.source?.range, { startLine: 4, startCharacter: 0, endLine: 24, endCharacter: 0 });
    assert.ok(sent[2].bytes > 1024 * 1024);
    // Only references in globalState; the texts are files under globalStorage.
    const record = (ctx.api.context.globalState.get<TrackedTask[]>('multiAgent.tasks.v1') ?? []).find(t => t.id === task.id);
    assert.deepStrictEqual(record?.sent?.map(f => Object.keys(f).sort().join(',')), ['bytes,label,sha256,uri', 'bytes,label,sha256,uri', 'bytes,label,notRecorded,uri']);
    const stored = vscode.Uri.joinPath(ctx.api.context.globalStorageUri, 'sent', task.id);
    assert.deepStrictEqual((await vscode.workspace.fs.readDirectory(stored)).map(([n]) => n).sort(), [sent[0].sha256, sent[1].sha256].map(h => `${h}.txt`).sort());
    await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the answer');
    await vscode.commands.executeCommand('multiAgent.removeTask', task.id);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(stored)), 'the texts go with the task');
  });

  it('landing: the emulator answer becomes one entry per hunk; the preview writes nothing before Apply, then the edit lands in both files', async () => {
    ctx.user.onMessage = () => undefined;
    const { task: sent } = await send({ attach: [greetUri()] });
    const task = await done(sent.id);
    assert.strictEqual(task.namedFiles, 3, 'the source diff, the attached file and the path outside');
    await waitFor(() => ctx.user.shown.find(s => s.message.includes('task done')), 'the done notification');
    assert.deepStrictEqual(ctx.user.shown.find(s => s.message.includes('task done'))?.actions, ['Open Result', 'Copy Result', 'Review Changes…', 'Check Proposal…']);

    const { entries, review } = await entriesOf(task);
    const summary = entries.map(e => [e.kind, path.basename(e.uri.path), e.metadata.label, e.metadata.needsConfirmation]);
    assert.deepStrictEqual(summary, [
      ['replace', 'stats.ts', 'tmp-landing/stats.ts · Hunk 1 of 2 · before line 5 · inserts 1 line', false],
      ['replace', 'stats.ts', 'tmp-landing/stats.ts · Hunk 2 of 2 · line 24 · changes 1 line', false],
      ['replace', 'greet.py', 'src/greet.py · Hunk 1 of 1 · before line 1 · inserts 1 line', false],
      ['opener', 'stats.ts', 'Review before applying', true],
    ]);
    assert.deepStrictEqual(
      notOffered(review).map(s => `${s.what}: ${s.reason}`),
      ['code block 3: not applied (no path): Apply to Source… can still apply it', '../outside-notes.txt: not applied: the path leads outside the workspace'],
    );

    const before = new Map([
      [statsUri(), STATS],
      [greetUri(), greet],
    ]);
    const { outcome: running } = await startReview(task.id, before);
    const listed = await waitFor(() => ctx.user.shown.find(s => s.message.includes('no file to apply to')), 'the list of what is not offered');
    assert.deepStrictEqual(listed.actions, ['Show Details']);
    assert.strictEqual(listed.message, '1 block has no file to apply to; 1 part cannot be applied (../outside-notes.txt: not applied: the path leads outside the workspace).');
    await vscode.commands.executeCommand('refactorPreview.apply');
    assert.strictEqual(await running, 'applied');

    const lines = (await text(statsUri())).split('\n');
    assert.strictEqual(lines[4], '// Reviewed by the agents.');
    assert.strictEqual(lines[5], 'export const v5 = 5;');
    assert.strictEqual(lines[24], 'export const v24 = 24; // Checked by the agents.');
    assert.strictEqual(lines.length, STATS_LINES.length + 2);
    assert.strictEqual(await text(greetUri()), `# Updated by the agents.\n${greet}`);
    assert.ok(ctx.user.messages('info').some(m => m.includes('Applied the reviewed changes to 2 files as one edit')));
    // Two files: saved as Rename saves them (files.refactoring.autoSave), none left unsaved out of sight.
    assert.strictEqual(fs.readFileSync(greetUri().fsPath, 'utf8'), `# Updated by the agents.\n${greet}`, 'greet.py saved');
    assert.strictEqual(fs.readFileSync(statsUri().fsPath, 'utf8').split('\n')[4], '// Reviewed by the agents.', 'stats.ts saved');

    // One edit over both files: one Undo (in either file) restores both.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(statsUri()));
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(await text(statsUri()), STATS, 'one Undo restored stats.ts');
    assert.strictEqual(await text(greetUri()), greet, 'the same Undo restored greet.py');
  });

  it('landing: Discard in the preview writes nothing; the notes list the conflicts and what is not offered', async () => {
    const { task: sent } = await send({ attach: [greetUri()] });
    const task = await done(sent.id);
    const { outcome: running } = await startReview(task.id, new Map([[statsUri(), STATS], [greetUri(), greet]]));
    await vscode.commands.executeCommand('refactorPreview.discard');
    assert.strictEqual(await running, 'discarded');
    assert.strictEqual(await text(statsUri()), STATS);
    assert.strictEqual(await text(greetUri()), greet);
    const dirty = vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file');
    assert.deepStrictEqual(dirty.map(d => d.uri.path), []);

    ctx.user.onMessage = s => (s.message.includes('no file to apply to') ? 'Show Details' : undefined);
    const again = vscode.commands.executeCommand('multiAgent.reviewChanges', task.id);
    const notes = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.uri.scheme === 'multi-agent-review'), 'the notes');
    await vscode.commands.executeCommand('refactorPreview.discard');
    assert.strictEqual(await again, 'discarded');
    const body = notes.document.getText();
    assert.match(body, /## tmp-landing\/stats\.ts\n/);
    assert.match(body, /## Not offered\n\n- code block 3: not applied \(no path\)/);
    assert.match(body, /- \.\.\/outside-notes\.txt: not applied: the path leads outside the workspace/);
  });

  it('landing: drift — 20 lines typed above and an edit inside the second hunk before the answer: the first lands shifted, the second is an unchecked conflict', async () => {
    // Held until the edits are made: the answer cannot arrive first, however slow the machine.
    ctx.emulator.setNextTask({ hold: true });
    const { task: sent, editor } = await send({ attach: [greetUri()] });
    await editor.edit(e => e.insert(new vscode.Position(0, 0), Array.from({ length: 20 }, (_, i) => `// note ${i + 1}\n`).join('')));
    const edited = editor.document.lineAt(43);
    assert.strictEqual(edited.text, 'export const v24 = 24;');
    await editor.edit(e => e.replace(edited.range, 'export const v24 = 2400;'));
    assert.notStrictEqual(ctx.api.store.get(sent.id)?.status, 'completed', 'the edits were made before the answer arrived');
    assert.strictEqual(ctx.emulator.release(sent.id), 1);
    const task = await done(sent.id);
    const typed = editor.document.getText();

    const { entries } = await entriesOf(task);
    const stats = entries.filter(e => path.basename(e.uri.path) === 'stats.ts');
    assert.deepStrictEqual(
      stats.map(e => [e.kind, e.metadata.label, e.metadata.needsConfirmation]),
      [
        ['replace', 'tmp-landing/stats.ts · Hunk 1 of 2 · before line 25 · inserts 1 line', false],
        ['replace', 'Conflict · tmp-landing/stats.ts · Hunk 2 of 2 · line 44 · changes 1 line · conflict: you changed these lines', true],
      ],
    );
    assert.match(stats[0].metadata.description ?? '', /moved by your edits/);
    assert.match(stats[1].metadata.description ?? '', /your version \("export const v24 = 2400;"\) with the proposal's \("export const v24 = 24; \/\/ Checked by the agents\."\)/);
    assert.ok(!entries.some(e => e.kind === 'opener'), 'a conflict opens the preview by itself');

    const { outcome: running } = await startReview(task.id, new Map([[statsUri(), typed], [greetUri(), greet]]));
    await vscode.commands.executeCommand('refactorPreview.apply');
    assert.strictEqual(await running, 'applied');
    const lines = (await text(statsUri())).split('\n');
    assert.deepStrictEqual(lines.slice(23, 26), ['export const v4 = 4;', '// Reviewed by the agents.', 'export const v5 = 5;'], 'the first hunk landed 20 lines lower');
    assert.strictEqual(lines[44], 'export const v24 = 2400;', 'the conflict was left out: the user\'s line stays');
    assert.strictEqual(await text(greetUri()), `# Updated by the agents.\n${greet}`);
  });

  it('landing: Open All Changes shows every file now against the file with its hunks (conflicts left out), in one tab', async () => {
    ctx.emulator.setNextTask({ hold: true });
    const { task: sent, editor } = await send({ attach: [greetUri()] });
    await editor.edit(e => e.replace(editor.document.lineAt(23).range, 'export const v24 = 2400;'));
    assert.strictEqual(ctx.emulator.release(sent.id), 1, 'edited before the answer');
    const task = await done(sent.id);
    const typed = editor.document.getText();
    assert.strictEqual(await vscode.commands.executeCommand(Commands.openAllChanges, task.id), 2);
    const title = `Changes proposed for "${task.title}"`;
    const tabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.label.startsWith(title));
    await waitFor(() => tabs().length === 1, 'the multi-file diff tab');
    const proposed = await vscode.workspace.openTextDocument(reviewUri(task.id, 'proposed', 'tmp-landing/stats.ts'));
    const now = await vscode.workspace.openTextDocument(reviewUri(task.id, 'now', 'tmp-landing/stats.ts'));
    assert.strictEqual(now.getText(), typed);
    const lines = typed.split('\n');
    lines.splice(4, 0, '// Reviewed by the agents.');
    assert.strictEqual(proposed.getText(), lines.join('\n'), 'the first hunk only: the conflict is not on the right side');
    assert.strictEqual((await vscode.workspace.openTextDocument(reviewUri(task.id, 'proposed', 'src/greet.py'))).getText(), `# Updated by the agents.\n${greet}`);
    assert.strictEqual(typed, await text(statsUri()), 'nothing written');
    await vscode.commands.executeCommand(Commands.openAllChanges, task.id);
    await new Promise(r => setTimeout(r, 500));
    assert.strictEqual(tabs().length, 1, 'run again, it replaces its tab');
  });

  it('landing: paths outside the workspace (also through a symlink), a missing file, a deletion and a diff that does not apply are listed, never written; a file that can run code starts unchecked', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-outside-'));
    fs.symlinkSync(outside, path.join(folder().fsPath, 'linked'));
    fs.writeFileSync(path.join(outside, 'target.ts'), 'export const target = 1;\n');
    fs.symlinkSync(path.join(outside, 'target.ts'), path.join(folder().fsPath, 'alias.ts'));
    try {
      const answer = [
        '```ts path=[run](command:multiAgent.clearApiKey)\nx\n```',
        '```ts path=tmp-landing/linked/evil.ts\nexport const evil = 1;\n```',
        '```ts path=tmp-landing/alias.ts\nexport const target = 2;\n```',
        '```ts path=/etc/evil.ts\nx\n```',
        '```diff path=tmp-landing/missing.ts\n@@ -1,1 +1,1 @@\n-old\n+new\n```',
        '```diff\n--- a/src/greet.py\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-def greet(name: str) -> str:\n```',
        '```diff path=tmp-landing/stats.ts\n@@ -1,2 +1,2 @@\n-not in the file\n+anything\n not here either\n```',
        '```ts path=tmp-landing/fresh.ts\nexport const fresh = true;\n```',
        '```json path=.vscode/tasks.json\n{ "version": "2.0.0" }\n```',
      ].join('\n\n');
      ctx.emulator.setNextTask({ result: answer });
      const { task: sent } = await send();
      const task = await done(sent.id);
      const { entries, review } = await entriesOf(task);
      assert.deepStrictEqual(entries.map(e => [e.kind, path.basename(e.uri.path), e.metadata.label, e.metadata.needsConfirmation]), [
        ['create', 'fresh.ts', 'tmp-landing/fresh.ts · Hunk 1 of 1 · new file · 1 line', false],
        ['create', 'tasks.json', '.vscode/tasks.json · Hunk 1 of 1 · new file · 1 line', true],
      ]);
      assert.match(entries[1].metadata.description ?? '', /a file that can run code \(VS Code runs its tasks/);
      assert.deepStrictEqual(notOffered(review).map(s => `${s.what}: ${s.reason}`), [
        '[run](command:multiAgent.clearApiKey): not applied: the path leads outside the workspace',
        'tmp-landing/linked/evil.ts: not applied: the path leads outside the workspace',
        'tmp-landing/alias.ts: not applied: the path leads outside the workspace',
        '/etc/evil.ts: not applied: the path leads outside the workspace',
        'tmp-landing/missing.ts: not applied: the file to change does not exist',
        'src/greet.py: not applied: deleting files is never applied',
        'tmp-landing/stats.ts: not applied: the diff does not apply to the file',
        'tmp-landing/stats.ts: hunk 1 (@@ -1,2 +1,2 @@) does not apply: its lines are not in the file',
      ]);
      const { outcome } = await startReview(task.id, new Map([[statsUri(), STATS]]));
      const listed = await waitFor(() => ctx.user.shown.find(s => s.message.includes('cannot be applied')), 'the list of what is not offered');
      assert.match(listed.message, /\b\d parts cannot be applied \(\[run\]\u200B\(command:multiAgent\.clearApiKey\): not applied: the path leads outside/);
      assert.ok(!listed.message.includes(']('), 'a path from the answer never becomes a link in a notification');
      await vscode.commands.executeCommand('refactorPreview.apply');
      assert.strictEqual(await outcome, 'applied');
      assert.strictEqual(await text(workspaceUri('tmp-landing', 'fresh.ts')), 'export const fresh = true;\n', 'the new file was created');
      assert.deepStrictEqual(fs.readdirSync(outside), ['target.ts'], 'nothing written outside');
      assert.strictEqual(fs.readFileSync(path.join(outside, 'target.ts'), 'utf8'), 'export const target = 1;\n');
      assert.strictEqual(await text(greetUri()), greet, 'never deleted');
      assert.ok(!fs.existsSync(path.join(folder().fsPath, 'missing.ts')));
      assert.ok(!fs.existsSync(path.join(path.dirname(folder().fsPath), '.vscode', 'tasks.json')), 'a file that can run code is created only when checked');
    } finally {
      fs.rmSync(path.join(path.dirname(folder().fsPath), '.vscode'), { recursive: true, force: true });
      fs.rmSync(path.join(folder().fsPath, 'linked'), { force: true });
      fs.rmSync(path.join(folder().fsPath, 'alias.ts'), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('landing: a new file that differs only in letter case from one beside it is held with its reason, never created (issue 43)', async () => {
    const answer = '```ts path=tmp-landing/Stats.ts\nexport const v1 = 100;\n```';
    ctx.emulator.setNextTask({ result: answer });
    const { task: sent } = await send();
    const task = await done(sent.id);
    const { entries, review } = await entriesOf(task);
    assert.deepStrictEqual(entries.filter(e => e.kind === 'create'), [], 'nothing created');
    assert.deepStrictEqual(notOffered(review).map(s => `${s.what}: ${s.reason}`), [
      'tmp-landing/Stats.ts: not applied: "Stats.ts" differs only in letter case from the file "stats.ts" beside it; ask for that file by its name',
    ]);
    assert.deepStrictEqual((await vscode.workspace.fs.readDirectory(folder())).map(([n]) => n).sort(), ['stats.ts']);
  });

  it('landing: the result view, the Tasks view and @team offer Review Changes for an answer that names files', async () => {
    const { task: sent } = await send({ attach: [greetUri()] });
    const task = await done(sent.id);
    const panel = await ctx.api.resultPanels.page.show(task);
    assert.ok(panel.webview.html.includes('data-offer="review"') && panel.webview.html.includes('Review Changes…'));
    assert.ok(panel.webview.html.includes('data-offer="allChanges"'));
    panel.dispose();
    const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === task.id)!;
    assert.strictEqual(ctx.api.sidebar.tasks.getTreeItem(node).contextValue, 'task open copy review allChanges check insert prompt trace continue source runAgain remove');

    // An answer without named blocks keeps today's Apply to Source.
    ctx.emulator.setNextTask({ result: 'Use this:\n\n```ts\nexport const v5 = 50;\n```\n' });
    const { task: plainSent } = await send({ instruction: 'Plain answer' });
    const plain = await done(plainSent.id);
    assert.strictEqual(plain.namedFiles, undefined);
    const plainNode = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === plain.id)!;
    assert.strictEqual(ctx.api.sidebar.tasks.getTreeItem(plainNode).contextValue, 'task open copy apply insert prompt trace continue source runAgain remove');
    // The done notification first: with the result view open, it offers no Open Result (it is open).
    await waitFor(() => ctx.user.shown.find(s => s.message.includes('task done: Plain answer')), 'the done notification');
    assert.deepStrictEqual(ctx.user.shown.find(s => s.message.includes('task done: Plain answer'))?.actions, ['Open Result', 'Copy Result', 'Apply to Source…']);
    const plainPanel = await ctx.api.resultPanels.page.show(plain);
    assert.ok(!plainPanel.webview.html.includes('data-offer="review"'));
    plainPanel.dispose();
  });

  it('landing: a file renamed since sending is listed, not re-created; a closed one is read from disk', async () => {
    const { task: sent } = await send({ attach: [greetUri()] });
    const task = await done(sent.id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.rename(greetUri(), workspaceUri('src', 'greet-renamed.py'));
    try {
      const { entries, review } = await entriesOf(task);
      assert.deepStrictEqual(entries.map(e => path.basename(e.uri.path)), ['stats.ts', 'stats.ts', 'stats.ts']);
      assert.ok(
        notOffered(review).some(s => s.what === 'src/greet.py' && s.reason === 'not applied: the file was moved or deleted since the task was sent'),
        JSON.stringify(notOffered(review)),
      );
    } finally {
      await vscode.workspace.fs.rename(workspaceUri('src', 'greet-renamed.py'), greetUri());
    }
  });

  it('landing: a file over the kept-text bound merges against the file now, and the review says so', async () => {
    const big = workspaceUri('tmp-landing', 'big.txt');
    const bigText = 'a line of a large text file\n'.repeat(40_000);
    await vscode.workspace.fs.writeFile(big, new TextEncoder().encode(bigText));
    ctx.emulator.setNextTask({ result: 'One change:\n\n```diff path=tmp-landing/big.txt\n@@ -1,2 +1,3 @@\n+a first line\n a line of a large text file\n a line of a large text file\n```\n' });
    const { task: sent } = await send({ attach: [big] });
    const task = await done(sent.id);
    assert.strictEqual(ctx.api.store.get(task.id)?.sent?.find(f => f.label === 'tmp-landing/big.txt')?.notRecorded, 'fileBound');
    const { entries, review } = await entriesOf(task);
    assert.deepStrictEqual(entries.map(e => e.metadata.label), ['tmp-landing/big.txt · Hunk 1 of 1 · before line 1 · inserts 1 line', 'Review before applying']);
    assert.match(entries[0].metadata.description ?? '', /merged against the file as it is now: it was over 1\.0 MB when sent/);
    assert.ok(review.plan.files[0].twoWay);
  });
});
