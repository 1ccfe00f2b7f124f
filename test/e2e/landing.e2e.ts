// Landing a multi-file answer hunk by hunk (issue 16) through the real UI, on code-server 1.100 and the newest:
// a selection in one file plus an attached workspace file; the completion's "Review Changes…" opens VS Code's
// Refactor Preview with one entry per hunk; nothing is written before Apply; one hunk unchecked stays out;
// one Undo restores both files. Then the drift case: 20 lines typed above and a line edited inside the second
// hunk before the answer arrives. Prints how long the preview takes to show (measured, not asserted) and
// saves README screenshots (1.100).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { type Emulator, startEmulator } from '../emulator/server';
import { openWorkbenchOn, type Workbench, screenshotFailures, waitUntil } from './harness';

const STATS_LINES = Array.from({ length: 30 }, (_, i) => `export const v${i + 1} = ${i + 1};`);
const STATS = `${STATS_LINES.join('\n')}\n`;

for (const version of ['1.100', 'newest']) {
  describe(`e2e: land a multi-file answer hunk by hunk (VS Code ${version})`, function () {
    let emulator: Emulator;
    let wb: Workbench | undefined;
    let greet = '';
    const file = (...p: string[]) => path.join(wb!.workspace ?? '', ...p);
    const read = (...p: string[]) => fs.readFileSync(file(...p), 'utf8');
    const shot = (name: string) => wb!.screenshot(version === '1.100' ? name : `${name}-newest`);

    before(async () => {
      emulator = await startEmulator({ taskDurationMs: 3_000, quiet: true });
      wb = await openWorkbenchOn(emulator, {
        vscodeVersion: version,
        waitForExplorer: false,
        settings: {
          'multiAgent.openResultOnCompletion': false,
          'files.autoSave': 'off',
          'editor.autoClosingBrackets': 'never',
          'editor.acceptSuggestionOnEnter': 'off',
          'editor.quickSuggestions': { other: false, comments: false, strings: false },
        },
      });
      fs.writeFileSync(file('src', 'stats.ts'), STATS);
      greet = read('src', 'greet.py');
      await wb.waitForExplorer('README.md');
      await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'src' }).first().click();
      await wb.waitForExplorer('stats.ts');
    });

    const failures = screenshotFailures(() => wb);

    after(async () => {
      await wb?.close(failures.failed());
      await emulator?.close();
    });

    const page = (): Page => wb!.page;
    const panel = () => page().locator('.bulk-edit-panel').first();
    const editRows = () => panel().locator('.monaco-list-row');
    /** The lines of the editor in view (other editors may linger hidden in the page). */
    const editorText = () => page().locator('.monaco-editor .view-lines >> visible=true').first();
    const tab = (name: string) => page().locator('.tabs-container .tab', { hasText: new RegExp(`^${name.replace('.', '\\.')}`) }).first();

    /** Opens a workspace file with Quick Open; returns once its editor shows. */
    async function open(name: string): Promise<void> {
      await page().keyboard.press('ControlOrMeta+P');
      await page().locator('.quick-input-widget input').first().fill(name);
      // Clicked, not Enter: the list may still have a recent file active while it filters.
      await page().locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
      await tab(name).waitFor();
      await editorText().click();
    }

    /** Attaches a workspace file through "Attach Files…" (a multi-select quick pick). */
    async function attach(relative: string): Promise<void> {
      await wb!.runCommand('Multi-Agent: Attach Files…');
      const input = page().locator('.quick-input-widget input').first();
      await input.waitFor({ state: 'visible' });
      await input.fill(relative);
      const row = page().locator('.quick-input-list .monaco-list-row', { hasText: relative }).first();
      await row.waitFor();
      await row.click();
      await page().keyboard.press('Enter');
      await wb!.waitForNotification(/attached|Attached/, 10_000).catch(() => undefined);
      await page().locator('.statusbar-item', { hasText: /attached|1 file/ }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    }

    /** Selects lines 5–24 of stats.ts and orchestrates them with `instruction`. */
    async function sendStats(instruction: string): Promise<void> {
      await open('stats.ts');
      // Checked in the status bar ("(… selected)"), and selected again if the keys went elsewhere: once, in a
      // clean-clone run, the click left the cursor on line 25 and the keys never reached the editor.
      const selected = page().locator('.statusbar-item', { hasText: /\(\d+ selected\)/ }).first();
      for (let attempt = 1; ; attempt++) {
        await page().keyboard.press('ControlOrMeta+Home');
        for (let i = 0; i < 4; i++) await page().keyboard.press('ArrowDown');
        for (let i = 0; i < 20; i++) await page().keyboard.press('Shift+ArrowDown');
        const ok = await selected.waitFor({ timeout: 3_000 }).then(() => true, () => false);
        if (ok) break;
        assert.ok(attempt < 3, 'lines 5–24 of stats.ts could not be selected: the editor did not take the keys');
        await editorText().click();
      }
      await wb!.runCommand('Multi-Agent: Orchestrate Selection');
      const input = page().locator('.quick-input-widget input').first();
      await input.waitFor({ state: 'visible' });
      await input.fill(instruction);
      await page().keyboard.press('Enter');
    }

    /** Clicks Review Changes… on the completion toast; resolves with the ms until the preview lists its entries. */
    async function reviewFromToast(title: string): Promise<number> {
      const toast = await wb!.waitForNotification(new RegExp(`task done: ${title}`), 60_000);
      const buttons = (await toast.locator('.monaco-button').allInnerTexts()).map(b => b.trim());
      // No Open: the result view opened beside the code on submit (multiAgent.openResultOnSubmit).
      assert.deepStrictEqual(buttons, ['Copy Result', 'Review Changes…', 'Check Proposal…']);
      const started = Date.now();
      await toast.locator('.monaco-button', { hasText: 'Review Changes…' }).click();
      await panel().waitFor({ state: 'visible', timeout: 20_000 });
      await editRows().filter({ hasText: 'Checked by the agents' }).first().waitFor({ timeout: 20_000 });
      return Date.now() - started;
    }

    /**
     * Saves the two files (the edit changes files that have no editor, in the background), each opened and
     * saved with Ctrl+S, and waits until no tab is dirty.
     */
    async function saveAll(): Promise<void> {
      for (const name of ['greet.py', 'stats.ts']) {
        await open(name);
        await page().keyboard.press('Control+S');
        await page().locator(`.tabs-container .tab.dirty[data-resource-name="${name}"]`).waitFor({ state: 'detached', timeout: 10_000 });
        // The dirty mark goes when the save is sent; on a busy machine the file was once read empty just after
        // (CI of 9bcde2f), mid-write. Neither file is ever empty here: wait until it is written.
        await waitUntil(() => read('src', name) !== '', `src/${name} written`, 10_000);
      }
    }

    const checkbox = (row: Locator) => row.locator('.edit-checkbox').first();
    const isChecked = async (row: Locator) => {
      const box = checkbox(row);
      const aria = await box.getAttribute('aria-checked');
      return aria !== null ? aria === 'true' : box.isChecked();
    };

    async function applyPreview(): Promise<void> {
      await panel().locator('.monaco-button', { hasText: /^Apply$/ }).first().click();
      await panel().waitFor({ state: 'hidden', timeout: 20_000 }).catch(() => undefined);
    }

    it('reviews a two-file answer: nothing written before Apply, one hunk left unchecked stays out, one Undo restores both files', async () => {
      await attach('src/greet.py');
      await sendStats('Review the constants');
      const ms = await reviewFromToast('Review the constants');
      console.log(`      [e2e] VS Code ${version}: Review Changes… → Refactor Preview visible in ${ms} ms (two files, three hunks)`);
      await wb!.waitForNotification(/1 block has no file to apply to; 1 part cannot be applied/, 10_000);
      await page().waitForTimeout(600);
      await shot('landing-preview');

      assert.strictEqual(read('src', 'stats.ts'), STATS, 'stats.ts unchanged while the preview is open');
      assert.strictEqual(read('src', 'greet.py'), greet, 'greet.py unchanged while the preview is open');
      assert.ok(!(await tab('stats.ts').getAttribute('class'))?.includes('dirty'), 'no unsaved change either');

      const rows = editRows();
      const second = rows.filter({ hasText: 'Checked by the agents' }).first();
      const first = rows.filter({ hasText: 'Reviewed by the agents' }).first();
      const attached = rows.filter({ hasText: 'Updated by the agents' }).first();
      for (const row of [first, second, attached]) assert.strictEqual(await isChecked(row), true, 'ordinary hunks start checked');
      await checkbox(second).click();
      assert.strictEqual(await isChecked(second), false);

      await applyPreview();
      await wb!.waitForNotification(/Applied the reviewed changes to 2 files/, 20_000);
      await saveAll();
      const lines = read('src', 'stats.ts').split('\n');
      assert.strictEqual(lines[4], '// Reviewed by the agents.');
      assert.strictEqual(lines[24], 'export const v24 = 24;', 'the unchecked hunk stayed out');
      assert.strictEqual(read('src', 'greet.py'), `# Updated by the agents.\n${greet}`);

      // One Undo: VS Code may ask whether to undo in every file the edit touched.
      await open('stats.ts');
      await page().keyboard.press('ControlOrMeta+Z');
      // Either VS Code asks, or the Undo is done at once (stats.ts differs from its saved text): the state, not a wait.
      const dialog = page().locator('.monaco-dialog-box').first();
      const undone = page().locator('.tabs-container .tab.dirty', { hasText: 'stats.ts' }).first();
      await dialog.or(undone).first().waitFor({ timeout: 20_000 });
      const asked = await dialog.isVisible();
      if (asked) {
        await shot('landing-undo-question');
        console.log(`      [e2e] VS Code ${version}: Undo asks "${(await dialog.locator('.dialog-message-text').innerText()).trim()}"`);
        await dialog.locator('.monaco-button', { hasText: /Undo in 2 Files/ }).click();
      } else console.log(`      [e2e] VS Code ${version}: Undo asked nothing`);
      await saveAll();
      assert.strictEqual(read('src', 'stats.ts'), STATS, 'one Undo restored stats.ts');
      assert.strictEqual(read('src', 'greet.py'), greet, 'the same Undo restored greet.py');
      await wb!.runCommand('View: Close All Editors');
    });

    it('drift: 20 lines typed above and an edit inside the second hunk before the answer; the first hunk lands shifted, the second is an unchecked conflict', async () => {
      // Held until the typing is done: the answer cannot arrive first, however slow the machine (issue 25).
      emulator.setNextTask({ hold: true });
      await attach('src/greet.py');
      await sendStats('Review again');
      await wb!.waitForStatusBarItem(/Agents (\d+%|working) · \d+s/, 20_000);
      // Type while the agents work: 20 lines above the selection, then an edit on the line of the second hunk.
      await tab('stats.ts').click();
      await editorText().click();
      await page().keyboard.press('ControlOrMeta+Home');
      // Code lines, not comments: Enter after a comment would continue it.
      for (let i = 1; i <= 20; i++) await page().keyboard.type(`const note${i} = ${i};\n`);
      await page().keyboard.press('Control+G');
      await page().locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
      await page().keyboard.type('44');
      await page().keyboard.press('Enter');
      await page().keyboard.press('End');
      await page().keyboard.press('ArrowLeft');
      await page().keyboard.type('00');
      await saveAll();
      const typed = read('src', 'stats.ts');
      assert.strictEqual(typed.split('\n')[43], 'export const v24 = 2400;', typed.split('\n').slice(40, 46).join('\n'));
      // Past a minute of typing (a busy machine) the bar says "1m 06s".
      assert.ok(await page().locator('.statusbar-item', { hasText: /Agents (\d+%|working) · (\d+m )?\d+s/ }).first().isVisible(), 'the edits were made before the answer arrived');
      assert.strictEqual(emulator.release(), 1, 'the held task is let go now');

      const ms = await reviewFromToast('Review again');
      console.log(`      [e2e] VS Code ${version}: Review Changes… → Refactor Preview visible in ${ms} ms (drift case, with a conflict)`);
      await wb!.runCommand('Notifications: Clear All Notifications');
      await page().waitForTimeout(600);
      await shot('landing-conflict');
      assert.strictEqual(read('src', 'stats.ts'), typed, 'no byte changes before Apply');
      assert.strictEqual(read('src', 'greet.py'), greet);

      const conflict = editRows().filter({ hasText: 'Checked by the agents' }).first();
      const shifted = editRows().filter({ hasText: 'Reviewed by the agents' }).first();
      assert.strictEqual(await isChecked(conflict), false, 'the conflict starts unchecked');
      assert.strictEqual(await isChecked(shifted), true);

      await applyPreview();
      await wb!.waitForNotification(/Applied the reviewed changes to 2 files/, 20_000);
      await saveAll();
      const lines = read('src', 'stats.ts').split('\n');
      assert.deepStrictEqual(lines.slice(23, 26), ['export const v4 = 4;', '// Reviewed by the agents.', 'export const v5 = 5;'], 'the first hunk landed 20 lines lower');
      assert.strictEqual(lines[44], 'export const v24 = 2400;', 'the conflict was not applied: the typed line stays');
      assert.strictEqual(read('src', 'greet.py'), `# Updated by the agents.\n${greet}`);
    });

    it('Open All Changes shows each file now against the file with the offered hunks, in one multi-file diff, writing nothing', async () => {
      emulator.setTaskDuration(2_000);
      const before = { stats: read('src', 'stats.ts'), greet: read('src', 'greet.py') };
      await attach('src/greet.py');
      await sendStats('Show all changes');
      await wb!.waitForNotification(/task done: Show all changes/, 60_000);
      await wb!.runCommand('Multi-Agent: Open All Changes');
      const pick = page().locator('.quick-input-list .monaco-list-row', { hasText: 'Show all changes' }).first();
      await pick.waitFor({ timeout: 10_000 });
      await pick.click();
      await page().locator('.tabs-container .tab', { hasText: 'Changes proposed for "Show all changes" (2 files)' }).first().waitFor({ timeout: 20_000 });
      await page().locator('.multiDiffEntry', { hasText: 'greet.py' }).first().waitFor({ timeout: 10_000 });
      assert.strictEqual(await page().locator('.multiDiffEntry .status.renamed').count(), 0, 'both sides name the same file');
      await wb!.runCommand('Notifications: Clear All Notifications');
      await page().waitForTimeout(1000);
      await shot('landing-all-changes');
      assert.strictEqual(read('src', 'stats.ts'), before.stats);
      assert.strictEqual(read('src', 'greet.py'), before.greet);
    });

    it('an aider search/replace answer lands as an edit where its SEARCH text is, once; a SEARCH not in the file is listed, never forced (issue 34)', async () => {
      await wb!.runCommand('View: Close All Editors');
      emulator.setTaskDuration(1_000);
      const before = read('src', 'stats.ts');
      const answer = [
        'Two edits:',
        '',
        'src/stats.ts',
        '```ts',
        '<<<<<<< SEARCH',
        'export const v10 = 10;',
        '=======',
        'export const v10 = 100; // scaled',
        '>>>>>>> REPLACE',
        '```',
        '',
        'src/stats.ts',
        '```ts',
        '<<<<<<< SEARCH',
        'export const v99 = 99;',
        '=======',
        'export const v99 = 990;',
        '>>>>>>> REPLACE',
        '```',
        '',
      ].join('\n');
      emulator.setNextTask({ result: answer });
      await sendStats('Scale v10');
      await reviewFromTitle('Scale v10');
      await wb!.waitForNotification(/cannot be applied/, 10_000);
      await page().waitForTimeout(600);
      await shot('landing-edit-blocks');
      assert.strictEqual(read('src', 'stats.ts'), before, 'nothing written before Apply');
      await applyPreview();
      await wb!.waitForNotification(/Applied the reviewed changes/, 20_000);
      await open('stats.ts');
      await page().keyboard.press('Control+S');
      await page().locator('.tabs-container .tab.dirty[data-resource-name="stats.ts"]').waitFor({ state: 'detached', timeout: 10_000 });
      await waitUntil(() => read('src', 'stats.ts') !== before, 'src/stats.ts written', 10_000);
      const after = read('src', 'stats.ts');
      assert.strictEqual(after, before.replace('export const v10 = 10;\n', 'export const v10 = 100; // scaled\n'), 'exactly the one edit, no markers written');
      assert.ok(!/<<<<<<<|=======|>>>>>>>/.test(after));
    });

    /** Review Changes… from the completion toast, for an answer whose rows are not the emulator's landing hunks. */
    async function reviewFromTitle(title: string): Promise<void> {
      const toast = await wb!.waitForNotification(new RegExp(`task done: ${title}`), 60_000);
      await toast.locator('.monaco-button', { hasText: 'Review Changes…' }).click();
      await panel().waitFor({ state: 'visible', timeout: 20_000 });
      await editRows().first().waitFor({ timeout: 20_000 });
    }
  });
}
