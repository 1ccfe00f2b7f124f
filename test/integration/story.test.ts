/**
 * Issue 26, one story on every surface, in the real extension host: the keybinding is free in VS Code.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ApiFile, Thread } from '../../src/api';
import { finished, orchestrate } from './faults/common';
import { activateExtension, useExtensionWithEmulator, waitFor } from './helpers';

interface Binding { key: string; command: string; when?: string }

/** VS Code's own "Default Keyboard Shortcuts (JSON)": every default binding, the extensions' included. */
async function defaultKeybindings(): Promise<Binding[]> {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  const document = await waitFor(() => vscode.window.visibleTextEditors.map(e => e.document).find(d => d.uri.path.endsWith('/keybindings.json') && d.uri.scheme !== 'file'), 'the default keybindings');
  const json = document.getText().split('\n').filter(l => !/^\s*\/\//.test(l)).join('\n').replace(/,(\s*[\]}])/g, '$1');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return JSON.parse(json) as Binding[];
}

describe('issue 26: one story on every surface', function () {
  before(async () => {
    await activateExtension();
  });

  describe('7 the Orchestrate Selection keybinding', () => {
    it('Ctrl+K A is bound to Orchestrate Selection alone, everywhere but the terminal', async () => {
      const all = await defaultKeybindings();
      assert.ok(all.length > 100, `${all.length} default bindings read`);
      const ours = all.filter(b => b.key === 'ctrl+k a');
      assert.deepStrictEqual(ours.map(b => [b.command, b.when]), [['multiAgent.orchestrateSelection', '!terminalFocus']]);
      // Why it moved: VS Code's own command holds Ctrl+Alt+O where no editor has the focus.
      const taken = all.filter(b => b.key === 'ctrl+alt+o').map(b => b.command);
      assert.ok(taken.length > 0 && !taken.includes('multiAgent.orchestrateSelection'), `Ctrl+Alt+O: ${taken.join(', ')}`);
    });
  });

  describe('1 the sidebar agrees with the result view', () => {
    const ctx = useExtensionWithEmulator();
    type Row = { kind: string; file?: ApiFile; thread?: Thread };
    const threadIds = async () => ((await ctx.api.sidebar.threads.getChildren()) as Row[]).filter(n => n.kind === 'thread').map(n => String(n.thread!.id));
    const fileRows = async () => ((await ctx.api.sidebar.files.getChildren()) as Row[]).filter(n => n.kind === 'file');
    const describeRow = (row: Row) => String(ctx.api.sidebar.files.getTreeItem(row as never).description);

    /** Runs a task to its end; returns its thread and its stored file, as the task knows them. */
    async function runToEnd(instruction: string) {
      const task = await orchestrate(ctx, instruction);
      assert.ok(task, JSON.stringify(ctx.user.shown));
      await finished(ctx, task.id);
      const thread = await waitFor(() => ctx.api.store.get(task.id)?.conversationId, 'the thread the task was saved to');
      const file = await waitFor(() => ctx.api.store.get(task.id)?.files?.find(f => f.fileId), 'the stored file the task produced');
      return { task, thread, fileId: file.fileId! };
    }

    it('a finished task\'s thread and file appear in Threads and Files without a refresh; the file row names its task and time', async () => {
      // Both views read before the task: their cached lists must follow the task, not a reload.
      const threadsBefore = await threadIds();
      const filesBefore = (await fileRows()).map(r => r.file!.id);
      const { thread, fileId } = await runToEnd('Harden mean()');
      assert.ok(!threadsBefore.includes(thread) && !filesBefore.includes(fileId), 'new on the service');
      await waitFor(async () => (await threadIds()).includes(thread), `thread ${thread} listed in Threads`);
      const row = await waitFor(async () => (await fileRows()).find(r => r.file!.id === fileId), `file ${fileId} listed in Files`);
      assert.match(describeRow(row), /^Harden mean\(\), \d{1,2}.\d{2}.* · \d/, describeRow(row));
    });

    it('two findings.csv rows are told apart by the task that made each', async () => {
      const a = await runToEnd('Harden mean()');
      const b = await runToEnd('Explain add()');
      const rows = await waitFor(async () => {
        const all = await fileRows();
        const both = [a.fileId, b.fileId].map(id => all.find(r => r.file!.id === id));
        return both.every(Boolean) ? (both as Row[]) : undefined;
      }, 'both files listed');
      assert.deepStrictEqual(rows.map(r => r.file!.filename), ['findings.csv', 'findings.csv']);
      const [first, second] = rows.map(describeRow);
      assert.ok(first.startsWith('Harden mean(), ') && second.startsWith('Explain add(), '), `${first} | ${second}`);
    });
  });
});
