/**
 * Shared by the integration suites: activates the real extension, runs the emulator inside the extension
 * host, and replaces the UI with a scripted one that answers prompts and records what the user saw.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { UserInterface } from '../../src/ui';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/server';

export const EXT_ID = 'multi-agent-tasks.multi-agent-tasks';

export interface Shown {
  kind: 'info' | 'warn' | 'error' | 'ask' | 'note' | 'confirm' | 'input' | 'inputProblem' | 'pick' | 'pickMany';
  message: string;
  actions: string[];
  /** A confirmation's detail line. */
  detail?: string;
}

type Answer<T> = T | ((shown: Shown, ...rest: unknown[]) => T);

/** A user who answers from scripts and remembers every message. */
export class ScriptedUser implements UserInterface {
  readonly shown: Shown[] = [];
  inputs: Answer<string | undefined>[] = [];
  picks: Answer<unknown>[] = [];
  confirms: boolean[] = [];
  saveTo: vscode.Uri | undefined;
  /** Which button to press on a notification, by its message. */
  onMessage: (shown: Shown) => string | undefined = () => undefined;

  private record(kind: Shown['kind'], message: string, actions: string[]): Shown {
    const s = { kind, message, actions };
    this.shown.push(s);
    return s;
  }
  async info(message: string, ...actions: string[]) {
    return this.onMessage(this.record('info', message, actions));
  }
  async warn(message: string, ...actions: string[]) {
    return this.onMessage(this.record('warn', message, actions));
  }
  async error(message: string, ...actions: string[]) {
    return this.onMessage(this.record('error', message, actions));
  }
  async ask(message: string, ...actions: string[]) {
    return this.onMessage(this.record('ask', message, actions));
  }
  note(message: string) {
    this.record('note', message, []);
  }
  async confirm(message: string, detail: string, action: string) {
    this.record('confirm', message, [action]).detail = detail;
    return this.confirms.shift() ?? false;
  }
  async input(options: vscode.InputBoxOptions) {
    const s = this.record('input', options.prompt ?? '', []);
    const next = this.inputs.shift();
    const value = typeof next === 'function' ? next(s, options) : next;
    if (value !== undefined && options.validateInput) {
      const problem = await options.validateInput(value);
      if (problem) throw new Error(`input "${value}" rejected: ${JSON.stringify(problem)}`);
    }
    return value;
  }
  /** Takes the scripted inputs one after the other while `accept` finds a problem (recorded as 'inputProblem'). */
  async inputUntil(options: vscode.InputBoxOptions, accept: (value: string) => Promise<string | undefined>) {
    for (;;) {
      const value = await this.input(options);
      if (value === undefined) return undefined;
      const problem = await accept(value);
      if (problem === undefined) return value;
      this.record('inputProblem', problem, []);
    }
  }
  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions) {
    const s = this.record('pick', options.placeHolder ?? options.title ?? '', items.map(i => i.label));
    const next = this.picks.shift();
    return (typeof next === 'function' ? next(s, items) : next) as T | undefined;
  }
  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions) {
    const s = this.record('pickMany', options.placeHolder ?? options.title ?? '', items.map(i => i.label));
    const next = this.picks.shift();
    return (typeof next === 'function' ? next(s, items) : next) as readonly T[] | undefined;
  }
  async saveDialog() {
    return this.saveTo;
  }
  async openDialog() {
    return undefined;
  }
  messages(kind?: Shown['kind']): string[] {
    return this.shown.filter(s => !kind || s.kind === kind).map(s => s.message);
  }
}

export async function activateExtension(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi>(EXT_ID);
  assert.ok(ext, `${EXT_ID} not installed`);
  const api = await ext.activate();
  assert.ok(api, 'the extension returns its services in test mode');
  return api;
}

export async function setSetting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('multiAgent').update(name, value, vscode.ConfigurationTarget.Global);
}

/**
 * Kinder-than-live emulator switches the integration suites still rely on (issue 11); the emulator's defaults
 * are the live service's. Remove each one as the client learns the live behaviour.
 * - progressModel 'linear': sidebar "refreshes one node on progress" and the poller were written against
 *   evenly rising progress.
 * - usageAcceptsKey: sidebar "models and usage" opens the usage panel, which reads /usage and /keys with the key.
 * - threadPaging: sidebar threads test reads `/threads?limit=100` after creating 21 threads.
 * - utf8DownloadNames: the same test opens and saves the download under its exact name.
 * - strictRunRequest false: faults/1-status sends the gateway key (vercelAiKey) in the run body.
 */
