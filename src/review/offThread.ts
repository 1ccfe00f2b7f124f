/**
 * Plans a review on the planner's thread (`worker.ts`), so no answer can block the extension host: the host
 * only posts the answer and the files' texts and waits. Cancelling terminates the thread at once, wherever it
 * is. No vscode here: the benchmark measures the host's longest stall around this very call.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { NamedTarget, Placement } from './folders';
import type { FileState, ReviewPlan, SentSource } from './plan';
import type { WorkerAnswerPart, WorkerFilePart, WorkerFiles, WorkerHello, WorkerMessage, WorkerStart } from './worker';

/** Characters of the answer, or of a file's text, per message: copying 256 K characters takes about a millisecond. */
const ANSWER_SLICE = 256 * 1024;

/**
 * What one review reads of the workspace at most, all files together (issue 35): an answer naming a hundred 7 MB
 * files reads 32 MB of them, not 700 MB; the files past it are listed as too large to review here.
 */
export const REVIEW_READ_BYTES = 32 * 1024 * 1024;

/** The bytes one review may still read: the host's reader takes a file's size before it reads the file. */
export class ReadBudget {
  private used = 0;
  constructor(readonly limitBytes: number = REVIEW_READ_BYTES) {}

  /** Whether `bytes` more fit; they are counted when they do. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limitBytes) return false;
    this.used += bytes;
    return true;
  }

  /** A file of `bytes` read only when it fits the budget (its size known first): undefined, unread, when it does not. */
  async read<T>(bytes: number, read: () => PromiseLike<T>): Promise<T | undefined> {
    return this.take(bytes) ? read() : undefined;
  }
}

/** What the host answers for the paths the answer names (it reads the files meanwhile, asynchronously). */
export interface PlanFiles {
  states: Map<string, FileState>;
  sent: Map<string, string>;
  source?: SentSource;
  /** With several folders: where each target goes (aligned with `targets`); `states` and `sent` are keyed by these paths. */
  placements?: Placement[];
  /** Paths not read because the review's budget was spent (`ReadBudget`): planned as too large to review here. */
  overBudget?: string[];
}

export class PlanCancelled extends Error {
  constructor() {
    super('The review was cancelled.');
    this.name = 'PlanCancelled';
  }
}

/** The worker's script: the package's review part (`review.js`, which holds the worker), or `worker.js` beside this file (tests). */
export function workerScript(dir: string): string {
  const candidates = [path.join(dir, 'worker.js'), path.join(dir, '..', 'review', 'worker.js'), path.join(dir, 'review.js')];
  const found = candidates.find(f => fs.existsSync(f));
  if (!found) throw new Error(`the review planner is missing (looked for ${candidates.join(', ')})`);
  return found;
}

export function planOffThread(
  script: string,
  start: WorkerStart,
  /** `paths`: as the answer names them; `targets`: the same with the folder a path's first segment named. */
  files: (paths: string[], targets: NamedTarget[], budget: ReadBudget) => Promise<PlanFiles>,
  signal?: AbortSignal,
  /** Bytes of the workspace this review may read (tests and the benchmark set less). */
  readBytes: number = REVIEW_READ_BYTES,
): Promise<ReviewPlan> {
  return new Promise<ReviewPlan>((resolve, reject) => {
    if (signal?.aborted) return reject(new PlanCancelled());
    // The answer goes over in slices, one per turn of the host's loop: handing a 15 MB answer over at once
    // (as workerData or one message) copies it in one step that blocks the host for 100 ms and more.
    const { answer, ...rest } = start;
    const worker = new Worker(script, { workerData: { ...rest, answerLength: answer.length } satisfies WorkerHello });
    let settled = false;
    void (async () => {
      for (let at = 0; at < answer.length && !settled; at += ANSWER_SLICE) {
        worker.postMessage({ type: 'answer', part: answer.slice(at, at + ANSWER_SLICE) } satisfies WorkerAnswerPart);
        await new Promise<void>(next => setImmediate(next));
      }
    })();
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      f();
    };
    const onAbort = () => finish(() => reject(new PlanCancelled()));
    signal?.addEventListener('abort', onAbort);
    worker.on('error', e => finish(() => reject(e)));
    worker.on('exit', code => finish(() => reject(new Error(`the review planner stopped (exit ${code})`))));
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'error') finish(() => reject(new Error(m.message)));
      else if (m.type === 'plan') finish(() => resolve(m.plan));
      else if (m.type === 'paths') {
        files(m.paths, m.targets, new ReadBudget(readBytes)).then(
          f => handOver(f, readBytes, worker, () => settled),
          e => finish(() => reject(e)),
        ).catch(e => finish(() => reject(e)));
      }
    });
  });
}

/**
 * Hands the files' texts to the planner's thread in slices, one per turn of the host's loop (as the answer goes),
 * then the states without their texts: one message of every text at once copied them in one step that blocked
 * the host for a second and more. Bounded whatever the reader did: texts past `readBytes` (open documents, kept
 * sent texts) are not handed over, and their paths are planned as too large to review here.
 */
async function handOver(f: PlanFiles, readBytes: number, worker: Worker, settled: () => boolean): Promise<void> {
  const overBudget = new Set(f.overBudget ?? []);
  let handed = 0;
  const fits = (chars: number) => {
    if (handed + chars > readBytes) return false;
    handed += chars;
    return true;
  };
  const send = async (kind: WorkerFilePart['kind'], path: string, text: string) => {
    for (let at = 0; at < text.length && !settled(); at += ANSWER_SLICE) {
      worker.postMessage({ type: 'filePart', kind, path, part: text.slice(at, at + ANSWER_SLICE) } satisfies WorkerFilePart);
      await new Promise<void>(next => setImmediate(next));
    }
  };
  const states: [string, FileState][] = [];
  const sent: [string, string][] = [];
  for (const [path, state] of f.states) {
    if (settled()) return;
    const sentText = f.sent.get(path);
    if (state.kind === 'file') {
      if (overBudget.has(path) || !fits(state.text.length + (sentText?.length ?? 0))) {
        overBudget.add(path);
        continue;
      }
      await send('state', path, state.text);
      states.push([path, { kind: 'file', text: '' }]);
    } else {
      states.push([path, state]);
      if (sentText !== undefined && !fits(sentText.length)) continue;
    }
    if (sentText !== undefined) {
      await send('sent', path, sentText);
      sent.push([path, '']);
    }
  }
  for (const [path, text] of f.sent) {
    if (f.states.has(path) || overBudget.has(path) || !fits(text.length)) continue;
    await send('sent', path, text);
    sent.push([path, '']);
  }
  if (settled()) return;
  const message: WorkerFiles = { type: 'files', states, sent, source: f.source, placements: f.placements, overBudget: [...overBudget], readMB: Math.round(readBytes / 1024 / 1024) };
  worker.postMessage(message);
}
