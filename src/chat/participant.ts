/**
 * The `@team` chat participant: the request and its references (files, selection, `#` context) become a
 * task; the agents' progress shows while it runs; the answer renders as inert markdown with the buttons the
 * task offers in chat (tasks/offers.ts: Open Result, Review Changes… or Apply to Source…, the trace). A chat is one service thread: the thread id travels in the result metadata,
 * so a follow-up finds it in `context.history`.
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { commandOfAction, describeError, inert, messageOf } from '../errors';
import { checkSentence } from '../tasks/checkWords';
import { type CheckStart, runsOnCompletion } from '../tasks/checking/policy';
import { Actions, keyNeeded, serviceEndReason } from '../vocabulary';
import { latestCheck, titleFrom } from '../tasks/model';
import { offer, offersOf } from '../tasks/offers';
import { type ChatDeps, type TaskCode, agentsMilestone, codeOf, describeAgents, runTask, withExtraCode } from './delegation';
import { Chat } from './ids';
import { producedFileButtons, withServiceDetails } from './teamParts';
import { type AgentsResultMetadata, checkInChat, fixInChat, latestOfHistory } from './checkLoop';

export type { AgentsResultMetadata } from './checkLoop';

export function createAgentsHandler(deps: ChatDeps): vscode.ChatRequestHandler {
  return async (request, context, stream, token): Promise<vscode.ChatResult> => {
    if (!(await deps.keys.getApiKey())) {
      stream.markdown(keyNeeded('chat'));
      stream.button({ command: Commands.setApiKey, title: Actions.setApiKey() });
      return { metadata: {} satisfies AgentsResultMetadata };
    }

    // Issue 45: the check loop stays in the chat that started it.
    if (request.command === Chat.commands.check || request.command === Chat.commands.fix) {
      const loop = request.command === Chat.commands.check ? checkInChat : fixInChat;
      const taskId = latestOfHistory(context.history, 'taskId');
      return withFailuresSaid(deps, stream, { taskId, threadId: latestOfHistory(context.history, 'threadId') }, () => loop(deps, taskId, stream, token));
    }
    const asked = await whatIsAsked(deps, request, context, stream);
    return 'result' in asked ? asked.result : answer(deps, asked, stream, token);
  };
}

/** What a request asks the agents: its instruction, code and thread; or the answer that sends nothing. */
async function whatIsAsked(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
): Promise<{ instruction: string; code: TaskCode[]; threadId: string | undefined } | { result: vscode.ChatResult }> {
  let prompt = request.prompt.trim();
  let threadId: string | undefined;
  if (request.command === Chat.commands.thread) {
    // "/thread 42 …" continues service thread 42; a bare "/thread" starts a new one.
    const m = /^#?(\d+)\b\s*/.exec(prompt);
    if (m) {
      threadId = m[1];
      prompt = prompt.slice(m[0].length);
    }
  } else {
    threadId = latestOfHistory(context.history, 'threadId');
  }

  const { code, notes } = await codeOfReferences(request.references);
  if (request.command === Chat.commands.file) {
    const editor = deps.editors ? deps.editors.current() : vscode.window.activeTextEditor;
    if (!editor) {
      stream.markdown(vscode.l10n.t('`/file` sends the file of the active editor: open one and ask again.'));
      return { result: { metadata: { threadId } satisfies AgentsResultMetadata } };
    }
    if (!code.some(c => c.source.uri === editor.document.uri.toString())) code.unshift(codeOf(editor.document, editor.selection));
  }
  if (!prompt && !code.length) {
    stream.markdown(
      vscode.l10n.t(
        'Tell the agents what to do, for example `@team review this file for edge cases` with a file or selection attached, or `/file` to send the active editor.',
      ),
    );
    return { result: { metadata: { threadId } satisfies AgentsResultMetadata } };
  }
  if (!prompt) {
    // A paid task is never sent with words the user did not write without asking first.
    const fallback = vscode.l10n.t('Review this code.');
    const what = code.map(c => c.context.label).join(', ');
    const send = vscode.l10n.t('Send');
    const ok =
      !!deps.ui &&
      (await deps.ui.confirm(
        vscode.l10n.t('Send {0} to the agents with the instruction "{1}"?', what, fallback),
        vscode.l10n.t('No instruction was typed. The task runs on your quota. Cancel, then write what the agents should do after @team.'),
        send,
      ));
    if (!ok) {
      stream.markdown(vscode.l10n.t('Nothing was sent. Say what the agents should do, for example `@team review this file for edge cases`.'));
      return { result: { metadata: { threadId } satisfies AgentsResultMetadata } };
    }
    prompt = fallback;
  }
  return { instruction: [prompt, ...notes].join('\n\n'), code, threadId };
}

