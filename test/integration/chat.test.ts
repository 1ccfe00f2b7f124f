/**
 * Chat: the `#multiAgent` language model tool through `vscode.lm.invokeTool` (as agent mode calls it), and
 * the `@team` participant's handler driven with a recording response stream (1.100 has no Chat view;
 * the e2e suite drives the real Chat view on the newest code-server).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Chat } from '../../src/chat/ids';
import { type AgentsResultMetadata, createAgentsHandler } from '../../src/chat/participant';
import { MultiAgentTool, parseToolInput } from '../../src/chat/tool';
import { Commands } from '../../src/constants';
import { inert } from '../../src/errors';
import { isFinished } from '../../src/tasks/model';
import { chatFollowups } from '../../src/chat/checkLoop';
import { DEMO_FILE_PATH, FAILING_TEST_NAME, SAMPLE_INSTRUCTION } from '../emulator/checkLoop';
import { setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

function invokeTool(input: object, token?: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
  return Promise.resolve(vscode.lm.invokeTool(Chat.tool, { input, toolInvocationToken: undefined }, token));
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}


describe('chat: the #multiAgent language model tool', function () {
  const ctx = useExtensionWithEmulator();
  const runs = () => ctx.emulator.requests.filter(r => r.method === 'POST' && /\/run$/.test(r.path));

  it('is contributed with its input schema', () => {
    const tool = vscode.lm.tools.find(t => t.name === Chat.tool);
    assert.ok(tool, `${Chat.tool} in vscode.lm.tools`);
    assert.deepStrictEqual((tool.inputSchema as { required?: string[] }).required, ['prompt']);
  });

  it('rejects invalid input with clear messages and sends nothing', async () => {
    await assert.rejects(invokeTool({}), /"prompt" is required/);
    await assert.rejects(invokeTool({ prompt: 'x', agentCount: 12, colour: 'red' }), (e: Error) => {
      assert.match(e.message, /"agentCount" must be a whole number from 1 to 8 \(got 12\)/);
      assert.match(e.message, /Unknown input properties: colour/);
      return true;
    });
    await assert.rejects(invokeTool({ prompt: 'x', files: 'src/math.ts' }), /"files" must be an array/);
    await assert.rejects(invokeTool({ prompt: 'x', files: ['src/nope.ts'] }), /the file "src\/nope\.ts" was not found/);
    assert.strictEqual(runs().length, 0);
    assert.strictEqual(ctx.api.store.all().length, 0);
  });

  it('counts the prompt as the service does: characters (code points), not UTF-16 units', () => {
    // 6,000 emoji are 12,000 UTF-16 units but 6,000 characters: under the 10,000 the service accepts.
    assert.strictEqual(parseToolInput({ prompt: '😀'.repeat(6_000) }).prompt.length, 12_000);
    assert.throws(() => parseToolInput({ prompt: '😀'.repeat(10_001) }), /"prompt" has 10,001 characters; at most 10,000 are accepted/);
  });

  it('asks first, naming the quota; asks nothing for input it will reject', async () => {
    // In an extension test VS Code answers its own confirmation dialogs with "yes" (DialogService.skipDialogs),
    // so the question is checked where it is made.
    const tool = new MultiAgentTool({ log: ctx.api.log, keys: ctx.api.keys, store: ctx.api.store, pipeline: ctx.api.pipeline, threads: ctx.api.threads });
    const prepared = await tool.prepareInvocation({ input: { prompt: 'Review mean()', files: ['src/math.ts'], agentCount: 3 } });
    assert.match(prepared.confirmationMessages?.title ?? '', /quota/);
    const message = prepared.confirmationMessages!.message;
    // MarkdownString.appendText escapes the text for markdown; read it back as the user sees it.
    const text = (typeof message === 'string' ? message : message.value).replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
    assert.match(text, /uses your quota/);
    assert.match(text, /Review mean\(\)/);
    assert.match(text, /src\/math\.ts/);
    assert.strictEqual((await tool.prepareInvocation({ input: { prompt: '' } as never })).confirmationMessages, undefined);
  });

  it('runs the task like any other and returns its result', async () => {
    const result = await invokeTool({ prompt: 'Review mean() for edge cases', files: ['src/math.ts'], agentCount: 2 });
    const [task] = ctx.api.store.all();
    assert.ok(task, 'the task is in the store (Tasks view, status bar)');
    assert.strictEqual(task.status, 'completed');
    assert.strictEqual(task.source?.label, 'src/math.ts');
    assert.strictEqual(textOf(result), await ctx.api.store.readResult(task.id));
    assert.match(textOf(result), /> Review mean\(\) for edge cases/);
    assert.strictEqual(runs().length, 1);
    assert.strictEqual((runs()[0].body as { options?: { agentCount?: number } }).options?.agentCount, 2);
    assert.match((runs()[0].body as { prompt: string }).prompt, /export function mean/);
  });

  it('returns the failure reason when the task fails', async () => {
    ctx.emulator.setNextTask({ outcome: 'failed', error: 'The agents ran out of budget' });
    const result = await invokeTool({ prompt: 'Plan the refactoring' });
    assert.match(textOf(result), /ended as "failed": The agents ran out of budget/);
  });

  it('cancelling the request cancels the task on the service', async function () {
    ctx.emulator.setTaskDuration(60_000);
    const cts = new vscode.CancellationTokenSource();
    const invoked = invokeTool({ prompt: 'A long review' }, cts.token);
    const task = await waitFor(() => ctx.api.store.all()[0], 'the task in the store');
    cts.cancel();
    await assert.rejects(invoked);
    await waitFor(() => isFinished(ctx.api.store.get(task.id) ?? { status: 'processing' }), 'the task to stop in the store');
    assert.strictEqual(ctx.api.store.get(task.id)?.status, 'canceled');
    await waitFor(() => ctx.emulator.task(task.id)?.canceledAt !== undefined, 'the emulator to record the cancel');
  });
});

/** A response stream that remembers what the participant rendered. */
class RecordingStream {
  readonly markdown: string[] = [];
  readonly progress: string[] = [];
  readonly buttons: vscode.Command[] = [];
  asStream(): vscode.ChatResponseStream {
    const push = (part: unknown) => {
      if (part instanceof vscode.ChatResponseMarkdownPart) this.markdown.push(part.value.value);
    };
    return {
      markdown: (value: string | vscode.MarkdownString) => {
        assert.ok(typeof value === 'string' || !value.isTrusted, 'server text is never trusted markdown');
        this.markdown.push(typeof value === 'string' ? value : value.value);
      },
      progress: (value: string) => this.progress.push(value),
      button: (command: vscode.Command) => this.buttons.push(command),
      anchor: () => undefined,
      filetree: () => undefined,
      reference: () => undefined,
      push,
    } as unknown as vscode.ChatResponseStream;
  }
}

