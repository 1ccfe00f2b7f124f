/**
 * Issue 20, what a newcomer trips over, in the real extension host against the emulator: the code a command
 * sends when a webview has the focus, Stop Tracking's words, Insert at Cursor, the result view on submit,
 * one editor group, connection trouble on the rows, chat answers shown once, transcripts rendered, service
 * files, and the small ones (the chosen model, Undo, Run Again's line count, the usage panel's own tasks).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { createAgentsHandler } from '../../src/chat/participant';
import type { TrackedTask } from '../../src/tasks/model';
import { DEFAULT_MODEL_ID } from '../emulator/state';
import { orchestrate, shownMessage, sleep } from './faults/common';
import { openAndSelect, resultTabs, setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

/** Puts `text` back into the document and saves it, so no test leaves a dirty editor behind. */
async function restore(document: vscode.TextDocument, text: string): Promise<void> {
  if (document.getText() !== text) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
  }
  if (document.isDirty) await document.save();
}

const iconOf = (item: vscode.TreeItem) => (item.iconPath as vscode.ThemeIcon | undefined)?.id;
const plainText = (md: unknown) => (md as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
const BLOCK = 'export function add3(a: number): number {\n  return a + 3;\n}\n';
const ANSWER = `# Proposal\n\nA helper:\n\n\`\`\`typescript\n${BLOCK}\`\`\`\n`;

describe('issue 20: what a newcomer trips over', function () {
  const ctx = useExtensionWithEmulator();
  const rowOf = (id: string) => {
    const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === id);
    assert.ok(node, `a row for ${id}`);
    return ctx.api.sidebar.tasks.getTreeItem(node);
  };
  /** The editor group of the tab whose label starts with `label`. */
  const columnOf = (label: string) => vscode.window.tabGroups.all.find(g => g.tabs.some(t => t.label.startsWith(label)))?.viewColumn;
  const runs = () => ctx.emulator.requests.filter(r => r.method === 'POST' && (r.path.endsWith('/run') || r.path.endsWith('/runs')));

  describe('1 the code a command sends', () => {
    let webview: vscode.WebviewPanel | undefined;
    afterEach(() => webview?.dispose());

    it('Run in Thread with a webview focused sends the code of the editor beside it, named in the question', async () => {
      const thread = await ctx.api.api.client().createThread({ title: 'newcomer' });
      await openAndSelect('src/math.ts', 0, 3);
      webview = vscode.window.createWebviewPanel('test.other', 'Another view', vscode.ViewColumn.Two);
      await waitFor(() => vscode.window.activeTextEditor === undefined, 'the webview to take the focus');
      ctx.user.inputs = ['Explain add'];
      const task = await vscode.commands.executeCommand<TrackedTask>('multiAgent.runInThread', { thread });
      assert.ok(task, JSON.stringify(ctx.user.shown));
      assert.deepStrictEqual(ctx.user.messages('input'), ['What should the agents do with src/math.ts, lines 1–3?']);
      const body = runs()[0].body as { prompt: string };
      assert.ok(body.prompt.startsWith('Explain add\n\nsrc/math.ts (lines 1-3):\n\n```typescript\nexport function add'), body.prompt);
    });

    it('Run in Thread with no code in view asks before sending the instruction alone; declined, nothing goes', async () => {
      const thread = await ctx.api.api.client().createThread({ title: 'no code' });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      ctx.emulator.resetStats();
      ctx.user.inputs = ['Anything'];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.runInThread', { thread }), undefined);
      const asked = ctx.user.shown.find(s => s.message === 'No code is selected: send the instruction alone?');
      assert.deepStrictEqual([asked?.kind, asked?.actions], ['ask', ['Send Instruction Alone']], 'a modal question');
      assert.strictEqual(runs().length, 0);
      // Accepted: the question no longer speaks of code.
      ctx.user.onMessage = s => (s.actions.includes('Send Instruction Alone') ? 'Send Instruction Alone' : undefined);
      ctx.user.inputs = ['Summarize the thread'];
      assert.ok(await vscode.commands.executeCommand('multiAgent.runInThread', { thread }));
      assert.ok(ctx.user.messages('input').includes('What should the agents do? (No code goes with this task.)'));
      assert.strictEqual((runs()[0].body as { prompt: string }).prompt, 'Summarize the thread');
    });

    it('Orchestrate Selection with no editor offers to open or send a file, never an error', async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.orchestrateSelection'), undefined);
      const offer = ctx.user.shown.find(s => s.message.startsWith('Open a file and select the code'));
      assert.strictEqual(offer?.kind, 'info');
      assert.deepStrictEqual(offer.actions, ['Open a File…', 'Send a File…']);
      assert.strictEqual(ctx.user.messages('error').length, 0);
    });
  });

  describe('2 Stop Tracking', () => {
    it('says "no longer followed — still running on the service" in the row, the status bar and the picker; the row gets Follow Again', async () => {
      ctx.emulator.setTaskDuration(30_000);
      const task = (await orchestrate(ctx, 'Stop following me'))!;
      await vscode.commands.executeCommand('multiAgent.stopTracking', task.id);
      const row = rowOf(task.id);
      assert.strictEqual(row.contextValue, 'task prompt source runAgain followAgain remove', 'the menu offers Follow Again');
      // No time: it did not end when it was let go (issue 35: "Took 4s"); the tooltip says until when it was followed.
      assert.strictEqual(String(row.description), 'no longer followed — still running on the service');
      assert.match(plainText(row.tooltip), /Followed until /);
      assert.doesNotMatch(plainText(row.tooltip), /Took/);
      assert.strictEqual(iconOf(row), 'eye-closed');
      assert.match(plainText(row.tooltip), /Status: no longer followed — still running on the service/);
      assert.doesNotMatch(plainText(row.tooltip), /canceled/);
      assert.strictEqual(ctx.api.statusBar.item.text, '$(eye-closed) No longer followed: Stop following me (still running on the service)');
      const tooltip = (ctx.api.statusBar.item.tooltip as vscode.MarkdownString).value;
      assert.ok(tooltip.includes('command:multiAgent.followAgain?'), 'the tooltip links Follow Again');
      assert.strictEqual(ctx.emulator.task(task.id)?.canceledAt, undefined);
      assert.strictEqual(ctx.user.shown.filter(s => /canceled/i.test(s.message)).length, 0, 'no "canceled" popup');
      // The Follow Again picker says the same.
      let offered: readonly vscode.QuickPickItem[] = [];
      ctx.user.picks = [(_s: unknown, items: unknown) => void (offered = items as vscode.QuickPickItem[])];
      await vscode.commands.executeCommand('multiAgent.followAgain');
      assert.deepStrictEqual(offered.map(i => [i.label, i.description]), [['Stop following me', 'no longer followed — still running on the service']]);
      const manifest = vscode.extensions.getExtension('multi-agent-tasks.multi-agent-tasks')!.packageJSON as {
        contributes: { menus: Record<string, { command: string; group?: string; when?: string }[]> };
      };
      const itemMenu = manifest.contributes.menus['view/item/context'];
      const groupOf = (command: string) => itemMenu.find(m => m.command === command && !m.group?.startsWith('inline'))?.group?.split('@')[0];
      assert.notStrictEqual(groupOf('multiAgent.stopTracking'), groupOf('multiAgent.cancelTask'), 'Stop Tracking sits apart from Cancel Task');
      assert.strictEqual(groupOf('multiAgent.followAgain'), groupOf('multiAgent.stopTracking'));
    });
  });

  describe('3 Insert at Cursor', () => {
    it('puts a multi-line block on lines of its own after the cursor\'s line, indented like it', async () => {
      ctx.emulator.setNextTask({ result: ANSWER });
      const task = (await orchestrate(ctx, 'A helper'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the answer');
      const editor = await openAndSelect('src/math.ts');
      const original = editor.document.getText();
      const end = editor.document.lineAt(1).range.end; // "  return a + b;"
      editor.selection = new vscode.Selection(end, end);
      // Run from elsewhere (the result view, here another editor beside): the code's editor gets the focus back,
      // its cursor after the inserted lines, so Ctrl+Z there undoes it (issue 35).
      const elsewhere = await vscode.workspace.openTextDocument({ content: 'elsewhere' });
      await vscode.window.showTextDocument(elsewhere, { viewColumn: vscode.ViewColumn.Beside });
      try {
        assert.strictEqual(await vscode.commands.executeCommand('multiAgent.insertResult', task.id), 'inserted');
        const lines = editor.document.getText().split('\n');
        assert.deepStrictEqual(lines.slice(0, 6), [
          'export function add(a: number, b: number): number {',
          '  return a + b;',
          '  export function add3(a: number): number {',
          '    return a + 3;',
          '  }',
          '}',
        ]);
        const active = vscode.window.activeTextEditor;
        assert.strictEqual(active?.document.uri.toString(), editor.document.uri.toString(), 'the code\'s editor has the focus');
        assert.deepStrictEqual([active.selection.active.line, active.selection.active.character], [4, 3], 'the cursor after the inserted lines');
      } finally {
        await restore(editor.document, original);
      }
    });
  });

  describe('4 and 6: the result view on submit, in one editor group', () => {
    before(() => setSetting('resultView', 'rendered'));
    after(async () => {
      await setSetting('resultView', 'markdown');
      await setSetting('openResultOnSubmit', undefined);
    });

    it('opens the running view beside the code on submit, the editor keeps the focus; prompt and raw result join its group', async () => {
      ctx.emulator.setNextTask({ hold: true }); // running until the view is checked
      const task = (await orchestrate(ctx, 'Open on submit'))!;
      const panel = ctx.api.resultPanels.loaded?.panelOf(task.id);
      assert.ok(panel, 'the result view is open at once');
      assert.ok(!ctx.api.store.get(task.id)?.finishedAt, 'while the task runs');
      assert.match(panel.webview.html, /The agents are working/);
      assert.match(panel.webview.html, /<button data-offer="cancel"[^>]*>Cancel Task<\/button>/, 'Cancel Task while it runs');
      assert.strictEqual(await waitFor(() => columnOf('Open on submit · '), 'the view\'s tab'), vscode.ViewColumn.Two);
      assert.ok(vscode.window.activeTextEditor?.document.uri.path.endsWith('src/math.ts'), 'typing continues in the editor');
      assert.match(ctx.api.statusBar.item.text, /^\$\(sync~spin\) Agents (working|\d+%) · \d+s$/);
      assert.strictEqual(ctx.emulator.release(), 1);

      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task to complete');
      await waitFor(() => !panel.webview.html.includes('data-offer="cancel"'), 'the page without Cancel Task once it ended');
      await waitFor(() => ctx.user.shown.find(s => s.message.includes('task done: Open on submit')), 'the done toast');
      assert.deepStrictEqual(ctx.user.shown.find(s => s.message.includes('task done: Open on submit'))?.actions, ['Copy Result', 'Review Changes…', 'Check Proposal…'], 'no Open Result: it is open (the emulator names the changed file: Review Changes…)');

      await vscode.commands.executeCommand('multiAgent.showPromptSent', task.id);
      await vscode.commands.executeCommand('multiAgent.openRawResult', task.id);
      await vscode.commands.executeCommand('multiAgent.openTranscript', String((await ctx.api.api.client().createThread({ title: 'columns' })).id));
      // The tab model follows the workbench a moment later.
      await waitFor(() => vscode.window.tabGroups.all.some(g => g.tabs.some(t => /^(columns|Thread \d+)$/.test(t.label))), 'the transcript\'s tab', 5_000).catch(() => undefined);
      assert.strictEqual(vscode.window.tabGroups.all.length, 2, `no third column: ${vscode.window.tabGroups.all.map(g => g.tabs.map(t => t.label).join(', ')).join(' | ')}`);
      const beside = vscode.window.tabGroups.all[1].tabs.map(t => t.label);
      assert.ok(beside.some(l => l.startsWith('Open on submit · ')) && beside.some(l => l.startsWith('Prompt sent')) && beside.includes('Open on submit.md') && beside.some(l => /^(columns|Thread \d+)$/.test(l)), vscode.window.tabGroups.all.map(g => `${g.viewColumn}: ${g.tabs.map(t => t.label).join(', ')}`).join(' | '));
    });

    it('multiAgent.openResultOnSubmit false: nothing opens until the task completes', async () => {
      await setSetting('openResultOnSubmit', false);
      await setSetting('openResultOnCompletion', false);
      try {
        const task = (await orchestrate(ctx, 'Quiet submit'))!;
        assert.strictEqual(ctx.api.resultPanels.loaded?.panelOf(task.id), undefined);
        await waitFor(() => ctx.user.shown.find(s => s.message.includes('task done: Quiet submit')), 'the done toast');
        assert.deepStrictEqual(ctx.user.shown.find(s => s.message.includes('task done: Quiet submit'))?.actions, ['Open Result', 'Copy Result', 'Review Changes…', 'Check Proposal…']);
      } finally {
        await setSetting('openResultOnCompletion', undefined);
      }
    });

    it('8 a thread transcript renders like a result: the answer\'s headings below each message\'s, server text inert', async () => {
      const thread = await ctx.api.api.client().createThread({ title: 'Rendered thread' });
      ctx.emulator.setNextTask({ result: '# Proposal\n\n[run](command:x) <script>alert(1)</script>\n' });
      const task = await ctx.api.api.client().runInThread(thread.id, { prompt: 'Propose something' });
      await waitFor(async () => (await ctx.api.api.client().getTaskStatus(task.taskId)).status === 'completed', 'the run');
      await sleep(1500); // the service saves a finished run's messages a moment later
      await openAndSelect('src/math.ts');
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.openTranscript', String(thread.id)), undefined);
      const panel = await waitFor(() => ctx.api.transcriptPanels.loaded?.panelOf(String(thread.id)), 'the transcript view');
      const html = await waitFor(() => panel.webview.html.includes('Proposal') && panel.webview.html, 'the messages');
      assert.ok(html.includes('<h2>You') && html.includes('<h2>Agents'), html.slice(0, 2000));
      assert.ok(html.includes('<h3>Proposal</h3>') && !html.includes('<h1>Proposal'), 'the answer\'s h1 sits below the message\'s h2');
      assert.ok(html.includes('&lt;script&gt;') && !html.includes('<a '), 'inert');
      assert.strictEqual(await waitFor(() => columnOf('Rendered thread'), 'the view\'s tab'), vscode.ViewColumn.Two, 'beside the code, not over it');
    });
  });

  describe('9 connection trouble and an unknown task', () => {
    it('rows wait (no spinner) while the service is unreachable; its words appear once', async () => {
      ctx.emulator.setTaskDuration(30_000);
      const task = (await orchestrate(ctx, 'Outage row'))!;
      await ctx.emulator.stop();
      try {
        await waitFor(() => ctx.api.pollerStatus.pausedReason, 'the poller to wait', 15_000);
        const row = rowOf(task.id);
        assert.strictEqual(iconOf(row), 'watch');
        assert.match(String(row.description), /^waiting for the service · /);
        assert.match(plainText(row.tooltip), /Could not reach the service \([^()]+\): retrying\. Nothing is lost\./);
        assert.match(ctx.api.statusBar.item.text, /^\$\(watch\) Agents waiting · \d+s$/);
      } finally {
        await ctx.emulator.start();
      }
      await waitFor(() => !ctx.api.pollerStatus.pausedReason, 'the poller to recover', 20_000);
      assert.strictEqual(iconOf(rowOf(task.id)), 'sync~spin');
    });

    it('a task the service no longer knows: its title, Run Again, no raw id, and no agent reads "running"', async () => {
      ctx.emulator.setTaskDuration(30_000);
      const task = (await orchestrate(ctx, 'Lost task'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.agents?.length, 'the agents to report', 15_000);
      ctx.emulator.addFault({ kind: 'status', status: 404, path: new RegExp(task.id), times: Infinity, body: { status: 404, detail: `Task ${task.id} not found` } });
      ctx.api.poller.forget(task.id);
      await ctx.api.store.finish(task.id, { status: 'failed', reason: { kind: 'unknownTask', detail: `Task ${task.id} not found` } });
      const told = await waitFor(() => ctx.user.shown.find(s => s.kind === 'error' && s.message.includes('Lost task')), 'the failure toast');
      assert.strictEqual(told.message, 'Multi-Agent task "Lost task" failed: The service no longer knows this task: it was lost or removed there.');
      assert.deepStrictEqual(told.actions, ['Run Again', 'Show Log']);
      const stored = ctx.api.store.get(task.id)!;
      assert.ok(stored.agents?.every(a => a.status !== 'running' && a.status !== 'processing'), JSON.stringify(stored.agents));
      assert.doesNotMatch(plainText(rowOf(task.id).tooltip), /running/);
    });
  });

  describe('10 chat', () => {
    const none = new vscode.CancellationTokenSource().token;
    const handler = () => createAgentsHandler({ log: ctx.api.log, ui: ctx.api.ui, keys: ctx.api.keys, store: ctx.api.store, pipeline: ctx.api.pipeline, threads: ctx.api.threads, editors: ctx.api.editors });
    const stream = (markdown: string[]) =>
      ({ markdown: (m: string | vscode.MarkdownString) => markdown.push(String(typeof m === 'string' ? m : m.value)), progress: () => undefined, button: () => undefined }) as unknown as vscode.ChatResponseStream;
    const request = (prompt: string, command?: string) =>
      ({ prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model: undefined }) as unknown as vscode.ChatRequest;

    it('the answer shows in the chat only: no result tab, no toast', async () => {
      await setSetting('openResultOnCompletion', true);
      try {
        const markdown: string[] = [];
        const result = (await handler()(request('Review add'), { history: [] }, stream(markdown), none)) as vscode.ChatResult;
        assert.strictEqual(result.errorDetails, undefined);
        assert.strictEqual(markdown.length, 1);
        await sleep(500);
        assert.strictEqual(resultTabs().length, 0, 'no result tab');
        assert.strictEqual(ctx.user.shown.filter(s => s.message.includes('task done')).length, 0, 'no toast');
        const taskId = (result.metadata as { taskId: string }).taskId;
        assert.strictEqual(ctx.api.store.get(taskId)?.notified, true, 'marked as told');
      } finally {
        await setSetting('openResultOnCompletion', undefined);
      }
    });

    it('an empty message with code asks before a default instruction goes; declined, nothing is sent', async () => {
      await openAndSelect('src/math.ts', 0, 3);
      const markdown: string[] = [];
      await handler()(request('', 'file'), { history: [] }, stream(markdown), none);
      const asked = ctx.user.shown.find(s => s.kind === 'confirm');
      assert.strictEqual(asked?.message, 'Send src/math.ts to the agents with the instruction "Review this code."?');
      assert.strictEqual(runs().length, 0);
      assert.match(markdown.join('\n'), /Nothing was sent/);
      ctx.user.confirms = [true];
      await handler()(request('', 'file'), { history: [] }, stream([]), none);
      assert.ok((runs()[0].body as { prompt: string }).prompt.startsWith('Review this code.'));
    });
  });

  describe('11 service files', () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-newcomer-'));
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));

    it('an open file says it is the service\'s copy, hides its id; Delete asks with Keep first and closes its tab; Save As offers Open', async () => {
      const local = path.join(scratch, 'notes.txt');
      fs.writeFileSync(local, 'service notes\n');
      const [file] = await vscode.commands.executeCommand<{ id: string; filename: string }[]>('multiAgent.uploadFile', vscode.Uri.file(local));
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.openFile', file.id);
      assert.strictEqual(editor.document.uri.path, '/notes (service copy).txt');
      assert.strictEqual(editor.document.uri.query, file.id);
      assert.strictEqual(editor.document.languageId, 'plaintext');
      assert.strictEqual(editor.document.getText(), 'service notes\n');

      ctx.user.saveTo = vscode.Uri.file(path.join(scratch, 'copy.txt'));
      await vscode.commands.executeCommand('multiAgent.saveFileAs', file.id);
      assert.deepStrictEqual(ctx.user.shown.find(s => s.message.startsWith('Saved notes.txt'))?.actions, ['Open']);

      ctx.user.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.deleteFile', file.id), true);
      await waitFor(
        () => !vscode.window.tabGroups.all.flatMap(g => g.tabs).some(t => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'multi-agent-file'),
        'the deleted file\'s tab to close',
      );
    });
  });

  describe('12 the small ones', () => {
    it('records and shows the model the service chose', async () => {
      // Held until a status read has said the model (a task that ends before its first read is told by the
      // stream's end alone, which names no model).
      ctx.emulator.setNextTask({ hold: true });
      const task = (await orchestrate(ctx, 'Which model'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.modelUsed, 'the model the service said');
      assert.strictEqual(ctx.emulator.release(), 1);
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task');
      assert.strictEqual(ctx.api.store.get(task.id)?.modelUsed, DEFAULT_MODEL_ID);
      assert.match(plainText(rowOf(task.id).tooltip), new RegExp(`Model: ${DEFAULT_MODEL_ID.replace('/', '\\/')}`));
    });

    it('"Applied" offers Undo, which puts the code back', async () => {
      ctx.emulator.setNextTask({ result: ANSWER });
      const task = (await orchestrate(ctx, 'Apply and undo'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the answer');
      const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'));
      const before = document.getText();
      ctx.user.onMessage = s => (s.message.startsWith('Review the proposed change') ? 'Accept' : s.message.startsWith('Applied to math.ts') ? 'Undo' : undefined);
      try {
        assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', task.id), 'applied');
        assert.deepStrictEqual(ctx.user.shown.find(s => s.message.startsWith('Applied to math.ts'))?.actions, ['Undo']);
        await waitFor(() => document.getText() === before, 'Undo to restore the code');
      } finally {
        await restore(document, before);
      }
    });

    it('"Applied"\'s Undo after Ctrl+Z in the editor says the change was already undone (issue 35), and changes nothing', async () => {
      ctx.emulator.setNextTask({ result: ANSWER });
      const task = (await orchestrate(ctx, 'Apply, Ctrl+Z, then Undo'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the answer');
      const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'));
      const before = document.getText();
      let clickUndo!: (button: string) => void;
      const later = new Promise<string>(resolve => (clickUndo = resolve));
      ctx.user.onMessage = s => (s.message.startsWith('Review the proposed change') ? 'Accept' : s.message.startsWith('Applied to math.ts') ? (later as unknown as string) : undefined);
      try {
        assert.strictEqual(await vscode.commands.executeCommand('multiAgent.applyToSource', task.id), 'applied');
        assert.notStrictEqual(document.getText(), before);
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('undo');
        await waitFor(() => document.getText() === before, 'Ctrl+Z in the editor');
        clickUndo('Undo');
        await waitFor(() => ctx.user.messages('note').includes('The change was already undone.'), 'the note');
        assert.strictEqual(document.getText(), before);
        assert.ok(!ctx.user.messages('warn').some(m => m.includes('changed since the change was applied')), JSON.stringify(ctx.user.shown));
      } finally {
        await restore(document, before);
      }
    });

    it('Run Again counts the lines a selection ending at column 1 sends: lines 1–3 are 3 lines', async () => {
      const task = (await orchestrate(ctx, 'Count my lines'))!; // lines 0-3, ending at column 0 of line 4
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task');
      ctx.user.confirms = [false];
      await vscode.commands.executeCommand('multiAgent.runAgain', task.id);
      const asked = ctx.user.shown.find(s => s.kind === 'confirm');
      assert.match(asked?.detail ?? '', /Code: src\/math\.ts, lines 1–3 \(3 lines, as it is now\)/);
    });

    it('the usage panel counts the tasks this VS Code tracks', async () => {
      const task = (await orchestrate(ctx, 'Counted'))!;
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task');
      const panel = await ctx.api.usagePanel.page.show();
      await waitFor(() => panel.webview.html.includes('Tasks sent from VS Code'), 'the section');
      assert.match(panel.webview.html, /Completed<\/div><div class="value">1</);
      panel.dispose();
    });
  });
});
