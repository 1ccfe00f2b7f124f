/**
 * The two sides of an "Apply to Source" diff as read-only documents under `multi-agent-proposal:`:
 * `/<id>/now/<file name>` (the file as it is) and `/<id>/proposed/<file name>` (with the change). The
 * file name keeps the language and icon. A proposal lives until it is accepted or discarded.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DocumentSchemes } from '../constants';
import { Disposable } from '../disposable';

export interface Proposal {
  id: string;
  taskId: string;
  target: vscode.Uri;
  /** The document's version when the diff was made: a later edit must be checked before applying. */
  version: number;
  range: vscode.Range;
  /** The range's text when the diff was made. */
  before: string;
  /** What replaces it. */
  after: string;
  left: vscode.Uri;
  right: vscode.Uri;
}

export class ProposalDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly proposals = new Map<string, Proposal>();
  private readonly texts = new Map<string, string>();
  private next = 1;

  /** Registers a proposal and its two texts; returns it with its URIs. */
  create(p: Omit<Proposal, 'id' | 'left' | 'right'>, nowText: string, proposedText: string): Proposal {
    const id = `p${this.next++}`;
    const name = path.posix.basename(p.target.path) || 'file';
    const left = vscode.Uri.from({ scheme: DocumentSchemes.proposal, path: `/${id}/now/${name}` });
    const right = vscode.Uri.from({ scheme: DocumentSchemes.proposal, path: `/${id}/proposed/${name}` });
    const proposal: Proposal = { ...p, id, left, right };
    this.proposals.set(id, proposal);
    this.texts.set(left.toString(), nowText);
    this.texts.set(right.toString(), proposedText);
    return proposal;
  }

  /** The proposal a diff side belongs to, or the only one pending when `uri` is not one. */
  find(uri?: unknown): Proposal | undefined {
    if (uri instanceof vscode.Uri && uri.scheme === DocumentSchemes.proposal) return this.proposals.get(uri.path.split('/')[1]);
    if (typeof uri === 'string') return this.proposals.get(uri);
    return this.proposals.size === 1 ? [...this.proposals.values()][0] : undefined;
  }

  get(id: string): Proposal | undefined {
    return this.proposals.get(id);
  }

  /** Forgets a decided proposal (its diff documents then read as empty). */
  settle(id: string): void {
    const p = this.proposals.get(id);
    if (!p) return;
    this.proposals.delete(id);
    this.texts.delete(p.left.toString());
    this.texts.delete(p.right.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
