/** Attachments: POST {platform_url}/api/v1/attachments/upload, ids for `attachmentIds` of the next task. */
import { type UploadOptions, type UploadSource, multipart, uploadCall } from '../multipart';
import { ApiResource } from '../resource';
import { AttachmentSchema } from '../schemas';

export class Attachments extends ApiResource {
  async upload(source: UploadSource, options: UploadOptions = {}) {
    this.requireCurrent('/api/v1/attachments/upload');
    const form = await multipart(source, {}, options.onProgress);
    return this.transport.json(
      this.platform('POST', '/api/v1/attachments/upload', { body: form.stream, headers: form.headers, idempotent: false }),
      AttachmentSchema,
      uploadCall(options),
    );
  }
}
