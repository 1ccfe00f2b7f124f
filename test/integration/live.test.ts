/**
 * Against the emulator's live-service defaults (none of the kinder switches): what a real user of the
 * hosted service meets.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { LIVE_EMULATOR, setSetting, useExtensionWithEmulator, waitFor } from './helpers';
import { orchestrate, runPosts, shownMessage, useSettings } from './faults/common';

describe('live service', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 1500, ...LIVE_EMULATOR });
  useSettings({ openResultOnCompletion: false, firstPollDelayMs: 250 });

  it('a roleModels setting the service refuses (422) is named, with Open Settings, and nothing is tracked', async () => {
    await setSetting('roleModels', { critic: 'zai/glm-5.2' });
    try {
      const task = await orchestrate(ctx, 'With role models');
      assert.strictEqual(task, undefined);
      const shown = await shownMessage(ctx, /does not accept the multiAgent\.roleModels setting/);
      assert.deepStrictEqual(shown.actions, ['Open Settings']);
      assert.strictEqual(runPosts(ctx).length, 1);
      assert.strictEqual(ctx.api.store.all().length, 0);
    } finally {
      await setSetting('roleModels', undefined);
    }
  });

  it('Show Usage with a key that /usage refuses: points to the web console, shows storage, never blames the key', async () => {
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>('multiAgent.showUsage');
    assert.ok(panel);
    const html = await waitFor(() => !/Loading/i.test(panel.webview.html) && panel.webview.html, 'the loaded usage page');
    assert.ok(ctx.emulator.requests.some(r => r.path.endsWith('/usage') && r.status === 401), 'the service refused /usage');
    assert.match(html, /web console only/);
    assert.match(html, /<button id="console">Open Web Console<\/button>/);
    assert.match(html, /of 1\.0 GB used/, 'storage, which the key can read, is shown');
    assert.doesNotMatch(html, /rejected the API key/);
    panel.dispose();
  });
});
