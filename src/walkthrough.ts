/**
 * Keeps the getting-started walkthrough's ticks true. VS Code ticks a step when a context key of the window
 * turns true, with two gaps this closes:
 * - `editorHasSelection` belongs to each editor, never to the window: "Select some code" could never tick, so a
 *   window-wide key says it instead, set on the first selection in a file.
 * - VS Code registers the walkthrough only once its page is first needed (at once with the Welcome page on start,
 *   much later with `workbench.startupEditor: none`, as in the demo), and a key already true at that moment is
 *   taken as seen but never ticks the step. So every step also listens with the key ANDed with a pulse, both
 *   ways (`pulse` and `!pulse`, package.json); flipping the pulse when a page the API cannot name (the
 *   walkthrough's) opens makes the other half turn true after the registration, and the step ticks.
 */
import * as vscode from 'vscode';
import { ContextKeys } from './constants';

export function keepWalkthroughTicked(): vscode.Disposable {
  let pulse = false;
  const selected = (editor: vscode.TextEditor, selections: readonly vscode.Selection[]) => editor.document.uri.scheme !== 'output' && selections.some(s => !s.isEmpty);
  const selection = vscode.window.onDidChangeTextEditorSelection(event => {
    if (!selected(event.textEditor, event.selections)) return;
    void vscode.commands.executeCommand('setContext', ContextKeys.hasSelectedCode, true);
    selection.dispose();
  });
  // Code selected before the extension started (a busy machine activates it late): that counts too.
  if (vscode.window.visibleTextEditors.some(e => selected(e, e.selections))) {
    void vscode.commands.executeCommand('setContext', ContextKeys.hasSelectedCode, true);
    selection.dispose();
  }
  const tabs = vscode.window.tabGroups.onDidChangeTabs(event => {
    if (!event.opened.some(tab => tab.input === undefined)) return;
    pulse = !pulse;
    void vscode.commands.executeCommand('setContext', ContextKeys.walkthroughPulse, pulse);
  });
  return vscode.Disposable.from(selection, tabs);
}

/**
 * "Set your API key" is ticked with VS Code's own command whenever a key is known: at each start and whenever the
 * key changes. A context key ticks a step at most once per window and only after VS Code registered the
 * walkthrough, so a tick lost from the page's storage (a walkthrough reset, an older tab writing its copy back)
 * stayed lost until a reload: a later visit in 1.100 showed the step unticked (issue 45). `welcome.markStepComplete`
 * (1.100 and newer) stores the tick at once; before the walkthrough is registered it stores it and then throws,
 * so its refusal is not an error here.
 */
export function tickKeyStepWhileKnown(extensionId: string, keys: { getApiKey(): Promise<string | undefined>; onDidChange: vscode.Event<'apiKey' | 'gatewayKey'> }): vscode.Disposable {
  const tick = () =>
    keys.getApiKey().then(
      key => key && vscode.commands.executeCommand('welcome.markStepComplete', `${extensionId}#${WALKTHROUGH_ID}#setKey`).then(undefined, () => undefined),
      () => undefined,
    );
  void tick();
  return keys.onDidChange(which => which === 'apiKey' && void tick());
}

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
const WALKTHROUGH_ID = 'multiAgent.gettingStarted';

