/**
 * Issue 18 in the real extension host against the emulator's live defaults (agent statuses as the service's
 * tracker writes them, /results 413 over 3 MiB): the trace in the result view, cached with the task and
 * inert; its refusals each worded; live tool activity in the Tasks view and the result view; produced files
 * (Open, Save As, Attach to Next Task) and sources; Continue in Thread and a task read back from its thread
 * after its hour; the engine run for a budget, role models or a reasoning effort, and a budget that runs out.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { producedFileButtons } from '../../src/chat/teamParts';
import type { TasksTreeNode } from '../../src/views/trees/tasksTree';
import { producedFileItem, producedFileNodes } from '../../src/views/trees/teamNodes';
import { finished, orchestrate, requestsTo } from './faults/common';
import { setSetting, useExtensionWithEmulator, waitFor } from './helpers';

const HOUR = 60 * 60_000;

describe('team: what the agents did', function () {
  this.timeout(60_000);
  // The report generator's output is kept (the live store drops it) so the view's report part is exercised.
  const ctx = useExtensionWithEmulator({ traceReport: 'stored' });
  const tasksTree = () => ctx.api.sidebar.tasks;

  before(async () => {
    await setSetting('resultView', 'rendered');
    await setSetting('openResultOnCompletion', false);
  });
  after(async () => {
    await setSetting('resultView', 'markdown');
    await setSetting('openResultOnCompletion', undefined);
    for (const name of ['budgetUsd', 'roleModels', 'reasoningEffort', 'modelId', 'useStream']) await setSetting(name, undefined);
  });

  async function completedTask(instruction: string) {
    const task = await orchestrate(ctx, instruction);
    assert.ok(task);
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'completed', done.error);
    // The thread and the generated files come with the one /status read at completion.
    return waitFor(() => {
      const t = ctx.api.store.get(task.id);
      return t?.conversationId && t.files?.length ? t : undefined;
    }, 'the thread and the files of the task');
  }

  /** The trace section of the page, up to the page's own script. */
  const traceSection = (html: string) => html.slice(html.indexOf('<details id="trace"'), html.lastIndexOf('<script'));

  it('the trace: loaded on demand, cached with the task (after a reopen it is there), removed with it', async () => {
    const task = await completedTask('Review mean() for edge cases');
    await ctx.api.resultPanels.page.show(task);
    // The view opened on submit is redrawn once the task's end is read from disk: waited for, not raced.
    const before = await waitFor(() => {
      const html = ctx.api.resultPanels.loaded!.panelOf(task.id)!.webview.html;
      return /How the team worked/.test(html) && html;
    }, 'the finished page');
    assert.match(before, /data-action="loadTrace"/, 'loaded on demand: a button');
    assert.strictEqual(requestsTo(ctx, 'GET', /\/trace$/).length, 0, 'nothing read before it is asked for');

    await vscode.commands.executeCommand('multiAgent.showTrace', task.id);
    const cached = await ctx.api.traces.cached(task.id);
    assert.strictEqual(cached?.kind, 'loaded');
    assert.ok(fs.existsSync(ctx.api.traces.uriOf(task.id).fsPath), 'cached as a file in globalStorage');
    assert.strictEqual(requestsTo(ctx, 'GET', /\/trace$/).length, 1);

    ctx.api.resultPanels.loaded!.panelOf(task.id)!.dispose();
    await ctx.api.resultPanels.page.show(task);
    const html = ctx.api.resultPanels.loaded!.panelOf(task.id)!.webview.html;
    assert.match(html, /Step 1: Agent-1/);
    assert.match(html, /Subtask:/);
    assert.match(html, /Self-evaluation/);
    assert.match(html, /Rubric/);
    assert.match(html, /Files the agents made/);
    assert.match(html, /findings\.csv/);
    assert.match(html, /Sources/);
    // Continue in Thread is the box under the answer (issue 26), not a header button.
    assert.match(html, /<form id="follow-up" class="follow-up">/);
    assert.match(html, /<label for="follow-up-text">Continue in thread: ask the agents a follow-up<\/label>/);
    assert.doesNotMatch(html, /data-offer="continue"/);
    await vscode.commands.executeCommand('multiAgent.showTrace', task.id);
    assert.strictEqual(requestsTo(ctx, 'GET', /\/trace$/).length, 1, 'a finished task’s trace comes from the cache');

    await ctx.api.store.remove(task.id);
    await waitFor(() => !fs.existsSync(ctx.api.traces.uriOf(task.id).fsPath), 'the cached trace removed with the task');
  });

  it('401, 403, 404 and 413 each get their own line; the rest of the view works', async () => {
    const task = await completedTask('Answer, whatever the trace');
    const cases: [string, () => void, RegExp][] = [
      ['401', () => ctx.emulator.addFault({ kind: 'status', status: 401, method: 'GET', path: '/trace', body: { title: 'Unauthorized', status: 401, detail: 'Unauthorized' } }), /rejected the API key for the trace/],
      ['403', () => ctx.emulator.addFault({ kind: 'status', status: 403, method: 'GET', path: '/trace', body: { title: 'Forbidden', status: 403, detail: 'Unauthorized' } }), /belongs to another account/],
      ['404', () => ctx.emulator.addFault({ kind: 'status', status: 404, method: 'GET', path: '/trace', body: { title: 'Not Found', status: 404, detail: 'Trace not found' } }), /has no trace of this task \(Trace not found\)/],
      ['413', () => ctx.emulator.addFault({ kind: 'status', status: 413, method: 'GET', path: '/trace', body: { title: 'Request Entity Too Large', status: 413, detail: 'Execution trace is too large for inline retrieval' } }), /too large for the service to send.*web console/],
    ];
    const lines = new Set<string>();
    for (const [code, fault, words] of cases) {
      fault();
      const reading = await ctx.api.traces.load(task.id, { refresh: true });
      assert.strictEqual(reading.kind, 'unavailable', code);
      assert.match(reading.kind === 'unavailable' ? reading.message : '', words, code);
      lines.add(reading.kind === 'unavailable' ? reading.message : '');
    }
    assert.strictEqual(lines.size, 4, 'four different lines');
    // A view opened now (the one opened on submit goes first) shows the last refusal without asking again.
    ctx.api.resultPanels.loaded?.panelOf(task.id)?.dispose();
    await ctx.api.resultPanels.page.show(ctx.api.store.get(task.id)!);
    const html = ctx.api.resultPanels.loaded!.panelOf(task.id)!.webview.html;
    assert.match(html, /class="error" role="alert">[^<]*too large for the service/, 'the last refusal is shown in the section');
    assert.match(html, /data-offer="copy"/, 'the answer and its buttons are still there');
    assert.match(html, /findings\.csv/);
  });

  it('a hostile trace renders inert in the view', async () => {
    const task = await completedTask('<script>alert("pwned")</script> [run](command:multiAgent.clearApiKey) ![x](https://e.example/p.png)');
    await vscode.commands.executeCommand('multiAgent.showTrace', task.id);
    ctx.api.resultPanels.loaded!.panelOf(task.id)!.dispose();
    await ctx.api.resultPanels.page.show(ctx.api.store.get(task.id)!);
    const section = traceSection(ctx.api.resultPanels.loaded!.panelOf(task.id)!.webview.html);
    assert.match(section, /&lt;script&gt;alert\(&quot;pwned&quot;\)/, 'the script is text');
    assert.match(section, /run \(command:multiAgent\.clearApiKey\)/, 'the command link is text');
    assert.ok(!/<(script|img|a|iframe)\b/i.test(section), section.slice(0, 400));
    assert.ok(!/<[^>]*(href|src|on\w+)=/i.test(section));
  });

  it('live activity while the task runs: each agent’s state and tool in the Tasks view, the tools in the result view', async () => {
    ctx.emulator.setTaskDuration(6_000);
    ctx.emulator.setNextTask({ hold: true }); // it cannot end before its activity is seen
    const task = (await orchestrate(ctx, 'Watch the tools work'))!;
    await ctx.api.resultPanels.page.show(task);
    const running = await waitFor(() => {
      const t = ctx.api.store.get(task.id);
      return t?.activity?.some(a => a.status === 'running') ? t : undefined;
    }, 'a running tool', 15_000);
    const node = tasksTree()
      .getChildren()
      .find(n => n.kind === 'task' && n.task.id === task.id)!;
    const agents = tasksTree().getChildren(node);
    assert.ok(agents.length >= 2 && agents.every(a => a.kind === 'agent'));
    const descriptions = agents.map(a => String(tasksTree().getTreeItem(a as TasksTreeNode).description));
    assert.ok(descriptions.every(d => /^(queued|working|done|failed)/.test(d)), descriptions.join(' | '));
    const tool = running.activity!.find(a => a.status === 'running')!;
    // The running page gets its activity in place (a message with the section's markup), not as a new page.
    const html = await waitFor(() => {
      const live = ctx.api.resultPanels.loaded?.liveOf(task.id)?.teamRunning ?? '';
      return /Live activity/.test(live) ? live : undefined;
    }, 'the activity in the result view');
    assert.match(html, new RegExp(`<code>${tool.tool}</code>`));
    // Issue 26: one-line summaries; the raw JSON only inside a <details>' <pre>, never in the row itself.
    assert.ok(!/\{&quot;/.test(html.replace(/<pre[^>]*>[\s\S]*?<\/pre>/g, '')), html);
    assert.strictEqual(ctx.emulator.release(), 1);
    await finished(ctx, task.id, 20_000);
  });

  it('produced files\' names from the server are shown cleaned: the Tasks view\'s row and tooltip, chat\'s Open button', async () => {
    const now = Date.now();
    const task = { id: 'task_names', title: 'Name it badly', instruction: 'Name it badly', prompt: 'Name it badly', promptChars: 13, submittedAt: now, updatedAt: now, status: 'completed' };
    const rlo = 'invoice\u202efdp.exe';
    const shown = { ...task, files: [{ filename: rlo, fileId: 'file_x', mimeType: 'application/pdf' }, { filename: 'a\u061cb\u0007.csv', fileId: 'file_y' }] };
    const items = producedFileNodes(shown).map(producedFileItem);
    assert.deepStrictEqual(items.map(i => i.label), ['invoicefdp.exe', 'ab.csv']);
    for (const item of items) assert.ok(!/[\u0000-\u0009\u000b-\u001f\u061c\u202a-\u202e]/.test((item.tooltip as vscode.MarkdownString).value), (item.tooltip as vscode.MarkdownString).value);
    const buttons: vscode.Command[] = [];
    const said: string[] = [];
    producedFileButtons({ button: (c: vscode.Command) => buttons.push(c), markdown: (m: string) => said.push(m) } as unknown as vscode.ChatResponseStream, shown);
    // One button under a chat answer (its buttons stack, issue 45); the other file is named in the result view.
    assert.deepStrictEqual(buttons.map(b => b.title), ['Open invoicefdp.exe']);
    assert.deepStrictEqual(said, ['1 more file the agents made is in the result view.']);
  });

  it('produced files: listed in the Tasks view; Open, Save As and Attach to Next Task through the files path', async () => {
    const task = await completedTask('Review the numbers');
    const file = task.files![0];
    assert.strictEqual(file.filename, 'findings.csv');
    assert.strictEqual(file.mimeType, 'text/csv');
    const node = tasksTree()
      .getChildren()
      .find(n => n.kind === 'task' && n.task.id === task.id)!;
    assert.strictEqual(tasksTree().getTreeItem(node).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const [fileNode] = tasksTree().getChildren(node);
    const item = tasksTree().getTreeItem(fileNode);
    assert.strictEqual(item.label, 'findings.csv');
    assert.match(String(item.description), /^text\/csv · \d+ B$/);
    assert.strictEqual(item.contextValue, 'producedFile.stored');

    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.openProducedFile', task.id, 0);
    assert.match(editor.document.getText(), /^agent,focus,finding\n/);
    assert.strictEqual(editor.document.uri.scheme, 'multi-agent-file');

    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mat-produced-')), 'findings.csv');
    ctx.user.saveTo = vscode.Uri.file(target);
    await vscode.commands.executeCommand('multiAgent.saveProducedFileAs', fileNode);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), editor.document.getText());

    await vscode.commands.executeCommand('multiAgent.attachProducedFile', task.id, 0);
    assert.deepStrictEqual(
      ctx.api.attachments.list().map(u => path.basename(u.path)),
      ['findings.csv'],
    );
    assert.ok(requestsTo(ctx, 'GET', `/files/${file.fileId}/content`).length >= 3, 'each went through the download path');
    // It goes with the next task under its own name: no local path of the extension's storage.
    const next = (await orchestrate(ctx, 'Use the attached findings'))!;
    const body = requestsTo(ctx, 'POST', /\/run$/).at(-1)!.body as { prompt: string };
    assert.match(body.prompt, /Attached file findings\.csv:/);
    assert.ok(!body.prompt.includes(path.sep === '/' ? '/produced/' : '\\produced\\') && !body.prompt.includes(os.homedir()), 'no local path in the prompt');
    assert.deepStrictEqual(ctx.api.store.get(next.id)?.attachmentNames, ['findings.csv']);
    await finished(ctx, next.id);
  });

  it('sources: title, host and snippet; only an https address is opened, and only on request', async () => {
    const task = await completedTask('Find references for mean()');
    assert.strictEqual(task.sources?.length, 3);
    assert.ok(task.sources!.every(s => s.url.startsWith('https://') && s.title && s.snippet));
    await ctx.api.store.enrich(task.id, { status: 'completed', sources: [{ url: 'http://plain.example/', title: 'plain' }] });
    const plain = ctx.api.store.get(task.id)!.sources!.length - 1;
    assert.strictEqual(await vscode.commands.executeCommand('multiAgent.openSource', task.id, plain), undefined);
    assert.ok(ctx.user.messages('error').some(m => /Only https addresses are opened; this source is http/.test(m)), ctx.user.messages('error').join(' | '));
  });

  it('Continue in Thread runs the next instruction in the thread the service saved the task to', async () => {
    const task = await completedTask('Start a conversation');
    // From the palette, in an editor with nothing selected: the instruction is asked, the code is not (issue 26).
    const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'export const unrelated = 1;\n' });
    await vscode.window.showTextDocument(doc);
    const before = ctx.user.shown.length;
    ctx.user.inputs = ['Now go further'];
    const next = await vscode.commands.executeCommand<{ id: string; threadId?: string }>('multiAgent.continueInThread', task.id);
    assert.ok(next);
    assert.strictEqual(next.threadId, task.conversationId);
    const asked = ctx.user.shown.slice(before);
    assert.deepStrictEqual(asked.map(s => s.kind), ['input'], JSON.stringify(asked));
    assert.match(asked[0].message, /No code goes with this task/);
    const runs = requestsTo(ctx, 'POST', `/threads/${task.conversationId}/runs`);
    assert.strictEqual(runs.length, 1);
    assert.strictEqual((runs[0].body as { prompt: string }).prompt, 'Now go further', 'the instruction alone');
    // The same live view as any task opens on submit.
    assert.ok(ctx.api.resultPanels.loaded?.panelOf(next.id), 'its result view opened');
    await finished(ctx, next.id);

    // The result view's box: the follow-up typed there goes as it is, nothing asked.
    const more = ctx.user.shown.length;
    const third = await vscode.commands.executeCommand<{ id: string; threadId?: string }>('multiAgent.continueInThread', task.id, 'And document it');
    assert.ok(third);
    assert.deepStrictEqual(ctx.user.shown.slice(more).filter(s => s.kind === 'input' || s.kind === 'ask'), []);
    assert.strictEqual((requestsTo(ctx, 'POST', `/threads/${task.conversationId}/runs`)[1].body as { prompt: string }).prompt, 'And document it');
    // Listed newest first, like any task.
    const rows = ctx.api.sidebar!.tasks.getChildren() as TasksTreeNode[];
    assert.strictEqual((rows[0] as { task?: { id: string } }).task?.id, third.id);
    await finished(ctx, third.id);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a task whose one-hour state expired while the window was closed is read from its thread', async () => {
    const task = await completedTask('Remember this after an hour');
    const result = await ctx.api.store.readResult(task.id);
    // As after a reload: the record still says "processing" (the window closed before the end), the service forgot it.
    await ctx.api.store.remove(task.id);
    ctx.emulator.advanceClock(2 * HOUR);
    const revived = { ...task, status: 'processing', finishedAt: undefined, conversationId: undefined, files: undefined, resultChars: undefined, notified: false };
    await ctx.api.store.add(revived);
    ctx.api.poller.wake();
    const done = await finished(ctx, task.id, 30_000);
    assert.strictEqual(done.status, 'completed', done.error);
    assert.strictEqual(await ctx.api.store.readResult(task.id), result);
    assert.strictEqual(done.conversationId, task.conversationId);
  });

  it('a result over 3 MiB (live /results 413): the thread is tried, and the user is told plainly', async () => {
    await setSetting('useStream', false);
    try {
      ctx.emulator.setNextTask({ resultBytes: 3_300_000, durationMs: 400 });
      const task = (await orchestrate(ctx, 'A huge answer'))!;
      await finished(ctx, task.id);
      const told = await waitFor(() => {
        const t = ctx.api.store.get(task.id);
        return t?.error?.includes('thread') ? t : undefined;
      }, 'the thread tried');
      assert.strictEqual(told.status, 'completed');
      assert.match(told.error!, /too large to download inline, and so is its copy in the task's thread; open it in the web console/);
      assert.ok(requestsTo(ctx, 'GET', '/results/').some(r => r.status === 413));
      assert.ok(requestsTo(ctx, 'GET', `/threads/${told.conversationId}/messages`).length >= 1);
    } finally {
      await setSetting('useStream', undefined);
    }
  });
});

