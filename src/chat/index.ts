/**
 * Chat: the `@team` participant's handler and the `#multiAgent` language model tool. Both only send through
 * the submission pipeline and read the task store, so their tasks show in the Tasks view and the status bar
 * like any other. The shell registers them (standIns.ts) and hands each call on to these.
 */
import type * as vscode from 'vscode';
import type { ChatDeps } from './delegation';
import { chatFollowups } from './checkLoop';
import { createAgentsHandler } from './participant';
import { MultiAgentTool } from './tool';

export interface ChatParts {
  handler: vscode.ChatRequestHandler;
  tool: MultiAgentTool;
  /** What the chat offers after an `@team` answer (the check loop, issue 45). */
  followups: (result: vscode.ChatResult) => vscode.ChatFollowup[];
}

export function chatParts(deps: ChatDeps): ChatParts {
  return { handler: createAgentsHandler(deps), tool: new MultiAgentTool(deps), followups: result => chatFollowups(deps, result) };
}
