// The MCP server (issue 27) in the real workbench of the newest code-server: "MCP: List Servers" lists it, and
// VS Code's own MCP client runs its run_task tool, confirmed in VS Code's dialog, against the emulator. The
// agent that calls the tool is VS Code's agent mode driving the test-only fake chat model, which issues the
// tool call when a message says "[call run_task] …" (test/fixtures/fake-chat-model).
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

  /** Types `text` into the Chat view's input and sends it. */
  async function ask(text: string): Promise<void> {
    const page = wb!.page;
    const input = page.locator('.interactive-input-part .monaco-editor').first();
    if (!(await input.isVisible())) await wb!.runCommand('Chat: Open Chat');
    await input.waitFor({ timeout: 30_000 });
    await input.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text, { delay: 5 });
    await page.keyboard.press('Escape');
    await input.click();
    await page.keyboard.press('Enter');
  }

  it('VS Code\'s own MCP client runs run_task, confirmed in VS Code\'s dialog, against the emulator', async () => {
    const page = wb!.page;
    const question = '[call run_task] Review mean() in src/math.ts for edge cases';
    const runs = () => emulator.requests.filter(r => r.method === 'POST' && /\/run$/.test(r.path));
    // As in chat.e2e.ts: the first request after start-up may find no model yet ("Language model unavailable"),
    // or open Copilot's sign-in dialog; then the fake model shows in the picker and the question is asked again.
    await ask(question);
    const confirm = page.locator('.chat-confirmation-widget .monaco-button, .chat-confirmation-widget2 .monaco-button', { hasText: /^(Allow|Continue|Run)/ }).first();
    const unavailable = page.locator('.interactive-response', { hasText: 'Language model unavailable' }).first();
    const signIn = page.locator('.monaco-dialog-box', { hasText: 'Sign in to use GitHub Copilot' }).first();
    const noTool = page.locator('.interactive-response', { hasText: 'No tool named run_task' }).first();
    let first = -1;
    for (const until = Date.now() + 90_000; first < 0 && Date.now() < until; await page.waitForTimeout(250)) {
      for (const [i, shown] of [confirm, unavailable, signIn, noTool].entries()) if (first < 0 && (await shown.isVisible())) first = i;
    }
    await wb!.screenshot('mcp-first-answer');
    assert.ok(first >= 0, 'the request got the tool confirmation, "Language model unavailable", the sign-in dialog or the fake model\'s words');
    if (first === 2) {
      await page.keyboard.press('Escape');
      await signIn.waitFor({ state: 'hidden', timeout: 10_000 });
    }
    if (first > 0) {
      await page.locator('.interactive-input-part', { hasText: 'Fake Model' }).first().waitFor({ timeout: 30_000 });
      await ask(question);
      await confirm.waitFor({ timeout: 90_000 });
    }
    // VS Code's question names the MCP tool; nothing was sent before the user allowed it.
    assert.strictEqual(runs().length, 0, 'nothing is sent before the user confirms');
    await wb!.screenshot('mcp-confirmation');
    await confirm.click();
    const answer = page.locator('.interactive-response', { hasText: 'The tool answered:' }).last();
    await answer.waitFor({ timeout: 90_000 });
    await wb!.screenshot('mcp-answer');
    assert.strictEqual(runs().length, 1, 'one task, sent once the user allowed the call');
    assert.match((runs()[0].body as { prompt: string }).prompt, /^Review mean\(\) in src\/math\.ts for edge cases/);
    assert.strictEqual(runs()[0].headers['x-api-key'], emulator.apiKey, 'sent with the key from the extension host');
    assert.match(await answer.innerText(), /Review mean\(\) in src\/math\.ts for edge cases/);
  });
});
