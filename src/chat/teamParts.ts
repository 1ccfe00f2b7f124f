/**
 * What chat adds about the team's work (issue 18): `@team` answers get a button per produced file (commands,
 * never links from server text; the trace's button is one of the task's offers, tasks/offers.ts); `#multiAgent` results carry, where VS Code has
 * data parts (1.106+, detected at run time), a JSON part `{taskId, status, files, sources}` beside the text.
 */
import * as vscode from 'vscode';
import { shownFileName } from '../api/filenames';
import { Commands } from '../constants';
import type { TrackedTask } from '../tasks/model';
import { taskData } from '../tasks/sending/delegate';

/** Shared with the MCP server's tools (tasks/sending/delegate.ts). */
export { taskData, withServiceDetails } from '../tasks/sending/delegate';

/** Produced files offered as buttons under an answer (chat stacks its buttons: few, issue 45); the rest are in the result view. */
const MAX_FILE_BUTTONS = 1;

/** Buttons under a `@team` answer: Open for the first produced file, and how many more the result view lists. */
export function producedFileButtons(stream: vscode.ChatResponseStream, task: TrackedTask): void {
  const files = (task.files ?? []).map((file, i) => ({ file, i })).filter(f => f.file.fileId);
  for (const { file, i } of files.slice(0, MAX_FILE_BUTTONS)) {
    stream.button({ command: Commands.openProducedFile, title: vscode.l10n.t('Open {0}', shownFileName(file.filename)), arguments: [task.id, i] });
  }
  const more = files.length - MAX_FILE_BUTTONS;
  if (more > 0) stream.markdown(more === 1 ? vscode.l10n.t('1 more file the agents made is in the result view.') : vscode.l10n.t('{0} more files the agents made are in the result view.', more));
}

interface DataPartClass {
  json(value: unknown, mime?: string): unknown;
}

/** The first VS Code whose tool results carry data parts of any type (earlier ones took images only). */
const DATA_PARTS_SINCE: readonly [number, number] = [1, 106];

/**
 * `LanguageModelDataPart` where this VS Code takes it in a tool result (1.106+); the extension still runs on
 * 1.100, whose class exists but refuses anything but an image ("Invalid MIME type").
 */
export function dataPartClass(version: string = vscode.version): DataPartClass | undefined {
  const [major = 0, minor = 0] = version.split('.').map(n => parseInt(n, 10));
  if (major < DATA_PARTS_SINCE[0] || (major === DATA_PARTS_SINCE[0] && minor < DATA_PARTS_SINCE[1])) return undefined;
  const candidate = (vscode as unknown as { LanguageModelDataPart?: Partial<DataPartClass> }).LanguageModelDataPart;
  return typeof candidate?.json === 'function' ? (candidate as DataPartClass) : undefined;
}

/** The tool's result: the text, and beside it the task's data as JSON where data parts exist. */
export function toolResult(text: string, task: TrackedTask): vscode.LanguageModelToolResult {
  const parts: unknown[] = [new vscode.LanguageModelTextPart(text)];
  const DataPart = dataPartClass();
  if (DataPart) parts.push(DataPart.json(taskData(task)));
  return new vscode.LanguageModelToolResult(parts as vscode.LanguageModelTextPart[]);
}
