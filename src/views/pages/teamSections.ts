/**
 * What the result view shows about the team's work besides the answer (issue 18): header lines (thread,
 * budget, reasoning effort, role models), the live tool activity while the task runs, the files the agents
 * made and the pages they read, and the collapsible "How the team worked" section with the trace, loaded on
 * demand. Builds the localized words and the markup around the pure renderers of traceView.ts.
 */
import * as vscode from 'vscode';
import { isBudgetExceeded } from '../../api/conditions';
import { formatBytes, formatDuration } from '../../format';
import { type TrackedTask, isFinished } from '../../tasks/model';
import type { TraceReading } from '../../stores/traceStore';
import { agentsStoppedByBudget, budgetSpent } from '../../vocabulary';
import { escapeHtml } from './markdown';
import { type TeamWords, activityHtml, filesHtml, sourcesHtml, traceHtml } from './traceView';

const t = escapeHtml;

export function teamWords(): TeamWords {
  return {
    goal: vscode.l10n.t('Goal'),
    plan: vscode.l10n.t('Plan'),
    steps: vscode.l10n.t('Steps'),
    step: (index, agent) => (agent ? vscode.l10n.t('Step {0}: {1}', index, agent) : vscode.l10n.t('Step {0}', index)),
    subtask: vscode.l10n.t('Subtask:'),
    pending: vscode.l10n.t('not finished'),
    failed: vscode.l10n.t('failed'),
    took: ms => vscode.l10n.t('took {0}', formatDuration(ms)),
    tools: vscode.l10n.t('Tools used:'),
    selfEval: vscode.l10n.t('Self-evaluation'),
    report: vscode.l10n.t('Report'),
    summary: vscode.l10n.t('Summary'),
    keySteps: vscode.l10n.t('Key steps'),
    decisions: vscode.l10n.t('Decisions'),
    rubric: vscode.l10n.t('Rubric'),
    finalAnswer: vscode.l10n.t('Final answer as traced'),
    partial: vscode.l10n.t('The task is still running: the service adds each step as its agent ends. Load it again for more.'),
    stepsLeftOut: n => vscode.l10n.t('{0} more steps are not shown.', n),
    planLeftOut: n => vscode.l10n.t('{0} more plan items are not shown.', n),
    charsLeftOut: n => vscode.l10n.t('{0} more characters of the trace are not shown (it is kept short).', n.toLocaleString()),
    noSteps: vscode.l10n.t('No agent has finished yet.'),
    agent: n => vscode.l10n.t('Agent {0}', n),
    toolStatus: status => (status === 'running' ? vscode.l10n.t('running') : status === 'failed' ? vscode.l10n.t('failed') : vscode.l10n.t('done')),
    open: vscode.l10n.t('Open'),
    saveAs: vscode.l10n.t('Save As…'),
    attach: vscode.l10n.t('Attach to Next Task'),
    notStored: vscode.l10n.t('not stored on the service (its storage was full), so it cannot be downloaded'),
    openInBrowser: vscode.l10n.t('Open in Browser'),
    notHttps: vscode.l10n.t('not https: not opened'),
    size: bytes => formatBytes(bytes),
    results: (n, more) => (more ? vscode.l10n.t('{0}+ results', n) : n === 1 ? vscode.l10n.t('1 result') : vscode.l10n.t('{0} results', n)),
    passed: (passed, failed) => (failed ? vscode.l10n.t('{0} passed, {1} failed', passed, failed) : vscode.l10n.t('{0} passed', passed)),
    exitCode: code => vscode.l10n.t('exit code {0}', code),
    made: filename => vscode.l10n.t('made {0}', filename),
    rawResult: vscode.l10n.t('Result'),
  };
}

/** Extra `<dt>/<dd>` pairs of the header. */
export function teamMeta(task: TrackedTask): string {
  const pairs: [string, string][] = [];
  if (task.budget || task.budgetUsd !== undefined) {
    const spent = task.budget ? budgetSpent(task.budget.consumedUsd, task.budget.initialUsd ?? task.budgetUsd) : budgetSpent(0, task.budgetUsd);
    const stopped = isFinished(task) ? (task.agents ?? []).filter(a => a.status === 'failed' && isBudgetExceeded(a.preview)).length : 0;
    pairs.push([vscode.l10n.t('Budget'), stopped ? `${spent} · ${agentsStoppedByBudget(stopped, task.agents?.length ?? stopped)}` : spent]);
  }
  if (task.reasoningEffort) pairs.push([vscode.l10n.t('Reasoning effort'), task.reasoningEffort]);
  if (task.roleModels) pairs.push([vscode.l10n.t('Role models'), Object.entries(task.roleModels).map(([role, model]) => `${role} → ${model}`).join(', ')]);
  // A completed task's thread is read a moment after it ends: its row is there from the start, so the header's
  // buttons do not move under the pointer when it arrives (issue 45).
  if (task.conversationId) pairs.push([vscode.l10n.t('Thread'), `#${task.conversationId}`]);
  else if (task.status === 'completed') pairs.push([vscode.l10n.t('Thread'), '—']);
  return pairs.map(([k, v]) => `<dt>${t(k)}</dt><dd>${t(v)}</dd>`).join('');
}