function chatRequest(prompt: string, extra: Partial<vscode.ChatRequest> = {}): vscode.ChatRequest {
  return { prompt, command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, ...extra } as unknown as vscode.ChatRequest;
}

/** A history with one earlier `@team` answer carrying `metadata`. */
function historyWith(metadata: AgentsResultMetadata): vscode.ChatContext {
  const Turn = vscode.ChatResponseTurn as unknown as new (response: unknown[], result: vscode.ChatResult, participant: string, command?: string) => vscode.ChatResponseTurn;
  return { history: [new Turn([], { metadata }, Chat.participant)] } as vscode.ChatContext;
}

describe('chat: the @team participant', function () {
  const ctx = useExtensionWithEmulator();
  const handler = () => createAgentsHandler({ log: ctx.api.log, keys: ctx.api.keys, store: ctx.api.store, pipeline: ctx.api.pipeline, threads: ctx.api.threads });
  const none = new vscode.CancellationTokenSource().token;

  it('is registered, and the chat API exists on this VS Code', () => {
    assert.strictEqual(typeof vscode.chat.createChatParticipant, 'function');
  });

  it('turns the request and the selection into a task in a service thread, shows the agents, renders the answer with buttons', async () => {
    // Held by the emulator's clock (issue 26): the progress lines are read while the task runs, whatever the load.
    ctx.emulator.setTaskDuration(60_000);
    const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'math.ts'));
    const range = new vscode.Range(0, 0, 3, 0);
    const stream = new RecordingStream();
    const pending = handler()(
      chatRequest('review this for edge cases', { references: [{ id: 'vscode.implicit.selection', value: new vscode.Location(document.uri, range) } as vscode.ChatPromptReference] }),
      { history: [] },
      stream.asStream(),
      none,
    );
    const working = () => stream.progress.filter(p => p.startsWith('The agents are working: '));
    await waitFor(() => stream.progress.some(p => p.startsWith('The agents are working on')), 'the task to be sent');
    ctx.emulator.advanceClock(20_000);
    await waitFor(() => working().length > 0, 'a milestone line');
    ctx.emulator.advanceClock(25_000);
    await waitFor(() => working().length > 1, 'the next milestone line');
    ctx.emulator.advanceClock(20_000);
    const result = (await pending) as vscode.ChatResult;
    assert.strictEqual(result.errorDetails, undefined, result.errorDetails?.message);
    const metadata = result.metadata as AgentsResultMetadata;
    const task = ctx.api.store.get(metadata.taskId!);
    assert.ok(task, 'the task is in the store');
    assert.strictEqual(task.status, 'completed');
    assert.deepStrictEqual(task.source?.range, { startLine: 0, startCharacter: 0, endLine: 3, endCharacter: 0 });
    assert.ok(metadata.threadId, 'the chat runs in a service thread');
    assert.strictEqual(task.threadId, metadata.threadId);
    // Issue 26: a line per milestone (a quarter of the work, an agent done), never a line of percentages per tick.
    assert.ok(working().every(p => /^The agents are working: (about (25|50|75)%)?(, )?(\d+ of \d+ done)?…$/.test(p)), `agent progress shown: ${stream.progress.join(' | ')}`);
    assert.ok(working().length <= 3 + (task.agents?.length ?? 4), `one line per milestone: ${working().join(' | ')}`);
    assert.strictEqual(new Set(stream.progress).size, stream.progress.length, `no line twice: ${stream.progress.join(' | ')}`);
    assert.deepStrictEqual(stream.markdown, [inert((await ctx.api.store.readResult(task.id))!)]);
    assert.deepStrictEqual(stream.buttons.find(b => b.command === Commands.openResult)?.arguments, [task.id, { from: 'chat' }], 'Open Result opens no column beside the chat');
    // The answer names files (the landing format): it is reviewed hunk by hunk. The buttons follow the one rule of
    // tasks/offers.ts, as the done notification does: Review Changes…, and no Apply to Source beside it (issue 24).
    // Then the team's work (issue 18): the trace and the file the agents made.
    // Check Proposal… is the chat's follow-up (issue 45), not a fifth button.
    // The next steps only (chat stacks its buttons, issue 45): the trace is in the result view.
    assert.deepStrictEqual(stream.buttons.map(b => b.command), [Commands.openResult, Commands.reviewChanges, Commands.openProducedFile]);
    assert.deepStrictEqual(stream.buttons.find(b => b.command === Commands.reviewChanges)?.arguments, [task.id]);
  });

  it('the check loop stays in chat (issue 45): /check answers with the verdict, /fix with the fix in the same thread, /check again passes; no toast, no result tab', async () => {
    await setSetting('check.command', 'node --test');
    await setSetting('openResultOnSubmit', false);
    ctx.user.onMessage = s => (s.kind === 'ask' && s.actions.includes('Run Check') ? 'Run Check' : undefined);
    try {
      const file = workspaceUri(...DEMO_FILE_PATH.split('/'));
      const asked = (await handler()(chatRequest(SAMPLE_INSTRUCTION, { references: [{ id: 'file', value: file } as vscode.ChatPromptReference] }), { history: [] }, new RecordingStream().asStream(), none)) as vscode.ChatResult;
      const first = asked.metadata as AgentsResultMetadata;
      assert.strictEqual(ctx.api.store.get(first.taskId!)?.status, 'completed');
      assert.deepStrictEqual(chatFollowups({ store: ctx.api.store }, asked).map(f => [f.command, f.label]), [['check', 'Check Proposal…']]);

      const checking = new RecordingStream();
      const checked = (await handler()(chatRequest('check the proposal on this machine', { command: 'check' }), historyWith(first), checking.asStream(), none)) as vscode.ChatResult;
      assert.strictEqual(checked.errorDetails, undefined, checked.errorDetails?.message);
      assert.match(checking.markdown.join(''), new RegExp(`The proposal fails "node --test".*${FAILING_TEST_NAME}`));
      assert.ok(!ctx.user.shown.some(s => s.kind === 'warn' && s.message.includes(FAILING_TEST_NAME)), 'no toast beside the chat');
      assert.deepStrictEqual(chatFollowups({ store: ctx.api.store }, checked).map(f => [f.command, f.label]), [['fix', 'Ask the Team to Fix']]);

      const fixing = new RecordingStream();
      const fixed = (await handler()(chatRequest('fix what the check found', { command: 'fix' }), historyWith(checked.metadata as AgentsResultMetadata), fixing.asStream(), none)) as vscode.ChatResult;
      assert.strictEqual(fixed.errorDetails, undefined, fixed.errorDetails?.message);
      const fix = ctx.api.store.get((fixed.metadata as AgentsResultMetadata).taskId!)!;
      assert.deepStrictEqual(fix.fixOf, { of: first.taskId, round: 1 });
      assert.strictEqual((fixed.metadata as AgentsResultMetadata).threadId, first.threadId, 'in the same service thread');
      assert.deepStrictEqual(fixing.markdown, [inert((await ctx.api.store.readResult(fix.id))!)], 'the fix is the chat\'s answer');
      assert.strictEqual(ctx.api.resultPanels.page.panelOf(fix.id), undefined, 'no result tab beside the chat');
      assert.deepStrictEqual(chatFollowups({ store: ctx.api.store }, fixed).map(f => f.command), ['check']);

      const again = new RecordingStream();
      await handler()(chatRequest('check the proposal on this machine', { command: 'check' }), historyWith(fixed.metadata as AgentsResultMetadata), again.asStream(), none);
      assert.match(again.markdown.join(''), /The proposal passes "node --test"/);
      assert.deepStrictEqual(chatFollowups({ store: ctx.api.store }, { metadata: fixed.metadata }), [], 'nothing left to do in the loop');
    } finally {
      await setSetting('check.command', undefined);
      await setSetting('openResultOnSubmit', undefined);
    }
  });

  it('a follow-up continues the same service thread; /thread starts a new one', async () => {
    const first = (await handler()(chatRequest('first question'), { history: [] }, new RecordingStream().asStream(), none)) as vscode.ChatResult;
    const threadId = (first.metadata as AgentsResultMetadata).threadId!;
    const followUp = (await handler()(chatRequest('and a follow-up'), historyWith({ threadId }), new RecordingStream().asStream(), none)) as vscode.ChatResult;
    assert.strictEqual((followUp.metadata as AgentsResultMetadata).threadId, threadId);
    const threadRuns = ctx.emulator.requests.filter(r => r.method === 'POST' && r.path.endsWith(`/threads/${threadId}/runs`));
    assert.strictEqual(threadRuns.length, 2, 'both requests ran in the thread');
    const fresh = (await handler()(chatRequest('something else', { command: 'thread' }), historyWith({ threadId }), new RecordingStream().asStream(), none)) as vscode.ChatResult;
    assert.notStrictEqual((fresh.metadata as AgentsResultMetadata).threadId, threadId);
    const continued = (await handler()(chatRequest(`${threadId} back to the first`, { command: 'thread' }), { history: [] }, new RecordingStream().asStream(), none)) as vscode.ChatResult;
    assert.strictEqual((continued.metadata as AgentsResultMetadata).threadId, threadId);
  });

  it('renders hostile server text inert', async () => {
    ctx.emulator.setNextTask({ result: 'Done. [click me](command:multiAgent.clearApiKey) and ![x](https://evil.example/x.png)' });
    const stream = new RecordingStream();
    await handler()(chatRequest('anything'), { history: [] }, stream.asStream(), none);
    assert.strictEqual(stream.markdown.length, 1);
    assert.doesNotMatch(stream.markdown[0], /\]\(/);
  });

  it('shows the failure reason', async () => {
    ctx.emulator.setNextTask({ outcome: 'failed', error: 'No agent could [help](command:x)' });
    const result = (await handler()(chatRequest('anything'), { history: [] }, new RecordingStream().asStream(), none)) as vscode.ChatResult;
    assert.match(result.errorDetails?.message ?? '', /No agent could \[help\]\u200B\(command:x\)/);
  });

  it('without a key offers Set API Key and sends nothing', async () => {
    await ctx.api.keys.clearApiKey();
    try {
      const stream = new RecordingStream();
      await handler()(chatRequest('review'), { history: [] }, stream.asStream(), none);
      assert.deepStrictEqual(stream.buttons.map(b => b.command), [Commands.setApiKey]);
      assert.strictEqual(ctx.emulator.requests.filter(r => r.method === 'POST').length, 0);
    } finally {
      await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
    }
  });

  it('cancelling the chat request cancels the task on the service', async function () {
    ctx.emulator.setTaskDuration(60_000);
    const cts = new vscode.CancellationTokenSource();
    const stream = new RecordingStream();
    const answered = handler()(chatRequest('a long review'), { history: [] }, stream.asStream(), cts.token);
    const task = await waitFor(() => ctx.api.store.all()[0], 'the task in the store');
    cts.cancel();
    await answered;
    // Issue 45: the answer says it was stopped instead of ending at its last progress line.
    assert.deepStrictEqual(stream.markdown, ['The task was canceled on the service.']);
    await waitFor(() => ctx.api.store.get(task.id)?.status === 'canceled', 'the task to stop in the store');
    await waitFor(() => ctx.emulator.task(task.id)?.canceledAt !== undefined, 'the emulator to record the cancel');
  });
});
