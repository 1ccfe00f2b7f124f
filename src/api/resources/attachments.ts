/**
 * Attachments: POST {engine}/api/v1/attachments/upload (the route exists only on the engine), ids for
 * `attachmentIds` of the next task. An id lives 10 minutes on the service.
 */
import { type UploadOptions, type UploadSource, checkedUpload, inspectSource, multipart, uploadCall } from '../multipart';
import { ApiResource } from '../resource';
import { AttachmentSchema } from '../schemas';

export interface AttachmentUploadOptions extends UploadOptions {
  /** The model the task will run on: only a video-capable one takes a video attachment. */
  modelId?: string;
}

export class Attachments extends ApiResource {
  /**
   * Uploads one attachment after judging it as `/run` will (the upload itself takes any type, the task
   * then refuses it with 422) and against the platform's 4,500,000-byte request limit: nothing is sent
   * for a file the service would refuse.
   */
  async upload(source: UploadSource, options: AttachmentUploadOptions = {}) {
    const endpoint = 'POST /api/v1/attachments/upload';
    this.requireCurrent('/api/v1/attachments/upload');
    const file = await inspectSource(source);
    checkedUpload('attachment', file, { modelId: options.modelId }, endpoint);
    const form = await multipart(source, {}, options.onProgress, file);
    return this.transport.json(
      {
        method: 'POST',
        url: `${this.core.addresses.streamUrl}/api/v1/attachments/upload`,
        endpoint,
        body: form.stream,
        headers: form.headers,
        idempotent: false,
      },
      AttachmentSchema,
      uploadCall(options),
    );
  }
}
