/**
 * The Developer API client. Built as its own bundle (dist/api.js) and loaded the first time the
 * extension needs the network, so that activation never pays for axios and zod.
 */
export * from './addresses';
export * from './client';
export * from './errors';
export * from './filenames';
export * from './requests';
export * from './retry';
export * from './schemas';
export type { ApiKeySource, CallOptions, Logger, TransportOptions } from './transport';
