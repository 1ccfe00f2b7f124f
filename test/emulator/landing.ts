// The answer in landable form, for prompts that carry the extension's instruction and code, written the ways
// models really name their files (issue 24), not only the `path=` the instruction asks for: a git diff for the
// main code when a range was sent (else the whole file as ```ts src/a.ts), and each inlined attachment in turn as
// a bold path line before the block, a first comment naming the file, a `*** Begin Patch`, a partial file with
// `// ... existing code ...`, `ts:src/b.ts` and `path=`; then one unnamed block and one block for a path outside
// the workspace. Every form lands the same change, so tests compare one expected text. Deterministic.

/** The instruction is recognised by this substring. */
export const LANDING_MARKER = 'whose info string names its workspace-relative path';

export interface CodeSection {
  label: string;
  /** Fence info string's first word. */
  language: string;
  /** 1-based inclusive, when only part of the file was sent. */
  lines?: { start: number; end: number };
  /** The code as sent, lines without their line breaks. */
  code: string[];
  attached: boolean;
}

const HASH_COMMENT = new Set(['py', 'python', 'sh', 'bash', 'zsh', 'shell', 'shellscript', 'yaml', 'yml', 'rb', 'ruby', 'toml', 'r', 'pl', 'perl', 'ps1', 'powershell', 'dockerfile', 'makefile', 'ex', 'exs', 'elixir', 'coffee', 'tcl']);

/** `# ` for Python, shells, YAML and kin; `// ` otherwise (TypeScript, JavaScript, C-like and the rest). */
export function commentFor(language: string, label: string): string {
  const ext = /\.([^./\\]+)$/.exec(label)?.[1]?.toLowerCase() ?? '';
  const lang = language.toLowerCase();
  return HASH_COMMENT.has(lang) || (lang === '' && HASH_COMMENT.has(ext)) ? '# ' : '// ';
}

/** The code sections of one of our prompts: `<label>:` / `<label> (line N):` / `<label> (lines S-E):` / `Attached file <label>:`, a blank line, a fenced block. */
export function codeSections(prompt: string): CodeSection[] {
  const lines = prompt.split('\n');
  const sections: CodeSection[] = [];
  for (let i = 0; i + 2 < lines.length; i++) {
    const head = /^(Attached file )?(.+?)(?: \(lines? (\d+)(?:-(\d+))?\))?:$/.exec(lines[i]);
    const fence = /^(`{3,}|~{3,})([^`]*)$/.exec(lines[i + 2]);
    if (!head || lines[i + 1] !== '' || !fence) {
      continue;
    }
    const close = lines.findIndex((l, k) => k > i + 2 && l === fence[1]);
    if (close < 0) {
      continue;
    }
    const start = head[3] === undefined ? undefined : Number(head[3]);
    sections.push({
      label: head[2],
      language: fence[2].trim().split(/\s+/)[0] ?? '',
      lines: start === undefined ? undefined : { start, end: head[4] === undefined ? start : Number(head[4]) },
      code: lines.slice(i + 3, close),
      attached: head[1] !== undefined,
    });
    i = close;
  }
  return sections;
}

/** A fence longer than any backtick run in the text. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function block(info: string, body: string[]): string {
  const text = body.join('\n');
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}${body.length > 0 ? '\n' : ''}${fence}`;
}

/** `path=<p>`, quoted when the path holds spaces. */
const pathAttr = (label: string): string => (/\s/.test(label) ? `path="${label}"` : `path=${label}`);

/** A label the other namings can carry: a path with a `/` or a dot extension, no spaces or markup. */
const plainPath = (label: string): boolean => /^[\w./-]+$/.test(label) && (label.includes('/') || /\.[A-Za-z]\w*$/.test(label)) && !label.startsWith('/');

/** The forms attachments take in turn. */
export const ATTACHMENT_FORMS = ['bold', 'comment', 'patch', 'partial', 'colon', 'path'] as const;
export type AttachmentForm = (typeof ATTACHMENT_FORMS)[number];

/** Whether a partial block (the first lines, then an elision) can be placed: a distinctive line among the first three. */
function partialFits(code: string[]): boolean {
  if (code.length < 6) return false;
  return code.slice(0, 3).some((l) => l.trim().length >= 8 && code.filter((x) => x === l).length === 1);
}

/** The attachment `file` with one line on top, in the naming `form` (falling back to path= where it cannot be written). */
export function attachmentBlock(file: CodeSection, form: AttachmentForm): string[] {
  const comment = commentFor(file.language, file.label);
  const updated = `${comment}Updated by the agents.`;
  const lang = file.language;
  const usable = plainPath(file.label) && (form !== 'partial' || partialFits(file.code)) && (form !== 'patch' || file.code.length > 0);
  switch (usable ? form : 'path') {
    case 'bold':
      return [`**${file.label}**`, '', block(lang, [updated, ...file.code])];
    case 'comment':
      return [`The attached file, updated:`, '', block(lang, [`${comment}${file.label}`, updated, ...file.code])];
    case 'patch':
      return [
        `A patch for ${file.label}:`,
        '',
        block('', ['*** Begin Patch', `*** Update File: ${file.label}`, '@@', `+${updated}`, ...file.code.slice(0, 3).map((l) => ` ${l}`), '*** End Patch']),
      ];
    case 'partial':
      return [`The top of ${file.label} changes; the rest stays:`, '', block(`${lang} ${file.label}`.trim(), [updated, ...file.code.slice(0, 3), `${comment}... existing code ...`])];
    case 'colon':
      return [`The attached file ${file.label}, updated:`, '', block(lang ? `${lang}:${file.label}` : file.label, [updated, ...file.code])];
    default:
      return [`The attached file ${file.label}, updated:`, '', block(`${lang} ${pathAttr(file.label)}`.trim(), [updated, ...file.code])];
  }
}

