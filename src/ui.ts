/**
 * Everything the extension asks or tells the user goes through this seam. Production uses VS Code's
 * window API; integration tests swap in a scripted one to answer prompts and read what the user saw.
 */
import * as vscode from 'vscode';
import { messageOf } from './format';

export interface UserInterface {
  info(message: string, ...actions: string[]): Thenable<string | undefined>;
  warn(message: string, ...actions: string[]): Thenable<string | undefined>;
  error(message: string, ...actions: string[]): Thenable<string | undefined>;
  /** A passing note that needs no answer (the status bar for a few seconds, not a toast that stacks up). */
  note(message: string): void;
  /** A question the command waits on (a modal dialog, not a corner toast): the action chosen, or undefined. */
  ask(message: string, ...actions: string[]): Thenable<string | undefined>;
  /**
   * A question; true only when the user chose `action`. `destructive`: what cannot be undone is not the
   * focused answer (a pick list with "Keep" first, where Enter keeps), else a modal dialog.
   */
  confirm(message: string, detail: string, action: string, options?: { destructive?: boolean }): Thenable<boolean>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /**
   * An input box that stays open while `accept` checks the value: a problem it returns shows in the box
   * (the user corrects it or presses Escape); undefined accepts. The accepted value, or undefined.
   */
  inputUntil(options: vscode.InputBoxOptions, accept: (value: string) => Promise<string | undefined>): Thenable<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined>;
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined>;
}

const windowUserInterface: UserInterface = {
  info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  warn: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
  error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
  ask: (message, ...actions) => vscode.window.showInformationMessage(message, { modal: true }, ...actions),
  note: message => void vscode.window.setStatusBarMessage(`$(info) ${message}`, 5000),
  confirm: async (message, detail, action, options) => {
    if (!options?.destructive) return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    // A modal dialog focuses its first button, the destructive one: here Enter and Escape both keep.
    const keep = { label: `$(close) ${vscode.l10n.t('Keep')}`, yes: false };
    const go = { label: `$(trash) ${action}`, detail, yes: true };
    return (await vscode.window.showQuickPick([keep, go], { title: message, placeHolder: detail })) === go;
  },
  input: options => vscode.window.showInputBox(options),
  inputUntil: (options, accept) => inputUntilAccepted(options, accept),
  pick: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: false }),
  pickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  saveDialog: options => vscode.window.showSaveDialog(options),
  openDialog: options => vscode.window.showOpenDialog(options),
};

/**
 * Lets tests replace the UI after activation while every service keeps the same reference. Every message
 * passes `redact` first, so a key a server echoed back is never shown.
 */
export class SwappableUserInterface implements UserInterface {
  /** Set once the key store exists (it needs this UI to ask for a key). */
  redact: (text: string) => string = text => text;

  constructor(public target: UserInterface = windowUserInterface) {}
  info(m: string, ...a: string[]) {
    return this.target.info(this.redact(m), ...a);
  }
  warn(m: string, ...a: string[]) {
    return this.target.warn(this.redact(m), ...a);
  }
  error(m: string, ...a: string[]) {
    return this.target.error(this.redact(m), ...a);
  }
  ask(m: string, ...a: string[]) {
    return this.target.ask(this.redact(m), ...a);
  }
  note(m: string) {
    this.target.note(this.redact(m));
  }
  confirm(m: string, d: string, a: string, o?: { destructive?: boolean }) {
    return this.target.confirm(this.redact(m), this.redact(d), a, o);
  }
  input(o: vscode.InputBoxOptions) {
    return this.target.input(o);
  }
  inputUntil(o: vscode.InputBoxOptions, accept: (value: string) => Promise<string | undefined>) {
    return this.target.inputUntil(o, async value => {
      const problem = await accept(value);
      return problem === undefined ? undefined : this.redact(problem);
    });
  }
  pick<T extends vscode.QuickPickItem>(i: readonly T[], o: vscode.QuickPickOptions) {
    return this.target.pick(i, o);
  }
  pickMany<T extends vscode.QuickPickItem>(i: readonly T[], o: vscode.QuickPickOptions) {
    return this.target.pickMany(i, o);
  }
  saveDialog(o: vscode.SaveDialogOptions) {
    return this.target.saveDialog(o);
  }
  openDialog(o: vscode.OpenDialogOptions) {
    return this.target.openDialog(o);
  }
}

/** `inputUntil` on VS Code's input box: busy while `accept` runs, open until it accepts or the user leaves. */
function inputUntilAccepted(options: vscode.InputBoxOptions, accept: (value: string) => Promise<string | undefined>): Promise<string | undefined> {
  return new Promise(resolve => {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeHolder;
    box.password = options.password ?? false;
    box.ignoreFocusOut = options.ignoreFocusOut ?? false;
    box.value = options.value ?? '';
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      box.dispose();
    };
    const validate = async (value: string) => (options.validateInput ? await options.validateInput(value) : undefined);
    box.onDidChangeValue(async value => {
      const problem = await validate(value);
      box.validationMessage = problem ?? undefined;
    });
    box.onDidAccept(async () => {
      const value = box.value;
      if (box.busy || (await validate(value))) return;
      box.busy = true;
      box.enabled = false;
      const problem = await accept(value).catch(messageOf);
      if (problem === undefined) return finish(value);
      if (done) return;
      box.validationMessage = problem;
      box.busy = false;
      box.enabled = true;
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}
