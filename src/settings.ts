/**
 * The settings' shapes and the rules they are read by (issue 45: a pure step, so each rule has a unit test that
 * fails without it): what a workspace may not set (RESTRICTED_SETTINGS in Restricted Mode, MACHINE_SETTINGS ever),
 * every value checked and bounded, a bad one a problem in words. No vscode: `config.ts` hands its configuration in.
 */

export const SECTION = 'multiAgent';

export const DEFAULT_BASE_URL = 'https://taskforceai.chat/api/v1/developer';

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
export const ADDRESS_SETTINGS = ['baseUrl', 'platformUrl', 'streamUrl'] as const;

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

/** The `multiAgent` section as the settings are read from it: VS Code's WorkspaceConfiguration, or a table in tests. */
export interface SettingsSource {
  get<T>(name: string): T | undefined;
  inspect<T>(name: string): { globalValue?: T; defaultValue?: T } | undefined;
}

/** A sentence with `{0}`-style holes filled: the extension passes VS Code's l10n. */
export type Words = (message: string, ...args: (string | number | boolean)[]) => string;

/**
 * The settings read and checked from `all` (pure: the rules hold whatever the host does with the settings' scopes).
 * `trusted`: whether workspace values of RESTRICTED_SETTINGS count. MACHINE_SETTINGS are read from the user's own
 * value only.
 */
export function readSettingsFrom(all: SettingsSource, trusted: boolean, t: Words): SettingsReading {
  const restricted = new Set<string>(RESTRICTED_SETTINGS);
  // What runs on this machine, and where the key goes: the user's own value only, whatever the host's scopes do.
  const userOnly = new Set<string>([...MACHINE_SETTINGS, ...ADDRESS_SETTINGS]);
  const config = {
    get<T>(name: string): T | undefined {
      if (userOnly.has(name)) {
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
        t('The setting {0} must be a whole number from {1} to {2} (it is {3}).', `${SECTION}.${name}`, min, max, JSON.stringify(value)),
      );
      return fallback;
    }
    return value;
  };

  const budget = config.get<unknown>('budgetUsd');
  let budgetUsd: number | undefined;
  if (budget !== undefined && budget !== null) {
    if (typeof budget === 'number' && Number.isFinite(budget) && budget >= 0) budgetUsd = budget;
    else problems.push(t('The setting {0} must be a number of USD, 0 or more (it is {1}).', `${SECTION}.budgetUsd`, JSON.stringify(budget)));
  }

  const roles = config.get<unknown>('roleModels');
  let roleModels: Record<string, string> | undefined;
  if (roles !== undefined && roles !== null) {
    const valid =
      typeof roles === 'object' &&
      !Array.isArray(roles) &&
      Object.entries(roles).every(([role, model]) => role.trim() && typeof model === 'string' && model.trim());
    if (valid) roleModels = Object.keys(roles).length ? (roles as Record<string, string>) : undefined;
    else problems.push(t('The setting {0} must map role names to model ids, e.g. {1}.', `${SECTION}.roleModels`, '{ "critic": "zai/glm-5.2" }'));
  }

  const effort = str('reasoningEffort').toLowerCase();
  let reasoningEffort: string | undefined;
  if (effort) {
    if (/^[a-z]{1,20}$/.test(effort)) reasoningEffort = effort;
    else problems.push(t('The setting {0} must be a level such as low, medium or high (it is {1}).', `${SECTION}.reasoningEffort`, JSON.stringify(effort)));
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

/** Environment variable names from a setting: the valid ones of a list, else none. */
function variableNames(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) : [];
}
