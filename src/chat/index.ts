/**
 * Chat: the `@agents` participant and the `#multiAgent` language model tool. Both only send through the
 * submission pipeline and read the task store, so their tasks show in the Tasks view and the status bar
 * like any other. Where the running VS Code lacks the chat API, nothing is registered and nothing breaks.
 */
import * as vscode from 'vscode';
import { messageOf } from '../errors';
import type { ChatDeps } from './delegation';
import { Chat } from './ids';
import { createAgentsHandler } from './participant';
import { MultiAgentTool } from './tool';

export function registerChat(deps: ChatDeps & { extensionUri: vscode.Uri }): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  try {
    disposables.push(vscode.lm.registerTool(Chat.tool, new MultiAgentTool(deps)));
  } catch (e) {
    deps.log.warn(`chat: the language model tool is not available here: ${messageOf(e)}`);
  }
  try {
    const participant = vscode.chat.createChatParticipant(Chat.participant, createAgentsHandler(deps));
    participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'multi-agent.svg');
    disposables.push(participant);
  } catch (e) {
    deps.log.warn(`chat: the @agents participant is not available here: ${messageOf(e)}`);
  }
  return vscode.Disposable.from(...disposables);
}
