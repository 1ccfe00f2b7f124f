/** The last instructions the user typed, newest first, offered again by the next prompt. */
import type * as vscode from 'vscode';
import { StateKeys } from '../../constants';

const RECENT_LIMIT = 10;

export class RecentInstructions {
  constructor(private readonly memento: vscode.Memento) {}

  latest(): string | undefined {
    return this.memento.get<string[]>(StateKeys.recentInstructions, [])[0];
  }

  async remember(instruction: string): Promise<void> {
    const recent = this.memento.get<string[]>(StateKeys.recentInstructions, []);
    await this.memento.update(StateKeys.recentInstructions, [instruction, ...recent.filter(r => r !== instruction)].slice(0, RECENT_LIMIT));
  }
}
