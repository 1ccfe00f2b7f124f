// The getting-started walkthrough ticks each step as a newcomer does it, read from the walkthrough page of a
// real VS Code (issue 35: four tours found it ticking nothing; "Select some code" never could, see walkthrough.ts).
import * as assert from 'assert';
import { type Emulator, startEmulator } from '../emulator/server';
import { waitUntil, openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

const NEW_MEAN = 'export function mean(values: number[]): number {\n  return values.length ? values.reduce(add, 0) / values.length : Number.NaN;\n}\n';
const ANSWER = '# Proposal\n\nReturn `NaN` for an empty list:\n\n```typescript\n' + NEW_MEAN + '```\n';

describe('e2e: the walkthrough ticks as the newcomer goes', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;

  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 500, quiet: true });
    wb = await openWorkbenchOn(emulator);
  });
  const failures = screenshotFailures(() => wb);
  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  /** Opens the walkthrough and lists its ticked steps (as its checkboxes say), in order. */
  async function ticked(): Promise<string[]> {
    const page = wb!.page;
    await wb!.runCommand('Welcome: Open Walkthrough');
    await page.locator('.quick-input-widget input').first().fill('Multi-Agent');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Multi-Agent' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.gettingStartedContainer .getting-started-step').first().waitFor();
    return page.locator('.gettingStartedContainer').first().evaluate(e =>
      [...e.querySelectorAll('.getting-started-step[aria-checked="true"]')].map(s => (s.getAttribute('data-step-id') ?? '').split('#').pop() ?? ''));
  }

  async function selectAllOf(fileName: string): Promise<void> {
    const page = wb!.page;
    const tab = page.locator('.tabs-container .tab', { hasText: fileName }).first();
    if (!(await tab.count())) {
      await wb!.openPalette(fileName);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first().waitFor();
      await page.keyboard.press('Enter');
    }
    await tab.click();
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('ControlOrMeta+A');
  }

  it('ticks what was done before it was first opened (the demo opens no Welcome page), and the rest as it is done', async () => {
    const page = wb!.page;
    // The newcomer sets up, selects and sends before ever opening the walkthrough: VS Code registers it only now.
    emulator.setNextTask({ result: ANSWER });
    await selectAllOf('math.ts');
    await wb!.runCommand('Multi-Agent: Orchestrate Selection');
    await page.locator('.quick-input-widget input').first().fill('Make mean() total');
    await page.keyboard.press('Enter');
    const toast = await wb!.waitForNotification(/task done/, 40_000);
    assert.deepStrictEqual(await ticked(), ['setKey', 'selectCode', 'orchestrate', 'seeResult']);

    // With the walkthrough registered, the last step ticks as it happens.
    await toast.locator('.monaco-button', { hasText: 'Apply to Source…' }).click();
    const review = await wb!.waitForNotification(/Review the proposed change/);
    await review.locator('.monaco-button', { hasText: 'Accept' }).click();
    await wb!.waitForNotification(/Applied/);
    assert.deepStrictEqual(await ticked(), ['setKey', 'selectCode', 'orchestrate', 'seeResult', 'reviewChange'], 'every step is ticked');
    await wb!.screenshot('walkthrough-all-ticked');
  });

  it('a tick lost from the page\'s storage comes back: "Set your API key" ticks again when the key is set (issue 45)', async () => {
    const page = wb!.page;
    await wb!.runCommand('View: Close All Editors');
    // VS Code ticks a step from a context key once per window: after a reset, the key already known ticks nothing.
    await wb!.runCommand('Developer: Reset Welcome Page Walkthrough Progress');
    await waitUntil(async () => !(await ticked()).includes('setKey'), 'the walkthrough reset', 20_000);
    await wb!.runCommand('View: Close All Editors');
    await wb!.runCommand('Multi-Agent: Set API Key');
    await page.locator('.quick-input-widget input').first().fill(emulator.apiKey);
    await page.keyboard.press('Enter');
    await wb!.waitForNotification(/Key saved/, 20_000);
    await waitUntil(async () => (await ticked()).includes('setKey'), '"Set your API key" ticked again', 20_000);
  });
});
