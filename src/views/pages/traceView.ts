/**
 * The result view's sections about the team's work: the execution trace ("how the team worked"), the live
 * tool activity, the files the agents made and the pages they read. Pure (no vscode): the words come from
 * the caller, already localized, so tests render hostile input in plain Node. Everything the server wrote
 * goes through `escapeHtml` or the inert markdown renderer; addresses are never links (a button asks the
 * extension, which opens only https after the click). Bounded: api/trace.ts already cut the trace, and
 * each text is rendered with a character cap.
 */
import { shownFileName } from '../../api/filenames';
import type { TraceView } from '../../api/trace';
import type { ProducedFile, SourceLink, ToolActivity } from '../../tasks/model';
import { escapeHtml, renderMarkdown } from './markdown';

export interface TeamWords {
  goal: string;
  plan: string;
  steps: string;
  step: (index: number, agent: string | undefined) => string;
  subtask: string;
  pending: string;
  failed: string;
  took: (ms: number) => string;
  tools: string;
  selfEval: string;
  report: string;
  summary: string;
  keySteps: string;
  decisions: string;
  rubric: string;
  finalAnswer: string;
  partial: string;
  stepsLeftOut: (n: number) => string;
  planLeftOut: (n: number) => string;
  charsLeftOut: (n: number) => string;
  noSteps: string;
  agent: (n: number) => string;
  toolStatus: (status: ToolActivity['status']) => string;
  open: string;
  saveAs: string;
  attach: string;
  notStored: string;
  openInBrowser: string;
  notHttps: string;
  size: (bytes: number) => string;
  /** A tool's result in a few words (issue 26): "3 results" (`more`: the preview was cut, "3+ results"). */
  results: (n: number, more: boolean) => string;
  passed: (passed: number, failed: number) => string;
  exitCode: (code: number) => string;
  made: (filename: string) => string;
  /** The summary of a result that cannot be said in a few words ("Result"). */
  rawResult: string;
}

const t = escapeHtml;
/** Characters of one rendered text of the trace (api/trace.ts cuts the same or less). */
const MAX_RENDERED = 20_000;

function md(text: string | undefined): string {
  return text ? `<div class="md">${renderMarkdown(text, { maxChars: MAX_RENDERED })}</div>` : '';
}

/** The trace as an HTML fragment (the body of the "How the team worked" section). */
export function traceHtml(trace: TraceView, words: TeamWords, partial: boolean): string {
  const out: string[] = [];
  if (partial) out.push(`<p class="muted">${t(words.partial)}</p>`);
  if (trace.goal) out.push(`<h3>${t(words.goal)}</h3>${md(trace.goal)}`);
  if (trace.plan.length) {
    out.push(`<h3>${t(words.plan)}</h3><ol class="plan">${trace.plan.map(p => `<li>${t(p)}</li>`).join('')}</ol>`);
    if (trace.cut.plan) out.push(`<p class="muted">${t(words.planLeftOut(trace.cut.plan))}</p>`);
  }
  out.push(`<h3>${t(words.steps)}</h3>`);
  if (!trace.steps.length) out.push(`<p class="muted">${t(words.noSteps)}</p>`);
  for (const step of trace.steps) {
    const state = step.status === 'pending' ? words.pending : step.status === 'error' ? words.failed : '';
    const took = step.executionMs ? ` · ${words.took(step.executionMs)}` : '';
    out.push(
      `<section class="step${step.status === 'error' ? ' error-step' : ''}"><h4>${t(words.step(step.index, step.agent))}${state ? ` <span class="badge">${t(state)}</span>` : ''}<span class="muted">${t(took)}</span></h4>`,
    );
    if (step.subtask) out.push(`<p class="subtask"><span class="muted">${t(words.subtask)}</span> ${t(step.subtask)}</p>`);
    out.push(md(step.response));
    if (step.tools.length) {
      out.push(
        `<p class="muted">${t(words.tools)}</p><ul class="tools">${step.tools
          .map(tool => `<li><code>${t(tool.tool)}</code> ${t(words.toolStatus(tool.status))}${tool.preview || tool.error ? ` <span class="muted">${toolResultHtml(tool.error ?? tool.preview, words)}</span>` : ''}</li>`)
          .join('')}</ul>`,
      );
    }
    out.push('</section>');
  }
  if (trace.cut.steps) out.push(`<p class="muted">${t(words.stepsLeftOut(trace.cut.steps))}</p>`);
  if (trace.selfEval) out.push(`<h3>${t(words.selfEval)}</h3><p>${t(trace.selfEval)}</p>`);
  const r = trace.report;
  if (r) {
    out.push(`<h3>${t(words.report)}</h3>`);
    if (r.summary) out.push(`<p><strong>${t(words.summary)}</strong></p>${md(r.summary)}`);
    if (r.keySteps.length) {
      out.push(
        `<p><strong>${t(words.keySteps)}</strong></p><ul>${r.keySteps
          .map(s => `<li>${s.agent ? `<code>${t(s.agent)}</code> ` : ''}${t(s.action ?? '')}${s.observation ? ` — ${t(s.observation)}` : ''}</li>`)
          .join('')}</ul>`,
      );
    }
    if (r.decisions.length) {
      out.push(
        `<p><strong>${t(words.decisions)}</strong></p><ul>${r.decisions
          .map(d => `<li>${d.agent ? `<code>${t(d.agent)}</code> ` : ''}${t(d.rationale ?? '')}${d.outcome ? ` → ${t(d.outcome)}` : ''}</li>`)
          .join('')}</ul>`,
      );
    }
    if (r.rubric.length) {
      out.push(`<p><strong>${t(words.rubric)}</strong></p><table class="rubric">${r.rubric.map(x => `<tr><td>${t(x.name.replace(/_/g, ' '))}</td><td>${t(x.value)}</td></tr>`).join('')}</table>`);
    }
  }
  if (trace.finalAnswer) out.push(`<details><summary>${t(words.finalAnswer)}</summary>${md(trace.finalAnswer)}</details>`);
  if (trace.cut.chars) out.push(`<p class="muted">${t(words.charsLeftOut(trace.cut.chars))}</p>`);
  return out.join('\n');
}

