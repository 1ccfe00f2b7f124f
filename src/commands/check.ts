/**
 * Check Proposal… (issue 37): the user's own check command run on the team's proposal in a scratch copy of the
 * task's workspace folder, outside every workspace folder, never in the user's files. The copy holds what the
 * user sees (unsaved editor texts included) plus exactly the hunks Review Changes… checks by default (no
 * conflict, no file that can run code, nothing in another folder); what was left out is recorded and said.
 * When the proposal's run fails, the same command runs on the copy without the proposal (`compareWithBefore`),
 * to tell newly failing tests from those failing already. Nothing runs unasked: a trusted workspace only, the
 * command from the user's own settings or, where unset, the workspace's declared one confirmed once per
 * workspace; `check.onComplete` (the user's settings only) is the one way a check starts by itself.
 *
 * Ask the Team to Fix sends what was checked and the failing output (bounded, redacted) to the task's thread;
 * its answer is a task like any other (`fixOf` lists it under the checked task).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Config, filesExcluded } from '../config';
import { type PreparedReview, folderOf, prepareReview } from '../documents/reviewPlan';
import type { SourceRangeTracker } from '../documents/sourceRanges';
import { UserFacingError, inert, messageOf } from '../errors';
import type { KeyStore } from '../auth/keyStore';
import type { Logger } from '../log';
import { reviewPart } from '../parts';
import { detectChecks, shellQuote } from '../tasks/checking/detect';
import { fixRequest } from '../tasks/checking/feedback';
import { BoundedOutput } from '../tasks/checking/output';
import { checkEnvironment, runCommand } from '../tasks/checking/runner';
import { BUILD_FOLDERS, DEPENDENCY_FOLDERS, type Scratch, buildScratch, listFiles, removeScratch } from '../tasks/checking/scratch';
import { compareRuns, readRun } from '../tasks/checking/summary';
import type { CheckRuns } from '../tasks/checking/runs';
import type { CheckRecord, CheckRun, CheckedChanges, DetectedCheck } from '../tasks/checking/types';
import { type TrackedTask, latestCheck } from '../tasks/model';
import { checkFailed, offer } from '../tasks/offers';
import type { SubmissionPipeline } from '../tasks/sending/submission';
import type { TaskStore } from '../tasks/store/taskStore';
import type { UserInterface } from '../ui';
import { Actions, checkLeftOutWhy, checkSentence } from '../vocabulary';
import { sendOrOfferAttachment } from './ask';
import { resolveTask } from './resolve';
import { type TeamDeps, threadIdOf } from './team';

export interface CheckDeps {
  ui: UserInterface;
  store: TaskStore;
  config: Config;
  keys: KeyStore;
  log: Logger;
  tracker: Pick<SourceRangeTracker, 'now'>;
  /** Where a confirmed command is remembered, per workspace. */
  workspaceState: vscode.Memento;
  /** What Ask the Team to Fix needs to find the task's thread and send in it. */
  team: Pick<TeamDeps, 'api' | 'store'> & { pipeline: SubmissionPipeline };
  /** The checks running now: each is aborted by its notification's Cancel, all of them when the window closes. */
  runs: CheckRuns;
  /** The task of the focused result view, if one is focused. */
  activeResult?: () => string | undefined;
}

/** How a check was asked for: a click (asks what it must), or by itself on completion (asks nothing). */
interface CheckStart {
  unasked?: boolean;
}

/**
 * The commands confirmed per workspace folder, kept as hashes: a command line may hold a secret of the user's, and
 * nothing of it is written to state.
 */
const CONFIRMED_KEY = 'multiAgent.check.confirmed';
const commandHash = (c: ChosenCommand) => createHash('sha256').update(`${c.command}\0${c.runs ?? ''}`, 'utf8').digest('hex');

