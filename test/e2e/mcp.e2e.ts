// The MCP server (issue 27) in the real workbench of the newest code-server: "MCP: List Servers" lists it, and
// VS Code starts it: its own MCP client resolves the definition, connects with the window's token and lists
// the six tools. Running run_task from VS Code's agent is not driven here: code-server 4.139's agent mode is
// Copilot's and answers "You need to set up GitHub Copilot and be signed in" without an account (the fake chat
// model serves participants, not agent mode), and vscode.lm.invokeTool of an MCP tool outside a chat request
// fails inside VS Code ("Cannot read properties of undefined (reading 'indexOf')") before any request is made.
// The tool calls themselves run through the SDK's client in test/integration/mcp.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MCP_SERVER_LABEL } from '../../src/mcp/protocol';
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
    // Its own name under the provider's line that says what it is (not the extension's name twice).
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: MCP_SERVER_LABEL }).first();
    await row.waitFor({ timeout: 30_000 });
    await page.locator('.quick-input-list', { hasText: "Multi-Agent Tasks: the team's tools for VS Code's agents" }).first().waitFor({ timeout: 20_000 });
    await wb!.screenshot('mcp-list-servers');
    await page.keyboard.press('Escape');
  });

  it('VS Code starts the server and its own MCP client connects with the token and lists the six tools', async () => {
    const page = wb!.page;
    // As a user does: MCP: List Servers → the server → Start Server (VS Code calls resolveMcpServerDefinition).
    await wb!.runCommand('MCP: List Servers');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: MCP_SERVER_LABEL }).first().click();
    const start = page.locator('.quick-input-list .monaco-list-row', { hasText: /Start Server/ }).first();
    await start.waitFor({ timeout: 15_000 });
    await start.click();
    const trust = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Trust/ }).first();
    await page.waitForTimeout(1_500);
    if (await trust.isVisible()) await trust.click();
    // VS Code's own log of the server (Output › MCP: Multi-Agent Tasks).
    await page.locator('.monaco-workbench', { hasText: 'Connection state: Running' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.monaco-workbench', { hasText: 'Discovered 6 tools' }).first().waitFor({ timeout: 60_000 });
    await wb!.screenshot('mcp-started');
    const runs = emulator.requests.filter(r => r.method === 'POST' && /\/run$/.test(r.path));
    assert.strictEqual(runs.length, 0, 'starting the server and listing its tools sends no task');
    // Listed again, it runs.
    await wb!.runCommand('MCP: List Servers');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /Multi-Agent Tasks team.*Running/ }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
  });
});