/** Characters of a tool preview the summary reads (previews are bounded before: this only caps the work). */
const SUMMARY_SCAN = 4_000;
/** Characters of a one-line summary taken from free text. */
const SUMMARY_LINE = 80;

/**
 * A tool's result in a few words, from its preview (JSON or text, often cut by the service): "3 results",
 * "3 passed", "exit code 1", "made findings.csv", or the first line of text. Undefined when nothing short can
 * be said. Linear in the (capped) preview; never throws.
 */
export function toolSummary(preview: string | undefined, words: Pick<TeamWords, 'results' | 'passed' | 'exitCode' | 'made'>): string | undefined {
  const text = (preview ?? '').slice(0, SUMMARY_SCAN).trim();
  if (!text) return undefined;
  let parsed: unknown;
  if (text.startsWith('{')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // cut by the service: read with the patterns below
    }
  }
  const o = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  if (o && Array.isArray(o.results)) return words.results(o.results.length, false);
  const resultsAt = text.search(/"results"\s*:\s*\[/);
  if (!o && resultsAt >= 0) return words.results(text.slice(resultsAt).match(/"url"\s*:/g)?.length ?? 0, true);
  const stdout = o && typeof o.stdout === 'string' ? o.stdout : o ? '' : text;
  const tests = /(\d{1,9}) passed(?:,? (\d{1,9}) failed)?/.exec(stdout);
  if (tests) return words.passed(Number(tests[1]), Number(tests[2] ?? 0));
  const exit = o ? o.exit_code : undefined;
  if (typeof exit === 'number' && exit !== 0) return words.exitCode(exit);
  const generated = o?.generated_file as Record<string, unknown> | undefined;
  const filename = typeof generated?.filename === 'string' ? generated.filename : /"filename"\s*:\s*"([^"\\]{1,200})"/.exec(text)?.[1];
  if (filename) return words.made(filename);
  const free = o ? (typeof o.error === 'string' ? o.error : stdout) : text.startsWith('{') || text.startsWith('[') ? '' : text;
  const line = free.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return line ? (line.length > SUMMARY_LINE ? `${line.slice(0, SUMMARY_LINE - 1).trimEnd()}…` : line) : undefined;
}

/** A tool's summary, with its raw preview (if any) on expand: never a line of JSON running off the side. */
export function toolResultHtml(preview: string | undefined, words: TeamWords): string {
  if (!preview) return '';
  const summary = toolSummary(preview, words);
  return `<details class="tool-raw"><summary>${t(summary ?? words.rawResult)}</summary><pre tabindex="0">${t(preview)}</pre></details>`;
}

/** The latest tool calls, newest last: agent, tool, status and a one-line summary (the raw preview on expand). */
export function activityHtml(activity: readonly ToolActivity[], words: TeamWords): string {
  if (!activity.length) return '';
  return `<table class="activity">${activity
    .map(
      a =>
        `<tr class="tool-${a.status}"><td>${a.agent !== undefined ? t(words.agent(a.agent)) : ''}</td><td><code>${t(a.tool)}</code></td><td>${t(words.toolStatus(a.status))}</td><td class="muted">${toolResultHtml(a.preview, words)}</td></tr>`,
    )
    .join('')}</table>`;
}

/** The host of an address, for showing (never a link). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Files the agents made, each with Open, Save As and Attach to Next Task (buttons, by index). */
export function filesHtml(files: readonly ProducedFile[], words: TeamWords): string {
  return `<ul class="files">${files
    .map((f, i) => {
      const meta = [f.mimeType, f.bytes !== undefined ? words.size(f.bytes) : undefined, f.agent !== undefined ? words.agent(f.agent) : undefined].filter(Boolean).join(' · ');
      const buttons = f.fileId
        ? `<button data-action="openFile" data-index="${i}">${t(words.open)}</button><button data-action="saveFile" data-index="${i}" class="secondary">${t(words.saveAs)}</button><button data-action="attachFile" data-index="${i}" class="secondary">${t(words.attach)}</button>`
        : `<span class="muted">${t(words.notStored)}</span>`;
      return `<li><span class="file-name">${t(shownFileName(f.filename))}</span> <span class="muted">${t(meta)}</span><div class="row-actions">${buttons}</div></li>`;
    })
    .join('')}</ul>`;
}

/** Sources as title, host and snippet; the address opens (https only) through the extension after a click. */
export function sourcesHtml(sources: readonly SourceLink[], words: TeamWords): string {
  return `<ul class="sources">${sources
    .map((s, i) => {
      const https = /^https:\/\//i.test(s.url) && hostOf(s.url) !== '';
      const button = https
        ? `<button data-action="openSource" data-index="${i}" class="secondary" title="${t(s.url)}">${t(words.openInBrowser)}</button>`
        : `<span class="muted">${t(words.notHttps)}</span>`;
      return `<li><span class="source-title">${t(s.title || hostOf(s.url) || s.url)}</span> <span class="muted">${t(hostOf(s.url))}</span>${
        s.snippet ? `<div class="snippet muted">${t(s.snippet)}</div>` : ''
      }<div class="row-actions">${button}</div></li>`;
    })
    .join('')}</ul>`;
}
