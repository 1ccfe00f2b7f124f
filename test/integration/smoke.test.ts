import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

const EXT_ID = 'multi-agent-tasks.multi-agent-tasks';

describe('smoke: extension in the real extension host', () => {
  it('is present and activates', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} not found`);
    const api = (await ext.activate()) as { store?: { all(): unknown[] } } | undefined;
    // In test mode activate() returns the live services: proof that activation ran to its end.
    assert.ok(api?.store && Array.isArray(api.store.all()), 'activate() returned the test API with a task store');
    console.log(`vscode ${vscode.version}, node ${process.version}, ${EXT_ID} active`);
  });

  it('registers every command contributed in package.json', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    await ext.activate();
    const pkg = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'));
    const contributed: string[] = (pkg.contributes?.commands ?? []).map((c: { command: string }) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter(c => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });
});