/** The test script a package.json declares (read bounded), for the confirmation. */
async function testScriptOf(folder: vscode.WorkspaceFolder, file: string): Promise<string | undefined> {
  try {
    const text = await fs.readFile(path.join(folder.uri.fsPath, file), 'utf8');
    const test = text.length <= 256 * 1024 ? (JSON.parse(text) as { scripts?: { test?: unknown } }).scripts?.test : undefined;
    return typeof test === 'string' ? test.slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}

/** The command to run, and where it came from. */
interface ChosenCommand {
  command: string;
  from: DetectedCheck['from'] | 'setting';
  /** What a declared command runs (the package.json test script's text): shown, and part of what is confirmed. */
  runs?: string;
}

/** Check Proposal…: returns the check as recorded (undefined when nothing ran: refused, declined, nothing to check). */
export async function checkProposal(d: CheckDeps, arg?: unknown, start: CheckStart = {}): Promise<CheckRecord | undefined> {
  // Unasked is the user's own opt-in only: nothing starts a check by itself otherwise.
  if (start.unasked && !d.config.settings.check.onComplete) return undefined;
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'check', vscode.l10n.t('Check the proposal of which answer?'));
  if (!task) return undefined;
  if (task.status !== 'completed') throw new UserFacingError(vscode.l10n.t('"{0}" has no result yet.', inert(task.title)));
  const folder = folderOf(task) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') {
    throw new UserFacingError(vscode.l10n.t('Check Proposal needs the folder "{0}" was sent from, on this machine: open it and try again.', inert(task.title)));
  }
  if (!d.config.trusted) {
    if (start.unasked) return undefined;
    throw new UserFacingError(vscode.l10n.t('Check Proposal runs code on this machine, so it runs only in a trusted workspace. Trust this folder (Manage Workspace Trust) and try again.'));
  }
  const chosen = await chooseCommand(d, folder, start);
  if (!chosen) return undefined;
  const answer = await d.store.readResult(task.id);
  if (answer === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));

  const record = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the proposal of "{0}"', inert(task.title)), cancellable: true },
    async (progress, token) => {
      const run = d.runs.start(task.id);
      const sub = token.onCancellationRequested(() => run.abort());
      try {
        return await runCheck(d, task, answer, folder, chosen.command, progress, run.signal);
      } finally {
        sub.dispose();
        run.done();
      }
    },
  );
  if (!record) return undefined;
  // `check.autoFixRounds` (the user's settings, with check.onComplete): a failing check started by itself asks for a
  // fix by itself, a few rounds at most; every round is a task the user sees, and none lands without a review.
  const rounds = d.config.settings.check.autoFixRounds;
  // Only what the proposal broke: failures that were there before are not the team's to fix by themselves.
  if (start.unasked && checkFailed({ checks: [record] }) && record.verdict !== 'failingAsBefore' && (task.fixOf?.round ?? 0) < rounds) {
    d.log.info(`check ${task.id}: asking the team to fix by itself (check.autoFixRounds ${rounds})`);
    void askTeamToFix(d, task.id).catch(e => d.log.warn(`check ${task.id}: could not ask for a fix: ${String(e)}`));
    return record;
  }
  void tellOutcome(d, task, record);
  return record;
}

/** The scratch copy's contents: what the user sees now, and the proposal's files on top. */
interface ScratchPlan {
  /** Relative to the folder: the text the copy starts with (unsaved editor texts), then what the proposal changes. */
  base: Map<string, string | null>;
  proposal: Map<string, string | null>;
  changes: CheckedChanges;
}

