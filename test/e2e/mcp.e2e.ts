// The MCP server (issue 27) in the real workbench of the newest code-server: "MCP: List Servers" lists it, VS
// Code starts it, and VS Code's own MCP client runs its run_task tool against the emulator. The caller is an
// agent of another extension (the test-only fake chat model's command, through vscode.lm.invokeTool): the Chat
// view's agent mode in code-server 4.139 is Copilot's and answers "You need to set up GitHub Copilot and be
// signed in" without an account, so it cannot be driven here (see test/fixtures/fake-chat-model).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type Emulator, startEmulator } from '../emulator/server';
import { REPO_ROOT, type Workbench, openWorkbenchOn, packageFixture, screenshotFailures } from './harness';

describe('e2e: mcp (newest VS Code)', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;
  let scratch: string;

  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 3_000, quiet: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-mcp-'));
    const fakeModel = packageFixture(path.join(REPO_ROOT, 'test', 'fixtures', 'fake-chat-model'), scratch);
    wb = await openWorkbenchOn(emulator, {
      vscodeVersion: 'newest',
      extraVsix: [fakeModel],
      settings: { 'chat.disableAIFeatures': false, 'multiAgent.openResultOnCompletion': false, 'chat.mcp.autostart': 'newAndOutdated' },
    });
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('"MCP: List Servers" lists the team\'s server', async () => {
    const page = wb!.page;
    await wb!.runCommand('MCP: List Servers');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Multi-Agent Tasks' }).first();
    await row.waitFor({ timeout: 30_000 });
    await wb!.screenshot('mcp-list-servers');
    await page.keyboard.press('Escape');
  });

  it('VS Code\'s own MCP client starts the server and runs run_task against the emulator', async () => {
    const page = wb!.page;
    const runs = () => emulator.requests.filter(r => r.method === 'POST' && /\/run$/.test(r.path));
    // Start it as a user does: MCP: List Servers → the server → Start Server (VS Code resolves the definition).
    await wb!.runCommand('MCP: List Servers');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Multi-Agent Tasks' }).first().click();
    const start = page.locator('.quick-input-list .monaco-list-row', { hasText: /Start Server/ }).first();
    await start.waitFor({ timeout: 15_000 });
    await start.click();
    const trust = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Trust/ }).first();
    await page.waitForTimeout(1_500);
    if (await trust.isVisible()) await trust.click();

    // An agent of another extension (the test-only fake model's command) asks VS Code to call run_task: VS
    // Code's MCP client makes the request. Until the server has started, the tool is not offered yet.
    const question = 'Review mean() in src/math.ts for edge cases';
    const answer = page.locator('.notification-toast', { hasText: 'The tool answered:' }).first();
    const failed = page.locator('.notification-toast', { hasText: 'The tool failed:' }).first();
    const confirm = page.locator('.monaco-dialog-box .monaco-button, .chat-confirmation-widget .monaco-button', { hasText: /^(Allow|Continue|Run)/ }).first();
    let confirmed = false;
    for (let attempt = 0; attempt < 12; attempt++) {
      await wb!.runCommand('Fake Model: Call the run_task MCP Tool');
      const input = page.locator('.quick-input-widget input').first();
      const asked = await input.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
      if (!asked) {
        await wb!.runCommand('Notifications: Clear All Notifications');
        await page.waitForTimeout(2_500);
        continue;
      }
      await input.fill(question);
      await page.keyboard.press('Enter');
      for (const until = Date.now() + 90_000; Date.now() < until; await page.waitForTimeout(250)) {
        if (!confirmed && (await confirm.isVisible())) {
          assert.strictEqual(runs().length, 0, 'nothing is sent before the user confirms');
          await wb!.screenshot('mcp-confirmation');
          await confirm.click();
          confirmed = true;
        }
        if ((await answer.isVisible()) || (await failed.isVisible())) break;
      }
      break;
    }
    await wb!.screenshot('mcp-answer');
    assert.ok(!(await failed.isVisible()), `the call failed: ${await failed.innerText().catch(() => '')}`);
    await answer.waitFor({ timeout: 5_000 });
    console.log(`      (VS Code asked before the call: ${confirmed ? 'yes, confirmed in its dialog' : 'no dialog for a call from an extension'})`);
    assert.strictEqual(runs().length, 1, 'one task');
    assert.match((runs()[0].body as { prompt: string }).prompt, /^Review mean\(\) in src\/math\.ts for edge cases/);
    assert.strictEqual(runs()[0].headers['x-api-key'], emulator.apiKey, 'sent with the key from the extension host');
    assert.match(await answer.innerText(), /Review mean\(\) in src\/math\.ts for edge cases/);
    // The task is in the Tasks view like any other.
    await wb!.runCommand('Multi-Agent: Show Tasks');
    await page.locator('.monaco-list-row', { hasText: 'Review mean() in src/math.ts' }).first().waitFor({ timeout: 15_000 });
  });
});
