/**
 * The service's limits and refusals in the real extension host (issue 17): the plan's task limit says so
 * and when it resets and is never sent again; an attachment the service would refuse (by type, as it sniffs
 * it, or by size) is refused before any byte is uploaded, with the reason; conditions that are not a wrong
 * key are not worded as one.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Thread } from '../../src/api';
import { renderTranscript } from '../../src/documents/transcripts';
import { openAndSelect, useExtensionWithEmulator, workspaceUri } from './helpers';
import { orchestrate, runPosts, shownMessage, sleep, withSetting } from './faults/common';

describe('limits: plan limit, attachment refusals, not a wrong key', () => {
  const ctx = useExtensionWithEmulator({ taskDurationMs: 400 });
  const folder = () => workspaceUri('tmp-limits');
  const write = async (name: string, bytes: Uint8Array | string) => {
    const uri = vscode.Uri.joinPath(folder(), name);
    await vscode.workspace.fs.writeFile(uri, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
    return uri;
  };
  const uploads = () => ctx.emulator.requests.filter(r => r.path.includes('/attachments/upload'));
  afterEach(async () => {
    ctx.api.attachments.clear();
    ctx.user.onMessage = () => undefined;
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  describe('the plan limit', () => {
    it('on Orchestrate: one POST /run, says the plan limit is reached and when it resets, never "in a moment", not sent again', async () => {
      // The emulator's free plan: 1 task per 7 days, then 429 "User rate limit exceeded" (no Retry-After).
      ctx.emulator.setPlan(ctx.emulator.apiKey, 'free');
      try {
        assert.ok(await orchestrate(ctx, 'The task of the week'));
        const task = await orchestrate(ctx, 'One task too many');
        assert.strictEqual(task, undefined);
        const shown = await shownMessage(ctx, /plan's limit on new tasks is reached/);
        assert.strictEqual(shown.kind, 'warn');
        assert.match(shown.message, /User rate limit exceeded/);
        assert.match(shown.message, /resets at the full hour, \d\d:00 \(\d\d:00 UTC\)/);
        assert.match(shown.message, /free plan \(1 task per 7 days\), 7 days after your last task/);
        assert.doesNotMatch(shown.message, /in a moment|Try again in/i);
        assert.match(shown.message, /will not help, so it was not sent again/);
        assert.deepStrictEqual(shown.actions, [], 'no Set API Key: the key is fine');
        await sleep(1500);
        assert.strictEqual(runPosts(ctx).length, 2, 'the refused task was never sent again');
        assert.strictEqual(ctx.api.store.all().length, 1, 'only the first is tracked');
      } finally {
        ctx.emulator.setPlan(ctx.emulator.apiKey, 'unlimited');
      }
    });

    it('on a thread run: the same words, one request (runs and thread runs count together)', async () => {
      const thread = await ctx.api.api.client().createThread({ title: 'plan limit' });
      ctx.emulator.setPlan(ctx.emulator.apiKey, 'free');
      try {
        // The week's one task, if the test above has not used it yet: runs and thread runs count together.
        await ctx.api.api.client().submitTask({ prompt: 'the task of the week' }).catch(() => undefined);
        ctx.emulator.resetStats();
        ctx.user.inputs = ['Continue the thread'];
        // No code in view: Run in Thread asks before sending the instruction alone (issue 20).
        ctx.user.onMessage = s => (s.message.includes('send the instruction alone?') ? 'Send Instruction Alone' : undefined);
        const task = await vscode.commands.executeCommand('multiAgent.runInThread', { thread });
        assert.strictEqual(task, undefined);
        await shownMessage(ctx, /plan's limit on new tasks is reached \(User rate limit exceeded\)/);
        await sleep(1000);
        assert.strictEqual(ctx.emulator.requests.filter(r => r.method === 'POST' && r.path.endsWith('/runs')).length, 1);
      } finally {
        ctx.emulator.setPlan(ctx.emulator.apiKey, 'unlimited');
      }
    });
  });

  describe('attachments the service would refuse', () => {
    it('an HTML or XML file too large to inline is refused when attached, with the reason; nothing is sent', async () => {
      const page = await write('page.html', `<!DOCTYPE html>\n<html><body>\n${'<p>paragraph</p>\n'.repeat(2000)}</body></html>\n`);
      const feed = await write('feed.xml', `<?xml version="1.0"?>\n<feed>${'<entry/>'.repeat(4000)}</feed>\n`);
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', page, [page]), undefined);
      await shownMessage(ctx, /page\.html reads as text\/html \(it starts like a web page.*a type the service refuses as an attachment.*Nothing was uploaded/);
      await vscode.commands.executeCommand('multiAgent.attachToNextTask', feed, [feed]);
      await shownMessage(ctx, /feed\.xml reads as text\/xml \(it starts with <\?xml\)/);
      assert.strictEqual(ctx.api.attachments.count, 0);
      assert.deepStrictEqual(ctx.emulator.requests, [], 'no request');
    });

    it('a file over 4.5 MB (with its request envelope) is refused when attached', async () => {
      const big = await write('big.log', 'x'.repeat(4_500_000));
      await vscode.commands.executeCommand('multiAgent.attachToNextTask', big, [big]);
      await shownMessage(ctx, /big\.log is 4\.3 MB; the service takes attachments up to 4\.5 MB \(4,500,000 bytes\), sent in one request/);
      assert.strictEqual(ctx.api.attachments.count, 0);
      assert.deepStrictEqual(ctx.emulator.requests, []);
    });

    it('a small HTML file still goes inline as text (its type matters only for an upload)', async () => {
      const snippet = await write('snippet.html', '<div class="card">Hello</div>\n');
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', snippet, [snippet]), 1);
      const task = await orchestrate(ctx, 'Style the card');
      assert.ok(task, JSON.stringify(ctx.user.shown));
      const body = runPosts(ctx)[0].body as { prompt: string; attachment_ids?: string[] };
      assert.ok(body.prompt.includes('<div class="card">Hello</div>'), body.prompt);
      assert.strictEqual(uploads().length, 0);
    });

    it('a basket file that became HTML after it was attached is refused at send, before any upload or task', async () => {
      const notes = await write('notes.log', 'plain log line\n'.repeat(2000)); // > 16 KB: uploaded
      const other = await write('other.log', 'another log line\n'.repeat(2000));
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', notes, [notes, other]), 2);
      await write('other.log', `<html>\n${'<p>now a page</p>\n'.repeat(2000)}</html>\n`);
      const task = await orchestrate(ctx, 'Read the logs');
      assert.strictEqual(task, undefined);
      await shownMessage(ctx, /other\.log reads as text\/html/);
      assert.deepStrictEqual(uploads(), [], 'not even the good file was uploaded');
      assert.strictEqual(runPosts(ctx).length, 0);
      assert.strictEqual(ctx.api.attachments.count, 2, 'the basket keeps both for the user to fix');
    });

    it('"Send as Attachment" is not offered for a long HTML selection the service would refuse: it says why', async () => {
      await write('long.html', `<!DOCTYPE html>\n<html>\n${'<p>a long page of text to review</p>\n'.repeat(400)}</html>\n`);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), 'long.html'));
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      editor.selection = new vscode.Selection(0, 0, document.lineCount, 0);
      ctx.user.onMessage = s => (s.actions.includes('Send as Attachment') ? 'Send as Attachment' : undefined);
      ctx.user.inputs = ['Review this page'];
      const task = await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
      assert.strictEqual(task, undefined);
      const shown = await shownMessage(ctx, /characters; the service accepts at most 10,000/);
      assert.match(shown.message, /long\.html reads as text\/html.*a type the service refuses as an attachment/);
      assert.ok(!ctx.user.shown.some(s => s.actions.includes('Send as Attachment')), 'no attachment offered');
      assert.deepStrictEqual(ctx.emulator.requests, [], 'nothing uploaded, nothing sent');
    });

    it('a long text selection is still offered and sent as an attachment, to the engine address', async () => {
      await write('long.md', `# Notes\n\n${'A long line of notes to summarize.\n'.repeat(400)}`);
      await openAndSelect('tmp-limits/long.md', 0, 405);
      ctx.user.onMessage = s => (s.actions.includes('Send as Attachment') ? 'Send as Attachment' : undefined);
      ctx.user.inputs = ['Summarize'];
      const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
      assert.ok(task, JSON.stringify(ctx.user.shown));
      assert.strictEqual(uploads().length, 1);
      assert.ok(uploads()[0].path === '/api/v1/attachments/upload');
    });
  });

  describe('not a wrong key', () => {
    it('403 "Account disabled" on a task: says the account is disabled, offers no new key', async () => {
      ctx.emulator.setKeyState(ctx.emulator.apiKey, 'disabled');
      try {
        await orchestrate(ctx, 'Disabled');
        const shown = await shownMessage(ctx, /account is disabled \(Account disabled\)/);
        assert.doesNotMatch(shown.message, /rejected the API key/);
        assert.ok(!shown.actions.includes('Set API Key'));
      } finally {
        ctx.emulator.setKeyState(ctx.emulator.apiKey, 'active');
      }
    });

    it('503 "Authentication backend unavailable" on a task: passing trouble of the service, not the key; not "may have arrived"', async () => {
      ctx.emulator.setKeyState(ctx.emulator.apiKey, 'authUnavailable');
      try {
        await orchestrate(ctx, 'Auth down');
        const shown = await shownMessage(ctx, /could not check the API key just now \(Authentication backend unavailable\).*not of your key/);
        assert.ok(!shown.actions.includes('Set API Key'));
        assert.strictEqual(runPosts(ctx).length, 1);
      } finally {
        ctx.emulator.setKeyState(ctx.emulator.apiKey, 'active');
      }
    });

    it('a model the plan lacks: says so and offers Select Model', async () => {
      // A week later, so the free plan's one task is there again and the model check is what refuses.
      ctx.emulator.advanceClock(7 * 24 * 3600_000 + 60_000);
      ctx.emulator.setPlan(ctx.emulator.apiKey, 'free');
      const undo = await withSetting('modelId', 'openai/gpt-5.1');
      try {
        await orchestrate(ctx, 'Premium model');
        const shown = await shownMessage(ctx, /The model openai\/gpt-5\.1 needs a Pro or Super subscription/);
        assert.deepStrictEqual(shown.actions, ['Select Model']);
      } finally {
        await undo();
        ctx.emulator.setPlan(ctx.emulator.apiKey, 'unlimited');
      }
    });

    it('Set API Key: a 503 does not say the key was rejected, and a disabled account is not a wrong key', async () => {
      for (const [state, question] of [
        ['authUnavailable', /could not check this key just now/],
        ['disabled', /knows this key, but says its account is disabled/],
      ] as const) {
        ctx.user.shown.length = 0;
        ctx.emulator.setKeyState(ctx.emulator.apiKey, state);
        try {
          ctx.user.inputs = [ctx.emulator.apiKey];
          assert.strictEqual(await vscode.commands.executeCommand('multiAgent.setApiKey'), false);
          assert.ok(ctx.user.shown.some(s => s.kind === 'warn' && question.test(s.message)), JSON.stringify(ctx.user.shown));
          assert.ok(!ctx.user.messages('error').some(m => /rejected/.test(m)), JSON.stringify(ctx.user.shown));
        } finally {
          ctx.emulator.setKeyState(ctx.emulator.apiKey, 'active');
        }
      }
    });
  });

  it('a truncated transcript says the newest messages are missing', () => {
    const thread: Thread = { id: 7, title: 'Long thread' };
    const text = renderTranscript(thread, [{ role: 'user', content: 'first question' }], true);
    assert.match(text, /The newest messages are missing/);
    assert.doesNotMatch(text, /Older messages/);
    assert.ok(text.trimEnd().endsWith('The web console shows the whole thread.'), 'said again where the missing messages would be');
    assert.doesNotMatch(renderTranscript(thread, [{ role: 'user', content: 'q' }], false), /missing/);
  });
});
