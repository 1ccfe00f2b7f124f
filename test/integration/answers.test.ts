/**
 * Every button follows the block's kind (issue 24), in the real extension host with the emulator's scripted
 * answers: Apply… on a diff block lands its hunks through the review (and the Applied message's Undo puts
 * the file back); Apply… on a block named for another file reviews that file, never pastes it over the
 * selection; prose and output offer Copy only (result view, done notification, Tasks view); Insert at Cursor
 * asks which of several code blocks, and says so when there is none.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TrackedTask } from '../../src/tasks/model';
import { openAndSelect, setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\`\`\``;

/** A unified diff of math.ts: mean() returns NaN for an empty list instead of throwing. */
const MEAN_DIFF = [
  '--- a/src/math.ts',
  '+++ b/src/math.ts',
  '@@ -5,6 +5,3 @@',
  ' export function mean(values: number[]): number {',
  '-  if (values.length === 0) {',
  "-    throw new Error('mean of an empty list');",
  '-  }',
  '-  return values.reduce(add, 0) / values.length;',
  '+  return values.length ? values.reduce(add, 0) / values.length : NaN;',
  ' }',
  '',
].join('\n');

describe('answers: every button follows the block\'s kind', () => {
  const mathUri = () => workspaceUri('src', 'math.ts');
  const greetUri = () => workspaceUri('src', 'greet.py');
  const originals = new Map<string, string>();

  /** Puts a file back as it was (its open document saved, and the disk). */
  async function restore(uri: vscode.Uri): Promise<void> {
    const content = originals.get(uri.toString())!;
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
  const text = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();

  // Registered before the shared hooks (which close every editor), so the files are put back first.
  afterEach(async () => {
    await vscode.commands.executeCommand('refactorPreview.discard').then(undefined, () => undefined);
    for (const uri of [mathUri(), greetUri()]) await restore(uri);
  });

  const ctx = useExtensionWithEmulator();

  before(async () => {
    for (const uri of [mathUri(), greetUri()]) originals.set(uri.toString(), new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    await setSetting('resultView', 'rendered');
    await setSetting('openResultOnCompletion', false);
  });
  after(async () => {
    await setSetting('resultView', 'markdown');
    await setSetting('openResultOnCompletion', undefined);
  });

  /** Sends lines 5–10 of math.ts (mean) with `answer` scripted as the reply; resolves once it is announced. */
  async function send(answer: string, instruction = 'Make mean() total'): Promise<{ task: TrackedTask; editor: vscode.TextEditor }> {
    const editor = await openAndSelect('src/math.ts', 4, 10);
    ctx.emulator.setNextTask({ result: answer });
    ctx.user.inputs = [instruction];
    const sent = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateSelection');
    assert.ok(sent, 'a task was sent');
    await waitFor(() => ctx.user.shown.find(s => s.message.includes(`task done: ${instruction}`)), 'the done notification');
    return { task: ctx.api.store.get(sent.id)!, editor };
  }

  /**
   * Runs a command that opens the Refactor Preview and presses its Apply until the command ends (the preview
   * shows when VS Code gets to it: Apply is pressed again, never after a fixed wait).
   */
  async function applyInPreview<T>(running: Thenable<T>, unchanged: vscode.Uri[]): Promise<T> {
    const before = await Promise.all(unchanged.map(text));
    let settled = false;
    const outcome = Promise.resolve(running).finally(() => (settled = true));
    let checked = false;
    while (!settled) {
      if (!checked) {
        assert.deepStrictEqual(await Promise.all(unchanged.map(text)), before, 'nothing written before Apply');
        checked = true;
      }
      await vscode.commands.executeCommand('refactorPreview.apply').then(undefined, () => undefined);
      await Promise.race([outcome, new Promise(r => setTimeout(r, 250))]);
    }
    return outcome;
  }

  /**
   * The done notification's buttons but Open Result (offered when the result view opened on submit is not open yet:
   * the first task of a run can end before its view is made; what is asked here is Apply versus Review).
   */
  const doneActions = () => ctx.user.shown.find(s => s.message.includes('task done'))?.actions.filter(a => a !== 'Open Result');

  /** The result view's page once it shows the answer (the view opened on submit redraws when the task ends). */
  async function renderedAnswer(task: TrackedTask): Promise<string> {
    const panel = await ctx.api.resultPanels.page.show(task);
    return waitFor(() => panel.webview.html.includes('class="block-bar"') && panel.webview.html, 'the answer in the result view');
  }

  it('Apply… on a diff block lands its hunks through the review; the Applied message\'s Undo puts the file back', async () => {
    const answer = `mean() now returns NaN:\n\n${fence('diff', MEAN_DIFF)}\n\nThe tests:\n\n${fence('text', 'PASS 3 tests\n')}\n`;
    const { task } = await send(answer);
    assert.deepStrictEqual(doneActions(), ['Copy Result', 'Review Changes…', 'Check Proposal…'], 'a diff is reviewed, not applied to the selection');

    const html = await renderedAnswer(task);
    assert.ok(html.includes('data-action="apply" data-block="0"'), 'Apply… on the diff block');
    assert.ok(!html.includes('data-action="apply" data-block="1"'), 'no Apply… on the output block');
    assert.ok(html.includes('data-action="copy" data-block="1"'), 'Copy on the output block');

    const original = await text(mathUri());
    ctx.user.onMessage = s => (s.message.startsWith('Applied the reviewed changes') ? 'Undo' : undefined);
    const outcome = await applyInPreview(vscode.commands.executeCommand('multiAgent.applyToSource', task.id, 0), [mathUri()]);
    assert.strictEqual(outcome, 'applied');
    const lines = original.split('\n');
    const expected = [...lines.slice(0, 5), '  return values.length ? values.reduce(add, 0) / values.length : NaN;', ...lines.slice(9)].join('\n');
    assert.strictEqual(await text(mathUri()), expected, 'the hunk landed; nothing of the diff syntax went into the file');
    const applied = ctx.user.shown.find(s => s.message.startsWith('Applied the reviewed changes'));
    assert.deepStrictEqual(applied?.actions, ['Undo']);
    assert.ok(!ctx.user.shown.some(s => s.message.includes('Review the proposed change')), 'no range diff was proposed');

    await waitFor(async () => (await text(mathUri())) === original, 'Undo to put math.ts back');
  });

  it('Apply… on a block named for another file reviews that file, and never pastes it over the selection', async () => {
    const greet = originals.get(greetUri().toString())!;
    const newGreet = greet.replace('Hello, {name}!', 'Hi, {name}!');
    const answer = `The greeting, shorter:\n\n**src/greet.py**\n${fence('python', newGreet)}\n`;
    const { task, editor } = await send(answer, 'Shorter greeting');
    assert.deepStrictEqual(doneActions(), ['Copy Result', 'Review Changes…', 'Check Proposal…']);
    const selected = editor.document.getText();

    const outcome = await applyInPreview(vscode.commands.executeCommand('multiAgent.applyToSource', task.id, 0), [greetUri(), mathUri()]);
    assert.strictEqual(outcome, 'applied');
    assert.strictEqual(await text(greetUri()), newGreet, 'greet.py got its new text');
    assert.strictEqual(editor.document.getText(), selected, 'math.ts (the selection) is untouched');
    assert.ok(!ctx.user.shown.some(s => s.message.includes('Review the proposed change')), 'no range diff was proposed');
  });

  it('prose and output offer Copy only: no Apply… in the result view, the done notification, the Tasks view or Apply to Source', async () => {
    const answer = `The function is fine as it is. Running it gives:\n\n${fence('console', '$ node mean.js\n2.5\n')}\n\nNo change is needed.\n`;
    const { task } = await send(answer, 'Check mean()');
    assert.deepStrictEqual(doneActions(), ['Copy Result'], 'no Apply for an answer without code');

    const html = await renderedAnswer(task);
    assert.ok(!html.includes('data-action="apply"'), 'no Apply… button');
    assert.ok(html.includes('data-action="copy" data-block="0"'));
    const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === task.id)!;
    assert.strictEqual(ctx.api.sidebar.tasks.getTreeItem(node).contextValue, 'task open copy prompt trace continue source runAgain remove', 'neither Apply nor Insert in the Tasks view');

    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', task.id), undefined);
    assert.ok(ctx.user.messages('error').includes('The answer has no code block to apply. Copy the parts you want instead.'), JSON.stringify(ctx.user.shown));
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', task.id, 0), undefined);
    assert.ok(ctx.user.messages('error').some(m => m.startsWith('Code block 1 of the answer is output or prose')), JSON.stringify(ctx.user.shown));
    assert.strictEqual(await text(mathUri()), originals.get(mathUri().toString()));
  });

  it('Insert at Cursor asks which of several code blocks (with previews), never inserts prose or a diff, and says so when there is no code', async () => {
    const blockA = 'export function median(values: number[]): number {\n  return values[values.length >> 1];\n}\n';
    const blockB = 'export const half = (n: number) => n / 2;\n';
    const answer = `Two helpers.\n\nFirst:\n\n${fence('ts', blockA)}\n\nA diff for mean:\n\n${fence('diff', MEAN_DIFF)}\n\nSecond:\n\n${fence('ts', blockB)}\n`;
    const { task, editor } = await send(answer, 'Add helpers');
    const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === task.id)!;
    assert.strictEqual(ctx.api.sidebar.tasks.getTreeItem(node).contextValue, 'task open copy review allChanges check insert prompt trace continue source runAgain remove');

    // The cursor on the blank line 4, nothing selected.
    await vscode.window.showTextDocument(editor.document);
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    let offered: { label: string; detail?: string }[] = [];
    ctx.user.picks = [(_s: unknown, items: unknown) => ((offered = items as typeof offered), offered[1])];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', task.id), 'inserted');
    assert.deepStrictEqual(offered.map(o => o.label), ['Block 1 · ts', 'Block 3 · ts'], 'the two code blocks, not the diff');
    assert.deepStrictEqual(offered.map(o => o.detail), ['export function median(values: number[]): number { ⏎ return values[values.length >> 1];', 'export const half = (n: number) => n / 2;']);
    const original = originals.get(mathUri().toString())!;
    const lines = original.split('\n');
    // One line fills the blank line 4 it was inserted on.
    assert.strictEqual(editor.document.getText(), [...lines.slice(0, 3), blockB.trimEnd(), ...lines.slice(4)].join('\n'), 'only the chosen block went in');

    // An answer whose only change is a diff, and one with prose only: nothing is inserted, and the user is told.
    await restore(mathUri());
    const { task: diffOnly } = await send(`Here:\n\n${fence('diff', MEAN_DIFF)}\n`, 'Diff only');
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', diffOnly.id), undefined);
    assert.ok(ctx.user.messages('error').includes('The answer has no code block to insert: its changes are diffs. Review Changes… or Apply… lands them.'), JSON.stringify(ctx.user.shown));
    const { task: prose } = await send('Nothing to change: mean() is correct.\n', 'Prose only');
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', prose.id), undefined);
    assert.ok(ctx.user.messages('error').includes('The answer has no code block to insert. Copy the parts you want instead.'), JSON.stringify(ctx.user.shown));
    assert.strictEqual(await text(mathUri()), original, 'nothing was inserted');
    assert.ok(!ctx.user.shown.some(s => s.kind === 'pick' && s.message.includes('goes in at the cursor') && s.actions.length === 0));

    // Issue 43: a block that defines again what the file defines is asked first; the answer "no" keeps the file.
    const again = 'export function mean(values: number[]): number {\n  return values.length ? values.reduce(add, 0) / values.length : 0;\n}\n';
    const { task: twice, editor: atEnd } = await send(`Shorter:\n\n${fence('ts', again)}\n`, 'Mean again');
    await vscode.window.showTextDocument(atEnd.document);
    atEnd.selection = new vscode.Selection(atEnd.document.lineCount - 1, 0, atEnd.document.lineCount - 1, 0);
    ctx.user.confirms = [false];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', twice.id), undefined);
    const asked = ctx.user.shown.filter(s => s.kind === 'confirm').pop();
    assert.strictEqual(asked?.message, 'src/math.ts already defines "mean": this block defines it again.');
    assert.deepStrictEqual(asked?.actions, ['Insert Anyway']);
    assert.strictEqual(await text(mathUri()), original, 'nothing inserted when not confirmed');
    ctx.user.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', twice.id), 'inserted', 'inserted when the user says so');
    await restore(mathUri());
  });
});
