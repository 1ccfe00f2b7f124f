/**
 * The two reads a poll may need besides the stream: a task's state, and its result when the state said
 * "completed" without one. Shared by the poll loop and the stream follower.
 */
import { type ObservedState, isFinished } from '../model';
import { type PollStats, type PollerApi, type PollerDeps, kindOf } from './pollTypes';

/** /status; when the state is too large to inline (413), /results says whether the task is done (and has the result). */
export async function readState(api: PollerApi, taskId: string, signal: AbortSignal, stats: PollStats): Promise<ObservedState> {
  stats.statusRequests++;
  try {
    return await api.getTaskStatus(taskId, { signal, retry: false });
  } catch (e) {
    if (kindOf(e) !== 'tooLarge') throw e;
    stats.resultRequests++;
    const read = await api.getTaskResult(taskId, { signal, retry: false });
    return { status: read.status ?? 'processing', result: read.result, error: read.error };
  }
}

/**
 * The terminal state to record: a completion without the result inline reads /results; other terminal
 * states carry their reason. The poller has no words: a reason of its own is data (`reason`), worded by the store. Undefined when /results says the task is not finished after all (a replica
 * that has not seen the completion yet): it stays tracked and is asked about again.
 */
export async function finalState(api: () => PollerApi, taskId: string, state: ObservedState, signal: AbortSignal, stats: PollStats): Promise<ObservedState | undefined> {
  if (state.status !== 'completed' || (state.result !== undefined && state.result !== null)) return state;
  stats.resultRequests++;
  try {
    const read = await api().getTaskResult(taskId, { signal, retry: false });
    if (read.status !== undefined && !isFinished({ status: read.status })) return undefined;
    return { ...state, result: read.result ?? undefined, reason: read.result ? undefined : { kind: 'noResult' } };
  } catch (e) {
    if (kindOf(e) !== 'tooLarge') throw e;
    return { ...state, reason: { kind: 'resultTooLarge' } };
  }
}

/** Records a terminal state; false when /results says the task is not finished after all (it is asked about again). */
export async function completeTask(deps: Pick<PollerDeps, 'api' | 'store'>, taskId: string, state: ObservedState, signal: AbortSignal, stats: PollStats): Promise<boolean> {
  const final = await finalState(deps.api, taskId, state, signal, stats);
  if (!final) return false;
  await deps.store.finish(taskId, final);
  return true;
}
