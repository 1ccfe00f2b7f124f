/**
 * The language model tool (`#multiAgent`): lets agent mode, or any extension through `vscode.lm.invokeTool`,
 * hand a sub-task to the multi-agent service. VS Code does not check the input against the declared
 * schema, so the tool does, with messages a model can act on.
 */
import * as vscode from 'vscode';
import { LIMITS, promptLength } from '../api/requests';
import { describeError, inert } from '../errors';
import { refuseSensitiveFiles } from '../tasks/sending/delegate';
import { keyNeeded, noReasonGiven, promptTooLong } from '../vocabulary';
import { type ChatDeps, type TaskCode, codeOf, describeAgents, runTask, withExtraCode } from './delegation';
import { Chat } from './ids';
import { toolResult, withServiceDetails } from './teamParts';

export interface ToolInput {
  prompt: string;
  /** Workspace-relative paths or URIs of files to send with the prompt. */
  files?: string[];
  agentCount?: number;
  modelId?: string;
}

const MAX_FILES = 10;
const KNOWN = new Set(['prompt', 'files', 'agentCount', 'modelId']);

/** The input as the tool accepts it, or an Error whose message says every problem. */
export function parseToolInput(input: unknown): ToolInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error(vscode.l10n.t('The input must be an object like {"prompt": "…"}.'));
  }
  const raw = input as Record<string, unknown>;
  const problems: string[] = [];
  const unknown = Object.keys(raw).filter(k => !KNOWN.has(k));
  if (unknown.length) problems.push(vscode.l10n.t('Unknown input properties: {0}. Allowed: prompt, files, agentCount, modelId.', unknown.join(', ')));
  const { prompt, files, agentCount, modelId } = raw;
  if (typeof prompt !== 'string' || !prompt.trim()) problems.push(vscode.l10n.t('"prompt" is required: a non-empty string saying what the agents should do.'));
  else if (promptLength(prompt) > LIMITS.promptMaxChars) problems.push(promptTooLong(promptLength(prompt), 'toolInput'));
  if (files !== undefined) {
    if (!Array.isArray(files) || files.some(f => typeof f !== 'string' || !f.trim())) {
      problems.push(vscode.l10n.t('"files" must be an array of workspace-relative paths (non-empty strings).'));
    } else if (files.length > MAX_FILES) problems.push(vscode.l10n.t('"files" may name at most {0} files (got {1}).', MAX_FILES, files.length));
  }
  if (agentCount !== undefined && (typeof agentCount !== 'number' || !Number.isInteger(agentCount) || agentCount < LIMITS.agentCountMin || agentCount > LIMITS.agentCountMax)) {
    problems.push(vscode.l10n.t('"agentCount" must be a whole number from {0} to {1} (got {2}).', LIMITS.agentCountMin, LIMITS.agentCountMax, JSON.stringify(agentCount)));
  }
  if (modelId !== undefined && (typeof modelId !== 'string' || !modelId.trim())) problems.push(vscode.l10n.t('"modelId" must be a non-empty string.'));
  if (problems.length) throw new Error(`${vscode.l10n.t('Invalid input for {0}:', Chat.tool)} ${problems.join(' ')}`);
  return {
    prompt: (prompt as string).trim(),
    files: (files as string[] | undefined)?.map(f => f.trim()),
    agentCount: agentCount as number | undefined,
    modelId: (modelId as string | undefined)?.trim(),
  };
}

export class MultiAgentTool implements vscode.LanguageModelTool<ToolInput> {
  constructor(private readonly deps: ChatDeps) {}

  /**
   * Asks before anything is sent, because a task costs the user quota. Input that will be rejected, or a
   * missing key, asks nothing: `invoke` then explains the problem without a pointless question.
   */
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ToolInput>): Promise<vscode.PreparedToolInvocation> {
    let input: ToolInput;
    try {
      input = parseToolInput(options.input);
    } catch {
      return { invocationMessage: vscode.l10n.t('Checking the multi-agent task…') };
    }
    if (!(await this.deps.keys.getApiKey())) return { invocationMessage: vscode.l10n.t('Checking the multi-agent task…') };
    const short = input.prompt.length > 200 ? `${input.prompt.slice(0, 199)}…` : input.prompt;
    const files = input.files ?? [];
    const agents = input.agentCount;
    const message = new vscode.MarkdownString();
    message.appendText(vscode.l10n.t('Send this task to the multi-agent service? It runs on your account and uses your quota.'));
    message.appendText('\n\n');
    message.appendText(short);
    if (files.length) message.appendText(`\n\n${vscode.l10n.t('Files: {0}', files.join(', '))}`);
    if (agents) message.appendText(`\n\n${vscode.l10n.t('Agents: {0}', agents)}`);
    return {
      invocationMessage: vscode.l10n.t('Running a multi-agent task…'),
      confirmationMessages: { title: vscode.l10n.t('Run a multi-agent task (uses your quota)'), message },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = parseToolInput(options.input);
    if (!(await this.deps.keys.getApiKey())) {
      throw new Error(keyNeeded('tool'));
    }
    // A file that may hold secrets is never sent by a tool call (the editor's Attach Files… asks about it).
    refuseSensitiveFiles(input.files ?? []);
    const code = await Promise.all((input.files ?? []).map(readWorkspaceFile));
    const [first, ...rest] = code;
    try {
      const { task, result } = await runTask(
        this.deps,
        { instruction: withExtraCode(input.prompt, rest), code: first, extraCode: rest },
        token,
        {
          settings: { agentCount: input.agentCount, modelId: input.modelId },
          onProgress: agents => this.deps.log.debug(`chat tool: ${describeAgents(agents)}`),
        },
      );
      const known = await withServiceDetails(this.deps.store, task);
      if (task.status === 'completed' && result !== undefined) return toolResult(result, known);
      return toolResult(vscode.l10n.t('The multi-agent task ended as "{0}": {1}', task.status, inert(task.error ?? noReasonGiven())), known);
    } catch (e) {
      if (e instanceof vscode.CancellationError) throw e;
      const described = describeError(e);
      throw new Error(described?.message ?? String(e));
    }
  }
}

/** A path relative to a workspace folder (or an absolute URI) read as task code; a clear error when it cannot be. */
async function readWorkspaceFile(name: string): Promise<TaskCode> {
  const candidates: vscode.Uri[] = /^[a-z][\w+.-]+:/i.test(name) && !/^[a-z]:[\\/]/i.test(name)
    ? [vscode.Uri.parse(name)]
    : name.startsWith('/')
      ? [vscode.Uri.file(name)]
      : (vscode.workspace.workspaceFolders ?? []).map(f => vscode.Uri.joinPath(f.uri, ...name.split(/[\\/]/)));
  for (const uri of candidates) {
    try {
      return codeOf(await vscode.workspace.openTextDocument(uri));
    } catch {
      // try the next folder
    }
  }
  throw new Error(vscode.l10n.t('Invalid input for {0}: the file "{1}" was not found in the workspace.', Chat.tool, name));
}
