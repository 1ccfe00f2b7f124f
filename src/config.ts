/**
 * The only reader of `multiAgent.*` settings. Values are checked here; a bad value becomes a problem the
 * user is told about, never a request with a surprising body. `Config` is the one live copy: read once,
 * again on every change of the settings or of the workspace's trust, with one change event that every
 * consumer follows (rust-analyzer's `editors/code/src/config.ts` is the model).
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Disposable } from './disposable';

const SECTION = 'multiAgent';

const DEFAULT_BASE_URL = 'https://taskforceai.chat/api/v1/developer';

export interface Settings {
  baseUrl: string;
  platformUrl: string;
  streamUrl: string;
  modelId: string | undefined;
  agentCount: number;
  silent: boolean;
  mock: boolean;
  budgetUsd: number | undefined;
  roleModels: Record<string, string> | undefined;
  /** The reasoning effort asked of the model (engine run), lower case; undefined = the model's default. */
  reasoningEffort: string | undefined;
  /** Shortest poll interval, ms. */
  pollIntervalMs: number;
  /** Delay before the first status check of a new task, ms. */
  firstPollDelayMs: number;
  /** Longest poll interval while the window has focus, ms. */
  maxPollIntervalMs: number;
  /** Poll interval while the window is in the background, ms. */
  unfocusedPollIntervalMs: number;
  openResultOnCompletion: boolean;
  /** Open the (running) result view beside the code as soon as a task is sent from the editor. */
  openResultOnSubmit: boolean;
  /** How results open: rendered in a result view, or as raw markdown. */
  resultView: 'rendered' | 'markdown';
  /** Ask before "Run Again" sends a task. */
  confirmRunAgain: boolean;
  /** Append the landing instruction (tasks/sending/prompt.ts) to prompts that carry code. */
  askForLandableChanges: boolean;
  useStream: boolean;
  /** Offer the team to VS Code's agents as an MCP server (VS Code 1.101+; src/mcp). */
  mcpServerEnabled: boolean;
  /** Per-request timeout, ms. */
  requestTimeoutMs: number;
  /** Checking a proposal (issue 37): what runs, when, and for how long. */
  check: CheckSettings;
}

/**
 * What Check Proposal… runs. `command` and `onComplete` choose what runs on this machine and when, so they are
 * read from the user's own settings only (machine scope, and `machineOnly` below): a cloned repository's
 * `.vscode/settings.json` cannot choose them.
 */
export interface CheckSettings {
  /** The command line; empty: what the workspace declares, confirmed once per workspace. */
  command: string;
  /** Check a proposal as soon as its task completes (where the command was set or confirmed). */
  onComplete: boolean;
  /** Run the same check on the unchanged copy when the proposal's fails, to tell newly failing from already failing. */
  compareWithBefore: boolean;
  timeoutMs: number;
  /** Rounds of Ask the Team to Fix sent by themselves after a failing check on completion (0: only on the user's click). */
  autoFixRounds: number;
  /** The sandbox lets a check reach the network (issue 44; off by default). */
  allowNetwork: boolean;
  /** Variables a check gets although they are named like secrets. */
  passEnvironment: string[];
  /** Where no sandbox can be had, run without one (the user chose it once; never assumed). */
  allowUnsandboxed: boolean;
}

export type SettingName = keyof Settings;

/** Settings that decide where the key is sent: never taken from a workspace. */
const ADDRESS_SETTINGS = ['baseUrl', 'platformUrl', 'streamUrl'] as const;

export interface SettingsReading {
  settings: Settings;
  /** Values that cannot be used, each a sentence naming the setting. */
  problems: string[];
}

/**
 * Settings a repository could use to spend the user's money or quota (bigger or billed runs, another
 * model, faster polling). package.json lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`,
 * so VS Code ignores workspace values in Restricted Mode; readSettings() does the same itself, so the
 * rule holds whatever the host does with that declaration.
 */
