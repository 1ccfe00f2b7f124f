/** Threads: create one, run a task in one (tracked like any other task), open the transcript. */
import * as vscode from 'vscode';
import { Actions } from '../actions';
import type { Thread } from '../api';
import { LIMITS, promptLength } from '../api/requests';
import type { Services } from '../services';
import type { SourceRef, TrackedTask } from '../tasks/model';
import { buildPrompt } from '../tasks/prompt';
import { UserFacingError } from '../tasks/submitter';
import { type ThreadsTreeProvider, threadTitle, transcriptUri } from '../views/threadsTree';
import type { Orchestrator } from './orchestrate';
import { codeFrom } from './orchestrate';

export class ThreadActions {
  constructor(
    private readonly s: Services,
    private readonly tree: ThreadsTreeProvider,
    private readonly orchestrator: Orchestrator,
  ) {}

  async newThread(): Promise<Thread | undefined> {
    if (!(await this.s.keys.ensureApiKey())) return undefined;
    const title = await this.s.ui.input({
      title: vscode.l10n.t('New Thread'),
      prompt: vscode.l10n.t('A title for the thread (optional)'),
      placeHolder: vscode.l10n.t('e.g. Refactoring the parser'),
      ignoreFocusOut: true,
    });
    if (title === undefined) return undefined;
    const thread = await this.s.api.client().createThread({ title });
    this.tree.refresh();
    return thread;
  }

  /** An instruction plus the selection (or the whole active file, or nothing) as a task in the thread. */
  async runInThread(arg: unknown): Promise<TrackedTask | undefined> {
    this.s.submitter.checkedSettings();
    if (!(await this.s.keys.ensureApiKey())) return undefined;
    const thread = await this.resolve(arg);
    if (!thread) return undefined;
    const instruction = await this.orchestrator.askInstruction();
    if (!instruction) return undefined;

    const editor = vscode.window.activeTextEditor;
    let prompt = instruction;
    let source: SourceRef | undefined;
    if (editor && editor.document.uri.scheme !== 'output' && editor.document.getText().trim()) {
      const { document, selection } = editor;
      const range = selection.isEmpty || !document.getText(selection).trim() ? undefined : selection;
      const code = codeFrom(document, range);
      prompt = buildPrompt(instruction, code.context);
      source = code.source;
    }
    if (promptLength(prompt) > LIMITS.promptMaxChars) {
      throw new UserFacingError(
        vscode.l10n.t(
          'The prompt would be {0} characters; a thread run accepts at most 10,000. Select less code and try again.',
          promptLength(prompt).toLocaleString('en-US'),
        ),
      );
    }
    const task = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Sending to the thread…') }, () =>
      this.s.submitter.submit({ instruction, prompt, source, threadId: String(thread.id) }),
    );
    this.s.log.info(`task ${task.id} sent in thread ${thread.id}`);
    return task;
  }

  async openTranscript(arg: unknown): Promise<vscode.TextEditor | undefined> {
    const thread = await this.resolve(arg);
    if (!thread) return undefined;
    const document = await vscode.workspace.openTextDocument(transcriptUri(thread));
    if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    return vscode.window.showTextDocument(document, { preview: false });
  }

  /** A thread node, a message node or id (then the thread is read), or a pick from the loaded threads. */
  private async resolve(arg: unknown): Promise<Thread | undefined> {
    if (this.s.api.client().form === 'earlier') {
      throw new UserFacingError(
        vscode.l10n.t('Threads are not available on the earlier API form (…/api/developer): set multiAgent.baseUrl to …/api/v1/developer.'),
        [Actions.openSettings()],
      );
    }
    const node = arg as { thread?: Thread; threadId?: string } | undefined;
    if (node?.thread) return node.thread;
    const id = typeof arg === 'string' || typeof arg === 'number' ? String(arg) : node?.threadId;
    if (id) return this.s.api.client().getThread(id);
    const threads = await this.tree.threads();
    if (!threads.length) throw new UserFacingError(vscode.l10n.t('There are no threads yet: create one with "New Thread".'));
    const picked = await this.s.ui.pick(
      threads.map(thread => ({ label: threadTitle(thread), description: `#${thread.id}`, thread })),
      { placeHolder: vscode.l10n.t('Which thread?') },
    );
    return picked?.thread;
  }
}