export const INTEGRATION_KINDER_SWITCHES: EmulatorOptions = {
  progressModel: 'linear',
  usageAcceptsKey: true,
  threadPaging: true,
  utf8DownloadNames: true,
  strictRunRequest: false,
};

/** The emulator's live-service defaults, undoing every kinder switch (for suites about the real service). */
export const LIVE_EMULATOR: EmulatorOptions = {
  streamFormat: 'typed',
  progressModel: 'live',
  usageAcceptsKey: false,
  threadPaging: false,
  sniffUploads: true,
  utf8DownloadNames: false,
  strictRunRequest: true,
};

/**
 * One emulator for the suite, the extension pointed at it with the key stored, a fresh scripted user
 * before each test, and the task store emptied between tests.
 */
export function useExtensionWithEmulator(options: EmulatorOptions = {}) {
  const ctx = {} as { api: TestApi; emulator: Emulator; user: ScriptedUser };
  before(async () => {
    ctx.api = await activateExtension();
    ctx.emulator = await startEmulator({ taskDurationMs: 800, quiet: true, ...INTEGRATION_KINDER_SWITCHES, ...options });
    await setSetting('baseUrl', ctx.emulator.baseUrl);
    await setSetting('pollIntervalMs', 250);
    await setSetting('maxPollIntervalMs', 1000);
    // These suites read results as text documents; the review suite turns the rendered view back on.
    await setSetting('resultView', 'markdown');
    await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
  });
  beforeEach(async () => {
    ctx.user = new ScriptedUser();
    ctx.api.ui.target = ctx.user;
    ctx.emulator.clearFaults();
    ctx.emulator.setTaskDuration(options.taskDurationMs ?? 800);
    ctx.emulator.resetStats();
  });
  afterEach(async () => {
    for (const task of ctx.api.store.all()) {
      ctx.api.poller.forget(task.id);
      await ctx.api.store.remove(task.id);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await ctx.emulator?.close();
  });
  return ctx;
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run with test/workspace open');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

/** Opens a workspace file and selects lines [from, to) (zero-based). */
export async function openAndSelect(relative: string, from?: number, to?: number): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(...relative.split('/')));
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  if (from !== undefined && to !== undefined) editor.selection = new vscode.Selection(from, 0, to, 0);
  else editor.selection = new vscode.Selection(0, 0, 0, 0);
  return editor;
}

export function resultTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'multi-agent-result');
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : e.isFile() ? [full] : [];
  });
}

/**
 * Where any of `secrets` is stored in plain text: files under the extension's storage and log folders,
 * globalState, workspaceState, and the settings. Fails when the log has no request lines, so a scan of
 * the wrong folder cannot pass.
 */
export async function placesHoldingSecrets(api: TestApi, secrets: string[]): Promise<string[]> {
  await new Promise(r => setTimeout(r, 1500)); // the log channel flushes to disk asynchronously
  const logDir = path.dirname(api.context.logUri.fsPath);
  const logText = filesUnder(logDir).map(f => fs.readFileSync(f, 'utf8')).join('\n');
  assert.ok(/POST \/api\/v1\/developer\/run → /.test(logText), 'the scan reads the extension log');
  const files = [api.context.globalStorageUri.fsPath, api.context.storageUri?.fsPath, logDir].flatMap(r => (r ? filesUnder(r) : []));
  const config = vscode.workspace.getConfiguration('multiAgent');
  const places: [string, string][] = [
    ...files.map(f => [f, fs.readFileSync(f, 'latin1')] as [string, string]),
    ...api.context.globalState.keys().map(k => [`globalState:${k}`, JSON.stringify(api.context.globalState.get(k))] as [string, string]),
    ...api.context.workspaceState.keys().map(k => [`workspaceState:${k}`, JSON.stringify(api.context.workspaceState.get(k))] as [string, string]),
    ['settings', JSON.stringify(config) + JSON.stringify(Object.keys(config).map(k => config.inspect(k)))],
  ];
  return places.filter(([, text]) => secrets.some(secret => text.includes(secret))).map(([where]) => where);
}