async function runCheck(
  d: CheckDeps,
  task: TrackedTask,
  answer: string,
  folder: vscode.WorkspaceFolder,
  command: string,
  progress: vscode.Progress<{ message?: string }>,
  signal: AbortSignal,
): Promise<CheckRecord | undefined> {
  const startedAt = Date.now();
  progress.report({ message: vscode.l10n.t('reading the proposal…') });
  let review: PreparedReview;
  try {
    review = await prepareReview(d, task, answer, folder, { signal });
  } catch (e) {
    if (e instanceof reviewPart().PlanCancelled) return undefined;
    throw e;
  }
  if (review.plan.tooComplex) throw new UserFacingError(vscode.l10n.t('The answer to "{0}" is too complex to review here, so it cannot be checked either.', inert(task.title)));
  const planned = scratchPlanOf(review, folder);
  if (!planned.changes.files.length) {
    const why = planned.changes.leftOut.length
      ? vscode.l10n.t('every change of it was left out ({0}: {1}).', planned.changes.leftOut[0].path, checkLeftOutWhy(planned.changes.leftOut[0].why))
      : vscode.l10n.t('it names no change that Review Changes… could apply.');
    throw new UserFacingError(vscode.l10n.t('Nothing of the answer to "{0}" can be checked: {1}', inert(task.title), why));
  }

  const root = folder.uri.fsPath;
  // Outside every workspace folder, not only the task's: a temp folder inside another one would put the copy there.
  const tmp = os.tmpdir();
  const holder = vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file' && !path.relative(f.uri.fsPath, tmp).startsWith('..') && !path.isAbsolute(path.relative(f.uri.fsPath, tmp)));
  if (holder) throw new UserFacingError(vscode.l10n.t('The temp folder ({0}) is inside the workspace folder "{1}": a check never makes its copy in a workspace folder. Set TMPDIR elsewhere and restart VS Code.', tmp, holder.name));
  progress.report({ message: vscode.l10n.t('copying {0}…', folder.name) });
  const exclude = filesExcluded(folder.uri);
  let scratch: Scratch | undefined;
  const secrets = [await d.keys.getApiKey(), await d.keys.getGatewayKey()].filter((k): k is string => !!k);
  const env = checkEnvironment(process.env, secrets);
  const { timeoutMs, compareWithBefore } = d.config.settings.check;
  const outputs: string[] = [];
  try {
    let listed: Awaited<ReturnType<typeof listFiles>>;
    try {
      listed = await listFiles(root, { exclude, signal });
      scratch = await buildScratch({ root, files: listed.files, overlay: new Map([...planned.base, ...planned.proposal]), signal });
    } catch (e) {
      if (signal.aborted) return undefined;
      throw new UserFacingError(vscode.l10n.t('The scratch copy of "{0}" could not be made, so nothing was checked: {1}', folder.name, messageOf(e)));
    }
    d.log.info(`check ${task.id}: copied ${scratch.copied} files (${listed.via}), linked ${scratch.linked.length} dependency folders, in ${scratch.ms.toFixed(0)} ms`);
    const dir = scratch.dir;
    const copyPaths = [...new Set([await fs.realpath(dir).catch(() => dir), dir])];
    const run = async (which: 'after' | 'before'): Promise<CheckRun> => {
      progress.report({ message: which === 'after' ? vscode.l10n.t('running {0} on the proposal…', command) : vscode.l10n.t('running {0} without the proposal…', command) });
      const output = new BoundedOutput();
      const ran = await runCommand({ command, cwd: dir, env, timeoutMs, signal, onOutput: chunk => output.push(chunk) });
      // The copy's paths read as the user's own folder's: what the output names is where the user would look.
      const asUsers = (t: string) => copyPaths.reduce((acc, p) => acc.split(p).join(root), d.keys.redact(t));
      const text = asUsers(output.text());
      const read = readRun(text);
      outputs.push(`${which === 'after' ? vscode.l10n.t('## {0} on the proposal', command) : vscode.l10n.t('## {0} without the proposal', command)} (${ran.end}${ran.exitCode !== undefined ? `, exit ${ran.exitCode}` : ''}, ${Math.round(ran.durationMs)} ms)\n\n${text}\n`);
      // The shell's "command not found" (127; 9009 from cmd.exe) is a check that never ran, not a failing one.
      const notFound = ran.end === 'failed' && (ran.exitCode === 127 || (process.platform === 'win32' && ran.exitCode === 9009));
      return {
        end: notFound ? 'notStarted' : ran.end,
        error: notFound ? vscode.l10n.t('the shell did not find the command (exit {0}); is it installed and on the PATH VS Code was started with?', ran.exitCode ?? '') : ran.error,
        exitCode: ran.exitCode,
        durationMs: ran.durationMs,
        summary: read.summary,
        failing: read.failing,
        tail: asUsers(output.tail()),
        outputBytes: output.bytes,
      };
    };
    const after = await run('after');
    let before: CheckRun | undefined;
    // Only a failing proposal needs the comparison: a passing one breaks nothing.
    if (after.end === 'failed' && compareWithBefore && !signal.aborted) {
      await writeOverlay(dir, restoring(planned));
      before = await run('before');
    }
    const { newlyFailing, verdict } = compareRuns(before, after);
    const record: CheckRecord = { id: newCheckId(), command, startedAt, after, before, changes: planned.changes, newlyFailing, verdict };
    // A canceled check says nothing of the proposal: it is not kept (an earlier verdict and its offers stay).
    if (verdict !== 'canceled') await d.store.recordCheck(task.id, record, { all: outputs.join('\n'), proposal: outputs[0] ?? '' });
    d.log.info(`check ${task.id}: ${verdict} (${after.summary}) in ${Math.round(after.durationMs)} ms${before ? `; before: ${before.end}` : ''}`);
    return record;
  } finally {
    if (scratch) await removeScratch(scratch).catch(e => d.log.warn(`check ${task.id}: the scratch copy ${scratch?.base} could not be removed: ${String(e)}`));
  }
}

