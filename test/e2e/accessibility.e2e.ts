// A screen reader's view (issue 26, item 10), in a real browser: every webview of the extension (the result
// view while the task runs and when it is done, the trace in it, a thread's transcript, the usage page) passes
// an axe-core audit with no serious or critical violation, in a dark, a light and a high-contrast theme (issue
// 35: one workbench per theme); error and warning text is readable on each theme's background and, in high
// contrast, every button has a border; the sidebar's rows and the status bar item have accessible names that say
// what they are and their state. Saves the result view in the high-contrast theme
// (media/screenshots/result-high-contrast.png).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { type Emulator, startEmulator } from '../emulator/server';
import { REPO_ROOT, openWorkbenchOn, type Workbench, screenshotFailures } from './harness';

const AXE = fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The inner frame of the webview on screen (the extension's page), once it holds `selector`. */
async function webviewFrame(page: Page, selector: string, timeout = 20_000): Promise<Frame> {
  const inner = page.frameLocator('iframe.webview >> visible=true').frameLocator('iframe#active-frame');
  await inner.locator(selector).first().waitFor({ timeout });
  const handle = await page.frameLocator('iframe.webview >> visible=true').locator('iframe#active-frame').elementHandle({ timeout });
  const frame = await handle?.contentFrame();
  // The page was drawn anew between the two reads (see `onSettledPage`).
  if (!frame) throw new Error('Frame was detached: the webview\'s frame went before it was read');
  return frame;
}

/**
 * axe-core run in the page's own frame: evaluated through the browser's protocol (the page's CSP admits no
 * script of ours, and needs not). Returns the serious and critical violations.
 */
async function audit(frame: Frame): Promise<Violation[]> {
  await frame.evaluate(AXE);
  const result = (await frame.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as { violations: Violation[] };
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Runs `step` on the result view's page, again (up to three times) when the page is drawn anew under it. A finished
 * task's view is drawn once more when a later read adds to the task (its files, its thread), which may come after
 * the completion's toast: the frame the step held is then gone ("Frame was detached", the CI run of 4e9d1f0).
 */
async function onSettledPage<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (e) {
      if (attempt >= 3 || !/Frame was detached|Execution context was destroyed|frame got detached/i.test(String(e))) throw e;
    }
  }
}

/**
 * What axe does not see in every theme: the colours of error, warning and failed-tool text, whether or not the
 * page shows one now (a probe of each is added to the page, measured against the page's background, and
 * removed), and, in high contrast, a border on every button (one without reads as text). Returns the problems.
 */
async function themeProblems(frame: Frame, highContrast: boolean): Promise<string[]> {
  return (await frame.evaluate(`(() => {
    const rgba = c => {
      const n = (c.match(/[\\d.]+/g) || []).map(Number);
      const srgb = c.startsWith('color(');
      const [r, g, b] = (srgb ? n.slice(0, 3).map(x => x * 255) : n.slice(0, 3));
      return { r, g, b, a: n.length > 3 ? n[3] : 1 };
    };
    const lum = ({ r, g, b }) => {
      const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const over = (fg, bg) => ({ r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1 });
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const bg = rgba(getComputedStyle(document.body).backgroundColor);
    const problems = [];
    const probe = document.createElement('div');
    probe.innerHTML = '<p class="error">error</p><p class="warning">warning</p><table class="activity"><tr class="tool-failed"><td>failed</td></tr></table>';
    document.body.appendChild(probe);
    for (const el of probe.querySelectorAll('p, td')) {
      const fg = over(rgba(getComputedStyle(el).color), bg);
      const r = ratio(fg, bg);
      if (r < 4.5) problems.push(el.textContent + ' text: ' + getComputedStyle(el).color + ' on ' + getComputedStyle(document.body).backgroundColor + ' is ' + r.toFixed(2) + ':1 (< 4.5)');
    }
    probe.remove();
    if (${highContrast}) {
      for (const b of document.querySelectorAll('button:not(.link)')) {
        const st = getComputedStyle(b);
        const c = rgba(st.borderTopColor);
        if (st.borderTopStyle === 'none' || parseFloat(st.borderTopWidth) < 1 || c.a === 0 || ratio(over(c, bg), bg) < 3) {
          problems.push('button "' + b.textContent.trim() + '" has no border that stands out (' + st.borderTopWidth + ' ' + st.borderTopStyle + ' ' + st.borderTopColor + ')');
        }
      }
    }
    return problems;
  })()`)) as string[];
}

const describeViolations = (vs: Violation[]) =>
  vs.map(v => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map(n => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`).join('\n');

const THEMES = [
  { name: 'Default Dark Modern', workbench: 'vs-dark', page: 'vscode-dark' },
  { name: 'Default Light Modern', workbench: 'vs', page: 'vscode-light' },
  { name: 'Default High Contrast', workbench: 'hc-black', page: 'vscode-high-contrast' },
] as const;

describe('e2e: a screen reader\'s view (accessibility)', function () {
  let emulator: Emulator;
  let wb: Workbench | undefined;
  const page = () => wb!.page;
  const pane = (title: string) => page().locator('.sidebar .pane', { has: page().locator('.pane-header', { hasText: title }) }).first();
  const TITLE = 'Review mean() for edge cases';

  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 3_000, quiet: true, traceReport: 'stored' });
  });

  const failures = screenshotFailures(() => wb);

  after(async () => {
    await wb?.close(failures.failed());
    await emulator?.close();
  });

  for (const theme of THEMES) {
    const hc = theme.workbench === 'hc-black';
    describe(`in ${theme.name}`, () => {
      before(async () => {
        // A window started in the theme, as a user who set it has it.
        wb = await openWorkbenchOn(emulator, { settings: { 'workbench.colorTheme': theme.name } });
        await page().locator(`.monaco-workbench.${theme.workbench}`).waitFor({ timeout: 30_000 });
      });

      after(async () => {
        await wb?.close(failures.failed());
        wb = undefined;
      });

      async function assertAudited(name: string, selector: string): Promise<void> {
        const label = `${name} (${theme.name})`;
        const { violations, problems, themed } = await onSettledPage(async () => {
          const frame = await webviewFrame(page(), selector);
          return {
            violations: await audit(frame),
            problems: await themeProblems(frame, hc),
            themed: (await frame.evaluate(`document.body.classList.contains(${JSON.stringify(theme.page)})`)) as boolean,
          };
        });
        assert.ok(themed, `${label}: the page knows the theme (body.${theme.page})`);
        assert.deepStrictEqual(violations.map(v => v.id), [], `${label}: serious or critical accessibility violations:\n${describeViolations(violations)}`);
        assert.deepStrictEqual(problems, [], `${label}: colours that do not hold in this theme`);
      }

      it('the running result view passes the audit; the status bar item says what runs', async () => {
        emulator.setNextTask({ hold: true });
        try {
          await wb!.orchestrateSelection('math.ts', TITLE);
          await assertAudited('running result view', '#answer');
          const item = await wb!.waitForStatusBarItem(/Agents (\d+%|working) · \d+s/, 20_000);
          const label = (await item.getAttribute('aria-label')) ?? (await item.locator('[aria-label]').first().getAttribute('aria-label'));
          assert.match(label ?? '', /^Multi-Agent Tasks: 1 task running, Agents/, `the status item's accessible name: ${label}`);
        } finally {
          emulator.release();
        }
      });

      it('the finished result view and its trace pass the audit', async () => {
        await wb!.waitForNotification(/task done/, 40_000);
        // The toast sits over the bottom of the view, where the trace's summary is: cleared before it is clicked.
        await wb!.runCommand('Notifications: Clear All Notifications');
        await assertAudited('result view', '#answer:has-text("Synthesized answer")');
        if (hc) {
          // axe leaves text in a scrolling block unmeasured: the code's colour is checked against its block's here.
          const frame = await webviewFrame(page(), '#answer:has-text("Synthesized answer")');
          const unreadable = await frame.evaluate(`[...document.querySelectorAll('pre code')].filter(c => getComputedStyle(c).color === getComputedStyle(c.parentElement).backgroundColor).length`);
          assert.strictEqual(unreadable, 0, 'code blocks are readable (their text is not the colour of their background)');
          await page().waitForTimeout(500);
          await wb!.docScreenshot('result-high-contrast');
        }
        await onSettledPage(async () => {
          const frame = await webviewFrame(page(), 'details#trace > summary');
          // A page drawn again keeps the section open (the view remembers it): a second click would close it.
          if ((await frame.locator('details#trace').getAttribute('open')) === null) await frame.locator('details#trace > summary').click();
          await frame.locator('#trace-body section.step').first().waitFor({ timeout: 20_000 });
        });
        await assertAudited('trace', '#trace-body section.step');
      });

      if (theme === THEMES[0]) {
        it('sidebar rows name what they are and their state', async () => {
          await page().locator('.activitybar .action-item a[aria-label^="Multi-Agent"]').first().click();
          const task = pane('Tasks').locator('.monaco-list-row', { hasText: TITLE }).first();
          await task.waitFor({ timeout: 20_000 });
          assert.match((await task.getAttribute('aria-label')) ?? '', new RegExp(`^${TITLE.replace(/[()]/g, '\\$&')}, (Completed|Done)`, 'i'));
          const thread = pane('Threads').locator('.monaco-list-row').first();
          await thread.waitFor({ timeout: 20_000 });
          assert.match((await thread.getAttribute('aria-label')) ?? '', /^Thread /, 'a thread row says it is a thread');
        });
      }

      it('a thread\'s transcript passes the audit', async () => {
        await wb!.runCommand('View: Close All Editors');
        if (!(await pane('Threads').isVisible())) await page().locator('.activitybar .action-item a[aria-label^="Multi-Agent"]').first().click();
        const thread = pane('Threads').locator('.monaco-list-row').first();
        await thread.waitFor({ timeout: 20_000 });
        if ((await thread.getAttribute('aria-expanded')) !== 'true') await thread.click();
        const message = pane('Threads').locator('.monaco-list-row[aria-level="2"]').first();
        await message.waitFor({ timeout: 20_000 });
        assert.match((await message.getAttribute('aria-label')) ?? '', /^[^:]+: /, 'a message row says who said it');
        await message.click();
        await assertAudited('transcript', 'main#transcript section.message');
      });

      it('the usage page passes the audit', async () => {
        await wb!.runCommand('View: Close All Editors');
        await wb!.runCommand('Multi-Agent: Show Usage');
        await assertAudited('usage', 'h2');
      });
    });
  }
});
