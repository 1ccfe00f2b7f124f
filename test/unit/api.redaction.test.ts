/**
 * Issue 35: one redaction path for everything the server says. The emulator echoes the submitting key into
 * every text it says of a task (`setNextTask({ echoKey: true })`): the result, the trace, tool events, produced
 * file names, sources, thread messages, the stream's events. What the client hands on holds none of it, so the
 * stores built on it (the trace cache, the result view, the MCP tools) never see the key.
 */
import * as assert from 'node:assert/strict';
import { type DeveloperApiClient, type TaskState, readTrace } from '../../src/api';
import { isFinished } from '../../src/tasks/model';
import { detailsOf } from '../../src/tasks/tracking/activity';
import { clientFor, useEmulator, waitFor } from './helpers';

describe('redaction: everything the server says, at the one door', function () {
  this.timeout(20_000);
  const emulator = useEmulator({ conversationDelayMs: 0 });

  /** Fails when `value` holds the key; returns its text. */
  function clean(what: string, value: unknown, key: string): string {
    const text = JSON.stringify(value) ?? '';
    assert.ok(!text.includes(key) && !text.includes(encodeURIComponent(key)), `${what} holds the key: ${text.slice(Math.max(0, text.indexOf(key) - 200), text.indexOf(key) + 100)}`);
    return text;
  }

  async function echoingTask(client: DeveloperApiClient, prompt: string): Promise<string> {
    emulator().setNextTask({ echoKey: true, files: 2, sources: 3 });
    const { taskId } = await client.submitTask({ prompt, agentCount: 3 });
    // The emulator really says the key (else this test would prove nothing).
    assert.ok(emulator().task(taskId)?.result?.includes(emulator().apiKey), 'the emulator echoes the key');
    return taskId;
  }

  it('the result of /results, /status and its tool events, files and sources hold no key', async () => {
    const emu = emulator();
    const client = clientFor(emu);
    const taskId = await echoingTask(client, 'Echo on results');
    const state = await waitFor(async () => {
      const s = await client.getTaskStatus(taskId);
      return isFinished(s) ? s : undefined;
    }, 10_000);
    assert.equal(state.status, 'completed');
    const result = await client.getTaskResult(taskId);
    assert.equal(result.result, 'The answer, signed with [redacted].', 'the key is taken out of the /results answer where it is read');
    const statusText = clean('/status', state, emu.apiKey);
    assert.match(statusText, /\[redacted\]/);
    const details = detailsOf(state);
    assert.ok(details.files?.length && details.files.every(f => f.filename.startsWith('[redacted]-')), JSON.stringify(details.files));
    assert.ok(details.sources?.length && details.sources.every(s => s.url.includes('key=') && s.title?.includes('[redacted]')), JSON.stringify(details.sources));
    clean('the task’s details (activity, files, sources)', details, emu.apiKey);
    const file = details.files.find(f => f.fileId);
    assert.ok(file?.fileId, 'a produced file to download');
    const download = await client.downloadFile(file.fileId);
    download.stream.resume();
    assert.match(clean('a produced file’s downloaded name', download.filename, emu.apiKey), /redacted/);
  });

  it('the trace: every step, subtask, tool and source, the report', async () => {
    const emu = emulator();
    const client = clientFor(emu);
    const taskId = await echoingTask(client, 'Echo in the trace');
    await waitFor(async () => (isFinished(await client.getTaskStatus(taskId)) ? true : undefined), 10_000);
    const raw = await client.getTaskTrace(taskId);
    clean('the raw trace', raw, emu.apiKey);
    const trace = readTrace(raw.trace);
    assert.ok(trace.steps.length === 3 && trace.steps.every(s => s.response?.includes('Key: [redacted].')), 'each agent’s answer, without the key');
    assert.ok(trace.plan.every(p => p.endsWith('(for [redacted])')));
    clean('the trace read for the view, the cache and read_trace', trace, emu.apiKey);
  });

  it('the stream’s events, the thread and its messages', async () => {
    const emu = emulator();
    const client = clientFor(emu);
    const taskId = await echoingTask(client, 'Echo on the stream');
    const states: TaskState[] = [];
    const final = await client.streamTask(taskId, { onState: s => states.push(s) });
    assert.equal(final.status, 'completed');
    assert.ok(states.length > 1);
    assert.match(clean('the stream’s states', states, emu.apiKey), /\[redacted\]/);
    const status = await waitFor(async () => {
      const s = await client.getTaskStatus(taskId);
      return s.conversationId ? s : undefined;
    }, 10_000);
    const messages = await client.listThreadMessages(String(status.conversationId));
    assert.match(clean('the thread’s messages', messages, emu.apiKey), /\[redacted\]/);
    clean('the threads', await client.listThreads(), emu.apiKey);
  });
});