/**
 * What goes into the copy: every unsaved editor text of the folder (what the user sees), then the proposal's
 * files as Review Changes… would write them with its defaults (every hunk but the conflicts; no file that can run
 * code). A file of another workspace folder is left out: the check runs in the task's folder.
 */
function scratchPlanOf(review: PreparedReview, folder: vscode.WorkspaceFolder): ScratchPlan {
  const base = new Map<string, string | null>();
  const proposal = new Map<string, string | null>();
  const changes: CheckedChanges = { files: [], leftOut: [] };
  const relativeOf = (uri: vscode.Uri) => {
    const rel = path.relative(folder.uri.fsPath, uri.fsPath);
    return !rel || rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
  };
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && doc.uri.scheme === 'file') {
      const rel = relativeOf(doc.uri);
      // Not under a linked dependency folder (`node_modules/x` edited unsaved): the copy links the folder instead.
      if (rel && !rel.split('/').some(part => DEPENDENCY_FOLDERS.includes(part) || BUILD_FOLDERS.includes(part))) base.set(rel, doc.getText());
    }
  }
  for (const file of review.plan.files) {
    if (file.kind === 'skip') continue;
    const uri = review.uriOf(file.path);
    const rel = uri.scheme === 'file' ? relativeOf(uri) : undefined;
    if (!rel) {
      changes.leftOut.push({ path: file.path, why: 'otherFolder' });
      continue;
    }
    if (file.sensitive) {
      changes.leftOut.push({ path: file.path, why: 'runsCode' });
      continue;
    }
    if (file.hunks.some(h => h.conflict)) changes.leftOut.push({ path: file.path, why: 'conflict' });
    const hunks = file.hunks.filter(h => !h.conflict);
    if (!hunks.length) continue;
    if (file.kind === 'create') {
      if (!base.has(rel)) base.set(rel, null);
      proposal.set(rel, hunks[0].newText);
    } else {
      const now = review.current.get(file.path) ?? '';
      base.set(rel, now);
      proposal.set(rel, reviewPart().applyHunks(now, file.hunks, h => !h.conflict));
    }
    changes.files.push(file.path);
  }
  // The base needs only the unsaved texts and the files the proposal changes.
  return { base, proposal, changes };
}

/** What puts the copy back to the user's texts after the proposal's run: the base of each file the proposal changed. */
function restoring(planned: ScratchPlan): Map<string, string | null> {
  return new Map([...planned.proposal.keys()].map(rel => [rel, planned.base.get(rel) ?? null]));
}

/** Writes texts into the copy (null deletes), each path kept inside it. */
async function writeOverlay(dir: string, overlay: ReadonlyMap<string, string | null>): Promise<void> {
  for (const [rel, text] of overlay) {
    const target = path.resolve(dir, rel);
    if (!target.startsWith(dir + path.sep)) throw new Error(`${rel} is outside the scratch copy`);
    if (text === null) await fs.rm(target, { force: true });
    else {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, text);
    }
  }
}

function newCheckId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// Which command ----------------------------------------------------------------------------------------------

