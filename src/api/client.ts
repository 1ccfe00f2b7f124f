/**
 * The Developer API client: one thin core (transport + addresses) under one object per resource. The
 * one-method-per-endpoint surface below delegates to the resources, so callers keep calling
 * `client.getTaskStatus(id)` while new code may use `client.tasks.status(id)`. Pure Node: never imports
 * vscode, so it runs in unit tests, benchmarks and the extension host alike.
 */
import { type AddressSettings, type ApiAddresses, resolveAddresses } from './addresses';
import type { UploadOptions, UploadSource } from './multipart';
import type { ApiCore } from './resource';
import { Account } from './resources/account';
import { type AttachmentUploadOptions, Attachments } from './resources/attachments';
import { type Download, type DownloadOptions, Files } from './resources/files';
import { Models } from './resources/models';
import { Tasks } from './resources/tasks';
import { type PageRequest, Threads } from './resources/threads';
import type { EngineRunRequest, SubmitTaskRequest, ThreadRunRequest } from './requests';
import type { TaskState } from './schemas';
import type { StreamOptions } from './taskStream';
import { type CallOptions, Transport, type TransportOptions } from './transport';

export interface ClientOptions extends AddressSettings, TransportOptions {}

export class DeveloperApiClient implements ApiCore {
  readonly addresses: ApiAddresses;
  readonly transport: Transport;
  readonly tasks: Tasks;
  readonly threads: Threads;
  readonly files: Files;
  readonly account: Account;
  readonly models: Models;
  readonly attachments: Attachments;

  constructor(options: ClientOptions) {
    this.addresses = resolveAddresses(options);
    const { baseUrl, platformUrl, streamUrl } = this.addresses;
    this.transport = new Transport(options, new Set([baseUrl, platformUrl, streamUrl].map(url => new URL(url).origin)));
    this.tasks = new Tasks(this);
    this.threads = new Threads(this);
    this.files = new Files(this);
    this.account = new Account(this);
    this.models = new Models(this);
    this.attachments = new Attachments(this);
  }

  get form() {
    return this.addresses.form;
  }

  /** POST /run. Never retried once it may have reached the server. */
  submitTask(request: SubmitTaskRequest, call?: CallOptions) {
    return this.tasks.submit(request, call);
  }
  /** GET /status/{taskId}. */
  getTaskStatus(taskId: string, call?: CallOptions) {
    return this.tasks.status(taskId, call);
  }
  /** GET /results/{taskId}: the result once completed, `{status}` only before. */
  getTaskResult(taskId: string, call?: CallOptions) {
    return this.tasks.result(taskId, call);
  }
  /** POST {engine}/api/v1/tasks/{taskId}/cancel: cancels the task on the service. */
  cancelTask(taskId: string, call?: CallOptions) {
    return this.tasks.cancel(taskId, call);
  }
  /** POST {engine}/api/v1/run: budget, role models, reasoning effort, idempotency key (current form only). */
  runOnEngine(request: EngineRunRequest, call?: CallOptions) {
    return this.tasks.runOnEngine(request, call);
  }
  /** GET {engine}/api/v1/tasks/{taskId}/trace: how the agents worked. */
  getTaskTrace(taskId: string, call?: CallOptions) {
    return this.tasks.trace(taskId, call);
  }
  /** Follows a task over Server-Sent Events until a terminal state, which it returns. */
  streamTask(taskId: string, options?: StreamOptions): Promise<TaskState> {
    return this.tasks.stream(taskId, options);
  }

  listThreads(page?: PageRequest, call?: CallOptions) {
    return this.threads.list(page, call);
  }
  createThread(request?: { title?: string }, call?: CallOptions) {
    return this.threads.create(request, call);
  }
  getThread(threadId: string | number, call?: CallOptions) {
    return this.threads.get(threadId, call);
  }
  listThreadMessages(threadId: string | number, call?: CallOptions) {
    return this.threads.messages(threadId, call);
  }
  /** POST /threads/{id}/runs. Never retried once it may have reached the server. */
  runInThread(threadId: string | number, request: ThreadRunRequest, call?: CallOptions) {
    return this.threads.run(threadId, request, call);
  }

  listFiles(page?: PageRequest, call?: CallOptions) {
    return this.files.list(page, call);
  }
  /** POST /files, multipart, streamed from disk; at most 10 MB. */
  uploadFile(source: UploadSource, options?: UploadOptions & { purpose?: string }) {
    return this.files.upload(source, options);
  }
  getFile(fileId: string, call?: CallOptions) {
    return this.files.get(fileId, call);
  }
  deleteFile(fileId: string, call?: CallOptions) {
    return this.files.delete(fileId, call);
  }
  /** GET /files/{id}/content as a bounded stream (default at most 64 MiB). */
  downloadFile(fileId: string, options?: DownloadOptions): Promise<Download> {
    return this.files.download(fileId, options);
  }

  getUsage(call?: CallOptions) {
    return this.account.usage(call);
  }
  getStorage(call?: CallOptions) {
    return this.account.storage(call);
  }

  /** GET {platform_url}/api/v1/models. Available on both API forms. */
  listModels(call?: CallOptions) {
    return this.models.list(call);
  }
  /** POST {engine}/api/v1/attachments/upload: an id for `attachmentIds` of the next task (it lives 10 minutes). */
  uploadAttachment(source: UploadSource, options?: AttachmentUploadOptions) {
    return this.attachments.upload(source, options);
  }
}