/** A git diff of the main code (diff --git, index, a/ b/), or the landing format's ```diff path= for a label with spaces. */
function mainDiff(main: CodeSection): string {
  const diff = unifiedDiff(main);
  if (!plainPath(main.label)) return block(`diff ${pathAttr(main.label)}`, diff);
  return block('diff', [`diff --git a/${main.label} b/${main.label}`, 'index 3b18e51..a9f2c3d 100644', ...diff]);
}

const indentOf = (line: string | undefined): string => /^[ \t]*/.exec(line ?? '')?.[0] ?? '';

function lastNonBlank(code: string[]): number {
  for (let i = code.length - 1; i >= 0; i--) {
    if (code[i].trim() !== '') {
      return i;
    }
  }
  return -1;
}

/** The main code with both changes applied: a comment line above the first line, a note on the last non-blank line. */
export function changedCode(section: CodeSection): string[] {
  const comment = commentFor(section.language, section.label);
  const out = [...section.code];
  const last = lastNonBlank(out);
  if (last >= 0) {
    out[last] = `${out[last]} ${comment}Checked by the agents.`;
  }
  out.unshift(`${indentOf(section.code.find((l) => l.trim() !== '') ?? '')}${comment}Reviewed by the agents.`);
  return out;
}

interface Hunk {
  /** 0-based first and last code line (inclusive) the hunk covers. */
  from: number;
  to: number;
}

const CONTEXT = 3;

/** A unified diff of the main code in file coordinates: two hunks when the code has 12 lines or more, else one. */
export function unifiedDiff(section: CodeSection): string[] {
  const code = section.code;
  const start = section.lines?.start ?? 1;
  const comment = commentFor(section.language, section.label);
  const inserted = `${indentOf(code.find((l) => l.trim() !== '') ?? '')}${comment}Reviewed by the agents.`;
  const last = lastNonBlank(code);
  const n = code.length;

  let hunks: Hunk[];
  if (n < 12 || last < 0) {
    hunks = [{ from: 0, to: n - 1 }];
  } else {
    const first: Hunk = { from: 0, to: Math.min(n - 1, CONTEXT - 1) };
    const second: Hunk = { from: Math.max(0, last - CONTEXT), to: Math.min(n - 1, last + CONTEXT) };
    hunks = second.from <= first.to + 1 ? [{ from: 0, to: second.to }] : [first, second];
  }

  const out = [`--- a/${section.label}`, `+++ b/${section.label}`];
  let shift = 0;
  for (const h of hunks) {
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    if (h.from === 0) {
      body.push(`+${inserted}`);
      newCount++;
    }
    for (let i = h.from; i <= h.to; i++) {
      if (i === last) {
        body.push(`-${code[i]}`, `+${code[i]} ${comment}Checked by the agents.`);
        oldCount++;
        newCount++;
      } else {
        body.push(` ${code[i]}`);
        oldCount++;
        newCount++;
      }
    }
    const oldStart = start + h.from;
    const newStart = oldStart + shift;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...body);
    shift += newCount - oldCount;
  }
  return out;
}

/**
 * The landable part of the answer, or undefined when the prompt does not ask for it or carries no code:
 * the main code's change, each attached file, one unnamed block, one block outside the workspace.
 */
export function landingBlocks(prompt: string): string[] | undefined {
  if (!prompt.includes(LANDING_MARKER)) {
    return undefined;
  }
  const sections = codeSections(prompt);
  const main = sections.find((s) => !s.attached);
  const attached = sections.filter((s) => s.attached);
  if (!main && attached.length === 0) {
    return undefined;
  }
  const out: string[] = [];
  if (main) {
    if (main.lines) {
      out.push(`Changes to ${main.label} (lines ${main.lines.start}-${main.lines.end}):`, '', mainDiff(main));
    } else {
      const info = plainPath(main.label) ? `${main.language} ${main.label}` : `${main.language} ${pathAttr(main.label)}`;
      out.push(`The new ${main.label}:`, '', block(info.trim(), changedCode(main)));
    }
  }
  attached.forEach((file, i) => out.push('', ...attachmentBlock(file, ATTACHMENT_FORMS[i % ATTACHMENT_FORMS.length])));
  const example = main ?? attached[0];
  const comment = commentFor(example.language, example.label);
  out.push('', 'How to use it:', '', block(example.language, [`${comment}Example: the reviewed code in ${example.label} is called as before.`]));
  out.push('', 'Notes the agents kept:', '', block('text ../outside-notes.txt', ['The agents kept these notes outside the workspace.']));
  return out;
}