/**
 * The command: the user's setting, else what the workspace declares, shown and confirmed once per workspace
 * (saying plainly that the proposed code runs on this machine). Unasked (on completion): only a command the
 * user already set or confirmed.
 */
async function chooseCommand(d: CheckDeps, folder: vscode.WorkspaceFolder, start: CheckStart): Promise<ChosenCommand | undefined> {
  const set = d.config.settings.check.command;
  const confirmed = d.workspaceState.get<{ sha256: string; folder: string }[]>(CONFIRMED_KEY, []);
  const isConfirmed = (c: ChosenCommand) => confirmed.some(k => k.sha256 === commandHash(c) && k.folder === folder.uri.toString());
  if (set) {
    const chosen: ChosenCommand = { command: set, from: 'setting' };
    if (isConfirmed(chosen) || start.unasked) return chosen;
    return (await confirm(d, folder, chosen)) ? chosen : undefined;
  }
  // A declared command is confirmed with what it runs: a pull that changes the test script asks again.
  const found: (DetectedCheck & ChosenCommand)[] = [];
  for (const f of [...(await testTasks(folder)), ...(await detectChecks(folder.uri.fsPath))]) found.push(f.from === 'packageJson' ? { ...f, runs: await testScriptOf(folder, f.file) } : f);
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
  return (await confirm(d, folder, picked)) ? picked : undefined;
}

async function confirm(d: CheckDeps, folder: vscode.WorkspaceFolder, chosen: ChosenCommand): Promise<boolean> {
  const run = vscode.l10n.t('Run Check');
  const declared = chosen.from === 'setting' ? vscode.l10n.t('your setting multiAgent.check.command') : declaredIn(chosen as DetectedCheck);
  const where = chosen.runs !== undefined ? vscode.l10n.t('{0}: "{1}"', declared, chosen.runs) : declared;
  const choice = await d.ui.ask(
    vscode.l10n.t(
      'Check proposals in "{0}" with "{1}" ({2})? It runs the team\'s proposed code on this machine, with your permissions, in a copy of the folder outside your files. Your files are not changed. Asked once for this workspace.',
      folder.name,
      inert(chosen.command),
      inert(where),
    ),
    run,
  );
  if (choice !== run) return false;
  const confirmed = d.workspaceState.get<{ sha256: string; folder: string }[]>(CONFIRMED_KEY, []);
  await d.workspaceState.update(CONFIRMED_KEY, [...confirmed.filter(c => c.folder !== folder.uri.toString()), { sha256: commandHash(chosen), folder: folder.uri.toString() }]);
  return true;
}

function declaredIn(f: Pick<DetectedCheck, 'from' | 'file'>): string {
  switch (f.from) {
    case 'packageJson':
      return vscode.l10n.t('the test script of {0}', f.file);
    case 'testTask':
      return vscode.l10n.t('a task of the Test group in {0}', f.file);
    case 'pytest':
      return vscode.l10n.t('pytest, configured in {0}', f.file);
    case 'goTest':
      return vscode.l10n.t('Go tests ({0})', f.file);
    default:
      return vscode.l10n.t('Cargo tests ({0})', f.file);
  }
}

/** Tasks of the Test group the folder declares (tasks.json), as command lines. */
async function testTasks(folder: vscode.WorkspaceFolder): Promise<DetectedCheck[]> {
  const out: DetectedCheck[] = [];
  // Shell and process tasks only: asking every provider would run their code (some read the workspace with tools).
  for (const type of ['shell', 'process']) {
    let tasks: vscode.Task[];
    try {
      tasks = await vscode.tasks.fetchTasks({ type });
    } catch {
      continue;
    }
    for (const t of tasks) {
      // The folder's own tasks.json only: a provider's task (npm's "test") is what detectChecks reads already.
      if (t.group?.id !== vscode.TaskGroup.Test.id || t.source !== 'Workspace') continue;
      const scope = t.scope as vscode.WorkspaceFolder | undefined;
      if (typeof scope !== 'object' || scope.uri?.toString() !== folder.uri.toString()) continue;
      const command = commandLineOf(t.execution);
      if (command) out.push({ command, from: 'testTask', file: '.vscode/tasks.json' });
    }
  }
  return out;
}

