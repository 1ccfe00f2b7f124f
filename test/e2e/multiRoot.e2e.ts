// Several folders (issue 26, item 8) through the real UI: a workspace of two folders, `client` and `server`,
// both holding src/math.ts. A selection in the second folder's math.ts goes with its folder's name, the first
// folder's math.ts is attached, and the completion's Review Changes… lands the two-file answer each in its own
// folder: the same relative path in both folders is two files, never confused. On VS Code 1.100 and the newest.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { type Emulator, startEmulator } from '../emulator/server';
import { WORKSPACE, openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

for (const version of ['1.100', 'newest']) describe(`e2e: several folders (multi-root, VS Code ${version})`, function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;
  let root: string;
  const mathOf = (folder: string) => path.join(root, folder, 'src', 'math.ts');
  let original = '';

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-e2e-multi-'));
    for (const folder of ['client', 'server']) fs.cpSync(WORKSPACE, path.join(root, folder), { recursive: true });
    const workspaceFile = path.join(root, 'two-folders.code-workspace');
    fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'client' }, { path: 'server' }] }));
    original = fs.readFileSync(mathOf('server'), 'utf8');
    emulator = await startEmulator({ taskDurationMs: 3_000, quiet: true });
    wb = await openWorkbenchOn(emulator, {
      vscodeVersion: version,
      workspace: workspaceFile,
      waitForExplorer: false,
      settings: { 'multiAgent.openResultOnCompletion': false, 'files.autoSave': 'off' },
    });
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'server' }).first().waitFor({ timeout: 60_000 });
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const page = (): Page => wb!.page;
  const panel = () => page().locator('.bulk-edit-panel').first();

  it('sends a selection from the second folder with its folder\'s name and lands a two-file answer in both folders', async () => {
    // Attach the first folder's math.ts: the pick lists it with its folder's name.
    await wb!.runCommand('Multi-Agent: Attach Files…');
    const input = page().locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill('client/src/math.ts');
    const row = page().locator('.quick-input-list .monaco-list-row', { hasText: 'client/src/math.ts' }).first();
    await row.waitFor();
    await row.click();
    await page().keyboard.press('Enter');
    await page().locator('.statusbar-item', { hasText: /attached|1 file/ }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);

    // The second folder's math.ts, all of it selected (Quick Open names each file's folder).
    await page().keyboard.press('ControlOrMeta+P');
    await page().locator('.quick-input-widget input').first().fill('math.ts');
    await page().locator('.quick-input-list .monaco-list-row', { hasText: 'server' }).filter({ hasText: 'math.ts' }).first().click();
    await page().locator('.tabs-container .tab', { hasText: 'math.ts' }).first().waitFor();
    await page().locator('.monaco-editor .view-lines >> visible=true').first().click();
    await page().keyboard.press('ControlOrMeta+A');
    await wb!.runCommand('Multi-Agent: Orchestrate Selection');
    const instruction = page().locator('.quick-input-widget input').first();
    await instruction.waitFor({ state: 'visible' });
    await instruction.fill('Review both');
    await page().keyboard.press('Enter');

    const run = await waitForRun();
    const prompt = (run.body as { prompt: string }).prompt;
    assert.match(prompt, /^Review both\n\nserver\/src\/math\.ts \(lines 1-\d+\):\n/, prompt.slice(0, 200));
    assert.ok(prompt.includes('Attached file client/src/math.ts:'), 'the first folder\'s file, with its folder\'s name');

    const toast = await wb!.waitForNotification(/task done: Review both/, 60_000);
    await toast.locator('.monaco-button', { hasText: 'Review Changes…' }).click();
    await panel().waitFor({ state: 'visible', timeout: 30_000 });
    await panel().locator('.monaco-list-row', { hasText: 'Updated by the agents' }).first().waitFor({ timeout: 20_000 });
    assert.strictEqual(fs.readFileSync(mathOf('server'), 'utf8'), original, 'nothing written before Apply');
    await page().waitForTimeout(500);
    await wb!.screenshot(`multi-root-preview-${version}`);
    await panel().locator('.monaco-button', { hasText: /^Apply$/ }).first().click();
    await wb!.waitForNotification(/Applied the reviewed changes to 2 files/, 20_000);
    await wb!.runCommand('File: Save All');

    const deadline = Date.now() + 15_000;
    let server = '';
    let client = '';
    for (;;) {
      server = fs.readFileSync(mathOf('server'), 'utf8');
      client = fs.readFileSync(mathOf('client'), 'utf8');
      if ((server !== original && client !== original) || Date.now() > deadline) break;
      await page().waitForTimeout(200);
    }
    // The selection's change in the second folder, the attachment's in the first: each file only its own.
    assert.match(server, /Reviewed by the agents|Checked by the agents/, server);
    assert.doesNotMatch(server, /Updated by the agents/, 'the first folder\'s change did not land in the second');
    assert.strictEqual(client, `// Updated by the agents.\n${original}`, 'the attachment\'s change landed in the first folder');
  });

  async function waitForRun() {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = emulator.requests.find(r => r.method === 'POST' && r.path.endsWith('/run'));
      if (run) return run;
      assert.ok(Date.now() < deadline, 'the task was sent');
      await page().waitForTimeout(100);
    }
  }
});
