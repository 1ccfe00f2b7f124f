// Deterministic "orchestration": the answer is derived from the prompt so tests can assert on it.
import { checkLoopAnswer } from './checkLoop';
import { landingBlocks } from './landing';
import type { TaskOutcome, TaskOverride } from './types';

const OUTCOMES: readonly TaskOutcome[] = ['completed', 'failed', 'canceled', 'awaiting_approval'];

/**
 * Reads `[emulator outcome=failed durationMs=1000 resultBytes=5000000 files=2 sources=0 trace=none]` from a
 * prompt, so a separate process (demo, e2e) can steer a task without the control API.
 */
export function parseDirective(prompt: string): TaskOverride {
  const match = /\[emulator((?:\s+[A-Za-z]+=[^\s\]]+)*)\s*\]/.exec(prompt);
  if (!match) {
    return {};
  }
  const override: TaskOverride = {};
  for (const pair of match[1].trim().split(/\s+/).filter(Boolean)) {
    const [key, value] = pair.split('=', 2);
    if (key === 'outcome' && (OUTCOMES as readonly string[]).includes(value)) {
      override.outcome = value as TaskOutcome;
    } else if ((key === 'durationMs' || key === 'resultBytes' || key === 'errorBytes' || key === 'traceBytes') && /^\d+$/.test(value)) {
      override[key] = Number(value);
    } else if ((key === 'files' || key === 'sources') && /^\d+$/.test(value)) {
      override[key] = Number(value);
    } else if (key === 'resultTooLargeForResults') {
      override.resultTooLargeForResults = value === 'true';
    } else if ((key === 'trace' || key === 'report') && value === 'none') {
      override[key] = 'none';
    } else if (key === 'report' && value === 'stored') {
      override.report = 'stored';
    } else if (key === 'error' && value === 'empty') {
      override.error = '';
    } else if (key === 'answer' && value === 'plain') {
      override.answer = 'plain';
    }
  }
  return override;
}

export interface SynthesisInput {
  prompt: string;
  modelId: string;
  modelLabel: string;
  agentCount: number;
  attachmentNames: string[];
  budget?: number;
  resultBytes?: number;
  /** Engine run: the reasoning effort it ran with. */
  reasoningEffort?: string;
  /** Agents that stopped for lack of budget. */
  stoppedAgents?: string[];
  /** 'plain': no landing answer. */
  answer?: 'plain';
  /** A run in an existing thread (`POST /threads/{id}/runs`): the user prompts already in it, oldest first. Only there is a fix request answered (checkLoop.ts). */
  threadPrompts?: readonly string[];
}

/** First fenced code block: the whole block as written and its language (info string's first word). */
function firstFencedBlock(prompt: string): { block: string; language: string } | undefined {
  const match = /^(`{3,}|~{3,})([^\n]*)\n[\s\S]*?\n\1[ \t]*$/m.exec(prompt);
  if (!match) {
    return undefined;
  }
  return { block: match[0], language: match[2].trim().split(/\s+/)[0] ?? '' };
}

export function synthesizeResult(input: SynthesisInput): string {
  const lines = input.prompt.split(/\r?\n/);
  // Quote the first line with content, verbatim (tests look for it).
  const firstLine = lines.find((l) => l.trim() !== '') ?? '';
  const words = input.prompt.split(/\s+/).filter(Boolean).length;
  const fenced = firstFencedBlock(input.prompt);

  const out: string[] = [
    '# Synthesized answer',
    '',
    `${input.agentCount} agents collaborated on this task using ${input.modelLabel} (${input.modelId}).`,
    '',
    `> ${firstLine}`,
    '',
    `- The prompt has ${plural(words, 'word')} in ${plural(lines.length, 'line')} (${plural([...input.prompt].length, 'character')}).`,
    fenced
      ? `- It contains a fenced code block in ${fenced.language || 'an unspecified language'}.`
      : '- It contains no fenced code block.',
    '- Each agent reviewed the request independently; their findings were merged below.',
  ];
  if (input.attachmentNames.length > 0) {
    out.push(`- Attachments: ${input.attachmentNames.join(', ')}`);
  }
  if (input.budget !== undefined) {
    out.push(`- Budget: $${input.budget.toFixed(2)}`);
  }
  if (input.reasoningEffort) {
    out.push(`- Reasoning effort: ${input.reasoningEffort}`);
  }
  if (input.stoppedAgents && input.stoppedAgents.length > 0) {
    out.push(`- Stopped when the budget ran out: ${input.stoppedAgents.join(', ')}`);
  }
  // The demo's check loop (issue 37) first: its sample request and fix requests have answers of their own.
  const landing = input.answer === 'plain' ? undefined : (checkLoopAnswer(input.prompt, input.threadPrompts) ?? landingBlocks(input.prompt));
  if (landing) {
    out.push('', ...landing);
  } else if (fenced) {
    out.push('', 'The code under discussion:', '', fenced.block);
  }
  out.push('', `Agents consulted: ${input.agentCount}`);

  let text = out.join('\n') + '\n';
  if (input.resultBytes !== undefined && input.resultBytes > Buffer.byteLength(text)) {
    text += padding(input.resultBytes - Buffer.byteLength(text));
  }
  return text;
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Numbered filler lines adding about `bytes` bytes, so huge results stay readable line by line. */
function padding(bytes: number): string {
  const chunks: string[] = ['\n## Details\n'];
  let size = Buffer.byteLength(chunks[0]);
  for (let i = 1; size < bytes; i++) {
    const line = `${String(i).padStart(7, '0')}: supporting detail from the agents' combined analysis.\n`;
    chunks.push(line);
    size += line.length;
  }
  return chunks.join('');
}
