// Plain HTTP to the emulator with Node's fetch, never the extension's client, so the emulator tests do not move
// with client changes.
import * as assert from 'assert';
import { DEMO_API_KEY, type Emulator, type EmulatorOptions, startEmulator } from '../emulator/server';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** One emulator (live defaults, fast tasks) for a describe block; faults and overrides cleared between tests. */
export function useLiveEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator({ quiet: true, taskDurationMs: 300, pulseIntervalMs: 100, ...options });
  });
  beforeEach(() => {
    emulator?.clearFaults();
    emulator?.setRateLimit(undefined);
  });
  after(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
}

/** Starts an emulator for one test and closes it after `fn`. */
export async function withEmulator<T>(options: EmulatorOptions, fn: (emu: Emulator) => Promise<T>): Promise<T> {
  const emu = await startEmulator({ quiet: true, taskDurationMs: 300, pulseIntervalMs: 100, ...options });
  try {
    return await fn(emu);
  } finally {
    await emu.close();
  }
}

export async function call(emu: Emulator, method: string, path: string, body?: unknown, key: string | undefined = DEMO_API_KEY, headers: Record<string, string> = {}) {
  const url = path.startsWith('http') ? path : path.startsWith('/api/') || path.startsWith('/__') ? emu.origin + path : emu.baseUrl + path;
  const res = await fetch(url, {
    method,
    headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, json, text };
}

export async function control(emu: Emulator, path: string, body: unknown) {
  return call(emu, 'POST', `/__emulator/${path}`, body, undefined);
}

export async function submit(emu: Emulator, prompt = 'Live behaviour', extra: Json = {}, key = DEMO_API_KEY): Promise<string> {
  const r = await call(emu, 'POST', '/run', { prompt, ...extra }, key);
  assert.equal(r.status, 200, r.text);
  return r.json.taskId as string;
}

export async function upload(emu: Emulator, bytes: Buffer, filename: string, type = 'text/plain', key = DEMO_API_KEY) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), filename);
  const res = await fetch(`${emu.baseUrl}/files`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Json };
}

export async function uploadAttachment(emu: Emulator, bytes: Buffer, filename: string, type = 'application/octet-stream', key = DEMO_API_KEY) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), filename);
  const res = await fetch(`${emu.origin}/api/v1/attachments/upload`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Polls /status until the task leaves processing (or `until` holds); returns the last state. */
export async function waitForStatus(emu: Emulator, taskId: string, until: (s: Json) => boolean = s => s.status !== 'processing', key = DEMO_API_KEY): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const r = await call(emu, 'GET', `/status/${taskId}`, undefined, key);
    if (r.status === 200 && until(r.json)) return r.json;
    await sleep(25);
  }
  throw new Error(`task ${taskId} did not reach the expected state`);
}

/** Reads a stream's `data:` events until it ends or `stopAfterMs`; `onEvent` may act on each one. */
export async function readEvents(emu: Emulator, taskId: string, opts: { stopAfterMs?: number; key?: string; onEvent?: (e: Json) => void } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${emu.origin}/api/v1/stream/${taskId}`, { headers: { 'x-api-key': opts.key ?? DEMO_API_KEY }, signal: controller.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const events: Json[] = [];
  const timer = opts.stopAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), opts.stopAfterMs);
  let ended = false;
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) {
            const event = JSON.parse(line.slice(6)) as Json;
            events.push(event);
            opts.onEvent?.(event);
          }
        }
      }
    }
    ended = true;
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { events, ended };
}
