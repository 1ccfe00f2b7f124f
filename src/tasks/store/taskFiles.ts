/**
 * What a task keeps on disk under globalStorageUri: its result (`results/<id>.md`, so it still opens after a
 * reload or offline), the texts of the files it sent (`sent/<id>/<sha256>.txt`, Review Changes' merge base) and
 * the outputs of its checks (`checks/<id>/<check id>.log`, issue 37).
 * Files only: the records and their events are `TaskStore`'s.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { type SentFile, sha256 } from './sentTexts';

export class TaskFiles {
  constructor(private readonly storageUri: vscode.Uri) {}

  /** One file per task id: ids of safe characters name it as they are, any other id by its SHA-256 (`~…`). */
  resultUri(taskId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.storageUri, 'results', `${fileNameOf(taskId)}.md`);
  }

  /** The cached result text, or undefined when there is none. */
  async readResult(taskId: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.resultUri(taskId)));
    } catch {
      return undefined;
    }
  }

  async writeResult(taskId: string, text: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageUri, 'results'));
    await vscode.workspace.fs.writeFile(this.resultUri(taskId), new TextEncoder().encode(text));
  }

  /** Writes the kept texts, each under its hash. */
  async writeSent(taskId: string, texts: ReadonlyMap<string, string>): Promise<void> {
    if (!texts.size) return;
    await vscode.workspace.fs.createDirectory(this.sentFolder(taskId));
    for (const [hash, text] of texts) await vscode.workspace.fs.writeFile(this.sentUri(taskId, hash), new TextEncoder().encode(text));
  }

  /** The text a task sent of `file`, or undefined when none was kept (or it no longer matches its hash). */
  async readSent(taskId: string, file: SentFile): Promise<string | undefined> {
    if (!file.sha256 || !/^[0-9a-f]{64}$/.test(file.sha256)) return undefined;
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.sentUri(taskId, file.sha256)));
      return sha256(text) === file.sha256 ? text : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deletes the texts a task sent; never throws (there may be none). */
  async deleteSent(taskId: string): Promise<void> {
    await vscode.workspace.fs.delete(this.sentFolder(taskId), { recursive: true }).then(undefined, () => undefined);
  }

  /** A check's full (bounded) output: `checks/<task>/<check id>.log`. Check ids are ours (`checkIdPattern`). */
  checkUri(taskId: string, checkId: string): vscode.Uri {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(checkId)) throw new Error('not a check id');
    return vscode.Uri.joinPath(this.storageUri, 'checks', fileNameOf(taskId), `${checkId}.log`);
  }

  async writeCheckOutput(taskId: string, checkId: string, text: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageUri, 'checks', fileNameOf(taskId)));
    await vscode.workspace.fs.writeFile(this.checkUri(taskId, checkId), new TextEncoder().encode(text));
  }

  async readCheckOutput(taskId: string, checkId: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.checkUri(taskId, checkId)));
    } catch {
      return undefined;
    }
  }

  async deleteCheckOutput(taskId: string, checkId: string): Promise<void> {
    await vscode.workspace.fs.delete(this.checkUri(taskId, checkId)).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(this.checkUri(taskId, `${checkId}-proposal`)).then(undefined, () => undefined);
  }

  /** Deletes everything a task kept; never throws. */
  async deleteAll(taskId: string): Promise<void> {
    await vscode.workspace.fs.delete(this.resultUri(taskId)).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.storageUri, 'checks', fileNameOf(taskId)), { recursive: true }).then(undefined, () => undefined);
    await this.deleteSent(taskId);
  }

  private sentFolder(taskId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.storageUri, 'sent', fileNameOf(taskId));
  }

  private sentUri(taskId: string, hash: string): vscode.Uri {
    return vscode.Uri.joinPath(this.sentFolder(taskId), `${hash}.txt`);
  }
}

/** A task id as a file name: ids of safe characters as they are, any other id by its SHA-256 (`~…`). */
function fileNameOf(taskId: string): string {
  return /^[A-Za-z0-9_-]{1,200}$/.test(taskId) ? taskId : `~${createHash('sha256').update(taskId, 'utf8').digest('hex')}`;
}
