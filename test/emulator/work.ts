// What the agents of one task do, decided once at submission and deterministic for a prompt: the plan (one
// subtask per agent), each agent's answer, the tools they call (a web search with sources, a code run, a file
// they generate), what a budget lets through, and the execution report. Times are fractions of the task's
// work (0 = submitted, 1 = done); the state module turns them into clock times.
import { createHash } from 'node:crypto';

/** What one LLM call is estimated to cost against a budget (the service's own estimate). */
export const ESTIMATED_CALL_USD = 0.01;
/** The first part of the work is planning: no agent exists yet (agent_statuses: []). */
export const PLANNING_SHARE = 0.05;

export interface Source {
  title: string;
  url: string;
  snippet: string;
}

export interface PlannedFile {
  filename: string;
  mimeType: string;
  content: Buffer;
  toolName: string;
}

export interface AgentWork {
  /** 1-based, as in agent_statuses. */
  index: number;
  /** The role name, as in the trace's steps and role_models keys. */
  role: string;
  /** The stage label of its tool events. */
  label: string;
  model: string;
  subtask: string;
  /** Its answer, or for a failed agent "Error: …". */
  answer: string;
  ok: boolean;
  startsAt: number;
  doneAt: number;
  executionMs: number;
}

export interface ToolWork {
  invocationId: string;
  agentIndex: number;
  agentLabel: string;
  toolName: string;
  /** The raw arguments JSON, as the model sent it. */
  arguments: string;
  startsAt: number;
  doneAt: number;
  durationMs: number;
  resultPreview: string;
  sources?: Source[];
  file?: PlannedFile;
}

export interface BudgetCall {
  stage: string;
  ok: boolean;
  /** When the call's cost is recorded (fraction of the work). */
  doneAt: number;
}

export interface ExecutionReport {
  summary: string;
  key_steps: { agent: string; action: string; observation: string }[];
  decisions: { agent: string; rationale: string; outcome: string }[];
  rubric: { accuracy: number; completeness: number; confidence: number; risk: string; human_review: boolean };
}

export interface TaskWork {
  subtasks: string[];
  agents: AgentWork[];
  tools: ToolWork[];
  /** Only when a budget is enforced (engine run with `budget`). */
  budget?: { initialUsd: number; calls: BudgetCall[] };
  /** Every agent failed: the task fails with this error. */
  failure?: string;
  /** Synthesis or validation was refused: the answer is the longest agent answer. */
  fallbackAnswer?: string;
  report: ExecutionReport;
}

export interface WorkInput {
  taskId: string;
  prompt: string;
  modelId: string;
  agentCount: number;
  roleModels?: Record<string, string>;
  budget?: number;
  files?: number;
  sources?: number;
  totalMs: number;
}

const FOCUS: readonly [string, string][] = [
  ['Read the request and the code it points to, and list what it asks for', 'Requirements'],
  ['Check the code for correctness problems and edge cases', 'Correctness'],
  ['Look for clearer structure and naming without changing behaviour', 'Readability'],
  ['Find the tests and callers the change would affect', 'Impact'],
  ['Check error handling and input validation', 'Robustness'],
  ['Look for needless work and slow paths', 'Performance'],
  ['Check the documentation and comments against the code', 'Documentation'],
  ['Collect the risks and open questions', 'Risks'],
];

/** When the service's planner fails (no budget for it), it falls back to at most four research subtasks. */
const FALLBACK_SUBTASKS = [
  'Use search_web to research current information about: %s',
  'Use search_web to find and analyze data about: %s',
  'Use search_web to discover alternative perspectives on: %s',
  'Use search_web to verify and cross-check facts about: %s',
];

