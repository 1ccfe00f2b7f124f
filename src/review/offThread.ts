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
import type { WorkerAnswerPart, WorkerFiles, WorkerHello, WorkerMessage, WorkerStart } from './worker';

/** Characters of the answer per message: copying 256 K characters takes about a millisecond. */
const ANSWER_SLICE = 256 * 1024;

/** What the host answers for the paths the answer names (it reads the files meanwhile, asynchronously). */
export interface PlanFiles {
  states: Map<string, FileState>;
  sent: Map<string, string>;
  source?: SentSource;
  /** With several folders: where each target goes (aligned with `targets`); `states` and `sent` are keyed by these paths. */
  placements?: Placement[];
}

export class PlanCancelled extends Error {
  constructor() {
    super('The review was cancelled.');
    this.name = 'PlanCancelled';
  }
}

/** The worker's script: the package's `reviewWorker.js` beside the bundle, or `worker.js` beside this file (tests). */
export function workerScript(dir: string): string {
  const candidates = [path.join(dir, 'reviewWorker.js'), path.join(dir, 'worker.js'), path.join(dir, '..', 'review', 'worker.js')];
  const found = candidates.find(f => fs.existsSync(f));
  if (!found) throw new Error(`the review planner is missing (looked for ${candidates.join(', ')})`);
  return found;
}

export function planOffThread(
  script: string,
  start: WorkerStart,
  /** `paths`: as the answer names them; `targets`: the same with the folder a path's first segment named. */
  files: (paths: string[], targets: NamedTarget[]) => Promise<PlanFiles>,
  signal?: AbortSignal,
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
        files(m.paths, m.targets).then(
          f => {
            if (settled) return;
            const message: WorkerFiles = { type: 'files', states: [...f.states], sent: [...f.sent], source: f.source, placements: f.placements };
            worker.postMessage(message);
          },
          e => finish(() => reject(e)),
        );
      }
    });
  });
}
