import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { TaskPoller } from '../../src/tasks/tracking/poller';
import { TaskStore } from '../../src/tasks/store/taskStore';
import { openAndSelect, resultTabs, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

describe('orchestrate from the editor', () => {
  const ctx = useExtensionWithEmulator();

  it('sends a selection with the key from SecretStorage, shows it running, and opens the synthesized result', async () => {
    await openAndSelect('src/math.ts', 4, 10);
    ctx.user.inputs = ['Find edge cases in mean()'];
    ctx.emulator.setNextTask({ hold: true }); // running until the status bar is checked
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
    assert.ok(task?.id.startsWith('task_'), 'a task was submitted');

    const [run] = ctx.emulator.requests.filter(r => r.path.endsWith('/run'));
    assert.strictEqual(run.headers['x-api-key'], ctx.emulator.apiKey);
    const body = run.body as { prompt: string; options: { agentCount: number } };
    assert.ok(body.prompt.startsWith('Find edge cases in mean()\n\nsrc/math.ts (lines 5-10):\n\n```typescript\nexport function mean'), body.prompt);
    assert.strictEqual(body.options.agentCount, 4);

    // The status bar text shows the progress and the time (issue 20); its spoken label still counts the tasks.
    assert.match(ctx.api.statusBar.item.text, /^\$\(sync~spin\) Agents (working|\d+%) · \d+s$/);
    assert.ok(ctx.api.statusBar.item.accessibilityInformation?.label.includes('1 task running'));
    assert.strictEqual(ctx.emulator.release(task.id), 1);

    const tab = await waitFor(() => resultTabs()[0], 'the result tab');
    const document = vscode.workspace.textDocuments.find(d => d.uri.toString() === (tab.input as vscode.TabInputText).uri.toString());
    assert.ok(document, 'the result document is open');
    assert.strictEqual(document.languageId, 'markdown');
    assert.ok(document.getText().includes('Find edge cases in mean()'), document.getText().slice(0, 300));
    assert.strictEqual(tab.isPreview, false);
    assert.strictEqual(tab.label, 'Find edge cases in mean().md');
    assert.strictEqual(ctx.api.store.get(task.id)?.status, 'completed');
    await waitFor(() => ctx.user.messages('info').some(m => m.includes('task done')), 'the done notification');
    // The emulator answers in the landing format (issue 16): the answer names files, so the toast offers a review;
    // the result opened on completion, so it offers no Open (issue 20).
    assert.deepStrictEqual(ctx.user.shown.find(s => s.message.includes('task done'))?.actions, ['Copy Result', 'Review Changes…', 'Check Proposal…']);
    const cached = await ctx.api.store.readResult(task.id);
    assert.strictEqual(cached, document.getText());
  });

  it('the instruction box names the attached files that go with the task (issue 35)', async () => {
    await ctx.api.attachments.add([workspaceUri('src', 'greet.py')]);
    try {
      await openAndSelect('src/math.ts', 0, 3);
      ctx.user.inputs = [undefined as unknown as string]; // Escape: nothing is sent
      await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
      const asked = ctx.user.shown.find(s => s.kind === 'input');
      assert.match(asked?.message ?? '', /^What should the agents do with src\/math\.ts, lines 1–3\? src\/greet\.py is attached and goes too\.$/);
    } finally {
      ctx.api.attachments.clear();
    }
  });

  it('with no selection offers the whole file', async () => {
    await openAndSelect('src/greet.py');
    ctx.user.onMessage = s => (s.message.includes('No code is selected') ? 'Send Whole File' : undefined);
    ctx.user.inputs = ['Add type hints'];
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
    assert.ok(task);
    const body = ctx.emulator.requests.find(r => r.path.endsWith('/run'))?.body as { prompt: string };
    assert.ok(body.prompt.includes('src/greet.py:\n\n```python\ndef greet'), body.prompt);
  });

  it('sends a file that is not open in an editor', async () => {
    const uri = workspaceUri('src', 'greet.py');
    ctx.user.inputs = ['Explain'];
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateFile', uri);
    assert.ok(task);
    assert.ok(!vscode.window.visibleTextEditors.some(e => e.document.uri.toString() === uri.toString()), 'not opened in an editor');
    const body = ctx.emulator.requests.find(r => r.path.endsWith('/run'))?.body as { prompt: string };
    assert.ok(body.prompt.includes('src/greet.py'));
  });

  it('refuses an empty file with a clear message and no request', async () => {
    await openAndSelect('empty.txt');
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    assert.ok(ctx.user.messages('error').some(m => /empty\.txt is empty/.test(m)), JSON.stringify(ctx.user.shown));
    assert.strictEqual(ctx.emulator.requests.length, 0);
  });

  it('asks for a missing key first, checks it as Set API Key does, then continues the command', async () => {
    await ctx.api.keys.clearApiKey();
    try {
      await openAndSelect('src/math.ts', 0, 3);
      // A key the service rejects is said so in the box, which stays open, and is never saved (issue 35).
      ctx.user.inputs = ['tfai_wrong_key_0000000000', ctx.emulator.apiKey, 'Document add()'];
      const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
      assert.ok(task, 'the command went on after the key was entered');
      assert.match(ctx.user.shown[0].message, /API key is needed/);
      assert.ok(ctx.user.messages('inputProblem').includes('The service rejected this key; it was not saved. Correct it, or press Escape.'), JSON.stringify(ctx.user.shown));
      assert.strictEqual(ctx.user.messages('error').length, 0, 'no failed send');
      assert.strictEqual(await ctx.api.keys.getApiKey(), ctx.emulator.apiKey);
    } finally {
      await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
    }
  });

  it('offers "Set API Key" when the service answers 401', async () => {
    ctx.emulator.addFault({ kind: 'status', status: 401, path: '/run' });
    await openAndSelect('src/math.ts', 0, 3);
    ctx.user.inputs = ['Anything'];
    const task = await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    assert.strictEqual(task, undefined);
    const shown = await waitFor(() => ctx.user.shown.find(s => s.kind === 'error'), 'the error');
    assert.deepStrictEqual(shown.actions, ['Set API Key']);
    assert.ok(!shown.message.includes(ctx.emulator.apiKey));
    assert.strictEqual(ctx.api.store.all().length, 0, 'nothing tracked');
  });

  it('never sends a prompt over 10,000 characters as text: offers an attachment instead', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-big-'));
    const file = path.join(dir, 'big.ts');
    fs.writeFileSync(file, Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i}; // some padding text`).join('\n'));
    try {
      const document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document);
      ctx.user.inputs = ['Summarize', 'Summarize'];
      await vscode.commands.executeCommand('multiAgent.orchestrateFile');
      const warning = ctx.user.shown.find(s => s.kind === 'warn');
      assert.ok(warning && /characters; the service accepts at most 10,000/.test(warning.message), JSON.stringify(ctx.user.shown));
      assert.strictEqual(ctx.emulator.requests.length, 0, 'declined: nothing sent');

      ctx.user.onMessage = s => (s.actions.includes('Send as Attachment') ? 'Send as Attachment' : undefined);
      const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateFile');
      assert.ok(task);
      const upload = ctx.emulator.requests.filter(r => r.path.includes('/attachments/upload'));
      assert.strictEqual(upload.length, 1);
      const body = ctx.emulator.requests.find(r => r.path.endsWith('/run'))?.body as { prompt: string; attachment_ids: string[] };
      assert.ok(body.prompt.length < 10_000 && body.prompt.includes('attached as big.ts'), body.prompt);
      assert.strictEqual(body.attachment_ids.length, 1);
      const done = await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed' && ctx.api.store.get(task.id), 'completion');
      assert.ok(done);
      assert.match((await ctx.api.store.readResult(task.id)) ?? '', /big\.ts/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the server error of a failed task and opens nothing', async () => {
    ctx.emulator.setNextTask({ outcome: 'failed', error: 'Upstream model exploded', durationMs: 300 });
    await openAndSelect('src/math.ts', 0, 3);
    ctx.user.inputs = ['Will fail'];
    const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
    const message = await waitFor(() => ctx.user.messages('error').find(m => m.includes('Upstream model exploded')), 'the failure message');
    assert.match(message, /Will fail/);
    assert.strictEqual(ctx.api.store.get(task!.id)?.status, 'failed');
    assert.strictEqual(resultTabs().length, 0);
  });

  it('tells the user to approve in the web console when a task awaits approval', async () => {
    ctx.emulator.setNextTask({ outcome: 'awaiting_approval', durationMs: 300 });
    await openAndSelect('src/math.ts', 0, 3);
    ctx.user.inputs = ['Needs approval'];
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    const message = await waitFor(() => ctx.user.messages('warn').find(m => m.includes('approv')), 'the approval message');
    assert.match(message, /web console/);
    assert.strictEqual(resultTabs().length, 0);
  });

  it('ignores a workspace setting of baseUrl and tells the user', async () => {
    const settingsFile = workspaceUri('.vscode', 'settings.json');
    await vscode.workspace.fs.writeFile(settingsFile, Buffer.from(JSON.stringify({ 'multiAgent.baseUrl': 'https://attacker.example/api/v1/developer' })));
    try {
      await waitFor(() => ctx.user.messages('warn').find(m => m.includes('ignores that')), 'the warning');
      assert.strictEqual(vscode.workspace.getConfiguration('multiAgent').get('baseUrl'), ctx.emulator.baseUrl, 'the workspace value is not used');
      await openAndSelect('src/math.ts', 0, 3);
      ctx.user.inputs = ['Still goes to the configured service'];
      const task = await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
      assert.ok(task);
      assert.strictEqual(ctx.emulator.requests.filter(r => r.path.endsWith('/run')).length, 1);
    } finally {
      await vscode.workspace.fs.delete(workspaceUri('.vscode'), { recursive: true });
    }
  });

  it('resumes tasks persisted before a reload and completes them', async () => {
    // What activation does after a reload: a store read back from globalState, a poller over it.
    const client = ctx.api.api.client();
    const submitted = await client.submitTask({ prompt: 'Persisted before the reload' });
    const now = Date.now();
    await ctx.api.store.add({ id: submitted.taskId, title: 'Persisted', instruction: 'Persisted before the reload', promptChars: 27, submittedAt: now, updatedAt: now, status: 'processing' });
    ctx.api.poller.forget(submitted.taskId);

    const reloaded = new TaskStore(ctx.api.context.globalState, ctx.api.context.globalStorageUri);
    assert.deepStrictEqual(reloaded.running().map(t => t.id), [submitted.taskId], 'the running task was persisted');
    const poller = new TaskPoller({
      api: () => client,
      store: reloaded,
      settings: () => ({ minIntervalMs: 200, maxIntervalMs: 500, unfocusedIntervalMs: 500, maxInFlight: 2, useStream: false, maxStreams: 0 }),
    });
    try {
      poller.wake();
      await waitFor(() => reloaded.get(submitted.taskId)?.status === 'completed', 'the resumed task to complete');
      assert.match((await reloaded.readResult(submitted.taskId)) ?? '', /Persisted before the reload/);
    } finally {
      poller.dispose();
      reloaded.dispose();
    }
  });
});
