// Case 7, last part: after the whole fault suite, the keys are nowhere at rest.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateExtension } from '../helpers';
import { GATEWAY_KEY } from './common';
import { kase } from './table';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : e.isFile() ? [full] : [];
  });
}

describe('faults: 7 secrets at rest (after the suite)', () => {
  kase('7 no file under the extension storage, no setting, no memento, no log line holds the key or the gateway key', async () => {
    const api = await activateExtension();
    const key = await api.keys.getApiKey();
    assert.ok(key && key.length > 10, 'the suite used a key');
    await api.keys.setGatewayKey(GATEWAY_KEY);
    try {
      await new Promise(r => setTimeout(r, 1500)); // the log channel flushes to disk asynchronously
      const roots = [api.context.globalStorageUri.fsPath, api.context.storageUri?.fsPath, path.dirname(api.context.logUri.fsPath)];
      const files = roots.flatMap(r => (r ? filesUnder(r) : []));
      const logText = filesUnder(path.dirname(api.context.logUri.fsPath)).map(f => fs.readFileSync(f, 'utf8')).join('\n');
      assert.ok(/POST \/api\/v1\/developer\/run → /.test(logText), 'the scan reads the extension log');
      const config = vscode.workspace.getConfiguration('multiAgent');
      const places: [string, string][] = [
        ...files.map(f => [f, fs.readFileSync(f, 'latin1')] as [string, string]),
        ...api.context.globalState.keys().map(k => [`globalState:${k}`, JSON.stringify(api.context.globalState.get(k))] as [string, string]),
        ...api.context.workspaceState.keys().map(k => [`workspaceState:${k}`, JSON.stringify(api.context.workspaceState.get(k))] as [string, string]),
        ['settings', JSON.stringify(config) + JSON.stringify(Object.keys(config).map(k => config.inspect(k)))],
      ];
      const leaks = places.filter(([, text]) => text.includes(key) || text.includes(GATEWAY_KEY)).map(([where]) => where);
      assert.deepStrictEqual(leaks, [], 'a key is stored in plain text');
    } finally {
      await api.keys.setGatewayKey(undefined);
    }
  });
});
