// Case 7: the key stays with the configured service.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { useExtensionWithEmulator, waitFor, workspaceUri } from '../helpers';
import { completedWithResult, orchestrate, requestsTo, runPosts, shownMessage, useSettings, withSetting } from './common';
import { kase } from './table';

describe('faults: 7 security', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 600 });
  useSettings({ useStream: false, openResultOnCompletion: false, firstPollDelayMs: 250 });
  const keyedOtherOrigin = () => ctx.emulator.otherOriginRequests.filter(r => r.headers['x-api-key'] !== undefined);

  kase('7 redirect of GET /status to another origin: not followed with the key; the task completes', async () => {
    ctx.emulator.addFault({ kind: 'redirect', method: 'GET', path: '/status/', to: 'otherOrigin', times: 2 });
    const task = await orchestrate(ctx, 'Redirect status');
    await waitFor(() => statusRedirected(), 'the redirect');
    await completedWithResult(ctx, task!.id);
    assert.deepStrictEqual(keyedOtherOrigin().map(r => r.path), [], 'no request with the key to the other origin');
  });
  const statusRedirected = () => requestsTo(ctx, 'GET', '/status/').some(r => r.status === 307);

  kase('7 redirect of the event stream to another origin: followed without the key; falls back to polling', async () => {
    const undo = await withSetting('useStream', true);
    try {
      ctx.api.poller.resume();
      ctx.emulator.addFault({ kind: 'redirect', method: 'GET', path: '/stream/', to: 'otherOrigin' });
      const task = await orchestrate(ctx, 'Redirect stream');
      await completedWithResult(ctx, task!.id);
      assert.ok(requestsTo(ctx, 'GET', '/stream/').some(r => r.status === 307), 'the stream was redirected');
      assert.ok(ctx.emulator.otherOriginRequests.length >= 1, 'the redirect was followed (downloads may live elsewhere)');
      assert.deepStrictEqual(keyedOtherOrigin().map(r => r.path), [], 'but never with the key');
    } finally {
      await undo();
    }
  });

  kase('7 redirect of POST /run: not followed, one request, the user is told', async () => {
    ctx.emulator.addFault({ kind: 'redirect', method: 'POST', path: /\/run$/, to: 'otherOrigin' });
    const task = await orchestrate(ctx, 'Redirect run');
    assert.strictEqual(task, undefined);
    await shownMessage(ctx, /redirected POST \/run to another origin.*API key stays private/);
    assert.strictEqual(runPosts(ctx).length, 1);
    assert.strictEqual(ctx.emulator.otherOriginRequests.length, 0);
  });

  kase('7 workspace .vscode/settings.json setting baseUrl/streamUrl elsewhere: ignored, and the user is told', async () => {
    const settingsFile = workspaceUri('.vscode', 'settings.json');
    await vscode.workspace.fs.writeFile(
      settingsFile,
      // A window-scoped setting in the same file tells when VS Code has read the file.
      Buffer.from(
        JSON.stringify({
          'multiAgent.baseUrl': 'https://attacker.example/api/v1/developer',
          'multiAgent.streamUrl': 'https://attacker.example',
          'multiAgent.openResultOnCompletion': true,
        }),
      ),
    );
    try {
      await shownMessage(ctx, /sets multiAgent\.baseUrl, multiAgent\.streamUrl\. Multi-Agent Tasks ignores that/, ['warn']);
      await waitFor(
        () => vscode.workspace.getConfiguration('multiAgent').inspect('openResultOnCompletion')?.workspaceValue === true,
        'VS Code to read the workspace settings file',
      );
      assert.strictEqual(vscode.workspace.getConfiguration('multiAgent').get('baseUrl'), ctx.emulator.baseUrl);
      const task = await orchestrate(ctx, 'Still to the configured service');
      assert.ok(task);
      assert.strictEqual(runPosts(ctx).length, 1);
    } finally {
      await vscode.workspace.fs.delete(workspaceUri('.vscode'), { recursive: true });
    }
  });

  for (const [name, value] of [
    ['baseUrl', 'http://api.example.com/api/v1/developer'],
    ['platformUrl', 'http://files.example.com'],
  ] as const) {
    kase(`7 plain http: to a non-loopback host (${name}): refused before anything is sent`, async () => {
      const undo = await withSetting(name, value);
      try {
        const task = await orchestrate(ctx, 'Over http');
        assert.strictEqual(task, undefined);
        const shown = await shownMessage(ctx, /Refusing to send the API key over plain http:\/\/ to (api|files)\.example\.com/);
        assert.deepStrictEqual(shown.actions, ['Open Settings']);
        assert.deepStrictEqual(ctx.user.messages('input'), [], 'refused before the user types anything');
        assert.strictEqual(ctx.emulator.requests.length, 0);
      } finally {
        await undo();
      }
    });
  }

  kase('7 plain http: while tasks run: polling pauses with a message, the task is kept and completes once fixed', async () => {
    ctx.emulator.setNextTask({ hold: true }); // running until the address is fixed
    const task = (await orchestrate(ctx, 'Kept through a bad address'))!;
    const undo = await withSetting('baseUrl', 'http://api.example.com/api/v1/developer');
    try {
      await shownMessage(ctx, /Refusing to send the API key over plain http/);
      assert.ok(ctx.api.store.get(task.id), 'kept');
    } finally {
      await undo();
      ctx.emulator.release();
    }
    await completedWithResult(ctx, task.id);
  });

  kase('7 usage webview: strict CSP, no remote content, only its nonce script', async () => {
    await vscode.commands.executeCommand('multiAgent.showUsage');
    const panel = await waitFor(() => ctx.api.usagePanel.loaded?.current, 'the usage panel');
    try {
      const html = await waitFor(() => !/Loading/i.test(panel.webview.html) && panel.webview.html, 'the loaded usage page');
      const declared = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
      assert.ok(declared, 'a CSP meta tag');
      // cspSource is the webview's own resource origin (local files through VS Code), not remote content.
      const csp = declared.split(panel.webview.cspSource).join('WEBVIEW');
      assert.match(csp, /default-src 'none'/);
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce && nonce.length >= 16, 'scripts only by nonce');
      assert.ok(!/script-src[^;]*('unsafe-inline'|'unsafe-eval'|https?:|\*)/.test(csp), csp);
      assert.ok(!/(img|connect|frame|font|media)-src[^;]*(https?:|\*)/.test(csp), csp);
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map(m => m[1]);
      assert.ok(scripts.length >= 1);
      for (const attrs of scripts) {
        assert.ok(attrs.includes(`nonce="${nonce}"`), `script without the nonce: ${attrs}`);
        assert.ok(!/\bsrc=/.test(attrs), `external script: ${attrs}`);
      }
      assert.ok(!/\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), 'no remote src or href');
      assert.ok(!/<(iframe|object|embed|link)\b/i.test(html), 'no frames, objects or stylesheets links');
      assert.ok(!/\bon[a-z]+\s*=/i.test(html.replace(/<script[\s\S]*?<\/script>/g, '')), 'no inline event handlers');
      assert.ok(!html.includes(ctx.emulator.apiKey), 'the key is not in the page');
    } finally {
      panel.dispose();
    }
  });
});
