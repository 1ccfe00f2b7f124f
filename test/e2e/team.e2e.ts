// See what the team did (issue 18) through the real UI: a finished task's result view opens its trace (goal,
// plan, each agent's step, the report) when "How the team worked" is expanded, lists the files the agents made,
// and opens one in an editor. Saves the README's screenshots (media/screenshots/team-*.png).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type Emulator, startEmulator } from '../emulator/server';
import { REPO_ROOT, openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

describe('e2e: see what the team did', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;

  before(async () => {
    // traceReport 'stored': the trace carries the report generator's output (the live store drops it today).
    emulator = await startEmulator({ taskDurationMs: 4_000, quiet: true, traceReport: 'stored' });
    wb = await openWorkbenchOn(emulator);
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  const resultFrame = () => wb!.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  /** Saves a screenshot and copies it where the README shows it. */
  async function readmeShot(name: string): Promise<void> {
    const shot = await wb!.screenshot(name);
    fs.mkdirSync(path.join(REPO_ROOT, 'media', 'screenshots'), { recursive: true });
    fs.copyFileSync(shot, path.join(REPO_ROOT, 'media', 'screenshots', `${name}.png`));
  }

  it('opens the trace of a finished task in the result view: goal, plan, one step per agent, the report', async () => {
    await wb!.orchestrateSelection('math.ts', 'Review mean() for edge cases');
    await wb!.waitForNotification(/task done/, 40_000);
    const frame = resultFrame();
    await frame.locator('h1.title', { hasText: 'Review mean() for edge cases' }).waitFor({ timeout: 20_000 });
    const summary = frame.locator('details#trace > summary');
    await summary.waitFor({ timeout: 20_000 });
    assert.strictEqual(await frame.locator('#trace-body section.step').count(), 0, 'not loaded before it is opened');
    await summary.click();
    await frame.locator('#trace-body section.step').first().waitFor({ timeout: 20_000 });
    assert.strictEqual(await frame.locator('#trace-body section.step').count(), 4, 'one step per agent');
    const text = await frame.locator('#trace-body').innerText();
    assert.match(text, /Goal/);
    assert.match(text, /Plan/);
    assert.match(text, /Step 1: Agent-1/);
    assert.match(text, /Subtask:/);
    assert.match(text, /Self-evaluation/);
    assert.match(text, /Report/);
    assert.strictEqual(await frame.locator('#trace-body a, #trace-body img, #trace-body script').count(), 0, 'nothing active in the trace');
    assert.ok(emulator.requests.some(r => r.method === 'GET' && /\/api\/v1\/tasks\/[^/]+\/trace$/.test(r.path)), 'read from the engine');
    await frame.locator('details#trace > summary').evaluate(el => el.scrollIntoView({ block: 'start' }));
    await wb!.page.waitForTimeout(500);
    await readmeShot('team-trace');
  });

  it('lists the files the agents made and opens one in an editor', async () => {
    const page = wb!.page;
    const frame = resultFrame();
    const files = frame.locator('ul.files');
    await files.waitFor({ timeout: 20_000 });
    assert.match(await files.innerText(), /findings\.csv\s+text\/csv · \d+ B/);
    assert.ok((await frame.locator('ul.sources li').count()) >= 1, 'the sources are listed');
    assert.strictEqual(await frame.locator('ul.sources a').count(), 0, 'a source is never a link');
    await frame.locator('details#trace > summary').click(); // fold the trace: the files and sources in view
    await files.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await readmeShot('team-files');

    await frame.locator('ul.files button[data-action="openFile"]').first().click();
    // The tab says it is the service's copy (issue 20).
    await page.locator('.tabs-container .tab', { hasText: 'findings (service copy).csv' }).first().waitFor({ timeout: 20_000 });
    await page.locator('.monaco-editor .view-lines', { hasText: 'agent,focus,finding' }).first().waitFor({ timeout: 20_000 });
    assert.ok(emulator.requests.some(r => r.method === 'GET' && /\/files\/[^/]+\/content$/.test(r.path)), 'downloaded through the files path');
  });

  it('switching tabs keeps the result view\'s scroll and its open sections (issue 26)', async () => {
    const page = wb!.page;
    const frame = resultFrame();
    const tab = page.locator('.tabs-container .tab', { hasText: 'Review mean() for edge cases' }).first();
    await tab.click();
    const trace = frame.locator('details#trace');
    await trace.waitFor({ timeout: 20_000 });
    if (!(await trace.evaluate(d => (d as unknown as { open: boolean }).open))) await frame.locator('details#trace > summary').click();
    await frame.locator('#trace-body section.step').nth(3).waitFor({ timeout: 20_000 });
    await frame.locator('#trace-body section.step').nth(2).evaluate(el => el.scrollIntoView({ block: 'start' }));
    // Two frames: the scroll's event has run and the page has kept its place.
    type Page = { scrollY: number; requestAnimationFrame(f: () => void): void };
    const nextFrames = () => new Promise<void>(done => (globalThis as unknown as Page).requestAnimationFrame(() => (globalThis as unknown as Page).requestAnimationFrame(done)));
    const scrollY = () => (globalThis as unknown as Page).scrollY;
    await frame.locator('body').evaluate(nextFrames);
    const before = await frame.locator('body').evaluate(scrollY);
    assert.ok(before > 100, `scrolled into the trace (${before})`);

    // Another tab in the same group hides the view (VS Code drops a hidden webview's page); back to it.
    await wb!.runCommand('File: New Untitled Text File');
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).first().waitFor({ timeout: 10_000 });
    await tab.click();
    await frame.locator('#trace-body section.step').nth(3).waitFor({ timeout: 20_000 });
    assert.ok(await frame.locator('details#trace').evaluate(d => (d as unknown as { open: boolean }).open), 'the trace is open again');
    await frame.locator('body').evaluate(nextFrames);
    const after = await frame.locator('body').evaluate(scrollY);
    assert.ok(Math.abs(after - before) < 40, `the scroll is where it was (${before} → ${after})`);
  });

  it('the box under the answer continues the task\'s thread: typed, kept while the tab is hidden, Ctrl+Enter, and the follow-up runs in its own view (issue 26)', async () => {
    const page = wb!.page;
    const frame = resultFrame();
    const tab = page.locator('.tabs-container .tab', { hasText: 'Review mean() for edge cases' }).first();
    await tab.click();
    const box = frame.locator('#follow-up-text');
    await box.waitFor({ timeout: 20_000 });
    await box.click();
    await page.keyboard.type('Now add tests for the empty list');
    // Another tab hides the view (VS Code drops its page): the words typed are there when it comes back.
    await wb!.runCommand('File: New Untitled Text File');
    await page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).first().waitFor({ timeout: 10_000 });
    await tab.click();
    await box.waitFor({ timeout: 20_000 });
    assert.strictEqual(await box.inputValue(), 'Now add tests for the empty list', 'the draft outlives the hidden tab');
    // A follow-up the service refuses gives its words back to the box (issue 35): sent again, it goes.
    emulator.addFault({ method: 'POST', path: /\/threads\/\d+\/runs$/, kind: 'status', status: 400 });
    await box.click();
    await page.keyboard.press('Control+Enter');
    const back = Date.now() + 20_000;
    while ((await box.inputValue()) !== 'Now add tests for the empty list') {
      assert.ok(Date.now() < back, 'the words came back into the box');
      await page.waitForTimeout(100);
    }
    await box.click();
    await page.keyboard.press('Control+Enter');
    const deadline = Date.now() + 20_000;
    let run;
    while (!(run = emulator.requests.filter(r => r.method === 'POST' && /\/threads\/\d+\/runs$/.test(r.path))[1])) {
      assert.ok(Date.now() < deadline, 'the follow-up was sent to the thread');
      await page.waitForTimeout(100);
    }
    assert.strictEqual((run.body as { prompt: string }).prompt, 'Now add tests for the empty list', 'the words alone, no code');
    await page.locator('.tabs-container .tab', { hasText: 'Now add tests for the empty list' }).first().waitFor({ timeout: 20_000 });
  });
});
