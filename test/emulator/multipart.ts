// Streaming multipart parsing with a per-file size limit, via busboy.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ApiError, resolveMimeType } from './http';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export interface UploadedPart {
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

export interface MultipartForm {
  file?: UploadedPart;
  fields: Record<string, string>;
}

/**
 * Reads the whole request before settling, even past the limit: answering while the client is still sending
 * would make most clients see a reset instead of the 413.
 */
export function parseMultipart(
  req: IncomingMessage,
  fileField = 'file',
  maxBytes = MAX_UPLOAD_BYTES,
  tooLargeError: () => ApiError = () => new ApiError(413, 'File exceeds the 10 MB limit'),
): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // limit + 1 so that a file of exactly the limit is accepted (busboy flags "limit" on reaching the value).
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: maxBytes + 1 } });
    } catch (err) {
      req.resume();
      reject(new ApiError(400, `Malformed multipart request: ${(err as Error).message}`));
      return;
    }
    const form: MultipartForm = { fields: {} };
    let tooLarge = false;

    parser.on('field', (name, value) => {
      form.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || form.file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!tooLarge) {
          chunks.push(chunk);
        }
      });
      stream.on('limit', () => {
        tooLarge = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        const filename = info.filename ?? 'upload';
        form.file = { filename, mimeType: resolveMimeType(info.mimeType, filename), bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('error', (err: Error) => {
      // busboy stops here (no 'close'); settle once the client finished sending.
      const failure = new ApiError(400, `Malformed multipart request: ${err.message}`);
      req.unpipe(parser);
      req.resume();
      if (req.readableEnded) {
        reject(failure);
      } else {
        req.on('end', () => reject(failure));
      }
    });
    parser.on('close', () => {
      if (tooLarge) {
        reject(tooLargeError());
      } else {
        resolve(form);
      }
    });
    req.pipe(parser);
  });
}
