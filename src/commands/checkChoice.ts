/**
 * Which command a check runs (issue 37, issue 42): the user's setting `multiAgent.check.command`, else what the
 * workspace declares (a package.json test script, a Test task of its tasks.json, pytest, go test, cargo test),
 * shown with what it runs and confirmed once per workspace, saying plainly that the proposed code runs on this
 * machine. Unasked (on completion): only a command the user already set or confirmed. Confirmations are kept
 * as hashes: a command line may hold a secret, and nothing of it is written to state.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { Config } from '../config';
import { UserFacingError, inert } from '../errors';
import type { CheckStart } from '../tasks/checking/policy';
import type { CheckSandbox } from '../tasks/checking/session';
import type { DetectedCheck } from '../tasks/checking/types';
import type { UserInterface } from '../ui';
import { Actions } from '../vocabulary';
import { checkingPart } from './checkingPart';

export interface ChoiceDeps {
  ui: UserInterface;
  config: Config;
  /** Where a confirmed command is remembered, per workspace. */
  workspaceState: vscode.Memento;
}

/** The command to run, and where it came from. */
export interface ChosenCommand {
  command: string;
  from: DetectedCheck['from'] | 'setting';
  /** The file that declares it (a declared command). */
  file?: string;
  /** What a declared command runs (the package.json test script's text): shown, and part of what is confirmed. */
  runs?: string;
}

const CONFIRMED_KEY = 'multiAgent.check.confirmed';
const commandHash = (c: ChosenCommand) => createHash('sha256').update(`${c.command}\0${c.runs ?? ''}`, 'utf8').digest('hex');
type Confirmed = { sha256: string; folder: string }[];

/** The command for `folder`, asking what must be asked (a click), or undefined (declined, or nothing known unasked). */
export async function chooseCommand(d: ChoiceDeps, folder: vscode.WorkspaceFolder, start: CheckStart, sandbox: CheckSandbox | undefined): Promise<ChosenCommand | undefined> {
  const set = d.config.settings.check.command;
  const confirmed = d.workspaceState.get<Confirmed>(CONFIRMED_KEY, []);
  const isConfirmed = (c: ChosenCommand) => confirmed.some(k => k.sha256 === commandHash(c) && k.folder === folder.uri.toString());
  if (set) {
    const chosen: ChosenCommand = { command: set, from: 'setting' };
    if (isConfirmed(chosen) || start.unasked) return chosen;
    return (await confirm(d, folder, chosen, sandbox)) ? chosen : undefined;
  }
  // A declared command is confirmed with what it runs: a pull that changes the test script asks again.
  const found: ChosenCommand[] = [];
  for (const f of [...(await testTasks(folder)), ...(await checkingPart().detectChecks(folder.uri.fsPath))]) {
    found.push(f.from === 'packageJson' ? { ...f, runs: await checkingPart().declaredRuns(folder.uri.fsPath, f.file) } : f);
  }
  const known = found.find(isConfirmed);
  if (known) return known;
  if (start.unasked) return undefined;
  if (!found.length) {
    throw new UserFacingError(
      vscode.l10n.t('"{0}" declares no check that Check Proposal knows (a package.json test script, a Test task, pytest, go test, cargo test). Set the command to run in the setting multiAgent.check.command.', folder.name),
      [Actions.openSettings()],
    );
  }
  const picked =
    found.length === 1
      ? found[0]
      : (await d.ui.pick(found.map(f => ({ label: f.command, description: declaredIn(f), f })), { placeHolder: vscode.l10n.t('Which check should run on proposals in "{0}"?', folder.name) }))?.f;
  if (!picked) return undefined;
  return (await confirm(d, folder, picked, sandbox)) ? picked : undefined;
}