describe('team: budget, role models and reasoning effort go through the engine run', function () {
  this.timeout(60_000);
  const ctx = useExtensionWithEmulator({ strictRunRequest: true });
  const engineRuns = () => requestsTo(ctx, 'POST', /^\/api\/v1\/run$/);
  const developerRuns = () => requestsTo(ctx, 'POST', /\/developer\/run$/);

  afterEach(async () => {
    for (const name of ['budgetUsd', 'roleModels', 'reasoningEffort', 'modelId', 'baseUrl']) await setSetting(name, name === 'baseUrl' ? ctx.emulator.baseUrl : undefined);
  });

  it('with none set, the Developer /run', async () => {
    const task = (await orchestrate(ctx, 'Plain'))!;
    await finished(ctx, task.id);
    assert.strictEqual(developerRuns().length, 1);
    assert.strictEqual(engineRuns().length, 0);
    assert.strictEqual(ctx.api.store.get(task.id)?.via, undefined);
  });

  it('a budget goes to the engine run with an idempotency key; what it spent shows on the task', async () => {
    await setSetting('budgetUsd', 1);
    await setSetting('roleModels', { 'Agent-2': 'openai/gpt-5.1' });
    const task = (await orchestrate(ctx, 'Within budget'))!;
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'completed', done.error);
    assert.strictEqual(developerRuns().length, 0);
    const body = engineRuns()[0].body as { budget?: number; role_models?: object; options?: { idempotencyKey?: string; agentCount?: number } };
    assert.strictEqual(body.budget, 1);
    assert.deepStrictEqual(body.role_models, { 'Agent-2': 'openai/gpt-5.1' });
    assert.match(body.options?.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
    const spent = await waitFor(() => ctx.api.store.get(task.id)?.budget, 'the budget usage');
    assert.strictEqual(spent.initialUsd, 1);
    assert.ok(spent.consumedUsd > 0);
    const node = ctx.api.sidebar.tasks.getChildren().find(n => n.kind === 'task' && n.task.id === task.id)!;
    const tooltip = ctx.api.sidebar.tasks.getTreeItem(node).tooltip as vscode.MarkdownString;
    // appendText escapes markdown's characters: read it back as the user sees it.
    assert.match(tooltip.value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1'), /Budget: \$0\.0\d+ of \$1\.00 spent/);
  });

  it('a budget crossed ends the task as the service says, and the task says why', async () => {
    await setSetting('budgetUsd', 0);
    const task = (await orchestrate(ctx, 'No money'))!;
    const done = await finished(ctx, task.id);
    assert.strictEqual(done.status, 'failed');
    // Issue 26: plain words, not the engine's "OrchestrationError[…]: …".
    assert.strictEqual(done.error, 'Stopped: budget of $0.00 reached before the agents could answer. Raise multiAgent.budgetUsd, or clear it, and run the task again.');
  });

  it('a reasoning effort the model does not take is refused before anything is sent; one it takes is sent with the model', async () => {
    await setSetting('modelId', 'zai/glm-5.2');
    await setSetting('reasoningEffort', 'high');
    await orchestrate(ctx, 'Think hard');
    assert.ok(ctx.user.messages('error').some(m => /The model zai\/glm-5\.2 has no configurable reasoning effort/.test(m)), ctx.user.messages('error').join(' | '));
    assert.strictEqual(engineRuns().length + developerRuns().length, 0);

    await setSetting('modelId', 'openai/gpt-5.1');
    const task = (await orchestrate(ctx, 'Think hard'))!;
    await finished(ctx, task.id);
    const body = engineRuns()[0].body as { modelId?: string; reasoningEffort?: string };
    assert.deepStrictEqual([body.modelId, body.reasoningEffort], ['openai/gpt-5.1', 'high']);
    assert.strictEqual(ctx.api.store.get(task.id)?.reasoningEffort, 'high');
  });

  it('a reasoning effort the model does not take is told when it is set, before any task; a refused submission keeps the typed instruction', async () => {
    await setSetting('modelId', 'zai/glm-5.2');
    await setSetting('reasoningEffort', 'high');
    const told = await waitFor(() => ctx.user.messages('warn').find(m => /zai\/glm-5\.2 has no configurable reasoning effort/.test(m)), 'the warning on set');
    assert.match(told, /tasks would be refused\. Choose another model, or clear the setting\./);
    assert.strictEqual(engineRuns().length + developerRuns().length, 0, 'nothing was sent');

    // Sent anyway: refused, and the instruction typed is what the next question offers again.
    let offered: string | undefined;
    await orchestrate(ctx, 'Keep what I typed');
    ctx.user.inputs.push((_s, options) => {
      offered = (options as vscode.InputBoxOptions).value;
      return undefined;
    });
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    assert.strictEqual(offered, 'Keep what I typed');

    // A model that takes it: nothing more is said.
    const warned = ctx.user.messages('warn').length;
    await setSetting('modelId', 'openai/gpt-5.1');
    assert.strictEqual(await ctx.api.effortCheck.checked, undefined);
    assert.strictEqual(ctx.user.messages('warn').length, warned);
  });

  it('the earlier API form keeps its /run and says once that the engine settings are not applied', async () => {
    await setSetting('baseUrl', ctx.emulator.legacyBaseUrl);
    await setSetting('budgetUsd', 1);
    for (const instruction of ['Old form one', 'Old form two']) {
      const task = (await orchestrate(ctx, instruction))!;
      await finished(ctx, task.id);
    }
    assert.strictEqual(requestsTo(ctx, 'POST', /^\/api\/developer\/run$/).length, 2);
    assert.strictEqual(engineRuns().length, 0);
    assert.strictEqual(ctx.user.messages('info').filter(m => /earlier API form .* has no engine run: multiAgent\.budgetUsd are not applied/.test(m)).length, 1, 'said once');
  });
});

describe('team: chat shows the same', function () {
  this.timeout(60_000);
  const ctx = useExtensionWithEmulator();

  it('#multiAgent returns beside its text a JSON data part {taskId, status, files, sources} where VS Code has data parts', async () => {
    const result = await vscode.lm.invokeTool('multiAgent_runTask', { input: { prompt: 'Review the numbers', agentCount: 2 }, toolInvocationToken: undefined });
    const [task] = ctx.api.store.all();
    const [text, ...rest] = result.content;
    assert.ok(text instanceof vscode.LanguageModelTextPart);
    assert.strictEqual(text.value, await ctx.api.store.readResult(task.id));
    const DataPart = (vscode as unknown as { LanguageModelDataPart?: new (...a: never[]) => { mimeType: string; data: Uint8Array } }).LanguageModelDataPart;
    const [major, minor] = vscode.version.split('.').map(Number);
    if (major === 1 && minor < 106) {
      assert.deepStrictEqual(rest, [], `VS Code ${vscode.version} takes no data parts in tool results: the text alone`);
      return;
    }
    assert.ok(DataPart, `VS Code ${vscode.version} has LanguageModelDataPart`);
    assert.strictEqual(rest.length, 1, `VS Code ${vscode.version}: one data part`);
    const part = rest[0] as { mimeType: string; data: Uint8Array };
    assert.ok(part instanceof DataPart);
    assert.match(part.mimeType, /json/);
    const data = JSON.parse(new TextDecoder().decode(part.data)) as { taskId: string; status: string; files: { filename: string; fileId?: string }[]; sources: { url: string }[] };
    assert.strictEqual(data.taskId, task.id);
    assert.strictEqual(data.status, 'completed');
    assert.strictEqual(data.files[0].filename, 'findings.csv');
    assert.match(data.files[0].fileId ?? '', /^file-/);
    assert.strictEqual(data.sources.length, 3);
  });

  it('@team: the answer offers its next steps and the first produced file as buttons (commands, not links); the trace is in the result view', async () => {
    const { createAgentsHandler } = await import('../../src/chat/participant');
    const buttons: vscode.Command[] = [];
    const markdown: string[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => markdown.push(typeof v === 'string' ? v : v.value),
      progress: () => undefined,
      button: (c: vscode.Command) => buttons.push(c),
      anchor: () => undefined,
      reference: () => undefined,
      push: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const handler = createAgentsHandler({ log: ctx.api.log, keys: ctx.api.keys, store: ctx.api.store, pipeline: ctx.api.pipeline, threads: ctx.api.threads });
    const result = (await handler(
      { prompt: 'review the numbers', command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest,
      { history: [] },
      stream,
      new vscode.CancellationTokenSource().token,
    )) as vscode.ChatResult;
    const taskId = (result.metadata as { taskId: string }).taskId;
    // Chat stacks its buttons: the next steps only (issue 45). The trace is one click away in the result view.
    assert.strictEqual(buttons.find(b => b.command === 'multiAgent.showTrace'), undefined);
    assert.deepStrictEqual(buttons.find(b => b.command === 'multiAgent.openResult')?.arguments, [taskId, { from: 'chat' }]);
    assert.strictEqual(buttons.filter(b => b.command === 'multiAgent.openProducedFile').length, 1, 'one file button');
    const open = buttons.find(b => b.command === 'multiAgent.openProducedFile');
    assert.deepStrictEqual(open?.arguments, [taskId, 0]);
    assert.strictEqual(open?.title, 'Open findings.csv');
    assert.ok(!markdown.join('').includes('](command:'), 'no command link in the answer');
  });
});
