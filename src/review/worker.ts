/**
 * The review planner's thread (a Node worker running `dist/review.js`, the review part itself, in the package). Parsing and planning an
 * answer is bounded (linear passes and one work budget) but a 15 MB answer still takes longer than the 50 ms
 * the extension host may be blocked: it runs here, and the host only waits (see `offThread.ts`).
 *
 * Messages: the host starts it with `{ answerLength, sourcePath, folders, home, caseless, bundle }` and sends
 * the answer in parts (`{ type: 'answer' }`); it answers `{ type: 'paths' }` (every path the plan will ask
 * about, and each with the folder its first segment named), gets the files' texts in slices (`{ type: 'filePart' }`)
 * and `{ type: 'files' }` (their states and sent texts, the paths past the review's read budget; with several
 * folders, where each one goes), answers
 * `{ type: 'plan' }` and is terminated. Any failure is `{ type: 'error', message }`.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseAnswer, parseAnswerBlock } from './answer';
import { type NamedTarget, type Placement, placeProposals, targetsOf } from './folders';
import { type FileState, type SentSource, buildPlan } from './plan';
import type { WorkspaceFolderName } from './readerTypes';
import { plain, skipReason } from './words';

export interface WorkerStart {
  answer: string;
  /** Apply… on one block: plan that block alone. */
  block?: number;
  sourcePath?: string;
  /**
   * The workspace folders (more than one: multi-root) and the one the task was sent from (`sourcePath` is in
   * it). Named paths are then placed by the host (`targets` → `placements`, see folders.ts).
   */
  folders?: WorkspaceFolderName[];
  home?: string;
  /** Paths differing only in case name one file. */
  caseless: boolean;
  /** The host's l10n bundle (`vscode.l10n.bundle`): templates → translations. */
  bundle?: Record<string, string>;
  /** Options for tests and the benchmark. */
  workBudget?: number;
  maxHunkHeaders?: number;
  newFileEol?: '\n' | '\r\n';
}

/** What the thread starts with: the start without the answer, which follows in parts (`offThread.ts`). */
export type WorkerHello = Omit<WorkerStart, 'answer'> & { answerLength: number };

export interface WorkerAnswerPart {
  type: 'answer';
  part: string;
}

/** A slice of a file's text (its state now, or the text kept when it was sent), in order; `files` follows. */
export interface WorkerFilePart {
  type: 'filePart';
  kind: 'state' | 'sent';
  path: string;
  part: string;
}

/** The files' states and sent texts; a text handed over in `filePart` slices is '' here. */
export interface WorkerFiles {
  type: 'files';
  states: [string, FileState][];
  sent: [string, string][];
  source?: SentSource;
  /** With several folders: where each target goes (aligned with the `paths` message's `targets`), keys of `states`. */
  placements?: Placement[];
  /** Paths past the review's read budget: planned as too large to review here. */
  overBudget?: string[];
  /** The budget, MB (for the sentence). */
  readMB?: number;
}

export type WorkerMessage =
  | { type: 'paths'; paths: string[]; targets: NamedTarget[] }
  | { type: 'plan'; plan: import('./plan').ReviewPlan }
  | { type: 'error'; message: string };

function run(start: WorkerStart, port: NonNullable<typeof parentPort>): void {
  const key = (p: string) => (start.caseless ? p.toLowerCase() : p);
  const translate = (message: string, ...args: (string | number)[]) => plain(start.bundle?.[message] ?? message, ...args);
  const options = { sourcePath: start.sourcePath, sourceFolder: start.home, folders: start.folders };
  let parsed = start.block === undefined ? parseAnswer(start.answer, options) : parseAnswerBlock(start.answer, start.block, options);
  const paths = new Set(parsed.proposals.map(p => p.path));
  if (start.sourcePath !== undefined) paths.add(start.sourcePath);
  const targets = targetsOf(parsed, start.sourcePath !== undefined ? { folder: start.home, path: start.sourcePath } : undefined);
  port.postMessage({ type: 'paths', paths: [...paths], targets } satisfies WorkerMessage);
  // The texts come in slices (offThread.ts), then the states.
  const parts = new Map<string, string[]>();
  const textOf = (kind: WorkerFilePart['kind'], path: string, text: string) => parts.get(`${kind}\0${path}`)?.join('') ?? text;
  const onMessage = (m: WorkerFilePart | WorkerFiles) => {
    if (m.type === 'filePart') {
      const id = `${m.kind}\0${m.path}`;
      const list = parts.get(id);
      if (list) list.push(m.part);
      else parts.set(id, [m.part]);
      return;
    }
    port.off('message', onMessage);
    planWith(m);
  };
  port.on('message', onMessage);
  const planWith = (files: WorkerFiles) => {
    try {
      if (files.placements) parsed = placeProposals(parsed, targets, files.placements);
      const states = new Map(files.states.map(([p, s]) => [key(p), s.kind === 'file' ? { kind: 'file' as const, text: textOf('state', p, s.text) } : s]));
      const sent = new Map(files.sent.map(([p, s]) => [key(p), textOf('sent', p, s)]));
      parts.clear();
      const overBudget = new Set((files.overBudget ?? []).map(key));
      const tooLarge: FileState = { kind: 'refused', reason: skipReason(translate, 'tooLargeToReview', files.readMB ?? 0) };
      const plan = buildPlan(
        parsed,
        {
          current: p => (overBudget.has(key(p)) ? tooLarge : (states.get(key(p)) ?? { kind: 'refused', reason: translate('not applied: the file cannot be read') })),
          sent: p => sent.get(key(p)),
        },
        {
          source: files.source,
          translate,
          newFileEol: start.newFileEol,
          caseInsensitivePaths: start.caseless,
          workBudget: start.workBudget,
          maxHunkHeaders: start.maxHunkHeaders,
        },
      );
      port.postMessage({ type: 'plan', plan } satisfies WorkerMessage);
    } catch (e) {
      port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    }
  };
}

/** Gathers the answer's parts, then plans. */
function receive(hello: WorkerHello, port: NonNullable<typeof parentPort>): void {
  const parts: string[] = [];
  let length = 0;
  const start = () => {
    const { answerLength: _, ...rest } = hello;
    try {
      run({ ...rest, answer: parts.join('') }, port);
    } catch (e) {
      port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    }
  };
  if (hello.answerLength === 0) return start();
  const onPart = (m: WorkerAnswerPart) => {
    parts.push(m.part);
    length += m.part.length;
    if (length < hello.answerLength) return;
    port.off('message', onPart);
    start();
  };
  port.on('message', onPart);
}

if (!isMainThread && parentPort) receive(workerData as WorkerHello, parentPort);
