/**
 * The pages that load on first use (lazy.ts): one generic holder builds a page, from its own bundle, on the first
 * call that needs it; asking whether one is open loads nothing. Open result views and transcripts come back after
 * a reload through the shell's webview serializers (standIns.ts), which build their page to restore them.
 */
import type * as vscode from 'vscode';
import { Disposable } from '../../disposable';
import type { ResultView } from '../../tasks/resultView';
import type { ResultPanels } from './resultPanel';

export class OnFirstUse<T extends vscode.Disposable> extends Disposable {
  private built: T | undefined;

  constructor(private readonly build: () => T) {
    super();
  }

  /** The page, built now if it was not. */
  get page(): T {
    return (this.built ??= this._register(this.build()));
  }

  /** The page if it was built; reading it loads nothing. */
  get loaded(): T | undefined {
    return this.built;
  }
}

/** The result views as commands and notifications see them: showing one builds the page, asking which is open does not. */
export function resultViewOf(pages: OnFirstUse<ResultPanels>): ResultView {
  return {
    show: (task, options) => pages.page.show(task, options),
    showTrace: task => pages.page.showTrace(task),
    activeTaskId: () => pages.loaded?.activeTaskId(),
    panelOf: taskId => pages.loaded?.panelOf(taskId),
  };
}