async function confirm(d: ChoiceDeps, folder: vscode.WorkspaceFolder, chosen: ChosenCommand, sandbox: CheckSandbox | undefined): Promise<boolean> {
  // What is confirmed is what runs: all of it shown, or nothing run (a payload after 600 spaces is not hidden by a cut).
  const length = chosen.command.length + (chosen.runs?.length ?? 0);
  const max = checkingPart().DECLARED_MAX_CHARS;
  if (length > max) {
    throw new UserFacingError(
      vscode.l10n.t('What "{0}" declares as its check is {1} characters long, more than a confirmation can show ({2}); {3} would be hidden, so it is not run. Set the command to run in the setting multiAgent.check.command.', folder.name, length, max, length - max),
      [Actions.openSettings()],
    );
  }
  const run = vscode.l10n.t('Run Check');
  const where = chosen.runs !== undefined ? vscode.l10n.t('{0}: "{1}"', declaredIn(chosen), chosen.runs) : declaredIn(chosen);
  // What the run may do, in plain words: the sandbox's limits, or that there is none.
  const how = !sandbox
    ? vscode.l10n.t('It runs the team\'s proposed code on this machine WITHOUT a sandbox (you chose to run without one here), with your permissions, in a copy of the folder outside your files.')
    : sandbox.allowNetwork
      ? vscode.l10n.t('It runs the team\'s proposed code on this machine in a sandbox ({0}): it writes only in a copy of the folder outside your files, your keys and secret folders hidden; the network is allowed (multiAgent.check.allowNetwork).', sandbox.kind)
      : vscode.l10n.t('It runs the team\'s proposed code on this machine in a sandbox ({0}): no network, it writes only in a copy of the folder outside your files, your keys and secret folders hidden.', sandbox.kind);
  const choice = await d.ui.ask(
    vscode.l10n.t('Check proposals in "{0}" with "{1}" ({2})? {3} Your files are not changed. Asked once for this workspace.', folder.name, inert(chosen.command), inert(where), how),
    run,
  );
  if (choice !== run) return false;
  const confirmed = d.workspaceState.get<Confirmed>(CONFIRMED_KEY, []);
  await d.workspaceState.update(CONFIRMED_KEY, [...confirmed.filter(c => c.folder !== folder.uri.toString()), { sha256: commandHash(chosen), folder: folder.uri.toString() }]);
  return true;
}

function declaredIn(f: ChosenCommand): string {
  switch (f.from) {
    case 'setting':
      return vscode.l10n.t('your setting multiAgent.check.command');
    case 'packageJson':
      return vscode.l10n.t('the test script of {0}', f.file ?? 'package.json');
    case 'testTask':
      return vscode.l10n.t('a task of the Test group in {0}', f.file ?? '.vscode/tasks.json');
    case 'pytest':
      return vscode.l10n.t('pytest, configured in {0}', f.file ?? '');
    case 'goTest':
      return vscode.l10n.t('Go tests ({0})', f.file ?? '');
    case 'cargoTest':
      return vscode.l10n.t('Cargo tests ({0})', f.file ?? '');
  }
}

/**
 * Tasks of the Test group the folder's own tasks.json declares, as command lines (`testTaskCommand`, the one
 * reading of a task's definition). Shell and process tasks only: asking every provider would run their code. A
 * task with a working folder or environment of its own, or a variable (`${workspaceFolder}` names the user's
 * folder, not the copy), would not run the same in the copy: it is not offered.
 */
async function testTasks(folder: vscode.WorkspaceFolder): Promise<DetectedCheck[]> {
  const out: DetectedCheck[] = [];
  for (const type of ['shell', 'process']) {
    const tasks = await Promise.resolve(vscode.tasks.fetchTasks({ type })).catch(() => [] as vscode.Task[]);
    for (const t of tasks) {
      if (t.group?.id !== vscode.TaskGroup.Test.id || t.source !== 'Workspace') continue;
      const scope = t.scope as vscode.WorkspaceFolder | undefined;
      if (typeof scope !== 'object' || scope.uri?.toString() !== folder.uri.toString()) continue;
      const command = commandLineOf(t.execution);
      if (command && !command.includes('${')) out.push({ command, from: 'testTask', file: '.vscode/tasks.json' });
    }
  }
  return out;
}

/** A task's execution as the definition `testTaskCommand` reads; undefined with a working folder or environment of its own. */
function commandLineOf(execution: vscode.Task['execution']): string | undefined {
  if (execution instanceof vscode.ShellExecution && !execution.options?.cwd && !execution.options?.env) {
    return checkingPart().testTaskCommand({ type: 'shell', command: execution.commandLine ?? execution.command, args: execution.commandLine ? undefined : execution.args });
  }
  if (execution instanceof vscode.ProcessExecution && !execution.options?.cwd && !execution.options?.env) {
    return checkingPart().testTaskCommand({ type: 'process', command: execution.process, args: execution.args });
  }
  return undefined;
}
