/** Builds the prompt from an instruction and code. Pure: unit-tested in Node. */
import { promptLength } from '../../api/requests';

export interface CodeContext {
  code: string;
  /** VS Code language id, used as the fence's info string. */
  languageId?: string;
  /** Workspace-relative path (or file name). */
  label: string;
  /** 1-based inclusive line numbers, when only part of the file is sent. */
  lines?: { start: number; end: number };
}

/** A fence longer than any run of backticks inside the code, so the block cannot end early. */
export function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`{3,}/g)].map(m => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

const FENCE_LANGUAGE: Record<string, string> = {
  typescriptreact: 'tsx',
  javascriptreact: 'jsx',
  plaintext: '',
  shellscript: 'sh',
};

/**
 * The one fenced code block: a fence the code cannot close, the language as the info string (VS Code's
 * language id, mapped where markdown knows it by another name), the code ending in a newline. No newline
 * after the closing fence.
 */
export function fencedBlock(code: string, languageId?: string): string {
  const fence = fenceFor(code);
  const language = languageId ? (FENCE_LANGUAGE[languageId] ?? languageId) : '';
  return `${fence}${language}\n${code.endsWith('\n') ? code : `${code}\n`}${fence}`;
}

export function describeLocation(context: Pick<CodeContext, 'label' | 'lines'>): string {
  if (!context.lines) return context.label;
  const { start, end } = context.lines;
  return start === end ? `${context.label} (line ${start})` : `${context.label} (lines ${start}-${end})`;
}

export function buildPrompt(instruction: string, context: CodeContext): string {
  return `${instruction.trim()}\n\n${describeLocation(context)}:\n\n${fencedBlock(context.code, context.languageId)}\n`;
}

/** The prompt when the code travels as an attachment instead of inline. */
export function buildAttachmentPrompt(instruction: string, context: Pick<CodeContext, 'label' | 'lines'>, attachmentName: string): string {
  return `${instruction.trim()}\n\nThe code is attached as ${attachmentName} (from ${describeLocation(context)}).\n`;
}

/** Inlines small text files after the prompt, as long as the whole still fits `maxChars` (characters as the service counts them). */
export function inlineFiles(prompt: string, files: { label: string; languageId?: string; text: string }[], maxChars: number): { prompt: string; inlined: string[] } {
  let out = prompt;
  const inlined: string[] = [];
  for (const file of files) {
    const block = `\nAttached file ${file.label}:\n\n${fencedBlock(file.text, file.languageId)}\n`;
    if (promptLength(out) + promptLength(block) > maxChars) continue;
    out += block;
    inlined.push(file.label);
  }
  return { prompt: out, inlined };
}

/**
 * The landing instruction (issue 16; the contract is LANDING-FORMAT in the team notes, and the emulator knows
 * it by its middle words): asks the agents to name each changed file, so Review Changes can land the answer
 * hunk by hunk. Sent to the agents, so never localized. One paragraph.
 */
export const LANDING_INSTRUCTION =
  'When you change files, give each changed file as its own fenced code block whose info string names its workspace-relative path, like ```ts path=src/a.ts: either the whole new file, or a unified diff (```diff path=src/a.ts). Do not rename or delete files.';

/**
 * The prompt with the landing instruction after its body, separated by a blank line. With several workspace
 * folders (`folders`, their names), files are named `<folder>/<path>`, as the prompt's labels name them.
 */
export function withLandingInstruction(prompt: string, folders: readonly string[] = []): string {
  const several = folders.length > 1 ? ` The workspace has several folders (${folders.join(', ')}): start each path with its folder's name, like ${folders[0]}/src/a.ts.` : '';
  return `${prompt.replace(/\s+$/, '')}\n\n${LANDING_INSTRUCTION}${several}\n`;
}
