// Runs last (file order): after every other suite has used the key, nothing at rest may contain it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateExtension } from './helpers';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : e.isFile() ? [full] : [];
  });
}

describe('secrets at rest', () => {
  it('no stored file, memento, setting or log line contains the API key or the gateway key', async () => {
    const api = await activateExtension();
    const key = await api.keys.getApiKey();
    assert.ok(key && key.length > 10, 'a key is set by the earlier suites');
    await api.context.secrets.store('multiAgent.gatewayKey', 'gw_secret_for_the_scan_0123456789');
    const secrets = [key, 'gw_secret_for_the_scan_0123456789'];
    try {
      await new Promise(r => setTimeout(r, 1500)); // the log channel flushes to disk asynchronously

      const stored = filesUnder(api.context.globalStorageUri.fsPath);
      const logs = filesUnder(path.dirname(api.context.logUri.fsPath));
      const logText = logs.map(f => fs.readFileSync(f, 'utf8')).join('\n');
      assert.ok(/POST \/api\/v1\/developer\/run → 200/.test(logText), `the scan reads the extension's log (${logs.length} files)`);

      const places: [string, string][] = [
        ...stored.map(f => [f, fs.readFileSync(f, 'latin1')] as [string, string]),
        ...logs.map(f => [f, fs.readFileSync(f, 'utf8')] as [string, string]),
        ...api.context.globalState.keys().map(k => [`globalState:${k}`, JSON.stringify(api.context.globalState.get(k))] as [string, string]),
        ...api.context.workspaceState.keys().map(k => [`workspaceState:${k}`, JSON.stringify(api.context.workspaceState.get(k))] as [string, string]),
        ['settings', JSON.stringify(vscode.workspace.getConfiguration('multiAgent'))],
      ];
      for (const [where, text] of places) {
        for (const secret of secrets) assert.ok(!text.includes(secret), `a key is in ${where}`);
      }
    } finally {
      await api.context.secrets.delete('multiAgent.gatewayKey');
    }
  });
});