/** Sends what was asked (in a thread of its own when none is given), follows it, and answers with its result. */
async function answer(
  deps: ChatDeps,
  asked: { instruction: string; code: TaskCode[]; threadId: string | undefined },
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { instruction } = asked;
  let threadId = asked.threadId;
  const [first, ...rest] = asked.code;
  const metadata: AgentsResultMetadata = { threadId };

  return withFailuresSaid(deps, stream, metadata, async () => {
      if (!threadId && deps.threads.available) {
        stream.progress(vscode.l10n.t('Starting a service thread…'));
        threadId = String((await deps.threads.create(titleFrom(instruction))).id);
        metadata.threadId = threadId;
      }
      stream.progress(vscode.l10n.t('Sending to the agents…'));
      let lastLine = '';
      const { task, result } = await runTask(deps, { instruction: withExtraCode(instruction, rest), code: first, extraCode: rest, threadId }, token, {
        onSent: task => {
          metadata.taskId = task.id;
          stream.progress(vscode.l10n.t('The agents are working on "{0}" (see the Tasks view)…', task.title));
        },
        onProgress: agents => {
          // VS Code keeps every progress message as a line of the answer: one per milestone, not per tick.
          const line = agentsMilestone(agents);
          if (line && line !== lastLine) stream.progress(line);
          lastLine = line || lastLine;
        },
      });
      metadata.threadId = task.threadId ?? threadId;
      if (task.status !== 'completed' || result === undefined) {
        return { metadata, errorDetails: { message: inert(task.error ?? vscode.l10n.t('The task ended as "{0}".', task.status)) } };
      }
      stream.markdown(inert(result));
      // Issue 37: with check.onComplete, the proposal is checked here and the answer says what the check found.
      if (runsOnCompletion(deps.store.get(task.id) ?? task, deps.pipeline.settings().check, deps.config?.trusted ?? false) && !token.isCancellationRequested) {
        stream.progress(vscode.l10n.t('Checking the proposal on this machine…'));
        await vscode.commands.executeCommand(offer('check').command, task.id, { unasked: true, shownBy: 'chat' } satisfies CheckStart);
      }
      const check = latestCheck(deps.store.get(task.id) ?? task);
      if (check) stream.markdown(`\n\n---\n\n${inert(vscode.l10n.t('Checked on this machine: {0}', checkSentence(check)))}`);
      // What the task offers in chat (tasks/offers.ts), as the done notification and the result view follow it.
      const detailed = await withServiceDetails(deps.store, task);
      // Open Result says it comes from chat: its view opens as a tab, not as a third column beside the chat.
      for (const o of offersOf(detailed, 'chat')) {
        stream.button({ command: o.command, title: vscode.l10n.t(o.label), arguments: o.id === 'open' ? [task.id, { from: 'chat' }] : [task.id] });
      }
      producedFileButtons(stream, detailed);
      return { metadata };
  });
}

/** Runs a chat answer; a failure becomes its message with its buttons (a cancellation, nothing). */
async function withFailuresSaid(deps: ChatDeps, stream: vscode.ChatResponseStream, metadata: AgentsResultMetadata, run: () => Promise<vscode.ChatResult>): Promise<vscode.ChatResult> {
  try {
    return await run();
  } catch (e) {
    const described = describeError(e);
    if (!described) {
      // Stopped: the task was canceled too. Said, so the answer does not end at its last progress line (issue 45).
      try {
        stream.markdown(serviceEndReason('canceled') ?? '');
      } catch {
        // The chat may take nothing more once stopped.
      }
      return { metadata };
    }
    deps.log.error(`@team: ${messageOf(e)}`);
    for (const action of described.actions) {
      const command = commandOfAction(action);
      if (command) stream.button(command);
    }
    return { metadata, errorDetails: { message: described.message } };
  }
}

/** Files and selections as task code; any other context (`#` values that are text) as notes for the instruction. */
async function codeOfReferences(references: readonly vscode.ChatPromptReference[]): Promise<{ code: TaskCode[]; notes: string[] }> {
  const code: TaskCode[] = [];
  const notes: string[] = [];
  for (const ref of references) {
    const value = ref.value;
    try {
      if (value instanceof vscode.Location) code.push(codeOf(await vscode.workspace.openTextDocument(value.uri), value.range));
      else if (value instanceof vscode.Uri) code.push(codeOf(await vscode.workspace.openTextDocument(value)));
      else if (typeof value === 'string' && value.trim()) notes.push(`${ref.modelDescription ?? ref.id}:\n${value.trim()}`);
    } catch {
      // A folder or a binary file: nothing to send as text.
      notes.push(vscode.l10n.t('(The attached {0} could not be read as text.)', value instanceof vscode.Uri ? vscode.workspace.asRelativePath(value) : ref.id));
    }
  }
  // The same range twice (an explicit #selection and the implicit one) goes once.
  const seen = new Set<string>();
  return { code: code.filter(c => !seen.has(JSON.stringify(c.source)) && !!seen.add(JSON.stringify(c.source))), notes };
}
