/**
 * Issue 26, one story on every surface: what can be checked without VS Code (the manifest's keybinding and the
 * words that name it).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Keybinding { command: string; key: string; mac?: string; when?: string }

describe('issue 26: the Orchestrate Selection keybinding', () => {
  const manifest = JSON.parse(read('package.json')) as { contributes: { keybindings: Keybinding[] } };
  const bindings = manifest.contributes.keybindings.filter(b => b.command === 'multiAgent.orchestrateSelection');

  it('is Ctrl+K A (Cmd+K A on macOS): Ctrl+Alt+O is VS Code\'s "Open a Remote Window", Ctrl+Shift+Alt+O its chat terminal\'s', () => {
    assert.strictEqual(bindings.length, 1, JSON.stringify(bindings));
    assert.strictEqual(bindings[0].key, 'ctrl+k a');
    assert.strictEqual(bindings[0].mac, 'cmd+k a');
  });

  it('works wherever the focus is (editor, Explorer, welcome view, the extension\'s views) but the terminal', () => {
    assert.strictEqual(bindings[0].when, '!terminalFocus');
  });

  it('README, walkthrough and welcome views name the new key, never the old one', () => {
    for (const file of ['README.md', 'package.nls.json', 'media/walkthrough/orchestrate.md', 'scripts/demo.js']) {
      const text = read(file);
      assert.ok(!/(Ctrl|Cmd)\+Alt\+O/i.test(text), `${file} still names Ctrl+Alt+O`);
      assert.ok(/Ctrl\+K A/.test(text), `${file} names Ctrl+K A`);
    }
  });
});
