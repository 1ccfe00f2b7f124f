/** Builds the prompt from an instruction and code. Pure: unit-tested in Node. */

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

export function describeLocation(context: Pick<CodeContext, 'label' | 'lines'>): string {
  if (!context.lines) return context.label;
  const { start, end } = context.lines;
  return start === end ? `${context.label} (line ${start})` : `${context.label} (lines ${start}-${end})`;
}

export function buildPrompt(instruction: string, context: CodeContext): string {
  const fence = fenceFor(context.code);
  const language = context.languageId ? (FENCE_LANGUAGE[context.languageId] ?? context.languageId) : '';
  const code = context.code.endsWith('\n') ? context.code : `${context.code}\n`;
  return `${instruction.trim()}\n\n${describeLocation(context)}:\n\n${fence}${language}\n${code}${fence}\n`;
}

/** The prompt when the code travels as an attachment instead of inline. */
export function buildAttachmentPrompt(instruction: string, context: Pick<CodeContext, 'label' | 'lines'>, attachmentName: string): string {
  return `${instruction.trim()}\n\nThe code is attached as ${attachmentName} (from ${describeLocation(context)}).\n`;
}

/** Inlines small text files after the prompt, as long as the whole still fits `maxChars`. */
export function inlineFiles(prompt: string, files: { label: string; languageId?: string; text: string }[], maxChars: number): { prompt: string; inlined: string[] } {
  let out = prompt;
  const inlined: string[] = [];
  for (const file of files) {
    const block = `\nAttached file ${file.label}:\n\n${fenceFor(file.text)}${file.languageId ?? ''}\n${file.text.endsWith('\n') ? file.text : `${file.text}\n`}${fenceFor(file.text)}\n`;
    if ([...out].length + [...block].length > maxChars) continue;
    out += block;
    inlined.push(file.label);
  }
  return { prompt: out, inlined };
}