/**
 * A task's execution as one command line for the copy, or undefined where it would not run the same there: a
 * variable (`${workspaceFolder}` names the user's folder, not the copy), a working folder or environment of its own.
 */
function commandLineOf(execution: vscode.Task['execution']): string | undefined {
  if (!(execution instanceof vscode.ShellExecution || execution instanceof vscode.ProcessExecution) || execution.options?.cwd || execution.options?.env) return undefined;
  const valueOf = (a: string | vscode.ShellQuotedString) => (typeof a === 'string' ? a : a.value);
  let line: string | undefined;
  if (execution instanceof vscode.ShellExecution) {
    // The command as written (a shell task's command may be a command line of its own); its arguments quoted.
    line = execution.commandLine ?? (execution.command ? [valueOf(execution.command), ...(execution.args ?? []).map(a => shellQuote(valueOf(a)))].join(' ') : undefined);
  } else if (execution instanceof vscode.ProcessExecution) {
    line = [execution.process, ...execution.args].map(shellQuote).join(' ');
  }
  return line && !line.includes('${') ? line : undefined;
}

// What the user sees --------------------------------------------------------------------------------------

async function tellOutcome(d: CheckDeps, task: TrackedTask, check: CheckRecord): Promise<void> {
  const message = checkSentence(check);
  const review = vscode.l10n.t(offer('review').label);
  const fix = vscode.l10n.t(offer('askToFix').label);
  const output = vscode.l10n.t(offer('checkOutput').label);
  const failed = checkFailed({ checks: [check] });
  // Two buttons where the team can fix it: three long ones are cut in a toast (VS Code 1.100); Review Changes… is in the result view.
  const choice = failed ? await d.ui.warn(message, fix, output) : check.verdict === 'canceled' ? await d.ui.info(message, output) : await d.ui.info(message, review, output);
  if (choice === review) await vscode.commands.executeCommand(offer('review').command, task.id);
  else if (choice === fix) await vscode.commands.executeCommand(offer('askToFix').command, task.id);
  else if (choice === output) await vscode.commands.executeCommand(offer('checkOutput').command, task.id);
}

/** Show Check Output: the newest check's whole kept output, in an editor. */
export async function showCheckOutput(d: Pick<CheckDeps, 'ui' | 'store'>, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const task = await resolveTask(d, arg, 'checkOutput', vscode.l10n.t('The check output of which task?'));
  if (!task) return undefined;
  const check = latestCheck(task);
  if (!check) throw new UserFacingError(vscode.l10n.t('"{0}" has not been checked yet.', inert(task.title)));
  if ((await d.store.readCheckOutput(task.id, check.id)) === undefined) throw new UserFacingError(vscode.l10n.t('The output of that check is no longer kept.'));
  const document = await vscode.workspace.openTextDocument(d.store.checkOutputUri(task.id, check.id));
  return vscode.window.showTextDocument(document, { preview: true });
}

/**
 * Open Scratch Copy: the folder with the proposal in it (as the check had it), in a new window. Kept until the
 * user deletes it (its path is said), since a window is working in it.
 */