export const RESTRICTED_SETTINGS = [
  'modelId',
  'agentCount',
  'budgetUsd',
  'roleModels',
  'reasoningEffort',
  'silent',
  'mock',
  'pollIntervalMs',
  'firstPollDelayMs',
  'maxPollIntervalMs',
  'unfocusedPollIntervalMs',
  'requestTimeoutSeconds',
] as const;

/**
 * Settings that choose what runs on this machine (issue 37): their scope is `machine`, so VS Code ignores a
 * workspace's value; readSettings() reads the user's value only, whatever the host does with the scope.
 */
export const MACHINE_SETTINGS = ['check.command', 'check.onComplete', 'check.autoFixRounds', 'check.allowNetwork', 'check.passEnvironment', 'check.allowUnsandboxed'] as const;

/**
 * `trusted`: whether workspace values of RESTRICTED_SETTINGS count (default: the workspace's trust).
 */
export function readSettings(options: { trusted?: boolean } = {}): SettingsReading {
  const trusted = options.trusted ?? vscode.workspace.isTrusted;
  const all = vscode.workspace.getConfiguration(SECTION);
  const restricted = new Set<string>(RESTRICTED_SETTINGS);
  const machine = new Set<string>(MACHINE_SETTINGS);
  const config = {
    get<T>(name: string): T | undefined {
      if (machine.has(name)) {
        const seen = all.inspect<T>(name);
        return seen?.globalValue ?? seen?.defaultValue;
      }
      if (trusted || !restricted.has(name)) return all.get<T>(name);
      const seen = all.inspect<T>(name);
      return seen?.globalValue ?? seen?.defaultValue;
    },
  };
  const problems: string[] = [];
  const str = (name: string, fallback = '') => {
    const value = config.get<unknown>(name);
    return typeof value === 'string' ? value.trim() : fallback;
  };
  const bool = (name: string, fallback: boolean) => {
    const value = config.get<unknown>(name);
    return typeof value === 'boolean' ? value : fallback;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const value = config.get<unknown>(name);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      problems.push(
        vscode.l10n.t('The setting {0} must be a whole number from {1} to {2} (it is {3}).', `${SECTION}.${name}`, min, max, JSON.stringify(value)),
      );
      return fallback;
    }
    return value;
  };

  const budget = config.get<unknown>('budgetUsd');
  let budgetUsd: number | undefined;
  if (budget !== undefined && budget !== null) {
    if (typeof budget === 'number' && Number.isFinite(budget) && budget >= 0) budgetUsd = budget;
    else problems.push(vscode.l10n.t('The setting {0} must be a number of USD, 0 or more (it is {1}).', `${SECTION}.budgetUsd`, JSON.stringify(budget)));
  }

  const roles = config.get<unknown>('roleModels');
  let roleModels: Record<string, string> | undefined;
  if (roles !== undefined && roles !== null) {
    const valid =
      typeof roles === 'object' &&
      !Array.isArray(roles) &&
      Object.entries(roles).every(([role, model]) => role.trim() && typeof model === 'string' && model.trim());
    if (valid) roleModels = Object.keys(roles).length ? (roles as Record<string, string>) : undefined;
    else problems.push(vscode.l10n.t('The setting {0} must map role names to model ids, e.g. {1}.', `${SECTION}.roleModels`, '{ "critic": "zai/glm-5.2" }'));
  }

  const effort = str('reasoningEffort').toLowerCase();
  let reasoningEffort: string | undefined;
  if (effort) {
    if (/^[a-z]{1,20}$/.test(effort)) reasoningEffort = effort;
    else problems.push(vscode.l10n.t('The setting {0} must be a level such as low, medium or high (it is {1}).', `${SECTION}.reasoningEffort`, JSON.stringify(effort)));
  }

  const pollIntervalMs = int('pollIntervalMs', 1000, 250, 60_000);
  const settings: Settings = {
    baseUrl: str('baseUrl', DEFAULT_BASE_URL) || DEFAULT_BASE_URL,
    platformUrl: str('platformUrl'),
    streamUrl: str('streamUrl'),
    modelId: str('modelId') || undefined,
    agentCount: int('agentCount', 4, 1, 8),
    silent: bool('silent', false),
    mock: bool('mock', false),
    budgetUsd,
    roleModels,
    reasoningEffort,
    pollIntervalMs,
    firstPollDelayMs: Math.max(pollIntervalMs, int('firstPollDelayMs', 3000, 250, 60_000)),
    maxPollIntervalMs: Math.max(pollIntervalMs, int('maxPollIntervalMs', 10_000, 1000, 300_000)),
    unfocusedPollIntervalMs: int('unfocusedPollIntervalMs', 30_000, 1000, 600_000),
    openResultOnCompletion: bool('openResultOnCompletion', true),
    openResultOnSubmit: bool('openResultOnSubmit', true),
    resultView: str('resultView') === 'markdown' ? 'markdown' : 'rendered',
    confirmRunAgain: bool('confirmRunAgain', true),
    askForLandableChanges: bool('askForLandableChanges', true),
    useStream: bool('useStream', true),
    mcpServerEnabled: bool('mcpServer.enabled', true),
    requestTimeoutMs: int('requestTimeoutSeconds', 30, 1, 600) * 1000,
    check: {
      command: str('check.command'),
      onComplete: bool('check.onComplete', false),
      compareWithBefore: bool('check.compareWithBefore', true),
      timeoutMs: int('check.timeoutSeconds', 300, 5, 3600) * 1000,
      autoFixRounds: int('check.autoFixRounds', 0, 0, 3),
      allowNetwork: bool('check.allowNetwork', false),
      passEnvironment: variableNames(config.get<unknown>('check.passEnvironment')),
      allowUnsandboxed: bool('check.allowUnsandboxed', false),
    },
  };
  return { settings, problems };
}

