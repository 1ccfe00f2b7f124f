/**
 * The Developer API client. Built as its own bundle (dist/api.js) and loaded the first time the
 * extension needs the network, so that activation never pays for axios and zod.
 */
export * from './addresses';
export * from './bodies';
export * from './client';
export * from './conditions';
export * from './errors';
export * from './filenames';
export * from './multipart';
export * from './redact';
export * from './requests';
export * from './retry';
export * from './schemas';
export * from './sniff';
export * from './sse';
export * from './uploads';
export * from './status';
export * from './toolEvents';
export * from './trace';
export type { StreamOptions } from './taskStream';
export type { AttachmentUploadOptions } from './resources/attachments';
export type { Download, DownloadOptions } from './resources/files';
export type { PageRequest } from './resources/threads';
export type { ApiKeySource, CallOptions, Logger, TransportOptions } from './transport';
