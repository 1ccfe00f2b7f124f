// A user's path through the real UI: the packaged extension in code-server, driven in Chromium against
// the emulator. Saves the screenshots the README shows.
import * as assert from 'assert';
import { type Emulator, startEmulator } from '../emulator/server';
import { openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

describe('e2e: orchestrate a selection from the command palette', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;

  before(async () => {
    emulator = await startEmulator({ quiet: true });
    wb = await openWorkbenchOn(emulator);
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  it('runs "Orchestrate Selection" and sees the status bar, then the result tab', async () => {
    const page = wb!.page;
    // Held until the running status bar is seen (issue 25: no test races the emulator's clock).
    emulator.setNextTask({ hold: true });
    await wb!.orchestrateSelection('math.ts', 'Review mean() for edge cases');

    // The status bar shows the progress and the time (issue 20).
    const item = await wb!.waitForStatusBarItem(/Agents (\d+%|working) · \d+s/, 20_000);
    assert.match(await item.innerText(), /Agents (\d+%|working) · \d+s/);
    await item.hover();
    await page.waitForTimeout(800);
    await wb!.docScreenshot('status-bar');
    assert.strictEqual(emulator.release(), 1, 'the held task is let go now');

    // The result opens in the rendered result view (issue 9), titled with the instruction and the time sent.
    const tab = page.locator('.tabs-container .tab', { hasText: 'Review mean() for edge cases · ' }).first();
    await tab.waitFor({ timeout: 30_000 });
    const view = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
    await view.locator('h1.title', { hasText: 'Review mean() for edge cases' }).waitFor();
    await view.locator('#answer', { hasText: 'Synthesized answer' }).waitFor();
    await wb!.waitForNotification(/task done/);
    await wb!.docScreenshot('result-tab');

    const runs = emulator.requests.filter(r => r.path.endsWith('/run'));
    assert.strictEqual(runs.length, 1, 'exactly one submission');
    assert.strictEqual(runs[0].headers['x-api-key'], emulator.apiKey);
  });

  it('opens the sidebar with the task listed', async () => {
    const page = wb!.page;
    await page.locator('.activitybar .action-item a[aria-label^="Multi-Agent"]').first().click();
    await page.locator('.sidebar .pane-header', { hasText: /Tasks/i }).first().waitFor();
    await page.locator('.sidebar .monaco-list-row', { hasText: 'Review mean() for edge cases' }).first().waitFor({ timeout: 20_000 });
    await wb!.docScreenshot('sidebar');
  });

  it('shows the usage chart', async () => {
    const page = wb!.page;
    await wb!.runCommand('View: Close All Editors'); // one webview on screen: the usage panel
    await wb!.runCommand('Multi-Agent: Show Usage');
    await page.locator('.tabs-container .tab', { hasText: /Usage/ }).first().waitFor({ timeout: 20_000 });
    // The chart lives in the webview's nested iframes.
    const frame = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
    await frame.locator('svg').first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    await wb!.docScreenshot('usage');
  });
});
