/**
 * Everything the extension asks or tells the user goes through this seam. Production uses VS Code's
 * window API; integration tests swap in a scripted one to answer prompts and read what the user saw.
 */
import * as vscode from 'vscode';

export interface UserInterface {
  info(message: string, ...actions: string[]): Thenable<string | undefined>;
  warn(message: string, ...actions: string[]): Thenable<string | undefined>;
  error(message: string, ...actions: string[]): Thenable<string | undefined>;
  /**
   * A question; true only when the user chose `action`. `destructive`: what cannot be undone is not the
   * focused answer (a pick list with "Keep" first, where Enter keeps), else a modal dialog.
   */
  confirm(message: string, detail: string, action: string, options?: { destructive?: boolean }): Thenable<boolean>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined>;
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined>;
}

const windowUserInterface: UserInterface = {
  info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  warn: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
  error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
  confirm: async (message, detail, action, options) => {
    if (!options?.destructive) return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    // A modal dialog focuses its first button, the destructive one: here Enter and Escape both keep.
    const keep = { label: `$(close) ${vscode.l10n.t('Keep')}`, yes: false };
    const go = { label: `$(trash) ${action}`, detail, yes: true };
    return (await vscode.window.showQuickPick([keep, go], { title: message, placeHolder: detail })) === go;
  },
  input: options => vscode.window.showInputBox(options),
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
  confirm(m: string, d: string, a: string, o?: { destructive?: boolean }) {
    return this.target.confirm(this.redact(m), this.redact(d), a, o);
  }
  input(o: vscode.InputBoxOptions) {
    return this.target.input(o);
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
