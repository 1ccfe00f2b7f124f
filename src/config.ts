/**
 * The only reader of `multiAgent.*` settings. Values are checked here; a bad value becomes a problem the
 * user is told about, never a request with a surprising body. `Config` is the one live copy: read once,
 * again on every change of the settings or of the workspace's trust, with one change event that every
 * consumer follows (rust-analyzer's `editors/code/src/config.ts` is the model).
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Disposable } from './disposable';
import { ADDRESS_SETTINGS, SECTION, type SettingName, type Settings, type SettingsReading, readSettingsFrom } from './settings';

export { type CheckSettings, MACHINE_SETTINGS, RESTRICTED_SETTINGS, type SettingName, type Settings, type SettingsReading } from './settings';

/** The settings as they are now (`trusted`: whether workspace values of RESTRICTED_SETTINGS count; default: the workspace's trust). */
export function readSettings(options: { trusted?: boolean } = {}): SettingsReading {
  return readSettingsFrom(vscode.workspace.getConfiguration(SECTION), options.trusted ?? vscode.workspace.isTrusted, vscode.l10n.t);
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
