/**
 * One check of a proposal, from plan to record (issue 42): the scratch plan (what the copy holds: the user's
 * unsaved texts, then the proposal as Review Changes… lands it by default), the scratch copy outside every
 * workspace folder, the proposal's run, and when it fails the run without the proposal in a fresh copy of its own
 * (so that nothing the proposal's run did reaches it) and the proposal's run once more (a test failing only with
 * the proposal must fail twice), then the verdict (`verdict.ts`) and the record the task keeps. Pure Node: the
 * command (commands/check.ts) asks, shows and hands over; everything it needs of the editor comes as data.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { failureMessages } from './failures';
import { BoundedOutput } from './output';
import { runCommand } from './runner';
import { type SandboxKind, type SandboxPolicy, sandboxEnvironment, sandboxed } from './sandbox';
import { BUILD_FOLDERS, DEPENDENCY_FOLDERS, type Scratch, buildScratch, listFiles, removeScratch } from './scratch';
import type { CheckStep } from './store';
import { readRun } from './summary';
import type { CheckRecord, CheckRun, CheckedChanges } from './types';
import { type Judged, judge, needsRerun } from './verdict';

/** A file of the proposal as the review planned it, with what Review Changes… lands of it by default. */
export interface ProposedFile {
  /** The plan's path (shown, recorded). */
  path: string;
  /** Relative POSIX path in the task's folder; undefined for a file of another workspace folder. */
  rel?: string;
  /** What lands by default (`landedByDefault` in review/defaults.ts): the text, or null; what is left out. */
  text: string | null;
  leftOut?: 'runsCode' | 'conflict';
  /** The file's text now ('' for a new file): what the copy holds without the proposal. */
  now: string;
  created: boolean;
}

/** What goes into the copy: the texts it starts with (without the proposal), and the proposal's on top. */
export interface ScratchPlan {
  /** Relative POSIX path → text (null: no such file): the unsaved editor texts and the proposal's files as they are now. */
  base: Map<string, string | null>;
  proposal: Map<string, string | null>;
  changes: CheckedChanges;
}

/** The plan of a copy: `unsaved` (relative path → the editor's text) first, then each proposed file. */
export function scratchPlan(files: readonly ProposedFile[], unsaved: ReadonlyMap<string, string>): ScratchPlan {
  const base = new Map<string, string | null>();
  const proposal = new Map<string, string | null>();
  const changes: CheckedChanges = { files: [], leftOut: [] };
  // Not under a linked dependency or a left-out build folder: the copy links the one and leaves out the other.
  for (const [rel, text] of unsaved) if (!rel.split('/').some(part => DEPENDENCY_FOLDERS.includes(part) || BUILD_FOLDERS.includes(part))) base.set(rel, text);
  for (const file of files) {
    if (file.rel === undefined) {
      changes.leftOut.push({ path: file.path, why: 'otherFolder' });
      continue;
    }
    if (file.leftOut) changes.leftOut.push({ path: file.path, why: file.leftOut });
    if (file.text === null) continue;
    if (!base.has(file.rel)) base.set(file.rel, file.created ? null : file.now);
    proposal.set(file.rel, file.text);
    changes.files.push(file.path);
  }
  return { base, proposal, changes };
}

/** A check that cannot be made, and why (the command words it). */
export class CheckRefused extends Error {
  constructor(readonly why: { kind: 'tempInFolder'; tmp: string; folder: string } | { kind: 'copy'; detail: string }) {
    super(why.kind === 'copy' ? why.detail : `The temp folder ${why.tmp} is inside the workspace folder ${why.folder}.`);
  }
}

export interface CheckSessionInput {
  command: string;
  /** The task's folder: copied, never written. */
  root: string;
  /** Every workspace folder on disk: the copy is made outside all of them. */
  workspaceFolders: readonly string[];
  /** `files.exclude` of the folder (the walk honours it where git does not list the files). */
  exclude: string[];
  plan: ScratchPlan;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Run without the proposal when its run fails (`check.compareWithBefore`). */
  compareWithBefore: boolean;
  /** Cuts the keys out of what the output says, before anything is kept. */
  redact: (text: string) => string;
  signal: AbortSignal;
  /** The OS sandbox each run goes into (sandbox.ts); undefined only where none can be had and the user chose to run without. */
  sandbox?: CheckSandbox;
  /** Where the check is now (the checks store shows it). */
  step: (step: CheckStep, command?: string) => void;
  log?: (line: string) => void;
}

/** The sandbox a session's runs go into: which, its binary, the places hidden, whether the network is allowed. */
export interface CheckSandbox {
  kind: Exclude<SandboxKind, 'none'>;
  binary: string;
  hidden: readonly string[];
  allowNetwork: boolean;
}

/** A finished check: its record, and its output as kept (every run, and the proposal's first run alone). */
export interface CheckOutcome {
  record: CheckRecord;
  output: { all: string; proposal: string };
}