/** Where the workspace's trust comes from: `vscode.workspace`, or the test seam below. */
export interface WorkspaceTrust {
  readonly isTrusted: boolean;
  readonly onDidGrantWorkspaceTrust: vscode.Event<void>;
}

/** What a change of the settings (or of the trust) changed. */
export interface ConfigChange {
  /** True when one of `names` may have changed; with no names, always (some setting or the trust changed). */
  affects(...names: SettingName[]): boolean;
}

/**
 * The settings as one live object: `settings` and `problems` are read and checked once, and again on every
 * change of a `multiAgent.*` setting or a grant of workspace trust (which lets workspace values of the
 * restricted settings count), then `onDidChange` fires. Consumers read `settings` when they need a value
 * and follow `onDidChange` for what they show; nobody keeps a copy.
 */
export class Config extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ConfigChange>());
  readonly onDidChange = this.changed.event;
  /** Read on first use, not at activation: the shell needs no setting before activate() returns. */
  private reading: SettingsReading | undefined;

  constructor(private readonly trust: WorkspaceTrust = vscode.workspace) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration(e => e.affectsConfiguration(SECTION) && this.reread(e)));
    this._register(trust.onDidGrantWorkspaceTrust(() => this.reread()));
  }

  /** The current values; a bad value is replaced by its default (and named in `problems`). */
  get settings(): Settings {
    return this.read().settings;
  }

  /** Whether the workspace is trusted (a check runs only then). */
  get trusted(): boolean {
    return this.trust.isTrusted;
  }

  /** Values that cannot be used, each a sentence naming the setting. */
  get problems(): readonly string[] {
    return this.read().problems;
  }

  private read(): SettingsReading {
    return (this.reading ??= readSettings({ trusted: this.trust.isTrusted }));
  }

  private reread(event?: vscode.ConfigurationChangeEvent): void {
    const before = this.read().settings;
    this.reading = readSettings({ trusted: this.trust.isTrusted });
    const after = this.reading.settings;
    const differs = (name: SettingName) => JSON.stringify(before[name]) !== JSON.stringify(after[name]);
    this.changed.fire({
      affects: (...names) => names.length === 0 || names.some(n => differs(n) || !!event?.affectsConfiguration(`${SECTION}.${n}`)),
    });
  }
}

