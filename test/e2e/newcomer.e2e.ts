// Issue 20, as a newcomer meets it in a real VS Code: loading states after a start, the welcome view's first
// button, Run in Thread with a webview focused, the result view opening on submit, one editor group across
// a reload, Insert at Cursor on lines of its own, Stop Tracking that says what it is, and an outage. Takes
// the README's and the walkthrough's pictures on the way.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { type Emulator, startEmulator } from '../emulator/server';
import { openWorkbenchOn, type Workbench, screenshotFailures, waitUntil } from './harness';

const ADD3 = 'export function add3(a: number): number {\n  return a + 3;\n}\n';
const ANSWER = `# Proposal\n\nA helper:\n\n\`\`\`typescript\n${ADD3}\`\`\`\n`;

describe('e2e: a newcomer\'s first ten minutes (issue 20)', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;
  let threadId = 0;
  const THREAD_TITLE = 'Parser questions';

  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 8_000, quiet: true });
    // A thread exists, and its list answers slowly: the view must say "Loading", never "No threads yet".
    const created = await fetch(`${emulator.baseUrl}/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': emulator.apiKey },
      body: JSON.stringify({ title: THREAD_TITLE }),
    });
    threadId = ((await created.json()) as { id: number }).id;
    emulator.addFault({ kind: 'delay', ms: 4_000, method: 'GET', path: /\/developer\/threads$/, times: 2 });
    // Not waiting for the Explorer: case 5 watches the sidebar from the start.
    wb = await openWorkbenchOn(emulator, { waitForExplorer: false, settings: { 'multiAgent.firstPollDelayMs': 500 } });
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  const page = () => wb!.page;
  const pane = (title: string) => page().locator('.sidebar .pane', { has: page().locator('.pane-header', { hasText: title }) }).first();
  const groups = () => page().locator('.part.editor .editor-group-container');
  const resultFrame = () => page().frameLocator('iframe.webview').frameLocator('iframe#active-frame');
  const taskRow = (title: string) => pane('Tasks').locator('.monaco-list-row', { hasText: title }).first();

  async function openSidebar(): Promise<void> {
    const tasks = page().locator('.sidebar .pane-header', { hasText: /Tasks/i }).first();
    if (await tasks.isVisible()) return;
    await page().locator('.activitybar .action-item a[aria-label^="Multi-Agent"]').first().click();
    await tasks.waitFor({ timeout: 30_000 });
  }

  /** The labels of an open context menu, in order, with '---' for each separator. */
  async function menuLabels(timeout = 10_000): Promise<string[]> {
    const menu = page().locator('.monaco-menu').last();
    await menu.waitFor({ timeout });
    return menu.locator('.actions-container > li').evaluateAll(items =>
      items.map(li => (li.querySelector('.separator') || li.classList.contains('separator') ? '---' : (li.textContent ?? '').trim())),
    );
  }

  /**
   * Runs a palette command, again when an editor that was just opened took the focus back from the palette
   * before it listed the command.
   */
  async function command(title: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const input = page().locator('.quick-input-widget input').first();
      try {
        if (await input.isVisible()) await page().keyboard.press('Escape');
        await page().keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 3_000 });
        await input.fill(`>${title}`, { timeout: 3_000 });
        const row = page().locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
        await row.waitFor({ timeout: 5_000 });
        await row.click({ timeout: 3_000 });
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
        await page().waitForTimeout(500);
      }
    }
  }

  /** Quick Open, again when something took the focus from it before it listed the file. */
  async function openFile(name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      // Ctrl+P needs the keyboard focus in the workbench; after a reload it can be nowhere (a disposed webview
      // had it), so every other attempt opens Quick Open by clicking the title bar's command center instead.
      if (attempt % 2 === 0) await page().keyboard.press('ControlOrMeta+P');
      else {
        await page()
          .locator('.command-center .command-center-center')
          .first()
          .click({ timeout: 3_000 })
          .catch(() => page().keyboard.press('ControlOrMeta+P'));
      }
      const input = page().locator('.quick-input-widget input').first();
      const row = page().locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      try {
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(name);
        await row.waitFor({ timeout: 10_000 });
      } catch (e) {
        // Quick Open did not open or lost the focus before it listed the file: open it again.
        if (attempt >= 5) throw e;
        await page().keyboard.press('Escape');
        continue;
      }
      await page().keyboard.press('Enter');
      // Enter was taken once Quick Open closes; then the tab follows at the workbench's own pace, which on a busy
      // machine is seconds (issue 45: a 5 s wait for it failed twice under load). The wait follows the state.
      if (!(await input.waitFor({ state: 'hidden', timeout: 10_000 }).then(() => true, () => false))) {
        if (attempt >= 5) throw new Error(`Quick Open kept "${name}" without opening it`);
        await page().keyboard.press('Escape');
        continue;
      }
      await page().locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ timeout: 60_000 });
      return;
    }
  }

  /** Orchestrate Selection on all of `name`, like the harness's, with a Quick Open that survives a stolen focus. */
  async function orchestrateAll(name: string, instruction: string): Promise<void> {
    await openFile(name);
    await page().locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page().keyboard.press('ControlOrMeta+A');
    await command('Multi-Agent: Orchestrate Selection');
    const input = page().locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible' });
    await page().locator('.quick-input-widget', { hasText: 'What should the agents do' }).first().waitFor();
    await input.fill(instruction);
    await page().keyboard.press('Enter');
  }

  /**
   * A running task's row redraws every second (its progress); on a busy machine a right-click can land between
   * two renderings and open nothing (CI of c428a79, the busy run). Then it right-clicks again, as a user would.
   */
  async function rowMenu(row: Locator): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      await row.click({ button: 'right' });
      try {
        return await menuLabels(attempt < 3 ? 5_000 : 10_000);
      } catch (e) {
        if (attempt >= 3) throw e;
        await page().keyboard.press('Escape');
      }
    }
  }

  /** Picks a menu item the way a keyboard user does: a row redrawn under the pointer cannot swallow it. */
  async function clickMenu(label: string): Promise<void> {
    const item = page().locator('.monaco-menu .action-item', { hasText: label }).last();
    await item.hover();
    await page().keyboard.press('Enter');
    await item.waitFor({ state: 'detached', timeout: 5_000 });
  }

  /**
   * Picks the row of a quick pick if the command asks "which task?" (it does when several fit), waiting for that
   * or for what the command does without asking (`done`): the UI's state, not a few seconds.
   */
  async function pickIfAsked(label: string, done: Locator): Promise<void> {
    const row = page().locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.or(done).first().waitFor({ timeout: 20_000 });
    if (await row.isVisible()) await row.click();
    await done.waitFor({ timeout: 20_000 });
  }

  it('5 after a start: "Loading…" until the key and the first page are known, never "Set an API key" or "No threads yet"', async () => {
    await page().locator('.activitybar .action-item a[aria-label^="Multi-Agent"]').first().click({ timeout: 60_000 });
    const seen = new Set<string>();
    const deadline = Date.now() + 45_000;
    for (;;) {
      const texts = await Promise.all(['Tasks', 'Threads', 'Files'].map(title => pane(title).innerText().catch(() => '')));
      texts.forEach(t => seen.add(t.replace(/\s+/g, ' ')));
      if (texts[1].includes(THREAD_TITLE)) break;
      assert.ok(Date.now() < deadline, `the thread never showed: ${[...seen].join(' | ')}`);
      await page().waitForTimeout(100);
    }
    const all = [...seen].join(' | ');
    assert.doesNotMatch(all, /Set an API key/, `a key is stored: no "Set an API key" on the way: ${all}`);
    assert.doesNotMatch(all, /No threads yet/, `a thread exists: no "No threads yet" on the way: ${all}`);
    assert.match(all, /Loading/, 'the slow first page showed as loading');
  });

  it('7 the welcome view\'s Orchestrate Selection with no editor offers to open a file, not an error; its Attach Files… fits', async () => {
    const welcome = pane('Tasks').locator('.welcome-view-content').first();
    await welcome.waitFor({ timeout: 30_000 });
    const body = await pane('Tasks').locator('.pane-body').first().boundingBox();
    const attach = await welcome.locator('a', { hasText: 'Attach Files…' }).first().boundingBox();
    assert.ok(body && attach, 'the welcome and its Attach Files… link are shown');
    assert.ok(attach.y >= body.y && attach.y + attach.height <= body.y + body.height + 1, `Attach Files… is inside the view: ${JSON.stringify({ body, attach })}`);

    await welcome.locator('.monaco-button', { hasText: 'Orchestrate Selection' }).first().click();
    const toast = await wb!.waitForNotification(/Open a file and select the code/, 15_000);
    const buttons = (await toast.locator('.monaco-button').allInnerTexts()).map(b => b.trim());
    assert.deepStrictEqual(buttons, ['Open a File…', 'Send a File…']);
    assert.strictEqual(await page().locator('.notifications-toasts .notification-toast .codicon-error').count(), 0, 'no error toast');
    await toast.locator('.monaco-button', { hasText: 'Open a File…' }).click();
    await page().locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: 10_000 });
    await page().keyboard.press('Escape');
  });

  it('1 Run in Thread with the usage panel focused sends the code of the editor beside it, and asks when there is none', async () => {
    await command('Multi-Agent: Show Usage');
    await page().locator('.tabs-container .tab', { hasText: /Usage/ }).first().waitFor({ timeout: 20_000 });
    // Loaded (it draws "Loading…" first): a page drawn again takes the focus back from Quick Open.
    await resultFrame().locator('h2', { hasText: 'Storage' }).waitFor({ timeout: 20_000 });
    // math.ts beside the usage panel, all of it selected, then the usage panel focused again.
    await page().keyboard.press('ControlOrMeta+P');
    await page().locator('.quick-input-widget input').first().fill('math.ts');
    await page().locator('.quick-input-list .monaco-list-row', { hasText: 'math.ts' }).first().waitFor();
    await page().keyboard.press('ControlOrMeta+Enter');
    await groups().nth(1).locator('.tab', { hasText: 'math.ts' }).waitFor({ timeout: 10_000 });
    await groups().nth(1).locator('.monaco-editor .view-lines').first().click();
    await page().keyboard.press('ControlOrMeta+A');
    const editorBox = await groups().nth(1).boundingBox();
    if (editorBox) await wb!.docScreenshot('select-code', { folder: 'walkthrough', clip: { x: editorBox.x, y: editorBox.y, width: Math.min(editorBox.width, 900), height: Math.min(editorBox.height, 420) } });
    await page().locator('.tabs-container .tab', { hasText: /Usage/ }).first().click();

    await openSidebar();
    const row = pane('Threads').locator('.monaco-list-row', { hasText: THREAD_TITLE }).first();
    await row.hover();
    await row.locator('.action-label[aria-label="Run in Thread…"]').click();
    const input = page().locator('.quick-input-widget').first();
    await input.locator('input').first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await input.innerText(), /What should the agents do with src\/math\.ts/);
    await input.locator('input').first().fill('Explain mean()');
    await page().keyboard.press('Enter');
    const run = await waitForRequest(r => r.method === 'POST' && r.path.endsWith(`/threads/${threadId}/runs`));
    assert.match((run.body as { prompt: string }).prompt, /^Explain mean\(\)\n\nsrc\/math\.ts[^\n]*:\n\n```typescript\nexport function add/);

    // No code anywhere: it asks instead of sending the instruction alone.
    await command('View: Close All Editors');
    await row.hover();
    await row.locator('.action-label[aria-label="Run in Thread…"]').click();
    // A question the command waits on is a modal dialog, not a corner toast (issue 26).
    const ask = page().locator('.monaco-dialog-box', { hasText: 'No code is selected: send the instruction alone?' }).first();
    await ask.waitFor({ timeout: 15_000 });
    const buttons = (await ask.locator('.monaco-button').allInnerTexts()).map(b => b.trim());
    assert.ok(buttons.includes('Send Instruction Alone') && buttons.includes('Cancel'), buttons.join(' | '));
    await page().keyboard.press('Escape');
    await ask.waitFor({ state: 'detached', timeout: 10_000 });
    assert.strictEqual(emulator.requests.filter(r => r.path.endsWith(`/threads/${threadId}/runs`)).length, 1, 'nothing more was sent');
    await waitForIdle();
    // The extension has taken the end in too, and opened the result it then opens: a busy run saw it open under
    // test 4, after its Close All Editors, which left one editor group where test 4 expects two.
    const ended = page().locator('.sidebar .pane', { has: page().locator('.pane-header', { hasText: 'Tasks' }) }).first().locator('.monaco-list-row', { hasText: 'Explain mean()' }).first();
    await waitUntil(async () => /^Explain mean\(\), (Completed|Done)/i.test((await ended.getAttribute('aria-label').catch(() => null)) ?? ''), 'the Tasks view to show "Explain mean()" done', 30_000);
  });

  it('4 the running result view opens beside the code on submit, typing stays in the editor, the status bar shows progress', async () => {
    await command('View: Close All Editors');
    // Held until the running view, the status bar and the screenshots are seen (issue 25).
    emulator.setNextTask({ hold: true });
    await orchestrateAll('math.ts', 'Review mean() for edge cases');
    const tab = groups().nth(1).locator('.tab', { hasText: 'Review mean() for edge cases · ' });
    await tab.waitFor({ timeout: 10_000 });
    await resultFrame().locator('#answer', { hasText: 'The agents are working' }).waitFor({ timeout: 10_000 });
    assert.ok(emulator.tasks().some(t => t.status === 'processing'), 'it opened while the task runs');
    // The cursor is still in math.ts: typing goes there.
    assert.ok(await page().evaluate('!!document.activeElement && !!document.activeElement.closest(".monaco-editor")'), 'the editor kept the focus');
    const item = await wb!.waitForStatusBarItem(/Agents (\d+%|working) · \d+s/, 10_000);
    const first = await item.innerText();
    await page().waitForTimeout(2_500);
    assert.notStrictEqual(await item.innerText(), first, 'the status bar text moves');
    await resultFrame().locator('table.agents tr').first().waitFor({ timeout: 10_000 });
    await command('Notifications: Clear All Notifications');
    await page().waitForTimeout(500);
    await wb!.docScreenshot('running-result-view');
    await wb!.docScreenshot('orchestrate', { folder: 'walkthrough', clip: { x: 300, y: 0, width: 1100, height: 640 } });
    assert.strictEqual(emulator.release(), 1, 'the held task is let go now');

    const toast = await wb!.waitForNotification(/task done: Review mean/, 40_000);
    assert.deepStrictEqual((await toast.locator('.monaco-button').allInnerTexts()).map(b => b.trim()), ['Copy Result', 'Review Changes…', 'Check Proposal…'], 'no Open Result: it is open (the answer names the changed file: Review Changes…)');
    await resultFrame().locator('#answer', { hasText: 'Synthesized answer' }).waitFor();
    assert.strictEqual(await groups().count(), 2);
    await wb!.docScreenshot('see-result', { folder: 'walkthrough', clip: { x: 300, y: 0, width: 1100, height: 640 } });
    await command('Notifications: Clear All Notifications');
  });

  it('6 after a reload, Show Prompt Sent and the raw result open in the same group as the result view: no third column', async () => {
    await command('Developer: Reload Window');
    await page().waitForLoadState('domcontentloaded');
    await page().locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    await groups().nth(1).locator('.tab', { hasText: 'Review mean() for edge cases · ' }).first().click({ timeout: 60_000 });
    await resultFrame().locator('button[data-offer="prompt"]').click({ timeout: 60_000 });
    await page().locator('.tabs-container .tab', { hasText: /^Prompt sent/ }).first().waitFor({ timeout: 20_000 });
    await groups().nth(0).locator('.tab', { hasText: 'math.ts' }).click();
    await command('Multi-Agent: Open Raw Markdown');
    await pickIfAsked('Review mean() for edge cases', page().locator('.tabs-container .tab', { hasText: 'Review mean() for edge cases.md' }).first());
    assert.strictEqual(await groups().count(), 2, 'the prompt and the raw result went to the result view\'s group');
    assert.ok(await groups().nth(1).locator('.tab', { hasText: /^Prompt sent/ }).count(), 'the prompt is beside the code');
    await command('View: Close All Editors');
  });

  it('3 Insert at Cursor puts a block on lines of its own, indented like the cursor\'s line', async () => {
    const file = path.join(wb!.workspace!, 'src', 'math.ts');
    const original = fs.readFileSync(file, 'utf8');
    emulator.setNextTask({ result: ANSWER });
    emulator.setTaskDuration(2_000);
    await orchestrateAll('math.ts', 'A helper please');
    await wb!.waitForNotification(/task done: A helper please/, 40_000);
    await command('Notifications: Clear All Notifications');
    await groups().nth(0).locator('.tab', { hasText: 'math.ts' }).click();
    await groups().nth(0).locator('.monaco-editor .view-lines').first().click();
    // The cursor at the end of line 2, "  return a + b;".
    await page().keyboard.press('ControlOrMeta+G');
    await page().locator('.quick-input-widget input').first().fill(':2');
    await page().keyboard.press('Enter');
    await page().keyboard.press('End');
    await command('Multi-Agent: Insert Result at Cursor');
    await pickIfAsked('A helper please', page().locator('.monaco-editor .view-lines', { hasText: 'add3' }).first());
    await page().keyboard.press('ControlOrMeta+S');
    await waitUntil(() => fs.readFileSync(file, 'utf8') !== original, 'math.ts saved');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(
      text.startsWith('export function add(a: number, b: number): number {\n  return a + b;\n  export function add3(a: number): number {\n    return a + 3;\n  }\n}\n'),
      text,
    );
    fs.writeFileSync(file, original);
    await page().locator('.monaco-editor .view-lines', { hasText: 'add3' }).first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
    await command('View: Close All Editors');
    emulator.setTaskDuration(8_000);
  });

  it('2 Stop Tracking says "no longer followed — still running on the service", apart from Cancel Task; the row offers Follow Again', async () => {
    emulator.setNextTask({ hold: true });
    await orchestrateAll('math.ts', 'Stop following me');
    await openSidebar();
    const row = taskRow('Stop following me');
    await row.waitFor({ timeout: 20_000 });
    const labels = await rowMenu(row);
    const cancel = labels.findIndex(l => l.startsWith('Cancel Task'));
    const stop = labels.findIndex(l => l.startsWith('Stop Following (Task Keeps Running)'));
    assert.ok(cancel >= 0 && stop > cancel, labels.join(' | '));
    assert.ok(labels.slice(cancel + 1, stop).includes('---'), `a separator between Cancel Task and Stop Following: ${labels.join(' | ')}`);
    await clickMenu('Stop Following (Task Keeps Running)');

    await wb!.waitForStatusBarItem(/No longer followed: Stop following me \(still running on the service\)/, 10_000);
    await row.locator('.label-description', { hasText: 'no longer followed — still running on the service' }).waitFor({ timeout: 10_000 });
    const task = emulator.tasks().find(t => t.prompt.startsWith('Stop following me'))!;
    assert.strictEqual(emulator.task(task.id)?.canceledAt, undefined, 'the service was not asked to cancel');
    assert.strictEqual(emulator.task(task.id)?.status, 'processing');
    const menu = await rowMenu(row);
    assert.ok(menu.some(l => l.startsWith('Follow Again')), menu.join(' | '));
    assert.ok(!menu.some(l => /cancel/i.test(l)), `nothing says canceled: ${menu.join(' | ')}`);
    await wb!.docScreenshot('stop-following');
    await clickMenu('Follow Again');
    await wb!.waitForStatusBarItem(/Agents (\d+%|working) · \d+s/, 15_000);

    // Cancel Task is the real thing: the service confirms, and only then it says canceled.
    await rowMenu(row);
    await clickMenu('Cancel Task');
    await waitUntil(() => emulator.task(task.id)?.canceledAt !== undefined, 'the service to cancel it');
    await row.locator('.label-description', { hasText: /^canceled/ }).waitFor({ timeout: 15_000 });
    await command('Notifications: Clear All Notifications');
  });

  it('9 an outage: the row waits (no frozen spinner), words once; the service back without the task: Run Again, the title, no "running"', async () => {
    emulator.setNextTask({ hold: true });
    await orchestrateAll('math.ts', 'Survive the outage');
    await openSidebar();
    const row = taskRow('Survive the outage');
    await row.waitFor({ timeout: 20_000 });
    await waitUntil(() => emulator.tasks().some(t => t.prompt.startsWith('Survive the outage')), 'the task on the service');
    const task = emulator.tasks().find(t => t.prompt.startsWith('Survive the outage'))!;
    await emulator.stop();
    try {
      await row.locator('.label-description', { hasText: 'waiting for the service' }).waitFor({ timeout: 30_000 });
      assert.strictEqual(await row.locator('.codicon-watch').count(), 1, 'a waiting icon');
      assert.strictEqual(await row.locator('.codicon-sync').count(), 0, 'no spinner');
      const item = await wb!.waitForStatusBarItem(/Agents waiting · \d+s/, 10_000);
      await item.hover();
      const hover = page().locator('.monaco-hover, .workbench-hover').last();
      await hover.waitFor({ timeout: 10_000 });
      const said = (await hover.innerText()).replace(/\s+/g, ' ');
      assert.match(said, /Could not reach the service \([^()]+\): retrying\. Nothing is lost\./);
      assert.doesNotMatch(said, /reach the service[\s\S]*reach the service/, `said once: ${said}`);
      await wb!.docScreenshot('outage');
      await page().mouse.move(700, 450);
    } finally {
      // The service comes back without the task.
      emulator.addFault({ kind: 'status', status: 404, path: new RegExp(task.id), times: Infinity, body: { status: 404, detail: 'Task not found' } });
      await emulator.start();
    }
    const toast = await wb!.waitForNotification(/Multi-Agent task "Survive the outage" failed/, 60_000);
    const message = await toast.innerText();
    assert.match(message.replace(/\s+/g, ' '), /Multi-Agent task "Survive the outage" failed: The service no longer knows this task: it was lost or removed there\./);
    assert.ok(!message.includes(task.id), `no raw task id: ${message}`);
    assert.deepStrictEqual((await toast.locator('.monaco-button').allInnerTexts()).map(b => b.trim()), ['Run Again', 'Show Log']);
    await row.locator('.label-description', { hasText: /^failed/ }).waitFor({ timeout: 10_000 });
    await row.hover();
    const tip = page().locator('.monaco-hover, .workbench-hover', { hasText: 'Survive the outage' }).last();
    await tip.waitFor({ timeout: 10_000 });
    assert.doesNotMatch(await tip.innerText(), /running/, 'the failed task\'s agents no longer read "running"');
    emulator.clearFaults();
    emulator.release();
  });

  async function waitForRequest(match: (r: Emulator['requests'][number]) => boolean, timeoutMs = 20_000): Promise<Emulator['requests'][number]> {
    let found: Emulator['requests'][number] | undefined;
    await waitUntil(() => !!(found = emulator.requests.find(match)), 'the request', timeoutMs);
    return found!;
  }

  /** Until no task runs on the emulator (so the next test's status bar is its own). */
  async function waitForIdle(): Promise<void> {
    await waitUntil(() => emulator.tasks().every(t => t.status !== 'processing'), 'the running tasks to end', 60_000);
  }
});
