/** Threads (current form only): list, create, read, run a task in a thread's context, list its messages. */
import { ApiResource, enc } from '../resource';
import { type ThreadRunRequest, buildThreadRunBody, checkId } from '../requests';
import { TaskSubmissionSchema, ThreadListSchema, ThreadMessagesSchema, ThreadSchema } from '../schemas';
import type { CallOptions } from '../transport';

export interface PageRequest {
  limit?: number;
  offset?: number;
}

export class Threads extends ApiResource {
  /** GET /threads. The live service ignores `limit` and `offset` and answers the newest 20. */
  async list(page: PageRequest = {}, call?: CallOptions) {
    return this.transport.json(
      this.current('GET', '/threads', '/threads', { query: { limit: page.limit, offset: page.offset } }),
      ThreadListSchema,
      call,
    );
  }

  async create(request: { title?: string } = {}, call?: CallOptions) {
    const body = request.title?.trim() ? { title: request.title.trim() } : {};
    return this.transport.json(this.current('POST', '/threads', '/threads', { body, idempotent: false }), ThreadSchema, call);
  }

  async get(threadId: string | number, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    return this.transport.json(this.current('GET', `/threads/${enc(id)}`, '/threads/{threadId}'), ThreadSchema, call);
  }

  async messages(threadId: string | number, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    return this.transport.json(
      this.current('GET', `/threads/${enc(id)}/messages`, '/threads/{threadId}/messages'),
      ThreadMessagesSchema,
      call,
    );
  }

  /** POST /threads/{id}/runs: a task in the thread's context. Never retried once it may have reached the server. */
  async run(threadId: string | number, request: ThreadRunRequest, call?: CallOptions) {
    const id = checkId(threadId, 'thread id');
    const body = buildThreadRunBody(request);
    return this.transport.json(
      this.current('POST', `/threads/${enc(id)}/runs`, '/threads/{threadId}/runs', { body, idempotent: false }),
      TaskSubmissionSchema,
      call,
    );
  }
}