const SOURCES_BY_LANGUAGE: Record<string, Source[]> = {
  ts: [
    { title: 'TypeScript Handbook: Narrowing', url: 'https://www.typescriptlang.org/docs/handbook/2/narrowing.html', snippet: 'TypeScript narrows a union type to a more specific one by following the checks in the code.' },
    { title: 'Array.prototype.reduce() - JavaScript | MDN', url: 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/reduce', snippet: 'The reduce() method executes a reducer callback on each element, passing in the value from the calculation on the preceding element.' },
    { title: 'Number.isFinite() - JavaScript | MDN', url: 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Number/isFinite', snippet: 'Determines whether the passed value is a finite number, that is, not Infinity, -Infinity or NaN.' },
  ],
  py: [
    { title: 'Built-in Functions — Python 3 documentation', url: 'https://docs.python.org/3/library/functions.html', snippet: 'The Python interpreter has a number of functions and types built into it that are always available.' },
    { title: 'PEP 8 – Style Guide for Python Code', url: 'https://peps.python.org/pep-0008/', snippet: 'This document gives coding conventions for the Python code comprising the standard library.' },
    { title: 'Errors and Exceptions — Python 3 documentation', url: 'https://docs.python.org/3/tutorial/errors.html', snippet: 'There are (at least) two distinguishable kinds of errors: syntax errors and exceptions.' },
  ],
  any: [
    { title: "Google Engineering Practices: What to look for in a code review", url: 'https://google.github.io/eng-practices/review/reviewer/looking-for.html', snippet: 'The most important thing to cover in a review is the overall design of the change.' },
    { title: 'Code review - Wikipedia', url: 'https://en.wikipedia.org/wiki/Code_review', snippet: 'Code review is a software quality assurance activity in which one or more people check a program by viewing and reading parts of its source code.' },
    { title: 'OWASP Input Validation Cheat Sheet', url: 'https://cheatsheetseries.owasp.org/cheatsheets/Input_Validation_Cheat_Sheet.html', snippet: 'Input validation is performed to ensure only properly formed data is entering the workflow.' },
    { title: 'The Twelve-Factor App', url: 'https://12factor.net/', snippet: 'A methodology for building software-as-a-service apps that use declarative formats for setup automation.' },
    { title: 'Semantic Versioning 2.0.0', url: 'https://semver.org/', snippet: 'Given a version number MAJOR.MINOR.PATCH, increment the MAJOR version when you make incompatible API changes.' },
  ],
};

/** First non-blank line of the prompt, for the plan's subtasks (at most 120 characters). */
export function topicOf(prompt: string): string {
  const line = (prompt.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').trim();
  return [...line].length > 120 ? `${[...line].slice(0, 117).join('')}...` : line;
}

/** The language of the prompt's first fenced block ('' when none). */
export function languageOf(prompt: string): string {
  return /^(?:`{3,}|~{3,})([^\s`]*)/m.exec(prompt)?.[1]?.toLowerCase() ?? '';
}

function sourceFamily(language: string): string {
  if (['ts', 'tsx', 'typescript', 'js', 'jsx', 'javascript'].includes(language)) {
    return 'ts';
  }
  return ['py', 'python'].includes(language) ? 'py' : 'any';
}

/** The sources the first agent's search finds: the language's references first, then general ones. */
export function sourcesFor(prompt: string, count: number): Source[] {
  const family = SOURCES_BY_LANGUAGE[sourceFamily(languageOf(prompt))];
  const all = family === SOURCES_BY_LANGUAGE.any ? family : [...family, ...SOURCES_BY_LANGUAGE.any];
  return all.slice(0, Math.max(0, Math.min(5, count)));
}

/** The service's preview of a tool result: at most 500 bytes on a character boundary, then "...". */
export function toolPreview(text: string): string {
  if (Buffer.byteLength(text) <= 500) {
    return text;
  }
  let end = 0;
  let offset = 0;
  for (const ch of text) {
    if (offset > 500) {
      break;
    }
    end = offset;
    offset += Buffer.byteLength(ch);
  }
  return `${Buffer.from(text).subarray(0, end).toString('utf8')}...`;
}

const FILE_KINDS: { terms: string[]; tool: string; ext: string; mime: string }[] = [
  { terms: ['.xlsx', 'xlsx', 'excel', 'spreadsheet', 'workbook'], tool: 'create_spreadsheet', ext: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  { terms: ['.docx', 'docx', 'word document', 'word file'], tool: 'create_document', ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  { terms: ['.pptx', 'pptx', 'powerpoint', 'presentation', 'slide deck', 'slides'], tool: 'create_presentation', ext: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  { terms: ['.pdf', 'pdf'], tool: 'create_pdf', ext: 'pdf', mime: 'application/pdf' },
  { terms: ['.csv', 'csv'], tool: 'create_csv', ext: 'csv', mime: 'text/csv' },
  { terms: ['.zip', 'zip', 'archive'], tool: 'create_archive', ext: 'zip', mime: 'application/zip' },
  { terms: ['.png', 'png'], tool: 'create_chart', ext: 'png', mime: 'image/png' },
  { terms: ['.svg', 'svg'], tool: 'create_chart', ext: 'svg', mime: 'image/svg+xml' },
];

/** The service's test for "the user asked for a file": an action word and a file word (or chart/graph + file/image). */
export function requestedFileKind(prompt: string): (typeof FILE_KINDS)[number] | undefined {
  const text = prompt.toLowerCase();
  if (!/[.a-z]/.test(text) || !['create', 'make', 'generate', 'save', 'export', 'download', 'build', 'produce'].some((t) => text.includes(t))) {
    return undefined;
  }
  const kind = FILE_KINDS.find((k) => k.terms.some((t) => text.includes(t)));
  if (kind) {
    return kind;
  }
  return (text.includes('chart') || text.includes('graph')) && (text.includes('file') || text.includes('image')) ? FILE_KINDS[6] : undefined;
}

const csvCell = (text: string): string => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function fileContent(kind: { ext: string }, agents: AgentWork[], sources: Source[], topic: string): Buffer {
  switch (kind.ext) {
    case 'csv': {
      const rows = [['agent', 'focus', 'finding'], ...agents.map((a) => [a.role, a.subtask.split(':')[0], a.answer.split('. ')[0]])];
      return Buffer.from(rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n');
    }
    case 'pdf':
      return Buffer.from(`%PDF-1.4\n% Report: ${topic.replace(/[^\x20-\x7e]/g, '?')}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
    case 'png':
      return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('emulated chart image')]);
    case 'svg':
      return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="24">${agents.length} agents</text></svg>\n`);
    case 'xlsx':
    case 'docx':
    case 'pptx':
    case 'zip':
      return Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from(`emulated ${kind.ext} for ${sources.length} sources`)]);
    default:
      return Buffer.from(topic);
  }
}

function slugOf(text: string): string {
  const slug = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/, '');
  return slug || 'task';
}

/** The files the last agent generates: what the prompt asks for (or findings.csv), then sources.csv, report.pdf. */
function plannedFiles(prompt: string, count: number, agents: AgentWork[], sources: Source[]): PlannedFile[] {
  const topic = topicOf(prompt);
  const asked = requestedFileKind(prompt);
  const first = asked ? { ...asked, name: `${slugOf(topic)}.${asked.ext}` } : { ...FILE_KINDS[4], name: 'findings.csv' };
  const extra = [
    { ...FILE_KINDS[4], name: 'sources.csv' },
    { ...FILE_KINDS[3], name: 'report.pdf' },
  ];
  const kinds = [first, ...extra].slice(0, Math.max(0, Math.min(3, count)));
  return kinds.map((k) => ({
    filename: k.name,
    mimeType: k.mime,
    toolName: k.tool,
    content:
      k.name === 'sources.csv'
        ? Buffer.from(['title,url', ...sources.map((s) => `${csvCell(s.title)},${s.url}`)].join('\n') + '\n')
        : fileContent(k, agents, sources, topic),
  }));
}

function answerFor(i: number, focus: string, prompt: string, topic: string): string {
  const lines = prompt.split(/\r?\n/).length;
  const language = languageOf(prompt) || 'plain text';
  const quoted = `"${topic}"`;
  switch (i % FOCUS.length) {
    case 0:
      // Longer than the 600 bytes the stream keeps of an agent's result.
      return [
        `${focus}: the request ${quoted} concerns ${language} in a prompt of ${lines} lines.`,
        'I read every line of the excerpt, noted the inputs it takes and the values it returns, and checked each against the wording of the request.',
        'Nothing in the request conflicts with the existing behaviour, so the change can stay local to the code that was sent.',
        'Where the request is silent, the safest reading is to keep the current behaviour and to say so in the answer; the other agents agreed with that reading.',
        'The names used in the request match the names in the code, which keeps the answer easy to apply by hand or with a tool.',
        'I found no hidden dependency on global state in the excerpt.',
      ].join(' ');
    case 1:
      return `${focus}: the excerpt handles the common case correctly. Empty input and very large values deserve an explicit check, and a comment should say what happens at the boundaries.`;
    case 2:
      return `${focus}: the structure is already small. One comment above the first line would tell a reader what the code is for; the rest can stay as it is.`;
    case 3:
      return `${focus}: callers only rely on the return value, so a comment-only change cannot break them. No test needs to change.`;
    case 4:
      return `${focus}: invalid input reaches the code unchecked. Validating at the boundary is enough; the inner code can trust its arguments.`;
    case 5:
      return `${focus}: the code does one pass over its input, which is as fast as it gets here.`;
    case 6:
      return `${focus}: the comments should match the code after the change; a short note on the last line records what was checked.`;
    default:
      return `${focus}: the main risk is reading the request more broadly than it was meant; keeping the change small avoids that.`;
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Decides the work of one task. */
export function planWork(input: WorkInput): TaskWork {
  const topic = topicOf(input.prompt);
  const callId = (n: number): string => `call_${hash(`${input.taskId}:${n}`).slice(0, 24)}`;

  // The budget: decomposition first, then every agent reserves a call before any finishes, then synthesis and
  // validation. A call is refused when what is spent, what is reserved and its own estimate exceed the budget.
  const budget = input.budget;
  let consumed = 0;
  let pending = 0;
  const reserve = (): boolean => {
    if (budget === undefined) {
      return true;
    }
    if (consumed + pending + ESTIMATED_CALL_USD > budget) {
      return false;
    }
    pending += ESTIMATED_CALL_USD;
    return true;
  };
  const finish = (): void => {
    if (budget === undefined) {
      return;
    }
    pending = Math.max(0, pending - ESTIMATED_CALL_USD);
    consumed += ESTIMATED_CALL_USD;
  };
  const calls: BudgetCall[] = [];

  const planned = reserve();
  if (planned) {
    finish();
  }
  calls.push({ stage: 'task decomposition', ok: planned, doneAt: PLANNING_SHARE });
  const subtasks = planned
    ? Array.from({ length: input.agentCount }, (_, i) => `${FOCUS[i % FOCUS.length][0]}: ${topic}`)
    : FALLBACK_SUBTASKS.slice(0, input.agentCount).map((t) => t.replace('%s', input.prompt.trim()));
  const n = subtasks.length;

  const agents: AgentWork[] = subtasks.map((subtask, i) => {
    const role = `Agent-${i + 1}`;
    const last = i === n - 1;
    const startsAt = PLANNING_SHARE + ((0.3 - PLANNING_SHARE) * i) / n;
    const doneAt = last ? 0.97 : 0.7 + (0.3 * (i + 1)) / n;
    const ok = reserve();
    const label = `agent-${i + 1}`;
    const focus = planned ? FOCUS[i % FOCUS.length][1] : 'Research';
    return {
      index: i + 1,
      role,
      label,
      model: input.roleModels?.[role] ?? input.modelId,
      subtask,
      answer: ok ? answerFor(i, focus, input.prompt, topic) : `Error: OrchestrationError[${label}]: Organization USD budget exceeded`,
      ok,
      startsAt,
      doneAt,
      executionMs: Math.round((doneAt - startsAt) * input.totalMs),
    };
  });
  // Agents finish in the order of their end.
  for (const a of [...agents].sort((x, y) => x.doneAt - y.doneAt)) {
    if (a.ok) {
      finish();
    }
    calls.push({ stage: a.label, ok: a.ok, doneAt: a.ok ? a.doneAt : a.startsAt });
  }

  const working = agents.filter((a) => a.ok);
  let failure: string | undefined;
  let fallbackAnswer: string | undefined;
  if (working.length === 0) {
    const cause = agents[0]?.answer.replace(/^Error:\s*/, '') ?? 'no agents';
    failure = `OrchestrationError[orchestration]: All agents failed to provide results: ${cause}`;
  } else {
    const synthesized = reserve();
    if (synthesized) {
      finish();
    }
    calls.push({ stage: 'result synthesis', ok: synthesized, doneAt: 0.985 });
    const validated = reserve();
    if (validated) {
      finish();
    }
    calls.push({ stage: 'answer validation', ok: validated, doneAt: 1 });
    if (!synthesized || !validated) {
      fallbackAnswer = working.map((a) => a.answer).reduce((best, a) => (a.length > best.length ? a : best), '');
    }
  }

  // Tools: the first working agent searches the web, the second runs the code, the last one writes the files.
  const tools: ToolWork[] = [];
  const within = (a: AgentWork, from: number, to: number): [number, number] => [a.startsAt + (a.doneAt - a.startsAt) * from, a.startsAt + (a.doneAt - a.startsAt) * to];
  const sources = sourcesFor(input.prompt, input.sources ?? 3);
  const searcher = working[0];
  if (searcher && sources.length > 0) {
    const [startsAt, doneAt] = within(searcher, 0.1, 0.4);
    const query = `${topic} ${languageOf(input.prompt) || 'code'} best practices`.trim();
    tools.push({
      invocationId: callId(1),
      agentIndex: searcher.index,
      agentLabel: searcher.label,
      toolName: 'search_web',
      arguments: JSON.stringify({ query }),
      startsAt,
      doneAt,
      durationMs: Math.round((doneAt - startsAt) * input.totalMs),
      resultPreview: toolPreview(JSON.stringify({ query, results: sources })),
      sources,
    });
  }
  const runner = working[1];
  if (runner) {
    const [startsAt, doneAt] = within(runner, 0.2, 0.5);
    tools.push({
      invocationId: callId(2),
      agentIndex: runner.index,
      agentLabel: runner.label,
      toolName: 'execute_code',
      arguments: JSON.stringify({ language: languageOf(input.prompt) || 'python', code: '# run the examples from the request' }),
      startsAt,
      doneAt,
      durationMs: Math.round((doneAt - startsAt) * input.totalMs),
      resultPreview: toolPreview(JSON.stringify({ stdout: 'examples ran: 3 passed, 0 failed\n', exit_code: 0 })),
    });
  }
  const writer = working[working.length - 1];
  if (writer) {
    plannedFiles(input.prompt, input.files ?? 1, agents, sources).forEach((file, k) => {
      const [startsAt, doneAt] = within(writer, 0.6 + 0.1 * k, 0.75 + 0.1 * k);
      tools.push({
        invocationId: callId(3 + k),
        agentIndex: writer.index,
        agentLabel: writer.label,
        toolName: file.toolName,
        arguments: JSON.stringify({ filename: file.filename }),
        startsAt,
        doneAt,
        durationMs: Math.round((doneAt - startsAt) * input.totalMs),
        resultPreview: toolPreview(JSON.stringify({ success: true, generated_file: { filename: file.filename, mimeType: file.mimeType, bytes: file.content.length } })),
        file,
      });
    });
  }

  const failedAgents = agents.filter((a) => !a.ok);
  const report: ExecutionReport = {
    summary:
      failedAgents.length === 0
        ? `${n} agents worked on "${topic}"; their findings agree and were merged into one answer.`
        : `${working.length} of ${n} agents worked on "${topic}"; ${failedAgents.length} stopped when the budget ran out.`,
    key_steps: agents.map((a) => ({
      agent: a.role,
      action: a.subtask,
      observation: a.ok ? a.answer.split('. ')[0].slice(0, 200) : 'Stopped: the budget was exhausted.',
    })),
    decisions: [
      { agent: 'lead', rationale: 'The agents read the request the same way.', outcome: 'Keep the change local to the code that was sent.' },
      ...(failedAgents.length > 0 ? [{ agent: 'lead', rationale: 'Part of the team had no budget left.', outcome: 'Answer from the agents that finished.' }] : []),
    ],
    rubric: {
      accuracy: 4,
      completeness: failedAgents.length === 0 ? 4 : 2,
      confidence: failedAgents.length === 0 ? 4 : 2,
      risk: failedAgents.length === 0 ? 'low' : 'med',
      human_review: failedAgents.length > 0,
    },
  };

  return {
    subtasks,
    agents,
    tools,
    budget: budget === undefined ? undefined : { initialUsd: budget, calls },
    failure,
    fallbackAnswer,
    report,
  };
}

/** USD spent by `fraction` of the work: every accepted call whose cost is recorded by then, summed in order. */
export function consumedUsd(work: TaskWork, fraction: number): number {
  let consumed = 0;
  for (const call of work.budget?.calls ?? []) {
    if (call.ok && call.doneAt <= fraction) {
      consumed += ESTIMATED_CALL_USD;
    }
  }
  return consumed;
}
