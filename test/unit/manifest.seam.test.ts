/**
 * The shell's tables (src/constants.ts) and the manifest say the same: VS Code must know every command, view and
 * restored page from package.json before the extension runs, and the shell registers exactly the tables' rows.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Commands, Views, WebviewTypes } from '../../src/constants';

const ROOT = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> };
};

describe('the manifest and the shell\'s tables', () => {
  it('each restored page (WebviewTypes) activates the extension: without its event, VS Code drops the page on reload', () => {
    for (const type of Object.values(WebviewTypes)) assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${type}`), type);
    const declared = manifest.activationEvents.filter(e => e.startsWith('onWebviewPanel:')).map(e => e.slice('onWebviewPanel:'.length));
    assert.deepStrictEqual(declared.sort(), Object.values(WebviewTypes).sort(), 'no event for a page the shell does not restore');
  });

  it('each command of the table is contributed, and nothing else', () => {
    const contributed = manifest.contributes.commands.map(c => c.command).sort();
    assert.deepStrictEqual(contributed, Object.values(Commands).sort());
  });

  it('each tree view of the table is contributed', () => {
    const ids = Object.values(manifest.contributes.views).flat().map(v => v.id);
    for (const [name, id] of Object.entries(Views)) if (name !== 'container') assert.ok(ids.includes(id), id);
  });
});
