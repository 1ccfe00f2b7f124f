/** Questions several commands ask: the instruction, and whether to send code as an attachment. */
import * as vscode from 'vscode';
import type { Settings } from '../config';
import { UserFacingError } from '../errors';
import type { RecentInstructions } from '../tasks/recentInstructions';
import type { SendOutcome, SubmissionPipeline, TaskRequest } from '../tasks/submission';
import { promptTooLong } from '../vocabulary';
import type { TrackedTask } from '../tasks/model';
import type { UserInterface } from '../ui';

/** Asks what the agents should do, offering the last instruction to reuse or edit. */
export async function askInstruction(ui: UserInterface, recent: RecentInstructions): Promise<string | undefined> {
  const last = recent.latest();
  const value = await ui.input({
    title: vscode.l10n.t('Multi-Agent Tasks'),
    prompt: vscode.l10n.t('What should the agents do with this code?'),
    placeHolder: vscode.l10n.t('e.g. Review for bugs and suggest a fix'),
    value: last,
    valueSelection: last ? [0, last.length] : undefined,
    ignoreFocusOut: true,
    validateInput: v => (v.trim() ? undefined : vscode.l10n.t('Describe what the agents should do.')),
  });
  const instruction = value?.trim();
  if (!instruction) return undefined;
  await recent.remember(instruction);
  return instruction;
}

/**
 * Sends a request; when the prompt is over the service's limit, offers to send the code as an attachment
 * (never cuts it). Undefined when the user declines.
 */
export async function sendOrOfferAttachment(
  ui: UserInterface,
  pipeline: SubmissionPipeline,
  request: TaskRequest,
  settings: Settings,
): Promise<TrackedTask | undefined> {
  const outcome: SendOutcome = await pipeline.send(request, settings);
  if (outcome.kind === 'sent') return outcome.task;
  if (!outcome.canAttach) {
    // The code cannot go as an attachment either: say why (the service would refuse its type or size).
    const tooLong = promptTooLong(outcome.length, 'selection');
    throw new UserFacingError(outcome.attachRefusal ? `${tooLong} ${outcome.attachRefusal}` : tooLong);
  }
  const sendAsAttachment = vscode.l10n.t('Send as Attachment');
  const choice = await ui.warn(promptTooLong(outcome.length, 'offerAttachment'), sendAsAttachment);
  if (choice !== sendAsAttachment) return undefined;
  const again = await pipeline.send({ ...request, codeAsAttachment: true }, settings);
  // An attached code block leaves only the instruction in the prompt, so this cannot be too long again.
  return again.kind === 'sent' ? again.task : undefined;
}
