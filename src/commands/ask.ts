/** Questions several commands ask: the instruction, and whether to send code as an attachment. */
import * as vscode from 'vscode';
import type { Settings } from '../config';
import { UserFacingError } from '../errors';
import type { RecentInstructions } from '../tasks/store/recentInstructions';
import type { SendOutcome, SubmissionPipeline, TaskRequest } from '../tasks/sending/submission';
import { promptTooLong } from '../vocabulary';
import type { TrackedTask } from '../tasks/model';
import { codeFrom, labelOf } from '../tasks/sending/code';
import type { CodeContext } from '../tasks/sending/prompt';
import type { UserInterface } from '../ui';

/** "src/math.ts, lines 1–10" or "src/math.ts". */
export function codePlace(code: Pick<CodeContext, 'label' | 'lines'>): string {
  if (!code.lines) return code.label;
  return code.lines.start === code.lines.end
    ? vscode.l10n.t('{0}, line {1}', code.label, code.lines.start)
    : vscode.l10n.t('{0}, lines {1}–{2}', code.label, code.lines.start, code.lines.end);
}

/** The code that goes with a task, or none (`code` undefined: the instruction goes alone). */
export type CodeChoice = { code?: ReturnType<typeof codeFrom> };

/**
 * The one rule for the code a command sends (the editor is the one `CodeEditors` names): the selection;
 * with nothing selected, the whole file after asking; where an instruction alone makes sense (a thread),
 * the user may also send no code, and is asked when no code is in view at all. Undefined: the user backed
 * out (or, without `instructionAlone`, there is no editor: the caller offers to open one).
 */
export async function chooseCode(ui: UserInterface, editor: vscode.TextEditor | undefined, options: { instructionAlone: boolean }): Promise<CodeChoice | undefined> {
  const alone = vscode.l10n.t('Send Instruction Alone');
  const document = editor?.document;
  if (!editor || !document?.getText().trim()) {
    if (!options.instructionAlone) {
      if (document) throw new UserFacingError(vscode.l10n.t('{0} is empty: there is nothing to send.', labelOf(document.uri)));
      return undefined;
    }
    const choice = await ui.ask(vscode.l10n.t('No code is selected: send the instruction alone?'), alone);
    return choice === alone ? {} : undefined;
  }
  const selection = editor.selection;
  if (!selection.isEmpty && document.getText(selection).trim()) return { code: codeFrom(document, selection) };
  const wholeFile = vscode.l10n.t('Send Whole File');
  const choice = options.instructionAlone
    ? await ui.ask(vscode.l10n.t('No code is selected in {0}. Send the whole file, or the instruction alone?', labelOf(document.uri)), wholeFile, alone)
    : await ui.ask(vscode.l10n.t('No code is selected. Send the whole file instead?'), wholeFile);
  if (choice === wholeFile) return { code: codeFrom(document, undefined) };
  return choice === alone ? {} : undefined;
}

/** The editor's non-empty selection, or nothing: never a question (a follow-up in a thread). */
export function selectedCode(editor: vscode.TextEditor | undefined): CodeChoice {
  const selection = editor?.selection;
  if (!editor || !selection || selection.isEmpty || !editor.document.getText(selection).trim()) return {};
  return { code: codeFrom(editor.document, selection) };
}

/**
 * Asks what the agents should do, offering the last instruction to reuse or edit. `code` names what goes
 * with it ("src/math.ts, lines 1–10"); without code the question does not speak of code. `attached`: the names
 * of the attached files that go with it.
 */
export async function askInstruction(ui: UserInterface, recent: RecentInstructions, code?: CodeContext, attached: readonly string[] = []): Promise<string | undefined> {
  const last = recent.latest();
  const question = code ? vscode.l10n.t('What should the agents do with {0}?', codePlace(code)) : vscode.l10n.t('What should the agents do? (No code goes with this task.)');
  // The attached files go too: the box says so, as the Tasks view does (issue 35).
  const withFiles = !attached.length
    ? ''
    : attached.length === 1
      ? vscode.l10n.t('{0} is attached and goes too.', attached[0])
      : vscode.l10n.t('{0} attached files go too: {1}.', attached.length, attached.slice(0, 3).join(', ') + (attached.length > 3 ? ', …' : ''));
  const value = await ui.input({
    title: vscode.l10n.t('Multi-Agent Tasks'),
    prompt: withFiles ? `${question} ${withFiles}` : question,
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
