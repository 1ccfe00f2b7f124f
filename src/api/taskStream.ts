/**
 * Follows one task over Server-Sent Events until a terminal state. The stream is bounded: each line and
 * event by size, the silence between events (a keep-alive comment counts, loose bytes do not) and the whole
 * stream by time, and an abort ends it at once.
 */
import type { Readable } from 'node:stream';
import { BODY_LIMITS, BODY_TIMEOUTS } from './bodies';
import { AbortedError, ApiError, ConnectionError, ResponseFormatError, StreamEndedError, TimeoutError, UnsupportedError } from './errors';
import { type TaskState, TaskStateSchema, TaskStreamEventSchema, describeMismatch } from './schemas';
import { redactJson } from './redact';
import { SseParser } from './sse';
import { isTerminalStatus } from './status';
import type { CallOptions, RequestSpec, Transport } from './transport';

export interface StreamOptions extends CallOptions {
  /** Called with every state the service pushes, the last one terminal. */
  onState?: (state: TaskState) => void;
  /** Give up when no event and no keep-alive arrives for this long, ms. Default 60 s. */
  idleTimeoutMs?: number;
  /** Give up when the stream has not ended after this long in all, ms. Default 65 min. */
  totalTimeoutMs?: number;
}

/** Opens `spec` as an event stream and resolves with the first terminal state. */
export async function followTaskStream(
  transport: Transport,
  spec: RequestSpec,
  options: StreamOptions,
): Promise<TaskState> {
  const endpoint = spec.endpoint;
  // Every event is cleaned of the secrets as it is parsed (the same redaction as a JSON body's, transport.ts).
  const secrets = await transport.secretsFor(spec);
  const { stream, headers } = await transport.stream(spec, { retry: false, ...options });
  if (!String(headers['content-type'] ?? '').includes('text/event-stream')) {
    stream.destroy();
    throw new UnsupportedError(`${endpoint} did not answer with an event stream.`, { endpoint });
  }
  if (options.signal?.aborted) {
    stream.destroy();
    throw new AbortedError('The stream was canceled', { endpoint });
  }
  return new Promise<TaskState>((resolve, reject) => {
    let idle: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (error: ApiError | undefined, state?: TaskState) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(total);
      options.signal?.removeEventListener('abort', onAbort);
      stream.off('data', onData);
      stream.destroy();
      if (error) reject(error);
      else resolve(state!);
    };
    const idleMs = options.idleTimeoutMs ?? BODY_TIMEOUTS.streamIdleMs;
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => settle(new TimeoutError('The task stream went quiet', { endpoint })), idleMs);
    };
    const totalMs = options.totalTimeoutMs ?? BODY_TIMEOUTS.streamTotalMs;
    const total = setTimeout(() => settle(new TimeoutError(`The task stream did not end within ${totalMs} ms`, { endpoint })), totalMs);
    const onAbort = () => settle(new AbortedError('The stream was canceled', { endpoint }));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const parser = new SseParser(
      {
        onComment: alive,
        onEvent: data => {
          alive();
          const event = readEvent(data, endpoint, secrets);
          if (event.kind === 'ignore') return;
          if (event.kind === 'ended') {
            // Failed, canceled, not found or unauthorized: the event does not say which, /status does.
            settle(new StreamEndedError(`The task stream ended: ${event.error}`, { endpoint }));
            return;
          }
          const state = event.state;
          options.onState?.(state);
          if (isTerminalStatus(state.status)) settle(undefined, state);
        },
      },
      BODY_LIMITS.eventBytes,
      endpoint,
    );
    const onData = (chunk: Buffer) => {
      if (settled) return;
      try {
        parser.push(chunk);
      } catch (e) {
        settle(e instanceof ApiError ? e : new ResponseFormatError(`Unexpected event from ${endpoint}: ${(e as Error).message}`, { endpoint }));
      }
    };
    (stream as Readable).on('data', onData);
    stream.once('end', () => {
      parser.end();
      settle(new ApiError('The task stream ended before the task finished.', { endpoint }));
    });
    stream.once('error', e => {
      settle(
        options.signal?.aborted
          ? new AbortedError('The stream was canceled', { endpoint })
          : new ConnectionError('The task stream was interrupted', false, { endpoint, cause: e }),
      );
    });
    stream.once('close', () => settle(new ConnectionError('The task stream was interrupted', false, { endpoint })));
    alive();
  });
}

type ReadEvent = { kind: 'state'; state: TaskState } | { kind: 'ended'; error: string } | { kind: 'ignore' };

/**
 * One `data:` payload as a task state. The live service sends typed events (`start`, `progress`, `pulse`,
 * `complete`, `error`); earlier servers and the emulator's compatibility switch send whole TaskStates.
 * Unknown event types are ignored; a payload that is neither is a ResponseFormatError.
 */
function readEvent(data: string, endpoint: string, secrets: readonly string[]): ReadEvent {
  let json: unknown;
  try {
    json = redactJson(JSON.parse(data), secrets);
  } catch {
    throw new ResponseFormatError(`Unexpected event from ${endpoint}: not JSON.`, { endpoint });
  }
  const typed = TaskStreamEventSchema.safeParse(json);
  if (typed.success && typeof (json as { status?: unknown }).status !== 'string') {
    const e = typed.data;
    switch (e.type) {
      case 'start':
        return { kind: 'state', state: e.model_id ? { status: 'processing', modelId: e.model_id } : { status: 'processing' } };
      case 'progress':
        return {
          kind: 'state',
          state: {
            status: e.pending_approval ? 'awaiting_approval' : 'processing',
            agentStatuses: e.agent_statuses ?? undefined,
            pendingApproval: e.pending_approval ?? undefined,
            toolEvents: e.tool_usage ?? undefined,
            budgetUsage: e.budget_usage ?? undefined,
          },
        };
      case 'complete':
        return {
          kind: 'state',
          state: {
            status: 'completed',
            result: e.message ?? null,
            agentStatuses: e.agent_statuses ?? undefined,
            toolEvents: e.tool_usage ?? undefined,
            conversationId: e.conversation_id ?? undefined,
            traceId: e.trace_id ?? undefined,
          },
        };
      case 'error':
        return { kind: 'ended', error: e.error ?? 'no reason given' };
      default:
        return { kind: 'ignore' }; // pulse, and whatever the service adds later
    }
  }
  const parsed = TaskStateSchema.safeParse(json);
  if (!parsed.success) throw new ResponseFormatError(`Unexpected event from ${endpoint}: ${describeMismatch(parsed.error)}`, { endpoint });
  return { kind: 'state', state: parsed.data };
}
