// Review and apply through the real UI: the completion's "Apply to Source…", a diff with Accept / Discard,
// the rendered result view (hostile text inert), and the Clear Finished question. Saves README screenshots.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type Emulator, startEmulator } from '../emulator/server';
import { openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

const NEW_MEAN = 'export function mean(values: number[]): number {\n  return values.length ? values.reduce(add, 0) / values.length : Number.NaN;\n}\n';
const ANSWER =
  '# Proposal\n\nReturn `NaN` for an empty list instead of throwing:\n\n```typescript\n' +
  NEW_MEAN +
  '```\n\n- callers no longer need a try/catch\n- **no** other change\n\n<script>document.body.innerHTML = "pwned"</script>\n\n' +
  '[run me](command:workbench.action.terminal.new) ![pixel](https://evil.example/p.png)\n';

describe('e2e: review and apply', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;
  let original = '';
  const mathPath = () => path.join(wb!.workspace ?? '', 'src', 'math.ts');

  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 4_000, quiet: true });
    wb = await openWorkbenchOn(emulator);
    original = fs.readFileSync(mathPath(), 'utf8');
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  const mathTab = () => wb!.page.locator('.tabs-container .tab', { hasText: /^math\.ts/ }).first();
  const diffTab = () => wb!.page.locator('.tabs-container .tab', { hasText: '↔ proposal' }).first();
  const resultFrame = () => wb!.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  it('leaves the file unchanged until Accept in a diff; Discard changes nothing', async () => {
    const page = wb!.page;
    emulator.setNextTask({ result: ANSWER });
    await wb!.orchestrateSelection('math.ts', 'Make mean() total');
    const toast = await wb!.waitForNotification(/task done/, 40_000);
    const buttons = await toast.locator('.monaco-button').allInnerTexts();
    // No Open: the result view opened beside the code when the task was sent (issue 20).
    assert.deepStrictEqual(buttons.map(b => b.trim()), ['Copy Result', 'Apply to Source…']);
    await toast.locator('.monaco-button', { hasText: 'Apply to Source…' }).click();

    await diffTab().waitFor({ timeout: 20_000 });
    const review = await wb!.waitForNotification(/Review the proposed change/);
    await page.waitForTimeout(800);
    await wb!.docScreenshot('review-diff');
    assert.ok(!(await mathTab().getAttribute('class'))?.includes('dirty'), 'math.ts is unchanged while the diff is open');
    assert.strictEqual(fs.readFileSync(mathPath(), 'utf8'), original);

    await review.locator('.monaco-button', { hasText: 'Discard' }).click();
    await diffTab().waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(!(await mathTab().getAttribute('class'))?.includes('dirty'), 'Discard changed nothing');
    assert.strictEqual(fs.readFileSync(mathPath(), 'utf8'), original);
  });

  it('shows a result view with the header, rendered code and Apply buttons; the hostile parts are inert', async () => {
    const page = wb!.page;
    await page.locator('.tabs-container .tab', { hasText: /Make mean\(\) total · / }).first().click();
    const frame = resultFrame();
    await frame.locator('h1.title', { hasText: 'Make mean() total' }).waitFor({ timeout: 20_000 });
    await frame.locator('button', { hasText: 'Show Prompt Sent' }).waitFor();
    await frame.locator('button[data-action="apply"]').first().waitFor();
    assert.strictEqual(await frame.locator('.code-block').count(), 1);
    assert.match(await frame.locator('dl').innerText(), /src\/math\.ts, lines 1–10/);
    const answer = await frame.locator('#answer').innerText();
    assert.ok(answer.includes('<script>document.body.innerHTML = "pwned"</script>'), 'the script is shown as text');
    assert.ok(answer.includes('run me (command:workbench.action.terminal.new)'), 'the command link is plain text');
    assert.strictEqual(await frame.locator('#answer a, #answer img, #answer script').count(), 0);
    assert.ok(!(await frame.locator('body').innerText()).startsWith('pwned'));
    await wb!.docScreenshot('review-result-view');
  });

  it('applies exactly the proposal on Accept from the result view, and Undo restores the file', async () => {
    const page = wb!.page;
    await resultFrame().locator('button[data-action="apply"]').first().click();
    await diffTab().waitFor({ timeout: 20_000 });
    const review = await wb!.waitForNotification(/Review the proposed change/);
    assert.ok(!(await mathTab().getAttribute('class'))?.includes('dirty'));
    await review.locator('.monaco-button', { hasText: 'Accept' }).click();
    await diffTab().waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator('.monaco-editor .view-lines', { hasText: 'Number.NaN' }).first().waitFor({ timeout: 10_000 });
    // The whole file was sent and the block redefines mean() only: it replaces mean(), and add() stays (issue 34).
    assert.ok((await page.locator('.monaco-editor .view-lines', { hasText: 'export function add' }).count()) > 0, 'add() kept: the block replaced mean() only, not the whole file');
    await wb!.screenshot('review-applied');

    await page.locator('.monaco-editor .view-lines', { hasText: 'Number.NaN' }).first().click();
    await page.keyboard.press('ControlOrMeta+Z');
    await page.locator('.monaco-editor .view-lines', { hasText: 'mean of an empty list' }).first().waitFor({ timeout: 10_000 });
    assert.strictEqual(await page.locator('.monaco-editor .view-lines', { hasText: 'Number.NaN' }).count(), 0, 'one Undo restored the file');
    // Saved, and on disk again before the next tests read it: left to auto save's delay, a later test once found
    // the applied text still on disk (a busy machine, a window reload in between).
    await page.keyboard.press('ControlOrMeta+S');
    for (let i = 0; i < 100 && fs.readFileSync(mathPath(), 'utf8') !== original; i++) await new Promise(r => setTimeout(r, 100));
    assert.strictEqual(fs.readFileSync(mathPath(), 'utf8'), original, 'the undone file was saved');
  });

  it('asks before Clear Finished Tasks wipes anything', async () => {
    const page = wb!.page;
    await wb!.runCommand('Multi-Agent: Clear Finished Tasks');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Clear 1 finished task?' }).first();
    await dialog.waitFor({ timeout: 10_000 });
    await wb!.docScreenshot('review-clear-finished');
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The result view is still there: its task was kept.
    await page.locator('.tabs-container .tab', { hasText: /Make mean\(\) total · / }).first().click();
    await resultFrame().locator('h1.title', { hasText: 'Make mean() total' }).waitFor({ timeout: 10_000 });
  });

  it('brings the open result view back after a window reload', async () => {
    const page = wb!.page;
    await wb!.runCommand('Developer: Reload Window');
    await page.waitForLoadState('domcontentloaded');
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab', { hasText: /Make mean\(\) total · / }).first().click({ timeout: 60_000 });
    await resultFrame().locator('h1.title', { hasText: 'Make mean() total' }).waitFor({ timeout: 60_000 });
    await resultFrame().locator('button[data-action="apply"]').first().waitFor();
  });

  it("the completion's Copy changes no file, with the sent code still selected; the result is open already", async () => {
    const page = wb!.page;
    emulator.setNextTask({ result: ANSWER });
    await wb!.orchestrateSelection('math.ts', 'Notification Copy');
    const toast = await wb!.waitForNotification(/task done: Notification Copy/, 40_000);
    // The result view opened on submit, beside the code: the toast offers no Open (issue 20).
    await page.locator('.tabs-container .tab', { hasText: /Notification Copy · / }).first().waitFor({ timeout: 20_000 });
    assert.deepStrictEqual((await toast.locator('.monaco-button').allInnerTexts()).map(b => b.trim()), ['Copy Result', 'Apply to Source…']);
    await toast.locator('.monaco-button', { hasText: /^Copy Result$/ }).click();
    await wb!.waitForStatusBarItem(/Result copied/, 10_000); // a passing note, not a toast (issue 26)
    assert.ok(!(await mathTab().getAttribute('class'))?.includes('dirty'), 'Copy left math.ts unchanged');
    assert.strictEqual(fs.readFileSync(mathPath(), 'utf8'), original, 'Copy wrote nothing');
    await page.keyboard.press('Escape');
  });

  it('Apply… on a usage example offers Insert at Cursor or Copy Block, never a replacement of the selection (issue 34)', async () => {
    const page = wb!.page;
    await wb!.runCommand('Notifications: Clear All Notifications');
    emulator.setNextTask({ result: 'Use it like this:\n\n```ts\nconsole.log(mean([1, 2, 3]));\n```\n' });
    await wb!.orchestrateSelection('math.ts', 'Show a usage example');
    const toast = await wb!.waitForNotification(/task done: Show a usage example/, 40_000);
    await toast.locator('.monaco-button', { hasText: 'Apply to Source…' }).click();
    const asked = await wb!.waitForNotification(/does not show that it replaces/, 20_000);
    assert.deepStrictEqual((await asked.locator('.monaco-button').allInnerTexts()).map(b => b.trim()), ['Insert at Cursor', 'Copy Block']);
    await page.waitForTimeout(600);
    await wb!.screenshot('review-no-proven-place');
    assert.strictEqual(await diffTab().count(), 0, 'no diff offered');
    assert.strictEqual(fs.readFileSync(mathPath(), 'utf8'), original, 'nothing replaced');
  });
});
