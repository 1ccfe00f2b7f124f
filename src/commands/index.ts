/** Registers every command; returns one Disposable for all of them. */
import * as vscode from 'vscode';
import { Commands, Views } from '../constants';
import type { Services } from '../services';
import { UserFacingError } from '../tasks/submitter';
import { insertableText, showResult, taskIdOf } from '../views/resultDocuments';
import { Orchestrator } from './orchestrate';
import { registerCommand } from './run';

/** Tree items pass their node; the palette passes nothing; code passes an id. */
function taskIdFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return taskIdOf(arg);
  const id = (arg as { task?: { id?: unknown } } | undefined)?.task?.id;
  return typeof id === 'string' ? id : undefined;
}

export function registerCommands(s: Services): vscode.Disposable {
  const orchestrator = new Orchestrator(s);
  const host = { ui: s.ui, log: s.log };

  /** The task a command is about: its argument, the active result tab, or one the user picks. */
  const resolveTask = async (arg: unknown, filter: (t: { status: string }) => boolean, placeHolder: string) => {
    const id = taskIdFrom(arg) ?? taskIdOf(vscode.window.activeTextEditor?.document.uri ?? vscode.Uri.parse('none:'));
    if (id) {
      const task = s.store.get(id);
      if (!task) throw new UserFacingError(vscode.l10n.t('That task is no longer tracked.'));
      return task;
    }
    const candidates = s.store.all().filter(filter);
    if (!candidates.length) throw new UserFacingError(vscode.l10n.t('There is no such task yet. Orchestrate a selection first.'));
    const picked = await s.ui.pick(
      candidates.map(t => ({ label: t.title, description: t.status, detail: t.source?.label, task: t })),
      { placeHolder },
    );
    return picked?.task;
  };
  const completed = (t: { status: string }) => t.status === 'completed';

  const readResult = async (taskId: string) => {
    const text = await s.store.readResult(taskId);
    if (text === undefined) throw new UserFacingError(vscode.l10n.t('No result is stored for this task.'));
    return text;
  };

  return vscode.Disposable.from(
    registerCommand(host, Commands.orchestrateSelection, () => orchestrator.orchestrateSelection()),
    registerCommand(host, Commands.orchestrateFile, (uri?: unknown) => orchestrator.orchestrateFile(uri)),
    registerCommand(host, Commands.setApiKey, async () => {
      const key = await s.keys.promptForApiKey();
      if (key) {
        s.poller.resume({ keyChanged: true });
        void s.ui.info(vscode.l10n.t('Multi-Agent Tasks: API key saved in the system keychain.'));
      }
      return !!key;
    }),
    registerCommand(host, Commands.clearApiKey, async () => {
      await s.keys.clearApiKey();
      void s.ui.info(vscode.l10n.t('Multi-Agent Tasks: API key removed.'));
    }),
    registerCommand(host, Commands.setGatewayKey, async () => {
      const key = await s.ui.input({
        title: vscode.l10n.t('Multi-Agent Tasks: AI Gateway Key'),
        prompt: vscode.l10n.t('Your key for the third-party AI gateway, sent with each task as vercelAiKey. Leave empty to remove it.'),
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      await s.keys.setGatewayKey(key);
      void s.ui.info(key.trim() ? vscode.l10n.t('Multi-Agent Tasks: AI gateway key saved.') : vscode.l10n.t('Multi-Agent Tasks: AI gateway key removed.'));
    }),
    registerCommand(host, Commands.clearGatewayKey, async () => {
      await s.keys.setGatewayKey(undefined);
      void s.ui.info(vscode.l10n.t('Multi-Agent Tasks: AI gateway key removed.'));
    }),
    registerCommand(host, Commands.openResult, async (arg?: unknown) => {
      const task = await resolveTask(arg, t => completed(t) || t.status === 'failed', vscode.l10n.t('Which result?'));
      if (!task) return undefined;
      if (task.status !== 'completed') {
        throw new UserFacingError(task.error ? `"${task.title}": ${task.error}` : vscode.l10n.t('"{0}" is still running.', task.title));
      }
      return showResult(task);
    }),
    registerCommand(host, Commands.copyResult, async (arg?: unknown) => {
      const task = await resolveTask(arg, completed, vscode.l10n.t('Copy which result?'));
      if (!task) return;
      await vscode.env.clipboard.writeText(await readResult(task.id));
      void s.ui.info(vscode.l10n.t('Result copied.'));
    }),
    registerCommand(host, Commands.insertResult, async (arg?: unknown) => {
      const task = await resolveTask(arg, completed, vscode.l10n.t('Insert which result?'));
      if (!task) return;
      const text = insertableText(await readResult(task.id));
      const editor =
        vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === task.source?.uri) ??
        vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme === 'multi-agent-result') {
        throw new UserFacingError(vscode.l10n.t('Open the file to insert into and place the cursor first.'));
      }
      await editor.edit(edit => edit.replace(editor.selection, text));
    }),
    registerCommand(host, Commands.stopTracking, async (arg?: unknown) => {
      const task = await resolveTask(
        arg,
        t => !['completed', 'failed', 'canceled', 'awaiting_approval'].includes(t.status),
        vscode.l10n.t('Stop tracking which task?'),
      );
      if (!task) return;
      s.poller.forget(task.id);
      await s.store.markNotified(task.id); // the user's own action: no "task canceled" popup
      await s.store.finish(task.id, {
        status: 'canceled',
        error: vscode.l10n.t('Tracking stopped. The service may still finish the task; it has no cancel endpoint.'),
      });
    }),
    registerCommand(host, Commands.showLog, () => s.log.show()),
    registerCommand(host, Commands.showTasks, async () => {
      try {
        await vscode.commands.executeCommand(`${Views.tasks}.focus`);
      } catch {
        s.log.show();
      }
    }),
  );
}