export async function openScratchCopy(d: CheckDeps, arg?: unknown): Promise<string | undefined> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'scratch', vscode.l10n.t('Open the scratch copy of which answer?'));
  if (!task) return undefined;
  const folder = folderOf(task) ?? vscode.workspace.workspaceFolders?.[0];
  const answer = await d.store.readResult(task.id);
  if (!folder || folder.uri.scheme !== 'file' || answer === undefined) throw new UserFacingError(vscode.l10n.t('There is no proposal of "{0}" to copy here.', inert(task.title)));
  // A window opened on the copy may run its tasks and extensions on the proposed code: as a check, trusted folders only.
  if (!d.config.trusted) throw new UserFacingError(vscode.l10n.t('Open Scratch Copy makes a copy with the proposed code in it, so it works only in a trusted workspace. Trust this folder (Manage Workspace Trust) and try again.'));
  const made = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Copying "{0}" with the proposal…', folder.name), cancellable: true },
    async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const review = await prepareReview(d, task, answer, folder, { signal: abort.signal });
        const planned = scratchPlanOf(review, folder);
        const root = folder.uri.fsPath;
        const listed = await listFiles(root, { exclude: filesExcluded(folder.uri), signal: abort.signal });
        const scratch = await buildScratch({ root, files: listed.files, overlay: new Map([...planned.base, ...planned.proposal]), signal: abort.signal });
        return { scratch, changes: planned.changes };
      } catch (e) {
        if (abort.signal.aborted || e instanceof reviewPart().PlanCancelled) return undefined;
        throw new UserFacingError(vscode.l10n.t('The scratch copy of "{0}" could not be made: {1}', folder.name, messageOf(e)));
      } finally {
        sub.dispose();
      }
    },
  );
  if (!made) return undefined;
  const { scratch, changes } = made;
  d.log.info(`check ${task.id}: scratch copy kept at ${scratch.dir}`);
  const leftOut = changes.leftOut.length ? ' ' + vscode.l10n.t('Left out of it: {0}.', changes.leftOut.map(l => `${l.path} (${checkLeftOutWhy(l.why)})`).join('; ')) : '';
  void d.ui.info(inert(vscode.l10n.t('The scratch copy with the proposal is at {0}; it stays until you delete it.', scratch.dir.replace(os.homedir(), '~')) + leftOut));
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(scratch.dir), { forceNewWindow: true });
  return scratch.dir;
}

// Ask the Team to Fix --------------------------------------------------------------------------------------

/**
 * Sends the newest failing check to the task's thread: what ran, what newly fails, the output's end (bounded;
 * the keys, the home folder and absolute paths redacted). The answer is a task of its own, listed under this one.
 */
export async function askTeamToFix(d: CheckDeps, arg?: unknown): Promise<TrackedTask | undefined> {
  const task = await resolveTask(d, arg ?? d.activeResult?.(), 'askToFix', vscode.l10n.t('Ask the team to fix which answer?'));
  if (!task) return undefined;
  const check = latestCheck(task);
  if (!check || !checkFailed(task)) throw new UserFacingError(vscode.l10n.t('"{0}" has no failing check to send: run Check Proposal… first.', inert(task.title)));
  if (!(await d.keys.ensureApiKey())) return undefined;
  const output = (await d.store.readCheckOutput(task.id, check.id, 'proposal')) ?? check.after.tail;
  const folder = folderOf(task);
  const secrets = [await d.keys.getApiKey(), await d.keys.getGatewayKey()].filter((k): k is string => !!k);
  const instruction = fixRequest({
    command: check.command,
    record: check,
    output,
    secrets,
    home: os.homedir(),
    // The output names the user's folder (the copy's paths were turned into it): its paths go as relative ones.
    roots: [folder?.uri.fsPath].filter((r): r is string => !!r),
  });
  const threadId = await threadIdOf(d.team, task);
  const settings = d.team.pipeline.settings();
  const sent = await sendOrOfferAttachment(d.ui, d.team.pipeline, { instruction, threadId }, settings);
  if (!sent) return undefined;
  const round = (task.fixOf?.round ?? 0) + 1;
  const title = vscode.l10n.t('Fix {0}: {1}', round, task.fixOf ? task.title.replace(/^[^:]*: /, '') : task.title);
  // Every round is listed under the task first checked, not under the round before it.
  await d.store.markFix(sent.id, { of: task.fixOf?.of ?? task.id, round }, task, title);
  d.log.info(`check ${task.id}: asked the team to fix (round ${round}) as task ${sent.id}`);
  return d.store.get(sent.id) ?? sent;
}

/** `check.onComplete`: a completed task's proposal checked by itself, only with a command the user set or confirmed. */
export async function checkOnComplete(d: CheckDeps, task: TrackedTask): Promise<CheckRecord | undefined> {
  if (!d.config.settings.check.onComplete || !d.config.trusted || task.status !== 'completed' || !task.namedFiles) return undefined;
  return checkProposal(d, task.id, { unasked: true });
}
