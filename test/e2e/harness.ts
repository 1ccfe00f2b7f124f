// e2e helpers: the packaged .vsix installed into a real code-server, driven by headless Chromium
// through Playwright, like a user would. Runs in plain Node (mocha), not in the extension host.
//
//   const wb = await openWorkbench({ settings: { 'multiAgentTasks.foo': 1 } });
//   await wb.runCommand('Multi-Agent Tasks: Do Something');        // F1, type, pick, Enter
//   await wb.waitForStatusBarItem(/Agents: \d+ running/);
//   await wb.waitForNotification('Done');
//   await wb.screenshot('after-run');                              // test-output/screenshots/after-run.png
//   await wb.close();
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Emulator } from '../emulator/server';

function findRepoRoot(dir: string): string {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'package.json')) && fs.existsSync(path.join(d, 'test', 'harness', 'codeserver.js'))) return d;
  }
  throw new Error(`repo root not found above ${dir}`);
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const WORKSPACE = path.join(REPO_ROOT, 'test', 'workspace');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots');
/** The .vsix under test: env MAT_VSIX, else multi-agent-tasks.vsix at the repo root (`npm run package`). */
export const VSIX = path.resolve(process.env.MAT_VSIX || path.join(REPO_ROOT, 'multi-agent-tasks.vsix'));

// The plain-JS harness in test/harness (shared with the integration layer).
interface CodeServer {
  port: number; url: string; root: string; logFile: string; label: string;
  stop(): void; cleanup(): Promise<void>;
}
const harness = require(path.join(REPO_ROOT, 'test', 'harness', 'codeserver.js')) as {
  makeRunDir(prefix?: string): string;
  copyWorkspace(src: string, dir: string): string;
  installExtension(vsix: string, extensionsDir: string, version?: string): void;
  startCodeServer(opts: { settings?: Record<string, unknown>; extensionsDir?: string; env?: Record<string, string>; version?: string }): Promise<CodeServer>;
  workbenchUrl(server: CodeServer, folder?: string | null, query?: string): string;
};
const { launchChromium } = require(path.join(REPO_ROOT, 'test', 'harness', 'chromium.js')) as {
  launchChromium(opts?: { profileDir?: string }): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }>;
};

export interface WorkbenchOptions {
  /** User settings (merged over the harness defaults). */
  settings?: Record<string, unknown>;
  /** Folder to open; default: a fresh copy of test/workspace; null = no folder. */
  workspace?: string | null;
  /** .vsix to install; default VSIX; null = none. */
  vsix?: string | null;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /** Which code-server: '1.100' or 'newest' (default: env VSCODE_VERSION, else 1.100). */
  vscodeVersion?: string;
  /** More .vsix files to install next to the extension (test-only helpers, see packageFixture). */
  extraVsix?: string[];
}

export class Workbench {
  constructor(
    readonly page: Page,
    readonly context: BrowserContext,
    readonly server: CodeServer,
    private readonly closeBrowser: () => Promise<void>,
    private readonly scratchDir: string,
    /** The folder opened in the workbench (a copy of test/workspace by default). */
    readonly workspace: string | null,
  ) {}

