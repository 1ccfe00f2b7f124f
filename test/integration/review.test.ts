import * as assert from 'assert';
import * as vscode from 'vscode';
import { openAndSelect, setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';
import { sleep } from './faults/common';

const NEW_MEAN = 'export function mean(values: number[]): number {\n  return values.length ? values.reduce(add, 0) / values.length : NaN;\n}\n';
const ANSWER = `# Proposal\n\nReturn NaN instead of throwing:\n\n\`\`\`typescript\n${NEW_MEAN}\`\`\`\n`;

function diffTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'multi-agent-proposal');
}

describe('review and apply', () => {
  let original = '';
  // Registered before the shared hooks, so math.ts is reverted before they close every editor.
  afterEach(async () => {
    const doc = await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'));
    if (doc.getText() !== original) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), original);
      await vscode.workspace.applyEdit(edit);
    }
    if (doc.isDirty) await doc.save(); // the same text as on disk
    assert.strictEqual(doc.getText(), original, 'math.ts restored');
  });

  const ctx = useExtensionWithEmulator();

  before(async () => {
    await setSetting('resultView', 'rendered');
    await setSetting('openResultOnCompletion', false);
    original = (await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'))).getText();
  });
  after(async () => {
    await setSetting('resultView', 'markdown');
    await setSetting('openResultOnCompletion', undefined);
  });
  /** Sends lines 5-10 of math.ts (mean) with the selection kept, and waits for the answer. */
  async function sendMean(result = ANSWER): Promise<{ id: string; editor: vscode.TextEditor }> {
    const editor = await openAndSelect('src/math.ts', 4, 10);
    const announced = ctx.user.messages('info').filter(m => m.includes('task done')).length;
    ctx.emulator.setNextTask({ result });
    ctx.user.inputs = ['Make mean() total'];
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
    assert.ok(task);
    await waitFor(() => ctx.user.messages('info').filter(m => m.includes('task done')).length > announced, 'the done notification');
    return { id: task.id, editor };
  }

  it('review: the completion offers Apply to Source…, which changes nothing until Accept, then exactly the range, undoably', async () => {
    ctx.user.onMessage = s => (s.message.includes('task done') ? 'Apply to Source…' : undefined);
    const { editor } = await sendMean();
    const done = ctx.user.shown.find(s => s.message.includes('task done'));
    // No Open: the result view opened when the task was sent (multiAgent.openResultOnSubmit, issue 20).
    assert.deepStrictEqual(done?.actions, ['Copy Result', 'Apply to Source…'], 'no button edits a file without a preview');
    const review = await waitFor(() => ctx.user.shown.find(s => s.message.includes('Review the proposed change')), 'the review question');
    assert.deepStrictEqual(review.actions, ['Accept', 'Discard']);
    assert.match(review.message, /math\.ts \(lines 5–10\)/);
    await waitFor(() => diffTabs().length === 1, 'the diff');
    assert.match(diffTabs()[0].label, /math\.ts \(lines 5–10\) ↔ proposal/);
    assert.strictEqual(editor.document.getText(), original, 'unchanged while the diff is open');
    assert.ok(!editor.document.isDirty);

    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.acceptProposal', diffTabs()[0].input && (diffTabs()[0].input as vscode.TabInputTextDiff).modified), 'applied');
    const doc = await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'));
    const lines = original.split('\n');
    assert.strictEqual(doc.getText(), `${lines.slice(0, 4).join('\n')}\n${NEW_MEAN}${lines.slice(10).join('\n')}`, 'exactly the range replaced');
    assert.strictEqual(diffTabs().length, 0, 'the diff closed');

    // The workbench's Undo goes to the editor with the keyboard focus. In the headless browser that focus can
    // arrive late after the diff closes, and an Undo that reaches no editor does nothing at all; so it is sent
    // again (at most three times) only while the file is unchanged. One Undo that reaches it restores it.
    for (let attempt = 0; attempt < 3 && doc.getText() !== original; attempt++) {
      await vscode.window.showTextDocument(doc);
      await waitFor(() => vscode.window.activeTextEditor?.document === doc, 'the file\'s editor to be active');
      await sleep(300);
      await vscode.commands.executeCommand('undo');
      await waitFor(() => doc.getText() === original, 'one Undo to restore the file', 2_000).catch(() => undefined);
    }
    assert.strictEqual(doc.getText(), original, 'one Undo restores the file');
  });

  it('review: Discard changes nothing and closes the diff', async () => {
    const { id, editor } = await sendMean();
    ctx.user.onMessage = s => (s.message.includes('Review the proposed change') ? 'Discard' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', id), 'discarded');
    assert.strictEqual(editor.document.getText(), original);
    assert.ok(!editor.document.isDirty);
    assert.strictEqual(diffTabs().length, 0);
  });

  it('review: follows the range through edits since sending, and says when that code changed', async () => {
    const { id, editor } = await sendMean();
    await editor.edit(e => e.insert(new vscode.Position(0, 0), '// one\n// two\n'));
    // The range tracker has seen the two lines (on a loaded machine its change event can come after edit() resolves).
    await waitFor(async () => (await ctx.api.tracker.now(ctx.api.store.get(id)!)).range.start.line === 6, 'the range moved down two lines');
    ctx.user.onMessage = s => (s.message.includes('Review the proposed change') ? 'Accept' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', id), 'applied');
    const lines = editor.document.getText().split('\n');
    assert.deepStrictEqual(lines.slice(0, 6), ['// one', '// two', ...original.split('\n').slice(0, 4)], 'the lines above are untouched');
    assert.strictEqual(lines.slice(6, 9).join('\n') + '\n', NEW_MEAN, 'the moved range was replaced');
    await vscode.commands.executeCommand('workbench.action.files.revert');

    const second = await sendMean();
    await second.editor.edit(e => e.insert(new vscode.Position(6, 0), '  // edited inside\n'));
    ctx.user.onMessage = s => (s.message.includes('changed since') ? 'Discard' : undefined);
    const outcome = await vscode.commands.executeCommand('multiAgent.applyToSource', second.id, 0);
    assert.strictEqual(outcome, 'discarded', JSON.stringify(ctx.user.shown.filter(s => s.kind !== 'input')));
    assert.ok(id !== second.id);
    assert.ok(ctx.user.shown.some(s => s.kind === 'warn' && /changed since "Make mean\(\) total" was sent/.test(s.message)), JSON.stringify(ctx.user.shown));
  });

  it('review: applies to a file that is not open, and asks which block when there are several', async () => {
    const uri = workspaceUri('src', 'math.ts');
    // Option B is the file's new text (it keeps the file's declarations): the file was sent whole, so it replaces
    // the file. Option A, a lone comment, shows no place (issue 34) and is not the one picked.
    const optionB = `// option B\n${original}export const x = 1;\n`;
    ctx.emulator.setNextTask({ result: `Two options:\n\n\`\`\`ts\n// option A\n\`\`\`\n\n\`\`\`ts\n${optionB}\`\`\`\n` });
    ctx.user.inputs = ['Rewrite the file'];
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateFile', uri);
    assert.ok(task);
    await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the answer');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    let offered: { label: string; detail?: string }[] = [];
    ctx.user.picks = [(_s: unknown, items: unknown) => ((offered = items as typeof offered), offered[1])];
    ctx.user.onMessage = s => (s.message.includes('Review the proposed change') ? 'Accept' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', task.id), 'applied');
    assert.deepStrictEqual(offered.map(o => o.detail), ['// option A', '// option B ⏎ export function add(a: number, b: number): number {']);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), optionB, 'the whole file was replaced (it was sent whole)');
  });

  it('review: Apply… replaces the selection only with its proven new code: a usage example is offered to insert or copy, a block redefining add() goes to add() (issue 34)', async () => {
    // A one-line usage example for mean(): no declaration or line of the selection kept, so no proven place.
    const { id, editor } = await sendMean('Use it like this:\n\n```ts\nconsole.log(mean([1, 2, 3]));\n```\n');
    ctx.user.onMessage = s => (s.message.includes('does not show that it replaces') ? 'Copy Block' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', id), 'discarded');
    const asked = ctx.user.shown.find(s => s.message.includes('does not show that it replaces'));
    assert.deepStrictEqual(asked?.actions, ['Insert at Cursor', 'Copy Block'], 'no Replace, no Accept');
    assert.match(asked!.message, /math\.ts lines 5–10/);
    assert.strictEqual(await vscode.env.clipboard.readText(), 'console.log(mean([1, 2, 3]));\n');
    assert.strictEqual(editor.document.getText(), original, 'nothing replaced');
    assert.strictEqual(diffTabs().length, 0, 'no diff offered');
    // The result view offers it as what it is: Insert…, not a blue Apply… that can only refuse (issue 45).
    await vscode.commands.executeCommand('multiAgent.openResult', id);
    const panel = await waitFor(() => ctx.api.resultPanels.loaded?.panelOf(id), 'the result view');
    const html = await waitFor(() => (panel.webview.html.includes('data-block="0"') ? panel.webview.html : undefined), 'the finished page');
    const bar = html.slice(html.indexOf('<div class="block-bar"'), html.indexOf('</div>', html.indexOf('<div class="block-bar"')));
    assert.ok(bar.includes('data-action="insert" data-block="0"') && !bar.includes('data-action="apply"'), `Insert… instead of Apply…: ${bar}`);
    panel.dispose();

    // Insert at Cursor from that question inserts that very block: it does not ask again which (issue 45).
    const two = await sendMean('Use it like this:\n\n```ts\nconsole.log(mean([1, 2, 3]));\n```\n\nOr in a test:\n\n```ts\nassert.equal(mean([2]), 2);\n```\n');
    // The cursor on the last line with nothing selected, in every editor of the file (the result view opened above
    // may show it in a second one).
    const shown = await vscode.window.showTextDocument(two.editor.document);
    for (const e of vscode.window.visibleTextEditors.filter(e => e.document === shown.document)) e.selection = new vscode.Selection(10, 0, 10, 0);
    const whichBlock = () => ctx.user.shown.filter(s => s.kind === 'pick' && /Which code block/.test(s.message)).length;
    const picksBefore = whichBlock();
    ctx.user.onMessage = s => (s.message.includes('does not show that it replaces') ? 'Insert at Cursor' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', two.id, 1), 'discarded');
    await waitFor(() => shown.document.getText().includes('assert.equal(mean([2]), 2);'), 'block 2 inserted');
    assert.strictEqual(whichBlock(), picksBefore, 'no "which block?" asked');
    assert.ok(!shown.document.getText().includes('console.log(mean'), 'only that block');
    await vscode.commands.executeCommand('workbench.action.files.revert');

    // A block that redefines add() while mean() was selected: proposed for add(), found once by its name.
    const newAdd = 'export function add(a: number, b: number): number {\n  return b + a;\n}\n';
    const second = await sendMean(`Make add() commutative-looking:\n\n\`\`\`ts\n${newAdd}\`\`\`\n`);
    ctx.user.onMessage = s => (s.message.includes('Review the proposed change') ? 'Accept' : undefined);
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', second.id), 'applied');
    const review = ctx.user.shown.find(s => s.message.includes('Review the proposed change'));
    assert.match(review!.message, /math\.ts \(lines 1–3\)/, 'the diff is of add(), not of the selection');
    assert.strictEqual(editor.document.getText(), original.replace('  return a + b;', '  return b + a;'), 'mean() kept, add() replaced');
  });

  it('review: Insert at Cursor never replaces the selection', async () => {
    const { id, editor } = await sendMean();
    assert.ok(!editor.selection.isEmpty, 'the sent code is still selected');
    await vscode.window.showTextDocument(editor.document);
    ctx.user.picks = [(_s: unknown, items: unknown) => (items as { id: string }[]).find(i => i.id === 'insert')];
    // The block defines mean() again beside the selected one: asked first (issue 43), and inserted when confirmed.
    ctx.user.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', id), 'inserted');
    assert.strictEqual(ctx.user.shown.filter(s => s.kind === 'confirm').pop()?.message, 'src/math.ts already defines "mean": this block defines it again.');
    const text = editor.document.getText();
    assert.ok(text.includes("throw new Error('mean of an empty list')"), 'the selected code is still there');
    assert.ok(text.includes(NEW_MEAN), 'the block was inserted');
    assert.strictEqual(text.length, original.length + NEW_MEAN.length);
    assert.ok(ctx.user.shown.some(s => s.kind === 'pick' && /Insert at the cursor or replace the selection/.test(s.message)));
  });

  it('review: the result view shows the header, rendered code with Apply buttons, and renders a hostile answer inert', async () => {
    const hostile = `${ANSWER}\n<script>alert(1)</script>\n\n[run](command:workbench.action.terminal.new)\n\n![x](https://evil.example/p.png)\n`;
    const { id } = await sendMean(hostile);
    await vscode.commands.executeCommand('multiAgent.openResult', id);
    const panel = await waitFor(() => ctx.api.resultPanels.loaded?.panelOf(id), 'the result view');
    // The view opened when the task was sent; its finished page is drawn once the answer is read (after the notification).
    const html = await waitFor(() => (panel.webview.html.includes('data-block="0"') ? panel.webview.html : undefined), 'the finished page');
    assert.strictEqual(panel.viewType, 'multiAgent.result');
    assert.match(panel.title, /^Make mean\(\) total · \d/);
    assert.ok(html.includes('<h1 class="title">Make mean() total</h1>'));
    assert.ok(html.includes('src/math.ts, lines 5–10'), 'a link to the source range');
    assert.ok(html.includes('Show Prompt Sent') && html.includes('Open Raw Markdown'));
    assert.ok(html.includes('data-action="apply" data-block="0"'), 'an Apply button per block');
    assert.ok(html.includes('<span class="tok-keyword">export</span>'), 'highlighted code');
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    assert.ok(!/<script|<img|<a\b|href=/i.test(main), main);
    assert.ok(main.includes('&lt;script&gt;'));
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'; img-src 'none'/);
    assert.strictEqual(panel.webview.options.enableCommandUris, false);

    const prompt = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.showPromptSent', id);
    const sent = (ctx.emulator.requests.find(r => r.path.endsWith('/run'))?.body as { prompt: string }).prompt;
    assert.ok(prompt?.document.getText().includes(sent.trimEnd()), 'exactly what went to the service');
    assert.match(prompt!.document.getText(), /Attachments: none/);
  });

  it('review: Clear Finished and Run Again ask first; Select Model confirms in the Tasks view', async () => {
    const { id } = await sendMean();
    ctx.user.confirms = [false];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.clearFinished'), 0);
    assert.ok(ctx.api.store.get(id), 'nothing cleared without a yes');
    const runs = () => ctx.emulator.requests.filter(r => r.path.endsWith('/run')).length;
    const before = runs();
    ctx.user.confirms = [false];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.runAgain', id), undefined);
    assert.strictEqual(runs(), before, 'nothing sent without a yes');
    const asked = ctx.user.shown.filter(s => s.kind === 'confirm').map(s => s.message);
    assert.deepStrictEqual(asked, ['Clear 1 finished task?', 'Run "Make mean() total" again? This sends a new task to the service.']);

    ctx.user.picks = [(_s: unknown, items: unknown) => (items as { modelId?: string }[]).find(i => i.modelId === 'anthropic/claude-sonnet-4.5')];
    await vscode.commands.executeCommand('multiAgent.selectModel');
    try {
      // By its label from the service's list, not its id (issue 20).
      await waitFor(() => ctx.api.sidebar.views.tasks.description === 'model: Claude Sonnet 4.5', 'the model in the description');
      // A task sent with it names it the same way, never "anthropic/claude-sonnet-4.5" (issue 35).
      const { id: sent } = await sendMean();
      const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === sent)!;
      const tooltip = ctx.api.sidebar.tasks.getTreeItem(node).tooltip;
      const shown = (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/&nbsp;/g, ' ');
      assert.match(shown, /Model: Claude Sonnet 4\.5/);
      assert.ok(!shown.includes('anthropic/claude-sonnet-4.5'), shown);
    } finally {
      await setSetting('modelId', undefined);
    }
  });

  it('review: Set API Key says whether one is stored and keeps a key the service rejects out', async () => {
    ctx.user.inputs = [
      (s: { message: string }) => {
        assert.match(s.message, /A key is stored/);
        return 'tfai_wrong_key_0000000000';
      },
    ];
    // The rejection shows in the box, which stays open (issue 20); Escape (no more input) keeps the stored key.
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.setApiKey'), false);
    assert.ok(ctx.user.messages('inputProblem').includes('The service rejected this key; it was not saved. Correct it, or press Escape.'), JSON.stringify(ctx.user.shown));
    assert.strictEqual(ctx.user.messages('error').length, 0, 'no toast');
    assert.strictEqual(await ctx.api.keys.getApiKey(), ctx.emulator.apiKey);
    ctx.user.inputs = [ctx.emulator.apiKey];
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.setApiKey'), true);
    assert.ok(ctx.user.messages('info').includes('Key saved and accepted by the service.'));
  });

  it('review: attached files are listed in the Tasks view and removable one by one', async () => {
    await ctx.api.attachments.add([workspaceUri('src', 'greet.py'), workspaceUri('empty.txt')]);
    try {
      const roots = ctx.api.sidebar.tasks.getChildren();
      assert.strictEqual(roots[0].kind, 'attachments');
      const files = ctx.api.sidebar.tasks.getChildren(roots[0]);
      assert.strictEqual(files.length, 2);
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.removeAttachment', files[0]), true);
      assert.deepStrictEqual(ctx.api.attachments.list().map(u => u.path.split('/').pop()), ['empty.txt']);
    } finally {
      ctx.api.attachments.clear();
    }
  });
});
