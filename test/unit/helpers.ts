import { DeveloperApiClient, type ClientOptions, type Logger } from '../../src/api';
import type { TrackedTask } from '../../src/tasks/model';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/server';

/** Retries fast enough for tests, with the same shape as production. */
export const FAST_RETRY = { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40, maxTotalMs: 5_000 };

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string) {
    this.lines.push(`info ${message}`);
  }
  warn(message: string) {
    this.lines.push(`warn ${message}`);
  }
  debug(message: string) {
    this.lines.push(`debug ${message}`);
  }
  error(message: string | Error) {
    this.lines.push(`error ${message instanceof Error ? message.message : message}`);
  }
}

/**
 * Kinder-than-live emulator switches the client tests still rely on (issue 11). Remove each one as the client
 * learns the live behaviour; the emulator's defaults are the live service's.
 * - usageAcceptsKey: /usage and /keys (api.resources "account"; api.errors, api.retry and api.tasks use /usage
 *   as a plain read endpoint).
 * - strictRunRequest false: api.tasks "sends the current form body" sends role_models and vercelAiKey.
 * - utf8DownloadNames: api.resources "files" expects the exact name 'données é.bin' back from a download.
 */
export const UNIT_KINDER_SWITCHES: EmulatorOptions = {
  usageAcceptsKey: true,
  strictRunRequest: false,
  utf8DownloadNames: true,
};

/** Starts one emulator for a describe block and stops it after; faults and stats reset between tests. */
export function useEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator({ taskDurationMs: 300, quiet: true, ...UNIT_KINDER_SWITCHES, ...options });
  });
  beforeEach(() => {
    emulator?.clearFaults();
    emulator?.setRateLimit(undefined);
    emulator?.setStreamEnabled(options.streamEnabled ?? true);
    emulator?.setTaskDuration(options.taskDurationMs ?? 300);
    emulator?.resetStats();
  });
  after(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
}

export function clientFor(emulator: Emulator, extra: Partial<ClientOptions> = {}): DeveloperApiClient {
  return new DeveloperApiClient({
    baseUrl: emulator.baseUrl,
    apiKey: emulator.apiKey,
    retry: FAST_RETRY,
    timeoutMs: 5_000,
    userAgent: 'multi-agent-tasks-vscode/test',
    ...extra,
  });
}

/** Rejects unless `promise` rejects with an instance of `type`; returns that error. */
export async function rejectsWith<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof type) return e;
    throw new Error(`expected ${type.name}, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
  }
  throw new Error(`expected ${type.name}, but it resolved`);
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5_000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise(r => setTimeout(r, stepMs));
  }
}

/** Requests the emulator saw for paths containing `fragment` (control calls are never recorded). */
export function seen(emulator: Emulator, fragment: string, method?: string) {
  return emulator.requests.filter(r => r.path.includes(fragment) && (!method || r.method === method));
}

/** A task as the store tracks it, just sent with `prompt` (the thread tests recover it by that prompt). */
export function tracked(id: string, prompt: string, extra: Partial<TrackedTask> = {}): TrackedTask {
  const now = Date.now();
  return { id, title: prompt, instruction: prompt, prompt, promptChars: prompt.length, submittedAt: now - 1000, updatedAt: now, status: 'processing', ...extra };
}