  /**
   * Runs a command from the command palette by its title as shown there (e.g. "View: Toggle Zen Mode";
   * matched as a substring: the first matching row is picked).
   */
  async runCommand(title: string, timeout = 30_000): Promise<void> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const row = await this.paletteRow(title, Math.max(deadline - Date.now(), 5_000));
      if (!row) throw new Error(`command "${title}" not found in the command palette within ${timeout} ms`);
      // A page taking the focus as it finishes drawing (the walkthrough's) closes the palette under the pointer:
      // the row is gone, nothing ran, so the palette opens again.
      if (await row.click({ timeout: 5_000 }).then(() => true, () => false)) break;
      if (Date.now() >= deadline) throw new Error(`command "${title}": the palette closed before its row could be clicked`);
    }
    await this.page.locator('.quick-input-widget input').first().waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => { /* the command may open its own quick input */ });
  }

  /** Opens the palette (F1) and types `text`; returns the input. Keeps the editor's selection. */
  async openPalette(text = '>', timeout = 15_000): Promise<Locator> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout });
    const input = this.page.locator('.quick-input-widget input').first();
    // Escape only closes an open quick input: in an editor it would clear the selection.
    if (await input.isVisible()) await this.page.keyboard.press('Escape');
    // A focus moving to an editor just after F1 (a command still finishing) closes the palette again: open it
    // once more rather than wait for an input that is gone.
    const deadline = Date.now() + timeout;
    for (;;) {
      if (!(await input.isVisible())) await this.page.keyboard.press('F1');
      const shown = await input.waitFor({ state: 'visible', timeout: Math.max(Math.min(3_000, deadline - Date.now()), 500) }).then(() => true, () => false);
      if (!shown) {
        if (Date.now() >= deadline) throw new Error(`the command palette did not open within ${timeout} ms`);
        // F1 reaches no keybinding while the focus is in a page's frame (a walkthrough step's, on a loaded machine):
        // the title bar's command center opens the same input.
        await this.page.locator('.command-center').first().click({ timeout: 2_000 }).catch(() => undefined);
        continue;
      }
      try {
        await input.fill(text, { timeout: 2_000 });
        return input;
      } catch (e) {
        if (Date.now() >= deadline || (await input.isVisible())) throw e;
      }
    }
  }

  /** Labels of the palette rows containing `title` (empty if none shows up within `timeout`); closes the palette. */
  async findCommandsInPalette(title: string, timeout = 30_000): Promise<string[]> {
    const row = await this.paletteRow(title, timeout);
    const labels = row
      ? (await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).allInnerTexts()).map(t => t.split('\n')[0].trim())
      : [];
    await this.page.keyboard.press('Escape');
    return labels;
  }

  // The palette's command list is taken when it opens: commands contributed by an extension that
  // the workbench has not registered yet never show up in it. So reopen it until the row appears.
  private async paletteRow(title: string, timeout: number): Promise<Locator | undefined> {
    const deadline = Date.now() + timeout;
    for (;;) {
      await this.openPalette(`>${title}`, Math.max(deadline - Date.now(), 5_000));
      const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ timeout: Math.max(Math.min(3_000, deadline - Date.now()), 500) });
        return row;
      } catch {
        if (Date.now() >= deadline) { await this.page.keyboard.press('Escape'); return undefined; }
      }
    }
  }

  /** Opens `fileName` with Quick Open, selects all of it and runs "Orchestrate Selection" with `instruction`. */
  async orchestrateSelection(fileName: string, instruction: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('ControlOrMeta+P');
    await page.locator('.quick-input-widget input').first().fill(fileName);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: fileName }).first().waitFor();
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('ControlOrMeta+A');
    await this.runCommand('Multi-Agent: Orchestrate Selection');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill(instruction);
    await page.keyboard.press('Enter');
  }

  statusBarItem(text: string | RegExp): Locator {
    return this.page.locator('.statusbar-item', { hasText: text }).first();
  }

  async waitForStatusBarItem(text: string | RegExp, timeout = 30_000): Promise<Locator> {
    const item = this.statusBarItem(text);
    await item.waitFor({ state: 'visible', timeout });
    return item;
  }

  /** A notification toast containing `text`. */
  async waitForNotification(text: string | RegExp, timeout = 30_000): Promise<Locator> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ state: 'visible', timeout });
    return toast;
  }

  /** Opens the Extensions view filtered to "@installed"; returns the row of the extension named `displayName`. */
  async installedExtension(displayName: string, timeout = 30_000): Promise<Locator> {
    await this.runCommand('View: Show Extensions', timeout);
    const search = this.page.locator('.extensions-viewlet .suggest-input-container').first();
    await search.waitFor({ timeout });
    await search.click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.type('@installed ');
    const row = this.page.locator('.extensions-viewlet .extension-list-item', { hasText: displayName }).first();
    await row.waitFor({ timeout });
    return row;
  }

  /** Waits until the explorer shows the workspace's files. */
  async waitForExplorer(fileName = 'README.md', timeout = 60_000): Promise<void> {
    await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: fileName }).first().waitFor({ timeout });
  }

  /** Saves test-output/screenshots/<name>.png; returns the path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * A screenshot the README shows: saved as `screenshot()` does, then copied to media/<folder>/<name>.png
   * (`clip` crops it, e.g. for the walkthrough's smaller images).
   */
  async docScreenshot(name: string, options: { folder?: 'screenshots' | 'walkthrough'; clip?: { x: number; y: number; width: number; height: number } } = {}): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
    await this.page.screenshot({ path: file, clip: options.clip });
    const target = path.join(REPO_ROOT, 'media', options.folder ?? 'screenshots', `${name}.png`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
    return target;
  }

  /** What the extension wrote to its log ("Multi-Agent Tasks" output channel) so far, in this window and any before. */
  extensionLog(): string {
    const files = (dir: string): string[] =>
      !fs.existsSync(dir) ? [] : fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name === 'Multi-Agent Tasks.log' ? [path.join(dir, e.name)] : []));
    return files(path.join(this.server.root, 'user-data', 'logs'))
      .map(f => fs.readFileSync(f, 'utf8'))
      .join('\n');
  }

  /** Closes Chromium and code-server. keep=true leaves code-server's run folder (logs) for inspection. */
  async close(keep = false): Promise<void> {
    await this.closeBrowser();
    if (keep || process.env.MAT_KEEP_TMP) {
      this.server.stop();
      console.log(`      [e2e] kept ${this.server.root} (code-server.log) and ${this.scratchDir}`);
    } else {
      await this.server.cleanup();
      fs.rmSync(this.scratchDir, { recursive: true, force: true });
    }
  }
}

