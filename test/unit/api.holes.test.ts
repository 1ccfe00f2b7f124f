/**
 * Holes a hostile-server review found (issue 17, item 3), each closed on the api floor and checked over real
 * HTTP against a small server on 127.0.0.1 that misbehaves on purpose.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  AbortedError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  DeveloperApiClient,
  TimeoutError,
  filenameFromDisposition,
  readableName,
  safeName,
} from '../../src/api';
import { FAST_RETRY, rejectsWith } from './helpers';
import { redactError } from '../../src/api/errors';
import { type HostileServer, startHostile } from './hostileServer';

const KEY = 'tfai_holes_key_0123456789abcdef';

/** Everything `console.error(e)` could ever print of `e`, and more: every property, hidden or not, at any depth. */
const deepInspect = (value: unknown) => inspect(value, { depth: Infinity, showHidden: true, getters: true, maxArrayLength: Infinity, maxStringLength: Infinity });

/** The chain of causes under `error`, itself first. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e !== undefined && out.length < 10; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

describe('api holes (issue 17)', function () {
  this.timeout(20_000);
  let server: HostileServer;
  const client = (extra: Partial<ConstructorParameters<typeof DeveloperApiClient>[0]> = {}) =>
    new DeveloperApiClient({ baseUrl: server.baseUrl, apiKey: KEY, retry: FAST_RETRY, timeoutMs: 5_000, ...extra });

  before(async () => {
    server = await startHostile();
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  describe('plain http only to loopback', () => {
    it('refuses http://localhost./ (trailing dot): the resolver asks DNS for it, not the hosts file', () => {
      for (const host of ['localhost.', 'LOCALHOST.', 'evil.localhost', 'localhost.evil.example']) {
        assert.throws(() => new DeveloperApiClient({ baseUrl: `http://${host}:1/api/v1/developer`, apiKey: KEY }), ConfigurationError, host);
      }
      for (const option of ['platformUrl', 'streamUrl'] as const) {
        assert.throws(
          () => new DeveloperApiClient({ baseUrl: 'http://127.0.0.1:1/api/v1/developer', [option]: 'http://localhost.:1', apiKey: KEY }),
          ConfigurationError,
          option,
        );
      }
    });

    it('still takes localhost, 127.0.0.0/8 (also written 127.0.0.1.) and [::1]', () => {
      for (const host of ['localhost', 'LocalHost', '127.0.0.1', '127.0.0.1.', '127.1.2.3', '[::1]']) {
        assert.doesNotThrow(() => new DeveloperApiClient({ baseUrl: `http://${host}:1/api/v1/developer`, apiKey: KEY }), host);
      }
    });

    it('does not follow a redirect to http://localhost./ with the request', async () => {
      server.handle = (_req, res) => res.writeHead(302, { location: 'http://localhost.:1/blob' }).end();
      await rejectsWith(client().downloadFile('file_1'), ConfigurationError);
      assert.equal(server.requests.length, 1);
    });
  });

  describe('C1 control characters in server-chosen names', () => {
    const C1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join('');

    it('drops every one of U+0080–U+009F from a file name to save', () => {
      assert.equal(safeName(`re${C1}port.txt`), 'report.txt');
      assert.equal(safeName('a\u0085b\u009b31mc.pdf'), 'ab31mc.pdf');
      assert.equal(safeName(C1), undefined);
    });

    it('drops them from a Content-Disposition name, plain or RFC 5987', () => {
      assert.equal(filenameFromDisposition(`attachment; filename*=UTF-8''evil%C2%9B31m%C2%85.txt`), 'evil31m.txt');
      assert.equal(filenameFromDisposition('attachment; filename="x\u0090y.txt"'), 'xy.txt');
    });

    it('drops them from tab titles (results, transcripts, files)', () => {
      assert.equal(readableName(`Fix${C1}the bug`, 'Result'), 'Fix the bug');
      assert.equal(readableName('\u0085\u009f', 'Result'), 'Result');
      assert.ok(!/[\u0080-\u009f]/.test(readableName(`a\u0080b\u0099c\u009fd`, 'x')));
    });
  });

  describe('a download that makes no progress ends within the request timeout', () => {
    /** Sends `chunk` every `everyMs`, `times` times, then ends. */
    const trickle = (chunk: Buffer, everyMs: number, times: number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': chunk.length * times });
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(chunk);
        if (++sent === times) {
          clearInterval(timer);
          res.end();
        }
      }, everyMs);
      res.on('close', () => clearInterval(timer));
    };

    it('a server sending a byte every 100 ms is stopped after the request timeout (1 s here), saying why', async () => {
      server.handle = trickle(Buffer.from('x'), 100, 10_000);
      const download = await client({ timeoutMs: 1_000 }).downloadFile('file_1');
      const started = Date.now();
      const error = await consume(download.stream).then(
        () => assert.fail('the trickle resolved'),
        (e: Error) => e,
      );
      const ms = Date.now() - started;
      assert.ok(error instanceof TimeoutError, String(error));
      assert.match(error.message, /made no progress: only \d+ bytes arrived in 1 s/);
      assert.ok(ms >= 900 && ms < 8_000, `stopped after ${ms} ms, not when the trickle ends (1,000 s)`);
    });

    it('a slow download that keeps making progress runs past the timeout, and reports it', async () => {
      server.handle = trickle(Buffer.alloc(20 * 1024, 0x61), 250, 8); // 160 KiB over 2 s
      const seenProgress: number[] = [];
      const download = await client({ timeoutMs: 1_000 }).downloadFile('file_1', { onProgress: n => seenProgress.push(n) });
      assert.equal(await consume(download.stream), 160 * 1024);
      assert.equal(seenProgress.at(-1), 160 * 1024);
      assert.ok(seenProgress.length >= 8);
    });

    it('a server that sends nothing after the headers is stopped too', async () => {
      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.flushHeaders();
      };
      const download = await client({ timeoutMs: 500 }).downloadFile('file_1');
      const error = await consume(download.stream).then(
        () => assert.fail('resolved'),
        (e: Error) => e,
      );
      assert.match(error.message, /made no progress: nothing arrived/);
    });
  });

  describe('no secret in any error, however deep it is inspected', () => {
    /** Asserts the error names its cause (kept for debugging) but holds the key nowhere. */
    function assertClean(error: Error, expectCause = true): void {
      const text = deepInspect(error);
      assert.ok(!text.includes(KEY), `the key is in the inspected error:\n${text.slice(0, 3000)}`);
      assert.ok(!JSON.stringify(chain(error).map(e => ({ ...(e as object) }))).includes(KEY));
      assert.ok(!/x-api-key/i.test(text), 'no request headers in the chain');
      // Under the typed error, only plain copies: a name, words, frames and an error code.
      for (const cause of chain(error).slice(1)) {
        assert.equal(Object.getPrototypeOf(cause), Error.prototype, `a ${(cause as object).constructor?.name} in the chain`);
        const fields = Object.getOwnPropertyNames(cause).filter(f => !['stack', 'message', 'name', 'code', 'errno', 'syscall', 'cause'].includes(f));
        assert.deepEqual(fields, [], 'nothing else is kept of a cause');
      }
      if (expectCause) assert.ok(error.cause instanceof Error, 'the cause is kept (for debugging)');
    }

    it('a timeout', async () => {
      server.handle = () => undefined; // never answers
      const error = await rejectsWith(client({ timeoutMs: 200, retry: { maxRetries: 0 } }).getTaskStatus('task_1'), TimeoutError);
      assertClean(error);
    });

    it('an abort', async () => {
      server.handle = () => undefined;
      const aborter = new AbortController();
      setTimeout(() => aborter.abort(new Error('user canceled')), 100);
      const error = await rejectsWith(client().getTaskStatus('task_1', { signal: aborter.signal }), AbortedError);
      assertClean(error);
    });

    it('the key in the text of a cause, two and three levels down, not only in the outer error', () => {
      const deepest = new Error(`socket closed while sending x-api-key: ${KEY}`);
      const middle = new Error(`request to /tasks?key=${KEY} failed`, { cause: deepest });
      const outer = new ConnectionError(`Could not reach the service (${KEY})`, false, { endpoint: 'GET /status', cause: middle });
      redactError(outer, [KEY]);
      const texts = chain(outer).flatMap(e => [(e as Error).message, (e as Error).stack ?? '']);
      assert.equal(chain(outer).length, 3, 'the causes are kept');
      for (const [i, text] of texts.entries()) assert.ok(!text.includes(KEY), `level ${Math.floor(i / 2)}: ${text.slice(0, 200)}`);
      assert.match(middle.message, /request to \/tasks\?key=.+ failed/, 'the rest of the words stay');
    });

    it('a connection reset, after retries', async () => {
      server.handle = req => req.socket.destroy();
      const error = await rejectsWith(client().getTaskStatus('task_1'), ConnectionError);
      assert.equal(server.requests.length, 4, 'retried');
      assertClean(error);
    });

    it('a refused connection', async () => {
      const closed = http.createServer();
      await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise(resolve => closed.close(resolve));
      const error = await rejectsWith(
        new DeveloperApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v1/developer`, apiKey: KEY, retry: { maxRetries: 0 } }).getTaskStatus('task_1'),
        ConnectionError,
      );
      assert.equal(error.notSent, true);
      assertClean(error);
    });

    it('a download cut in the middle, and one canceled in the middle', async () => {
      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 100_000 });
        res.write(Buffer.alloc(1000));
        setTimeout(() => res.destroy(), 50);
      };
      const cut = await client().downloadFile('file_1');
      const cutError = await consume(cut.stream).then(
        () => assert.fail('the cut download resolved'),
        (e: Error) => e,
      );
      assertClean(cutError, false);

      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(Buffer.alloc(1000));
      };
      const aborter = new AbortController();
      const canceled = await client().downloadFile('file_1', { signal: aborter.signal });
      setTimeout(() => aborter.abort(), 50);
      const abortError = await consume(canceled.stream).then(
        () => assert.fail('the canceled download resolved'),
        (e: Error) => e,
      );
      assert.ok(abortError instanceof AbortedError, String(abortError));
      assertClean(abortError, false);
    });

    it('a server that echoes the key: not in the message, nor in the stack V8 wrote with the first message', async () => {
      server.handle = (req, res) =>
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 401, detail: `Unknown key ${String(req.headers['x-api-key'])}` }));
      const error = await rejectsWith(client().getTaskStatus('task_1'), AuthenticationError);
      assert.match(error.message, /Unknown key \[redacted\]/);
      assert.match(String(error.stack), /Unknown key \[redacted\]/);
      assertClean(error, false);
    });
  });
});

async function consume(stream: NodeJS.ReadableStream): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}