/** The folder of `folders` that holds `tmp`, if any: a copy is never made inside a workspace folder. */
export function folderHolding(tmp: string, folders: readonly string[]): string | undefined {
  return folders.find(f => {
    const rel = path.relative(f, tmp);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

type Which = 'proposal' | 'before' | 'rerun';

/**
 * Runs the check; undefined when it was canceled before anything ran. Throws `CheckRefused` when the copy cannot
 * be made. Every copy it made is removed before it settles.
 */
export async function runCheckSession(input: CheckSessionInput): Promise<CheckOutcome | undefined> {
  const startedAt = Date.now();
  const tmp = os.tmpdir();
  const holder = folderHolding(tmp, input.workspaceFolders);
  if (holder) throw new CheckRefused({ kind: 'tempInFolder', tmp, folder: holder });
  const copies: Scratch[] = [];
  const outputs: string[] = [];
  try {
    input.step('copying');
    const listed = await listing(input);
    if (!listed) return undefined;
    const proposed = await copyOf(input, listed, new Map([...input.plan.base, ...input.plan.proposal]));
    if (!proposed) return undefined;
    copies.push(proposed);
    const run = (which: Which, scratch: Scratch) => runOnce(input, which, scratch, outputs);
    const after = await run('proposal', proposed);
    let before: CheckRun | undefined;
    if (after.end === 'failed' && input.compareWithBefore && !input.signal.aborted) {
      // A fresh copy without the proposal: nothing the proposal's run wrote or planted is in it.
      const unchanged = await copyOf(input, listed, input.plan.base);
      if (unchanged) {
        copies.push(unchanged);
        before = await run('before', unchanged);
      }
    }
    const rerun = after.end === 'failed' && !input.signal.aborted && needsRerun(before, after) ? await run('rerun', proposed) : undefined;
    const judged: Judged = input.signal.aborted ? { newlyFailing: [], verdict: 'canceled' } : judge(before, after, rerun);
    const sandbox = input.sandbox ? { kind: input.sandbox.kind, network: input.sandbox.allowNetwork } : undefined;
    const record: CheckRecord = { id: newCheckId(), command: input.command, startedAt, after, before, rerun, changes: input.plan.changes, sandbox, ...judged };
    input.log?.(`${record.verdict} (${after.summary}) in ${Math.round(after.durationMs)} ms${before ? `; before: ${before.end}` : ''}${rerun ? `; once more: ${rerun.end}` : ''}`);
    return { record, output: { all: outputs.join('\n'), proposal: outputs[0] ?? '' } };
  } finally {
    for (const scratch of copies) await removeScratch(scratch).catch(e => input.log?.(`the scratch copy ${scratch.base} could not be removed: ${String(e)}`));
  }
}

async function listing(input: CheckSessionInput): Promise<string[] | undefined> {
  try {
    const listed = await listFiles(input.root, { exclude: input.exclude, signal: input.signal });
    input.log?.(`listed ${listed.files.length} files (${listed.via})`);
    return listed.files;
  } catch (e) {
    if (input.signal.aborted) return undefined;
    throw new CheckRefused({ kind: 'copy', detail: (e as Error).message });
  }
}

async function copyOf(input: CheckSessionInput, files: readonly string[], overlay: ReadonlyMap<string, string | null>): Promise<Scratch | undefined> {
  try {
    const scratch = await buildScratch({ root: input.root, files, overlay, signal: input.signal });
    input.log?.(`copied ${scratch.copied} files, linked ${scratch.linked.length} dependency folders, in ${scratch.ms.toFixed(0)} ms`);
    return scratch;
  } catch (e) {
    if (input.signal.aborted) return undefined;
    throw new CheckRefused({ kind: 'copy', detail: (e as Error).message });
  }
}

const HEADINGS: Record<Which, string> = { proposal: 'on the proposal', before: 'without the proposal', rerun: 'on the proposal, once more' };

/** One run of the command in `scratch`: its output kept bounded, redacted, and naming the user's folder, not the copy. */
async function runOnce(input: CheckSessionInput, which: Which, scratch: Scratch, outputs: string[]): Promise<CheckRun> {
  input.step(which, input.command);
  const output = new BoundedOutput();
  const jail = input.sandbox && (await sandboxOf(input.sandbox, scratch, input.command, input.root));
  const env = jail ? sandboxEnvironment(input.env, jail.tmp) : input.env;
  const ran = await runCommand({ command: input.command, cwd: scratch.dir, env, timeoutMs: input.timeoutMs, signal: input.signal, onOutput: chunk => output.push(chunk), spawnAs: jail?.spawnAs });
  const copyPaths = [...new Set([await fs.realpath(scratch.dir).catch(() => scratch.dir), scratch.dir])];
  // The copy's paths read as the user's own folder's: what the output names is where the user would look.
  const asUsers = (t: string) => copyPaths.reduce((acc, p) => acc.split(p).join(input.root), input.redact(t));
  const text = asUsers(output.text());
  const read = readRun(text);
  outputs.push(`## ${input.command} ${HEADINGS[which]} (${ran.end}${ran.exitCode !== undefined ? `, exit ${ran.exitCode}` : ''}, ${Math.round(ran.durationMs)} ms)\n\n${text}\n`);
  // The shell's "command not found" (127; 9009 from cmd.exe) is a check that never ran, not a failing one.
  const notFound = ran.end === 'failed' && (ran.exitCode === 127 || (process.platform === 'win32' && ran.exitCode === 9009));
  return {
    end: notFound ? 'notStarted' : ran.end,
    error: ran.error,
    ...(notFound ? { commandNotFound: true } : {}),
    exitCode: ran.exitCode,
    durationMs: ran.durationMs,
    summary: read.summary,
    failing: read.failing,
    ...(read.failing.length ? { failures: failureMessages(text, read.failing) } : {}),
    tail: asUsers(output.tail()),
    outputBytes: output.bytes,
  };
}

/** A run's sandbox: writes to the copy's temp folder only (the copy, and a private temp folder in it). */
async function sandboxOf(sandbox: CheckSandbox, scratch: Scratch, command: string, root: string): Promise<{ tmp: string; spawnAs: { file: string; args: string[] } }> {
  const tmp = path.join(scratch.base, 'tmp');
  await fs.mkdir(tmp, { recursive: true });
  const policy: SandboxPolicy = { cwd: scratch.dir, writable: scratch.base, tmp, hidden: sandbox.hidden, readable: [root, os.homedir()], allowNetwork: sandbox.allowNetwork };
  return { tmp, spawnAs: sandboxed(sandbox.kind, sandbox.binary, policy, command) };
}

function newCheckId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
