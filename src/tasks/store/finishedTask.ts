/**
 * A task's record once it ended (TaskStore.finish): its status, agents, model, the reason it ended in words (the
 * service's first, then the client's, then a default; a budget that ran out told as such) and the answer's shape.
 * Server text is bounded and redacted before it is kept.
 */
import { isBudgetExceeded } from '../../api/conditions';
import { budgetRanOut, endReason, serviceEndReason } from '../../vocabulary';
import { type ObservedState, type TrackedTask, agentsOf, endedAgents } from '../model';
import { answerShapeOf } from '../offers';
import { withDetails } from '../tracking/activity';

/** The model the service names in a state, if it does (server text: bounded and redacted). */
export function modelSaid(state: ObservedState, redact: (text: string) => string): string | undefined {
  const model = typeof state.modelId === 'string' ? state.modelId.trim() : '';
  return model && model.length <= 200 ? redact(model) : undefined;
}

/** `task` ended as `state` says, with `result` (already redacted) when it completed with one. */
export function finishedTask(task: TrackedTask, state: ObservedState, result: string | undefined, redact: (text: string) => string): TrackedTask {
  // The service's words first, then the client's reason (as data from the poller), then a default.
  const serviceSaid = state.error?.trim();
  // A budget that ran out is told as such, with the service's words inside.
  const said = (serviceSaid && isBudgetExceeded(serviceSaid) ? budgetRanOut(serviceSaid, task.budgetUsd) : serviceSaid) || (state.reason && endReason(state.reason));
  const next: TrackedTask = {
    ...withDetails(task, state),
    status: state.status,
    progress: state.status === 'completed' ? 1 : task.progress,
    agents: endedAgents(agentsOf(state) ?? task.agents, state.status),
    modelUsed: modelSaid(state, redact) ?? task.modelUsed,
    error: redact(said || serviceEndReason(state.status) || '') || undefined,
    resultChars: result?.length,
    ...answerShapeOf(task, result),
    finishedAt: Date.now(),
    updatedAt: Date.now(),
  };
  delete next.approval;
  if (!next.modelUsed) delete next.modelUsed;
  if (state.status === 'completed' && result !== undefined) delete next.error;
  if (state.status === 'completed' && result === undefined) next.error = redact(said || endReason({ kind: 'noResult' }));
  return next;
}
