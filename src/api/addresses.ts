/**
 * Where each call goes. The configured base URL decides the API form; the platform and stream (engine)
 * addresses derive from it unless set. Every address is checked here once, before any request.
 */
import { ConfigurationError } from './errors';

export type ApiForm = 'current' | 'earlier';

export interface AddressSettings {
  /** `…/api/v1/developer` (current form) or `…/api/developer` (earlier form). */
  baseUrl: string;
  /** Origin that serves `/api/v1/models` and attachments; empty = the base URL's origin. */
  platformUrl?: string;
  /** Origin that serves `/api/v1/stream/{taskId}`; empty = derived (see `streamOriginFor`). */
  streamUrl?: string;
}

export interface ApiAddresses {
  form: ApiForm;
  /** Base URL without a trailing slash. */
  baseUrl: string;
  /** Platform origin (+ optional path prefix) without a trailing slash. */
  platformUrl: string;
  /** Engine origin for the task stream, without a trailing slash. */
  streamUrl: string;
}

const PRODUCTION_ORIGIN = 'https://taskforceai.chat';
const PRODUCTION_ENGINE = 'https://engine.taskforceai.chat';

/**
 * `localhost`, `127.0.0.0/8` and `[::1]` only. Not `*.localhost`: this machine's resolver may send those
 * anywhere, and VS Code's proxy support does not treat them as local either. Nor `localhost.` (trailing
 * dot): the resolver asks DNS for it instead of reading the hosts file. (A numeric `127.0.0.1.` is parsed
 * by URL to `127.0.0.1`, which no resolver looks up.)
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/** Parses and vets an address the key may be sent to: https, or plain http only to loopback. */
export function checkedUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigurationError(`The ${what} "${value}" is not a valid URL (expected e.g. ${PRODUCTION_ORIGIN}/api/v1/developer).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`The ${what} must use https:// (got ${url.protocol}).`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError(
      `Refusing to send the API key over plain http:// to ${url.hostname}: use https://, or http:// only for localhost.`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`The ${what} must not contain a user name or password.`);
  }
  return url;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

export function formOf(baseUrl: URL): ApiForm {
  const path = trimSlash(baseUrl.pathname);
  return /\/api\/developer$/.test(path) ? 'earlier' : 'current';
}

/** Production base URLs stream from the engine host; anything else (emulator, gateway) from the platform origin. */
export function streamOriginFor(baseUrl: URL, platform: URL): string {
  return baseUrl.origin === PRODUCTION_ORIGIN ? PRODUCTION_ENGINE : platform.origin;
}

export function resolveAddresses(settings: AddressSettings): ApiAddresses {
  const base = checkedUrl(settings.baseUrl, 'API base URL');
  base.search = '';
  base.hash = '';
  const platform = settings.platformUrl?.trim() ? checkedUrl(settings.platformUrl, 'platform URL') : new URL(base.origin);
  const stream = settings.streamUrl?.trim() ? checkedUrl(settings.streamUrl, 'stream URL') : undefined;
  return {
    form: formOf(base),
    baseUrl: trimSlash(base.toString()),
    platformUrl: trimSlash(platform.origin + trimSlash(platform.pathname)),
    streamUrl: stream ? trimSlash(stream.origin + trimSlash(stream.pathname)) : streamOriginFor(base, platform),
  };
}