/**
 * The workspace's trust, with a seam for integration tests: the harness runs VS Code with trust disabled
 * (every workspace trusted, no grant ever fires), so a test acts out Restricted Mode and the grant here.
 * Outside tests it is `vscode.workspace`'s trust, unchanged.
 */
export class ScriptableTrust extends Disposable implements WorkspaceTrust {
  private restricted = false;
  private readonly granted = this._register(new vscode.EventEmitter<void>());
  readonly onDidGrantWorkspaceTrust: vscode.Event<void> = (listener, thisArgs, disposables) => {
    const mine = this.granted.event(listener, thisArgs);
    const real = vscode.workspace.onDidGrantWorkspaceTrust(listener, thisArgs);
    const both = vscode.Disposable.from(mine, real);
    disposables?.push(both);
    return both;
  };

  get isTrusted(): boolean {
    return !this.restricted && vscode.workspace.isTrusted;
  }

  /** Acts as Restricted Mode from the next reading on (the next settings change), until `grant()`. */
  restrict(): void {
    this.restricted = true;
  }

  /** Acts out the user trusting the workspace: trust holds again and the grant event fires. */
  grant(): void {
    this.restricted = false;
    this.granted.fire();
  }
}

/**
 * Address settings a workspace tried to set. They have application scope, so VS Code already ignores
 * them; we still tell the user, because a repository that tries this deserves a second look.
 */
export function workspaceAddressOverrides(): string[] {
  const config = vscode.workspace.getConfiguration(SECTION);
  // VS Code drops application-scoped keys from workspace settings before inspect() sees them, so the
  // settings files are read too.
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map(f => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json')),
    ...(vscode.workspace.workspaceFile?.scheme === 'file' ? [vscode.workspace.workspaceFile] : []),
  ];
  const texts = files.map(uri => {
    try {
      return fs.readFileSync(uri.fsPath, 'utf8');
    } catch {
      return '';
    }
  });
  return ADDRESS_SETTINGS.filter(name => {
    const seen = config.inspect(name);
    if (seen?.workspaceValue !== undefined || seen?.workspaceFolderValue !== undefined) return true;
    const key = new RegExp(`["']${SECTION}\\.${name}["']\\s*:`);
    return texts.some(text => key.test(text));
  }).map(name => `${SECTION}.${name}`);
}

/** Glob of the files whose change may bring workspace settings. */
export const WORKSPACE_SETTINGS_GLOB = '**/{.vscode/settings.json,*.code-workspace}';

export async function updateSetting(name: SettingName | 'modelId' | 'confirmRunAgain' | 'check.allowUnsandboxed', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(name, value, vscode.ConfigurationTarget.Global);
}

/** Environment variable names from a setting: the valid ones of a list, else none. */
function variableNames(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) : [];
}

/** The folder's `files.exclude` patterns that are on (a check's copy leaves them out where there is no git). */
export function filesExcluded(folder: vscode.Uri): string[] {
  const excluded = vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(excluded)
    .filter(([, on]) => on === true)
    .map(([pattern]) => pattern);
}

/**
 * The `search.exclude` setting's enabled patterns as one glob for findFiles (which applies `files.exclude`
 * itself). Patterns with braces or `when` clauses are left out: globs do not nest braces.
 */
export function searchExcludeGlob(): string | undefined {
  const excluded = vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude') ?? {};
  const patterns = Object.entries(excluded)
    .filter(([pattern, on]) => on === true && !/[{}]/.test(pattern))
    .map(([pattern]) => pattern);
  return patterns.length ? `{${patterns.join(',')}}` : undefined;
}
