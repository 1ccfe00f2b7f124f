/**
 * Issue 37: Check Proposal… in the real extension host, on the sample workspace's real tests (`node --test` over
 * src/text.js). The emulator's sample proposal fails exactly one test; Ask the Team to Fix sends that failure to
 * the task's thread, and the fix it answers passes. The check command is a probe (outside the workspace) that
 * records where it ran and what it saw, then runs the tests. The workspace is byte-identical after every check, an
 * unsaved editor text is what the copy holds and stays unsaved, the copy is removed, and a timed-out or canceled
 * check ends its whole process tree. An untrusted workspace refuses; a workspace's settings cannot choose the command.
 */
import * as assert from 'assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckRecord } from '../../src/tasks/checking/types';
import { FIX_REQUEST_OPENING } from '../../src/tasks/checking/types';
import type { TrackedTask } from '../../src/tasks/model';
import { DEMO_FILE_PATH, DEMO_FILE_TEXT, FAILING_TEST_NAME, SAMPLE_INSTRUCTION } from '../emulator/checkLoop';
import { openAndSelect, setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

/** What the probe saw: where it ran, its pid, its child's pid (hanging runs), the copy's texts, whether the key was in its environment. */
interface Probe {
  cwd: string;
  pid: number;
  child?: number;
  text: string;
  readme: string;
  keyInEnv: boolean;
}

// The probe says what it saw on its output (a check runs in a sandbox: it can write nothing outside its copy), the
// output the check keeps; a hanging one is found by its command line in the host's /proc.
const PROBE = `
const fs = require('fs');
const { spawn } = require('child_process');
const [name, mode, keyFile] = process.argv.slice(2);
const key = fs.readFileSync(keyFile, 'utf8');
const read = f => { try { return fs.readFileSync(f, 'utf8'); } catch { return ''; } };
// Its folder in base64: the check shows the copy's paths as the user's folder's in what it keeps.
const probe = { cwd: Buffer.from(process.cwd()).toString('base64'), pid: process.pid, text: read('src/text.js'), readme: read('README.md'), keyInEnv: Object.values(process.env).some(v => v && v.includes(key)) };
console.log('PROBE ' + name + ' ' + JSON.stringify(probe));
if (mode === 'hang') {
  // The child names this probe's script too: another suite's probe on the same machine is not counted as ours.
  spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', name, __filename], { stdio: 'ignore' });
  setInterval(() => {}, 1000);
}
`;

describe('Check Proposal (issue 37)', function () {
  this.timeout(120_000);
  const ctx = useExtensionWithEmulator();
  // Outside /tmp (a check's sandbox sees a fresh one): the probe reads its script and the key file from here.
  const probeDir = fs.mkdtempSync(path.join(os.homedir(), '.mat-check-probe-'));
  const probeJs = path.join(probeDir, 'probe.js');
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  /** Each run of the probe `name` in the checks kept, oldest first (a failing proposal's check runs it three times). */
  const probeRuns = async (name: string): Promise<Probe[]> => {
    const runs: Probe[] = [];
    for (const task of [...ctx.api.store.all()].sort((a, b) => a.submittedAt - b.submittedAt)) {
      for (const c of task.checks ?? []) {
        const text = (await ctx.api.store.readCheckOutput(task.id, c.id)) ?? '';
        for (const m of text.matchAll(/^PROBE (\S+) (\{.*\})$/gm)) {
          const probe = JSON.parse(m[2]) as Probe;
          if (m[1] === name) runs.push({ ...probe, cwd: Buffer.from(probe.cwd, 'base64').toString() });
        }
      }
    }
    return runs;
  };
  const readProbe = async (name: string): Promise<Probe | undefined> => (await probeRuns(name))[0];
  /** The host's processes of a hanging probe `name` (the probe and its child name it on their command line). */
  const probeProcesses = (name: string): number[] =>
    fs.readdirSync('/proc').filter(p => /^\d+$/.test(p)).filter(p => {
      try {
        const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return argv.includes(name) && argv.includes(probeJs) && !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${p}/stat`, 'utf8'));
      } catch {
        return false;
      }
    }).map(Number);
  /** Every process of a probe ended: the kernel may take a moment after the sandbox ended. */
  const ended = (name: string, what: string) => waitFor(() => probeProcesses(name).length === 0, `${what}: the command and its child to end`, 10_000);
  /** Every file of the workspace and its hash (the byte-identical check). */
  const snapshot = (): Map<string, string> => {
    const out = new Map<string, string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else out.set(path.relative(root(), p), createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
      }
    };
    walk(root());
    return out;
  };
  const sameFiles = (before: Map<string, string>, what: string) => assert.deepStrictEqual([...snapshot()].sort(), [...before].sort(), `${what}: the workspace is byte-identical`);
  const check = (taskId: string) => vscode.commands.executeCommand<CheckRecord | undefined>('multiAgent.checkProposal', taskId);
  // The key goes to the probe in a file of its own (never in the command, which is kept as confirmed).
  const keyFile = path.join(probeDir, 'key');
  const probeCommand = (name: string, mode = 'run') => `node ${JSON.stringify(probeJs)} ${name} ${mode} ${JSON.stringify(keyFile)}${mode === 'run' ? ' && node --test' : ''}`;

  before(async () => {
    fs.writeFileSync(probeJs, PROBE);
    fs.writeFileSync(keyFile, ctx.emulator.apiKey);
    // VS Code for the Web (code-server) saves after a delay by default: an unsaved edit must stay unsaved here.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await setSetting('openResultOnCompletion', false);
    await setSetting('openResultOnSubmit', false);
  });
  after(async () => {
    for (const name of ['check.command', 'check.onComplete', 'check.timeoutSeconds', 'check.compareWithBefore', 'openResultOnCompletion', 'openResultOnSubmit']) await setSetting(name, undefined);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(probeDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // The one question a check asks (once per workspace and command): run it.
    ctx.user.onMessage = s => (s.kind === 'ask' && s.actions.includes('Run Check') ? 'Run Check' : undefined);
  });

  /** The sample request from src/text.js (the emulator answers it with a proposal that fails one test). */
  async function sample(): Promise<TrackedTask> {
    await openAndSelect(DEMO_FILE_PATH);
    ctx.user.inputs = [SAMPLE_INSTRUCTION];
    const sent = await vscode.commands.executeCommand<TrackedTask>('multiAgent.orchestrateFile');
    assert.ok(sent, 'sent');
    return done(sent.id);
  }
  function done(id: string): Promise<TrackedTask> {
    return waitFor(() => (ctx.api.store.get(id)?.status === 'completed' && ctx.api.store.get(id)?.namedFiles ? ctx.api.store.get(id) : undefined), 'the answer', 30_000);
  }

  it('check: a failing proposal is checked in a copy outside the workspace; Ask the Team to Fix sends the failure; the fix checks green', async () => {
    assert.strictEqual(fs.readFileSync(path.join(root(), DEMO_FILE_PATH), 'utf8'), DEMO_FILE_TEXT, 'the sample workspace as shipped');
    await setSetting('check.command', probeCommand('failing'));
    const task = await sample();
    // An unsaved edit: the copy holds it, and it stays the user's, unsaved.
    const readme = await vscode.workspace.openTextDocument(workspaceUri('README.md'));
    const editor = await vscode.window.showTextDocument(readme, { preview: false });
    await editor.edit(b => b.insert(new vscode.Position(0, 0), 'Unsaved line typed by the user\n'));
    const typed = readme.getText();
    const before = snapshot();

    // A variable of the user's environment that holds the key (a shell profile's export): the check does not get it.
    process.env.MAT_CHECK_EXPORTED_KEY = ctx.emulator.apiKey;
    const record = await Promise.resolve(check(task.id)).finally(() => delete process.env.MAT_CHECK_EXPORTED_KEY);
    assert.ok(record, 'checked');
    const probe = (await readProbe('failing'))!;
    assert.ok(!probe.cwd.startsWith(root()) && !root().startsWith(probe.cwd), `the copy (${probe.cwd}) is outside the workspace (${root()})`);
    assert.ok(!fs.existsSync(probe.cwd), 'the copy is removed after the check');
    assert.notStrictEqual(probe.text, DEMO_FILE_TEXT, 'the copy holds the proposal');
    const without = await probeRuns('failing');
    assert.strictEqual(without.length, 3, 'run with the proposal, then without it, then with it once more (issue 42)');
    assert.strictEqual(without[1].text, DEMO_FILE_TEXT, 'the second run, on the copy without the proposal');
    assert.notStrictEqual(without[1].cwd, probe.cwd, 'in a fresh copy of its own (issue 44 item 5)');
    assert.strictEqual(without[2].text, probe.text, 'the proposal once more: the failure is not a flaky one');
    assert.strictEqual(record.rerun?.end, 'failed');
    assert.strictEqual(without[1].readme, typed, 'with the unsaved text still');
    assert.strictEqual(probe.readme, typed, 'the copy holds the unsaved editor text');
    assert.strictEqual(probe.keyInEnv, false, 'the key is not in the check\'s environment');
    assert.strictEqual(record.verdict, 'failing', JSON.stringify(record.after));
    // Issue 44: every run in the sandbox, without network.
    if (process.platform === 'linux') assert.deepStrictEqual(record.sandbox, { kind: 'bubblewrap', network: false });
    assert.deepStrictEqual(record.newlyFailing, [FAILING_TEST_NAME]);
    assert.strictEqual(record.before?.end, 'passed', 'the unchanged copy passes: the failure is new');
    assert.match(record.after.summary, /3 passed, 1 failed|pass 3.*fail 1/);
    sameFiles(before, 'after a failing check');
    assert.strictEqual(readme.getText(), typed);
    assert.ok(readme.isDirty, 'the unsaved edit is still unsaved');
    const told = ctx.user.shown.find(s => s.kind === 'warn' && s.message.includes(FAILING_TEST_NAME));
    assert.ok(told?.actions.includes('Ask the Team to Fix'), JSON.stringify(ctx.user.shown));
    // The Tasks view says it, to sighted users and screen readers.
    const row = ctx.api.sidebar.tasks.getTreeItem({ kind: 'task', task: ctx.api.store.get(task.id)! });
    assert.match(String(row.description), /checked: 1 failing/);
    assert.match(row.accessibilityInformation!.label, /checked: 1 failing/);
    // The verdict as the row's badge, at its right edge where the words may be cut.
    const badge = ctx.api.sidebar.checkBadges.provideFileDecoration(row.resourceUri!);
    assert.deepStrictEqual([badge?.badge, badge?.tooltip], ['1', 'checked: 1 failing']);

    // The result view's Checks section: the verdict, the command, the newly failing test, its offers (the header has none of them).
    const panel = await ctx.api.resultPanels.page.show(ctx.api.store.get(task.id)!);
    const html = await waitFor(() => panel.webview.html.includes('id="checks"') && panel.webview.html, 'the Checks section');
    assert.match(html, /checked: 1 failing/);
    assert.ok(html.includes(FAILING_TEST_NAME) && html.includes('node --test'), 'the failing test and the command');
    const [header, section] = [html.slice(0, html.indexOf('id="checks"')), html.slice(html.indexOf('id="checks"'), html.indexOf('id="answer"'))];
    for (const offer of ['check', 'askToFix', 'checkOutput', 'scratch']) {
      assert.ok(section.includes(`data-offer="${offer}"`), `${offer} in the section`);
      assert.ok(!header.includes(`data-offer="${offer}"`), `${offer} not in the header`);
    }
    panel.dispose();

    // Ask the Team to Fix: a thread run with what was checked and the failing output, nothing of the machine's.
    const fix = await vscode.commands.executeCommand<TrackedTask>('multiAgent.askTeamToFix', task.id);
    assert.ok(fix, 'the fix was asked');
    const run = ctx.emulator.requests.filter(r => /\/threads\/[^/]+\/runs$/.test(r.path)).at(-1);
    const prompt = (run?.body as { prompt?: string } | undefined)?.prompt ?? '';
    assert.ok(prompt.startsWith(FIX_REQUEST_OPENING), prompt.slice(0, 200));
    assert.ok(prompt.includes(FAILING_TEST_NAME), 'the failing test by name');
    assert.ok(prompt.includes('node --test'), 'what was run');
    assert.ok(!prompt.includes(ctx.emulator.apiKey), 'no key');
    assert.ok(!prompt.includes(os.homedir()) && !prompt.includes(probe.cwd), 'no home folder, no absolute path of the copy');
    const fixed = await done(fix.id);
    assert.deepStrictEqual(fixed.fixOf, { of: task.id, round: 1 });
    // What was sent reads as what it is: the output in a code block (a few lines high), no raw fence.
    const fixPanel = await ctx.api.resultPanels.page.show(ctx.api.store.get(fix.id)!);
    const sent = await waitFor(() => fixPanel.webview.html.includes('class="sent-request"') && fixPanel.webview.html, 'what was sent');
    const request = sent.slice(sent.indexOf('class="sent-request"'), sent.indexOf('</details>', sent.indexOf('class="sent-request"')));
    assert.ok(request.includes('<pre') && request.includes(FAILING_TEST_NAME) && !request.includes('```'), request.slice(0, 400));
    fixPanel.dispose();
    // Each round is listed under the checked task.
    const under = ctx.api.sidebar.tasks.getChildren({ kind: 'task', task: ctx.api.store.get(task.id)! }).filter(n => n.kind === 'fix');
    assert.deepStrictEqual(under.map(n => (n.kind === 'fix' ? n.task.id : '')), [fix.id]);
    assert.match(String(ctx.api.sidebar.tasks.getTreeItem(under[0]).label), /^Fix 1: /);
    const green = await check(fixed.id);
    assert.strictEqual(green?.verdict, 'passed', JSON.stringify(green?.after));
    assert.strictEqual(green?.before, undefined, 'a passing proposal needs no run without it');
    sameFiles(before, 'after the fix was checked');
    assert.strictEqual(readme.getText(), typed);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('check: a timed-out and a canceled check end their whole process tree; the workspace is byte-identical', async () => {
    const task = await sample();
    const before = snapshot();
    await setSetting('check.timeoutSeconds', 5);
    await setSetting('check.command', probeCommand('timeout', 'hang'));
    const timedOut = await check(task.id);
    assert.strictEqual(timedOut?.verdict, 'timedOut');
    const hung = (await readProbe('timeout'))!;
    await ended('timeout', 'timed out');
    assert.ok(!fs.existsSync(hung.cwd), 'the copy is removed');
    sameFiles(before, 'after a timed-out check');

    await setSetting('check.timeoutSeconds', 600);
    await setSetting('check.command', probeCommand('cancel', 'hang'));
    const copies = () => fs.readdirSync(os.tmpdir()).filter(n => n.startsWith('multi-agent-check-')).length;
    const copiesBefore = copies();
    const running = check(task.id);
    await waitFor(() => probeProcesses('cancel').length === 2, 'the check and its child to start', 60_000);
    // Issue 42: while it runs, the Tasks view, the status bar and the result view say "checking…", each with Cancel Check.
    const row = () => ctx.api.sidebar.tasks.getTreeItem({ kind: 'task', task: ctx.api.store.get(task.id)! });
    assert.match(String(row().description), /checking…/);
    assert.match(String(row().contextValue), /\bcancelCheck\b/);
    assert.doesNotMatch(String(row().contextValue), /\bcheck\b/, 'no second check while one runs');
    assert.match(ctx.api.statusBar.item.text, /\$\(beaker~spin\) Checking: /);
    assert.match((ctx.api.statusBar.item.tooltip as vscode.MarkdownString).value, /command:multiAgent\.cancelCheck\?/);
    const panel = await ctx.api.resultPanels.page.show(ctx.api.store.get(task.id)!);
    const checking = await waitFor(() => panel.webview.html.includes('class="checks running"') && panel.webview.html, 'the Checks section running');
    assert.match(checking, /running node [^<]* on the proposal…/);
    assert.ok(checking.includes('data-offer="cancelCheck"'), 'Cancel Check in the section');
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.cancelCheck', task.id), 1, 'Cancel Check, as its buttons run it');
    const canceled = await running;
    assert.strictEqual(canceled?.verdict, 'canceled');
    await ended('cancel', 'canceled');
    assert.doesNotMatch(String(row().description), /checking…/, 'the row no longer says it');
    await waitFor(() => !panel.webview.html.includes('class="checks running"'), 'the result view to redraw');
    panel.dispose();
    assert.strictEqual(copies(), copiesBefore, 'the copy is removed');
    sameFiles(before, 'after a canceled check');
  });

  it('check: check.onComplete checks a completed proposal by itself, asking nothing, with the command the user set', async () => {
    await setSetting('check.command', probeCommand('auto'));
    await setSetting('check.onComplete', true);
    try {
      const task = await sample();
      const checked = await waitFor(() => ctx.api.store.get(task.id)?.checks?.at(-1), 'the check on completion', 60_000);
      assert.strictEqual(checked.verdict, 'failing');
      assert.ok(await readProbe('auto'), 'the user\'s command ran');
      assert.ok(!ctx.user.shown.some(s => s.kind === 'ask'), 'nothing was asked');
    } finally {
      await setSetting('check.onComplete', undefined);
    }
  });

  it('check: a confirmed command is not asked again; a changed command, or a changed test script, is (counted, issue 45 item 5)', async () => {
    const asked = () => ctx.user.shown.filter(s => s.kind === 'ask' && s.actions.includes('Run Check'));
    const task = await sample();
    const from = asked().length;
    await setSetting('check.command', probeCommand('confirmA'));
    assert.ok(await check(task.id), 'checked');
    assert.strictEqual(asked().length, from + 1, 'asked once for the command');
    assert.match(asked().at(-1)!.message, /confirmA/);
    assert.ok(await check(task.id), 'checked again');
    assert.strictEqual(asked().length, from + 1, 'not asked again for the same command');
    await setSetting('check.command', probeCommand('confirmB'));
    await waitFor(() => ctx.api.config.settings.check.command.includes('confirmB'), 'the setting read again');
    assert.ok(await check(task.id), 'checked with the new command');
    assert.strictEqual(asked().length, from + 2, 'a changed command is asked again');
    // Declined: nothing runs.
    await setSetting('check.command', probeCommand('declined'));
    await waitFor(() => ctx.api.config.settings.check.command.includes('declined'), 'the setting read again');
    ctx.user.onMessage = () => undefined;
    assert.strictEqual(await check(task.id), undefined, 'declined: no check');
    assert.strictEqual(await readProbe('declined'), undefined, 'nothing ran');
    ctx.user.onMessage = s => (s.kind === 'ask' && s.actions.includes('Run Check') ? 'Run Check' : undefined);

    // The declared command (package.json's test script) is confirmed with what it runs: a pull that changes it asks again.
    await setSetting('check.command', undefined);
    await waitFor(() => !ctx.api.config.settings.check.command, 'the setting cleared');
    const manifest = path.join(root(), 'package.json');
    const shipped = fs.readFileSync(manifest, 'utf8');
    try {
      assert.ok(await check(task.id), 'checked with the declared script');
      const declared = asked().length;
      assert.match(asked().at(-1)!.message, /node --test/);
      assert.ok(await check(task.id));
      assert.strictEqual(asked().length, declared, 'the same script: not asked again');
      fs.writeFileSync(manifest, shipped.replace('"test": "node --test"', '"test": "node --test --test-reporter=tap"'));
      assert.ok(await check(task.id));
      assert.strictEqual(asked().length, declared + 1, 'the script changed: asked again');
      assert.match(asked().at(-1)!.message, /--test-reporter=tap/);
    } finally {
      fs.writeFileSync(manifest, shipped);
    }
  });

  it('check: check.autoFixRounds is bounded at 3 — 5 in the user\'s settings is said as a problem and read as 0 (issue 45 item 5)', async () => {
    await setSetting('check.autoFixRounds', 5);
    try {
      await waitFor(() => ctx.api.config.problems.some(p => p.includes('multiAgent.check.autoFixRounds')), 'the setting read again');
      assert.strictEqual(ctx.api.config.settings.check.autoFixRounds, 0);
      assert.ok(ctx.api.config.problems.some(p => /check\.autoFixRounds must be a whole number from 0 to 3 \(it is 5\)/.test(p)), ctx.api.config.problems.join(' | '));
      await setSetting('check.autoFixRounds', 3);
      await waitFor(() => ctx.api.config.settings.check.autoFixRounds === 3, 'the bound itself allowed');
    } finally {
      await setSetting('check.autoFixRounds', undefined);
    }
  });

  it('check: an untrusted workspace refuses, and a workspace\'s settings cannot choose the command', async () => {
    const task = await sample();
    await setSetting('check.command', probeCommand('user'));
    ctx.api.trust.restrict();
    try {
      assert.strictEqual(await check(task.id), undefined);
      assert.ok(ctx.user.messages('error').some(m => /trusted workspace/.test(m)), JSON.stringify(ctx.user.shown));
      assert.strictEqual(await readProbe('user'), undefined, 'nothing ran');
    } finally {
      ctx.api.trust.grant();
    }
    // A cloned repository's settings name another command: the user's runs.
    const settings = workspaceUri('.vscode', 'settings.json');
    const had = fs.existsSync(settings.fsPath) ? fs.readFileSync(settings.fsPath, 'utf8') : undefined;
    fs.mkdirSync(path.dirname(settings.fsPath), { recursive: true });
    fs.writeFileSync(settings.fsPath, JSON.stringify({ 'multiAgent.check.command': probeCommand('repository'), 'multiAgent.check.onComplete': true, 'multiAgent.check.compareWithBefore': false }));
    try {
      await waitFor(() => vscode.workspace.getConfiguration('multiAgent').inspect('check.compareWithBefore')?.workspaceValue === false, 'the workspace settings to be read');
      assert.strictEqual(ctx.api.config.settings.check.command, probeCommand('user'));
      assert.strictEqual(ctx.api.config.settings.check.onComplete, false, 'nor turn on checks by themselves');
      const record = await check(task.id);
      assert.ok(record);
      assert.ok(await readProbe('user'), 'the user\'s command ran');
      assert.strictEqual(await readProbe('repository'), undefined, 'the repository\'s did not');
    } finally {
      if (had === undefined) fs.rmSync(settings.fsPath);
      else fs.writeFileSync(settings.fsPath, had);
    }
  });
});
