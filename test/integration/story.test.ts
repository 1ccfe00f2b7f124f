/**
 * Issue 26, one story on every surface, in the real extension host: the keybinding is free in VS Code.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, waitFor } from './helpers';

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
});
