// Case 8: untrusted workspaces. The harness starts code-server with --disable-workspace-trust, so every
// workspace is trusted here; the restricted behaviour is tested through readSettings({ trusted: false }),
// the same code path activation takes when vscode.workspace.isTrusted is false, and a trust grant is acted
// out through the extension's trust seam (TestApi.trust), which the live Config follows like the real one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { RESTRICTED_SETTINGS, readSettings } from '../../../src/config';
import { EXT_ID, useExtensionWithEmulator, waitFor, workspaceUri } from '../helpers';
import { kase } from './table';

describe('faults: 8 untrusted workspaces', () => {
  const ctx = useExtensionWithEmulator();

  kase('8 package.json declares limited support and restricts the settings that cost money', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const pkg = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'));
    const declared = pkg.capabilities?.untrustedWorkspaces;
    assert.strictEqual(declared?.supported, 'limited');
    assert.ok(typeof declared.description === 'string' && declared.description.length > 20);
    const restricted: string[] = declared.restrictedConfigurations;
    // Written out here, not read from the code: every setting that changes what a task costs or how often
    // the service is asked.
    const costly = ['modelId', 'agentCount', 'budgetUsd', 'roleModels', 'reasoningEffort', 'silent', 'mock', 'pollIntervalMs', 'firstPollDelayMs', 'maxPollIntervalMs', 'unfocusedPollIntervalMs', 'requestTimeoutSeconds'];
    assert.deepStrictEqual([...restricted].sort(), costly.map(n => `multiAgent.${n}`).sort(), 'package.json restricts exactly these');
    assert.deepStrictEqual([...RESTRICTED_SETTINGS].sort(), [...costly].sort(), 'config.ts ignores exactly these in Restricted Mode');
    const contributed = Object.keys(pkg.contributes.configuration.properties);
    for (const name of restricted) assert.ok(contributed.includes(name), `${name} is a contributed setting`);
    for (const name of ['baseUrl', 'platformUrl', 'streamUrl']) {
      assert.strictEqual(pkg.contributes.configuration.properties[`multiAgent.${name}`].scope, 'application', `${name} is user-only`);
    }
  });

  kase('8 restricted mode ignores workspace values of the restricted settings (harness: trust disabled, isTrusted true)', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, true, 'the harness runs with --disable-workspace-trust');
    const file = workspaceUri('.vscode', 'settings.json');
    await vscode.workspace.fs.writeFile(
      file,
      Buffer.from(JSON.stringify({ 'multiAgent.agentCount': 8, 'multiAgent.mock': true, 'multiAgent.modelId': 'expensive/model', 'multiAgent.budgetUsd': 500, 'multiAgent.openResultOnCompletion': false })),
    );
    try {
      await waitFor(() => vscode.workspace.getConfiguration('multiAgent').get('agentCount') === 8, 'the workspace settings to load');
      const trusted = readSettings({ trusted: true }).settings;
      assert.deepStrictEqual([trusted.agentCount, trusted.mock, trusted.modelId, trusted.budgetUsd], [8, true, 'expensive/model', 500]);
      const restricted = readSettings({ trusted: false }).settings;
      assert.deepStrictEqual([restricted.agentCount, restricted.mock, restricted.modelId, restricted.budgetUsd], [4, false, undefined, undefined], 'user values only');
      assert.strictEqual(restricted.openResultOnCompletion, false, 'harmless settings still come from the workspace');
      assert.strictEqual(readSettings().settings.agentCount, 8, 'default follows vscode.workspace.isTrusted');
    } finally {
      await vscode.workspace.fs.delete(workspaceUri('.vscode'), { recursive: true });
      await waitFor(() => vscode.workspace.getConfiguration('multiAgent').get('agentCount') === 4, 'the workspace settings to go');
    }
  });

  kase('8 a trust grant reaches the poller and the views: workspace values of restricted settings count from then on', async () => {
    const { trust, pollerSettings, poller, sidebar } = ctx.api;
    const config = () => vscode.workspace.getConfiguration('multiAgent');
    const description = () => String(sidebar.views.tasks.description ?? '');
    assert.strictEqual(pollerSettings().minIntervalMs, 250, 'the suite polls every 250 ms (user setting)');
    let resumed = 0;
    poller.resume = function (this: typeof poller, ...args: Parameters<typeof poller.resume>) {
      resumed++;
      return Object.getPrototypeOf(poller).resume.apply(this, args);
    };
    trust.restrict();
    try {
      await vscode.workspace.fs.writeFile(
        workspaceUri('.vscode', 'settings.json'),
        Buffer.from(JSON.stringify({ 'multiAgent.pollIntervalMs': 400, 'multiAgent.modelId': 'workspace/model' })),
      );
      await waitFor(() => config().get('modelId') === 'workspace/model', 'the workspace settings to load');
      assert.strictEqual(pollerSettings().minIntervalMs, 250, 'restricted: the poller keeps the user value');
      assert.doesNotMatch(description(), /workspace\/model/, 'restricted: the Tasks view shows no workspace model');

      resumed = 0;
      trust.grant();
      assert.strictEqual(pollerSettings().minIntervalMs, 400, 'trusted: the poller reads the workspace value');
      assert.ok(resumed > 0, 'the poller was told (resumed with the new settings)');
      assert.match(description(), /model: workspace\/model/, 'the Tasks view shows the workspace model');
    } finally {
      delete (poller as { resume?: unknown }).resume;
      trust.grant();
      await vscode.workspace.fs.delete(workspaceUri('.vscode'), { recursive: true });
      await waitFor(() => !config().get('modelId'), 'the workspace settings to go');
    }
  });
});