/** Installs the .vsix into a fresh extensions dir, starts code-server on the workspace and opens it in Chromium. */
export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  const vsix = opts.vsix === undefined ? VSIX : opts.vsix;
  const scratchDir = harness.makeRunDir('mat-e2e-');
  const extensionsDir = path.join(scratchDir, 'extensions');
  fs.mkdirSync(extensionsDir);
  const workspace = opts.workspace === undefined ? harness.copyWorkspace(WORKSPACE, scratchDir) : opts.workspace;
  if (vsix) {
    if (!fs.existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run package\``);
    harness.installExtension(vsix, extensionsDir, opts.vscodeVersion);
  }
  for (const extra of opts.extraVsix ?? []) harness.installExtension(extra, extensionsDir, opts.vscodeVersion);
  const server = await harness.startCodeServer({ settings: opts.settings, extensionsDir, env: opts.env, version: opts.vscodeVersion });
  let browser;
  try {
    browser = await launchChromium({ profileDir: path.join(server.root, 'chrome-profile') });
    await browser.page.goto(harness.workbenchUrl(server, workspace));
    await browser.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  } catch (e) {
    await browser?.close();
    server.stop();
    throw e;
  }
  return new Workbench(browser.page, browser.context, server, browser.close, scratchDir, workspace);
}

/**
 * `openWorkbench` for a suite against the emulator: its base URL and its key (stored by the extension as the
 * demo key), polling every 500 ms up to 1 s, then waits until the Explorer lists the workspace. `settings`
 * and `env` add to these or override them.
 */
export async function openWorkbenchOn(emulator: Emulator, opts: WorkbenchOptions & { waitForExplorer?: boolean } = {}): Promise<Workbench> {
  const { waitForExplorer = true, ...rest } = opts;
  const wb = await openWorkbench({
    ...rest,
    settings: { 'multiAgent.baseUrl': emulator.baseUrl, 'multiAgent.pollIntervalMs': 500, 'multiAgent.maxPollIntervalMs': 1000, ...opts.settings },
    env: { MULTI_AGENT_TASKS_DEMO_KEY: emulator.apiKey, ...opts.env },
  });
  if (waitForExplorer) await wb.waitForExplorer('README.md');
  return wb;
}

/**
 * Packages a test-only helper extension (a folder under test/fixtures) into `<outDir>/<folder name>.vsix`
 * with the repository's vsce; returns the file. Offline: no dependency detection.
 */
export function packageFixture(folder: string, outDir: string): string {
  const out = path.join(outDir, `${path.basename(folder)}.vsix`);
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return out;
}

/** The extension's package.json (from the repo root), with %placeholders% resolved from package.nls.json as VS Code shows them. */
export function extensionManifest(): {
  name: string; publisher: string; displayName: string;
  contributes?: { commands?: { command: string; title: string; category?: string }[] };
} {
  const nlsFile = path.join(REPO_ROOT, 'package.nls.json');
  const nls: Record<string, string> = fs.existsSync(nlsFile) ? JSON.parse(fs.readFileSync(nlsFile, 'utf8')) : {};
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'), (_key, value) =>
    typeof value === 'string' && /^%[^%]+%$/.test(value) && nls[value.slice(1, -1)] !== undefined ? nls[value.slice(1, -1)] : value);
}

/**
 * For a suite's `describe`: a failed test leaves a screenshot (`FAILED-<title>.png`); `failed()` tells the
 * suite's `after` to keep the workbench's folder for inspection.
 */
export function screenshotFailures(workbench: () => Workbench | undefined): { failed: () => boolean } {
  let failed = false;
  afterEach(async function () {
    const wb = workbench();
    if (this.currentTest?.state === 'failed' && wb) {
      failed = true;
      const shot = await wb.screenshot(`FAILED-${this.currentTest.fullTitle()}`).catch(() => undefined);
      if (shot) console.log(`      [e2e] failure screenshot ${shot}`);
    }
  });
  return { failed: () => failed };
}

/** Polls `probe` every 100 ms (a file on disk, the emulator's state, a row's accessible name) until it holds; fails saying `what` after the timeout. */
export async function waitUntil(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}