/** Below the agents of a running task: what the tools are doing. */
export function runningTeamHtml(task: TrackedTask, words: TeamWords = teamWords()): string {
  const activity = task.activity ?? [];
  return activity.length ? `<h2 class="team-h">${t(vscode.l10n.t('Live activity'))}</h2>${activityHtml(activity, words)}` : '';
}

/** After the answer: files, sources, and the trace section (its body loaded on demand). */
export function finishedTeamHtml(task: TrackedTask, trace: TraceReading | undefined, traceOpen: boolean, words: TeamWords = teamWords()): string {
  const out: string[] = [];
  if (task.files?.length) out.push(`<h2 class="team-h">${t(vscode.l10n.t('Files the agents made'))}</h2>${filesHtml(task.files, words)}`);
  if (task.sources?.length) out.push(`<h2 class="team-h">${t(vscode.l10n.t('Sources'))}</h2>${sourcesHtml(task.sources, words)}`);
  out.push(traceSection(task, trace, traceOpen, words));
  return out.join('\n');
}

/** The collapsible trace section; opening it loads the trace when it is not loaded yet. */
export function traceSection(task: TrackedTask, trace: TraceReading | undefined, open: boolean, words: TeamWords = teamWords()): string {
  const running = !isFinished(task);
  return `<details id="trace" class="team"${open ? ' open' : ''} data-loaded="${trace ? 'true' : 'false'}">
<summary>${t(running ? vscode.l10n.t('How the team is working') : vscode.l10n.t('How the team worked'))}</summary>
<div id="trace-body">${traceBody(trace, words)}</div>
</details>`;
}

/** The section's body: the trace, the line that says why there is none, or the button that loads it. */
export function traceBody(trace: TraceReading | undefined, words: TeamWords = teamWords()): string {
  const reload = `<button data-action="loadTrace" class="secondary">${t(vscode.l10n.t('Load Again'))}</button>`;
  if (!trace) {
    return `<p class="muted">${t(vscode.l10n.t('The goal, the plan, each agent’s subtask and answer, the self-evaluation and the report, as the service recorded them.'))}</p><button data-action="loadTrace">${t(vscode.l10n.t('Load the Trace'))}</button>`;
  }
  if (trace.kind === 'unavailable') return `<p class="error" role="alert">${t(trace.message)}</p>${reload}`;
  return `${traceHtml(trace.trace, words, trace.partial)}${trace.partial ? reload : ''}`;
}

/** The sections' styles, added to the result view's. */
export const TEAM_STYLE = `
h2.team-h { font-size: 1.1em; margin: 20px 0 6px; }
details.team { border-top: 1px solid var(--vscode-panel-border); margin-top: 20px; padding-top: 8px; }
details.team > summary { cursor: pointer; font-size: 1.1em; font-weight: 600; }
details.team h3 { font-size: 1em; margin: 14px 0 4px; }
details.team h4 { font-size: 0.95em; margin: 10px 0 2px; }
section.step { border-left: 2px solid var(--vscode-panel-border); padding-left: 10px; margin: 8px 0; }
section.error-step { border-left-color: var(--vscode-errorForeground); }
.badge { font-size: 0.85em; padding: 0 6px; border-radius: 8px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
.subtask { margin: 2px 0; }
ul.files, ul.sources { list-style: none; padding: 0; }
ul.files li, ul.sources li { margin: 6px 0; }
.row-actions { margin-top: 2px; }
.file-name, .source-title { font-weight: 600; }
.snippet { font-size: 0.95em; }
table.activity td, table.rubric td { padding: 1px 10px 1px 0; vertical-align: top; }
tr.tool-failed td { color: var(--vscode-list-errorForeground, var(--vscode-errorForeground)); }
details.tool-raw { display: inline-block; max-width: 100%; vertical-align: top; }
details.tool-raw > summary { cursor: pointer; }
details.tool-raw > pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; margin: 2px 0; }
`;
