/**
 * Workspace files waiting to go with the next task. Checked when added (at most LIMITS.maxAttachments, each
 * one the service takes as an attachment; a confirmation for files that may hold secrets, `sensitiveFiles.ts`). `plan()` decides what goes inline and what is uploaded;
 * the submission pipeline sends them.
 */
import * as vscode from 'vscode';
import { LIMITS } from '../../api/requests';
import { Disposable } from '../../disposable';
import type { UserInterface } from '../../ui';
import { labelOf, looksBinary } from './code';
import { inlineFiles } from './prompt';
import { isSensitivePath } from './sensitiveFiles';
import { checkOutgoingFile } from './uploadCheck';
import { UserFacingError } from '../../errors';
import { tooManyAttachments } from '../../vocabulary';

/** Text files up to this size may be inlined in the prompt instead of uploaded. */
const INLINE_MAX_BYTES = 16 * 1024;

export interface AttachmentPlan {
  /** The prompt with the inlined files appended. */
  prompt: string;
  /** Labels of the files inlined in the prompt. */
  inlined: string[];
  /** Files to upload as attachments. */
  uploads: vscode.Uri[];
  /** Every file the plan covers, to drop from the basket once the task is sent. */
  files: vscode.Uri[];
  /** The text of the files read for the plan (the small ones), by URI string: what the agents see of them. */
  texts?: Map<string, string>;
}

export class AttachmentBasket extends Disposable {
  private files: vscode.Uri[] = [];
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly ui: UserInterface) {
    super();
  }

  get count(): number {
    return this.files.length;
  }

  list(): readonly vscode.Uri[] {
    return this.files;
  }

  /** Adds files after checking them; returns how many were added. Nothing is uploaded yet. */
  async add(uris: readonly vscode.Uri[]): Promise<number> {
    const fresh = uris.filter(u => !this.files.some(f => f.toString() === u.toString()));
    if (this.files.length + fresh.length > LIMITS.maxAttachments) {
      throw new UserFacingError(tooManyAttachments(this.files.length, fresh.length));
    }
    const accepted: vscode.Uri[] = [];
    for (const uri of fresh) {
      // A small file may go inline in the prompt as text, where its type does not matter: its type is
      // judged when it is sent, if it is uploaded then.
      const { name } = await checkOutgoingFile(uri, 'attachment', { sizeOnlyUpTo: INLINE_MAX_BYTES });
      if (isSensitivePath(vscode.workspace.asRelativePath(uri, false))) {
        const ok = await this.ui.confirm(
          vscode.l10n.t('{0} looks like it holds secrets. Attach it anyway?', name),
          vscode.l10n.t('Its content will be sent to the service with your next task.'),
          vscode.l10n.t('Attach Anyway'),
        );
        if (!ok) continue;
      }
      accepted.push(uri);
    }
    if (accepted.length) {
      this.files = [...this.files, ...accepted];
      this.changed.fire();
    }
    return accepted.length;
  }

  remove(uri: vscode.Uri): void {
    const before = this.files.length;
    this.files = this.files.filter(f => f.toString() !== uri.toString());
    if (this.files.length !== before) this.changed.fire();
  }

  clear(): void {
    if (!this.files.length) return;
    this.files = [];
    this.changed.fire();
  }

  /**
   * Decides what goes how: small text files inline after `prompt` while it still fits the prompt limit,
   * the rest as uploads. Reads the files; uploads nothing (the submission does, once it is sure to send).
   */
  async plan(prompt: string): Promise<AttachmentPlan> {
    if (!this.files.length) return { prompt, inlined: [], uploads: [], files: [] };
    const small: { uri: vscode.Uri; label: string; text: string }[] = [];
    const uploads: vscode.Uri[] = [];
    for (const uri of this.files) {
      // Only files small enough to inline are read here; the rest are read once, when uploaded.
      const bytes = (await vscode.workspace.fs.stat(uri)).size <= INLINE_MAX_BYTES ? await vscode.workspace.fs.readFile(uri) : undefined;
      if (bytes && bytes.byteLength <= INLINE_MAX_BYTES && !looksBinary(bytes)) {
        small.push({ uri, label: labelOf(uri), text: new TextDecoder().decode(bytes) });
      } else uploads.push(uri);
    }
    const { prompt: withInline, inlined } = inlineFiles(prompt, small, LIMITS.promptMaxChars);
    for (const file of small) if (!inlined.includes(file.label)) uploads.push(file.uri);
    const texts = new Map(small.map(f => [f.uri.toString(), f.text]));
    return { prompt: withInline, inlined, uploads, files: [...this.files], texts };
  }

  /** Drops the files that went with a task that was sent. */
  clearSent(plan: AttachmentPlan): void {
    if (!plan.files.length) return;
    const sent = new Set(plan.files.map(f => f.toString()));
    this.files = this.files.filter(f => !sent.has(f.toString()));
    this.changed.fire();
  }
}
