/**
 * What a task sent, read for keeping (TaskStore.recordSent): the whole text of each document its code came from,
 * and of each attached file. Review Changes… merges three ways against these.
 */
import * as vscode from 'vscode';
import { SENT_TEXT_LIMITS } from '../../constants';
import type { SentCandidate } from '../store/sentTexts';
import type { AttachmentPlan } from './attachments';
import { labelOf, looksBinary } from './code';
import type { SourceRef } from '../model';
import type { CodeContext } from './prompt';

/** Code a task sends: its text as sent, where it came from, and the document's whole text when it was taken. */
type SentCode = { documentText?: string; source: SourceRef; context: Pick<CodeContext, 'code'> };

/**
 * The whole text of each document the request's code comes from, as it was when the code was taken (or, for
 * a caller that did not say, as it is now when that still holds the code that goes).
 */
export function sourceTexts(codes: readonly (SentCode | undefined)[]): SentCandidate[] {
  const out: SentCandidate[] = [];
  for (const code of codes) {
    if (!code) continue;
    let text = code.documentText;
    if (text === undefined) {
      const document = vscode.workspace.textDocuments.find(d => d.uri.toString() === code.source.uri);
      const range = code.source.range;
      const now = document?.getText(range && new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.endCharacter));
      if (document && now === code.context.code) text = document.getText();
    }
    if (text !== undefined) out.push({ uri: code.source.uri, label: code.source.label, text });
  }
  return out;
}

/** The attached files' text as sent: the plan's for the small ones, read now (bounded) for the uploads. */
export async function attachedTexts(plan: AttachmentPlan): Promise<SentCandidate[]> {
  const out: SentCandidate[] = [];
  for (const uri of plan.files) {
    const label = labelOf(uri);
    const known = plan.texts?.get(uri.toString());
    if (known !== undefined) {
      out.push({ uri: uri.toString(), label, text: known });
      continue;
    }
    try {
      const size = (await vscode.workspace.fs.stat(uri)).size;
      if (size > SENT_TEXT_LIMITS.fileMaxBytes) {
        out.push({ uri: uri.toString(), label, bytes: size });
        continue;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (looksBinary(bytes)) out.push({ uri: uri.toString(), label, bytes: bytes.byteLength, notText: true });
      else out.push({ uri: uri.toString(), label, text: new TextDecoder().decode(bytes) });
    } catch {
      out.push({ uri: uri.toString(), label, notText: true });
    }
  }
  return out;
}

