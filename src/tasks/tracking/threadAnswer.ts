/**
 * A task's answer read from its thread. Every completed task is saved to a thread that outlives the task's
 * one-hour state: a task whose state expired, or whose result was too large to read inline, can still be
 * read from there. The thread is the one the service named (`conversationId`), the thread a run was sent to,
 * or, when neither is known (the window was closed while the task ran), the newest thread that starts with
 * the task's prompt (the service lists only its newest 20). No vscode: the poller runs it in plain Node.
 */
import type { ObservedState, TrackedTask } from '../model';

/** The reads this needs (the API client has them). */
export interface ThreadReader {
  listThreads(page?: { limit?: number; offset?: number }, call?: { signal?: AbortSignal }): Promise<{
    conversations?: readonly { id: string | number; user_input?: string | null; timestamp?: string }[] | null;
  }>;
  listThreadMessages(
    threadId: string,
    call?: { signal?: AbortSignal },
  ): Promise<{
    messages?: readonly { role: string; content?: string | null; error?: string | null; is_agent_status?: boolean; sources?: unknown; tool_events?: unknown }[] | null;
    truncated?: boolean;
  }>;
}

/** A thread listed before the task was sent cannot be its own: allow for clocks that differ this much, ms. */
const CLOCK_SLACK_MS = 10 * 60_000;

/** The thread that holds the task's answer, or undefined when none is known or found. */
export async function threadOfTask(api: ThreadReader, task: TrackedTask, signal?: AbortSignal): Promise<string | undefined> {
  if (task.conversationId) return task.conversationId;
  if (task.threadId) return task.threadId;
  const prompt = task.prompt?.trim();
  if (!prompt) return undefined;
  const list = await api.listThreads({ limit: 20 }, { signal });
  const match = (list.conversations ?? []).find(t => {
    if ((t.user_input ?? '').trim() !== prompt) return false;
    const at = t.timestamp ? Date.parse(t.timestamp) : NaN;
    return Number.isNaN(at) || at >= task.submittedAt - CLOCK_SLACK_MS;
  });
  return match === undefined ? undefined : String(match.id);
}

/**
 * The task's answer in thread `threadId` as a completed state (with the message's tools and sources), or
 * undefined when the thread has none (yet). In a thread of several runs, the answer follows the user message
 * that is this task's prompt; in the thread the service made for the task, it is the last answer.
 * `truncated`: the service left out the newest messages to stay within its size limit.
 */
export async function answerInThread(
  api: ThreadReader,
  task: TrackedTask,
  threadId: string,
  signal?: AbortSignal,
): Promise<{ state?: ObservedState; truncated: boolean }> {
  const read = await api.listThreadMessages(threadId, { signal });
  const messages = (read.messages ?? []).filter(m => !m.is_agent_status);
  const prompt = task.prompt?.trim();
  let from = -1;
  if (prompt) {
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].role === 'user' && (messages[i].content ?? '').trim() === prompt) {
        from = i;
        break;
      }
    }
  }
  const isAnswer = (m: (typeof messages)[number]) => m.role === 'assistant' && !m.error && typeof m.content === 'string' && m.content.trim() !== '';
  let answer: (typeof messages)[number] | undefined;
  if (from >= 0) answer = messages.slice(from + 1).find(isAnswer);
  // A run in a thread of several runs is found by its prompt only; the task's own thread ends with its answer.
  else if (!task.threadId) answer = [...messages].reverse().find(isAnswer);
  const truncated = read.truncated === true;
  if (!answer) return { truncated };
  return {
    truncated,
    state: { status: 'completed', result: answer.content, conversationId: threadId, toolEvents: answer.tool_events, sources: answer.sources },
  };
}

/** Both steps: the task's thread, then its answer there. Undefined when either is not found. */
export async function recoverFromThread(api: ThreadReader, task: TrackedTask, signal?: AbortSignal): Promise<ObservedState | undefined> {
  const threadId = await threadOfTask(api, task, signal);
  if (!threadId) return undefined;
  return (await answerInThread(api, task, threadId, signal)).state;
}
