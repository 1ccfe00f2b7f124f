/** Tasks: submit, read status and result, follow over the event stream. */
import { ApiResource, enc } from '../resource';
import { type EngineRunRequest, type SubmitTaskRequest, buildEngineRunBody, buildRunBody, checkId } from '../requests';
import {
  EngineRunSchema,
  type ExecutionTrace,
  ExecutionTraceSchema,
  type TaskCancel,
  TaskCancelSchema,
  type TaskResult,
  TaskResultSchema,
  type TaskState,
  TaskStateSchema,
  TaskSubmissionSchema,
} from '../schemas';
import { type StreamOptions, followTaskStream } from '../taskStream';
import type { CallOptions, RequestSpec } from '../transport';

export class Tasks extends ApiResource {
  /** POST /run. Never retried once it may have reached the server. */
  async submit(request: SubmitTaskRequest, call?: CallOptions) {
    const body = buildRunBody(this.form, request);
    return this.transport.json(
      this.api('POST', '/run', '/run', { body, idempotent: false, secrets: [request.gatewayKey] }),
      TaskSubmissionSchema,
      call,
    );
  }

  /**
   * POST {engine}/api/v1/run: the engine's own submission, which enforces a budget and honours role models and
   * a reasoning effort (current API form only). With an idempotency key it is the one submission retried after
   * it may have arrived, once: the service answers a repeated key with the task the first try made. Answers
   * in the Developer shape (`taskId`), with the thread and trace of a run that completed inline.
   */
  async runOnEngine(request: EngineRunRequest, call: CallOptions = {}) {
    this.requireCurrent('/api/v1/run');
    const body = buildEngineRunBody(request);
    const keyed = !!request.idempotencyKey;
    const run = await this.transport.json(
      { method: 'POST', url: `${this.core.addresses.streamUrl}/api/v1/run`, endpoint: 'POST /api/v1/run', body, idempotent: keyed },
      EngineRunSchema,
      { ...call, retry: call.retry === false || !keyed ? false : { maxRetries: 1, ...call.retry } },
    );
    const conversationId = run.conversation_id ?? undefined;
    return {
      taskId: run.task_id,
      status: run.status || 'processing',
      result: typeof run.result === 'string' ? run.result : undefined,
      conversationId: conversationId === undefined ? undefined : String(conversationId),
      traceId: run.trace_id ?? undefined,
    };
  }

  /**
   * GET {engine}/api/v1/tasks/{taskId}/trace: how the agents worked (goal, plan, steps, self-evaluation,
   * report). 401 a rejected key, 403 another user's task, 404 no trace (yet), 413 too large. Read it with
   * `readTrace()`. Current API form only, like the stream.
   */
  async trace(taskId: string, call?: CallOptions): Promise<ExecutionTrace> {
    const id = checkId(taskId, 'task id');
    this.requireCurrent('/api/v1/tasks/{taskId}/trace', 'GET');
    return this.transport.json(
      { method: 'GET', url: `${this.core.addresses.streamUrl}/api/v1/tasks/${enc(id)}/trace`, endpoint: 'GET /api/v1/tasks/{taskId}/trace', idempotent: true },
      ExecutionTraceSchema,
      call,
    );
  }

  /** GET /status/{taskId}. No text of the state holds a secret (the transport's redaction). */
  async status(taskId: string, call?: CallOptions): Promise<TaskState> {
    const id = checkId(taskId, 'task id');
    return this.transport.json(this.api('GET', `/status/${enc(id)}`, '/status/{taskId}'), TaskStateSchema, call);
  }

  /** GET /results/{taskId}: the result once completed, `{status}` only before. */
  async result(taskId: string, call?: CallOptions): Promise<TaskResult> {
    const id = checkId(taskId, 'task id');
    return this.transport.json(this.api('GET', `/results/${enc(id)}`, '/results/{taskId}'), TaskResultSchema, call);
  }

  /**
   * POST {engine}/api/v1/tasks/{taskId}/cancel: stops a task of the key's owner on the service (404 unknown,
   * 403 another user's). Not under the Developer base URL, like the stream; the current API form only.
   */
  async cancel(taskId: string, call?: CallOptions): Promise<TaskCancel> {
    const id = checkId(taskId, 'task id');
    this.requireCurrent('/api/v1/tasks/{taskId}/cancel');
    return this.transport.json(
      {
        method: 'POST',
        url: `${this.core.addresses.streamUrl}/api/v1/tasks/${enc(id)}/cancel`,
        endpoint: 'POST /api/v1/tasks/{taskId}/cancel',
        body: {},
        // Canceling twice is harmless: the second answer is the canceled state.
        idempotent: true,
      },
      TaskCancelSchema,
      call,
    );
  }

  /**
   * GET {engine}/api/v1/stream/{taskId}: follows a task over Server-Sent Events until a terminal state, which
   * it returns. Rejects with the typed error when the stream cannot be opened, is too large or too slow, or
   * ends before that.
   */
  async stream(taskId: string, options: StreamOptions = {}): Promise<TaskState> {
    const id = checkId(taskId, 'task id');
    const spec: RequestSpec = {
      method: 'GET',
      url: `${this.core.addresses.streamUrl}/api/v1/stream/${enc(id)}`,
      endpoint: 'GET /api/v1/stream/{taskId}',
      idempotent: true,
      headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' },
    };
    return followTaskStream(this.transport, spec, options);
  }
}
