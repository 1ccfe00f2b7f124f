/**
 * The result view's page (`ResultPanels` in resultPanel.ts owns the webviews): the header (instruction, model,
 * agents, duration, source, attachments) and the buttons of what the task offers (tasks/offers.ts), the answer
 * rendered by our own inert markdown renderer with Copy / Apply… per code block, or while the task runs each
 * agent's state and an elapsed time that ticks; and what a running page is sent to update in place. Strict CSP
 * with a nonce, no command links, no remote content.
 */
import * as vscode from 'vscode';
import { formatDuration } from '../../format';
import { placeUnnamedBlock, readOptionsOf } from '../../documents/answers';
import type { AnswerBlock } from '../../review';
import { type TrackedTask, displayLines, isAwaitingApproval, isFinished, modelNameOf, tookMs } from '../../tasks/model';
import { type TaskOffer, applyWayOf, isInsertable, offersOf } from '../../tasks/offers';
import { agentStatusLabel, agentWords, notFollowed } from '../../vocabulary';
import { escapeHtml, renderMarkdown } from './markdown';
import { RENDERED_PAGE_STYLE } from './pageStyle';
import { FOLLOW_UP_MAX_CHARS } from './resultMessages';
import { CHECK_SECTION_OFFERS, CHECK_STYLE, checksHtml } from './checkSection';
import type { RunningCheck } from '../../tasks/checking/store';
import { TEAM_STYLE, runningTeamHtml, teamMeta } from './teamSections';
import { resultPageScript } from './resultPageScript';
import { webviewPage } from './webviewPage';

/** The markup of the team sections (teamSections.ts), placed into the page. */
export interface TeamHtml {
  meta: string;
  running: string;
  finished: string;
}

/** What a running page updates in place (see `Open.live`): the model, the agents and their progress. */
export interface ProgressMessage {
  type: 'progress';
  model: string;
  agentCount: string;
  agents: { label: string; status: string; pct?: number; preview: string }[];
  teamMeta: string;
  teamRunning: string;
}

export function progressMessage(task: TrackedTask): ProgressMessage {
  return {
    type: 'progress',
    // Markup from the team sections' own escaping renderer (teamSections.ts), as the trace is sent.
    teamMeta: teamMeta(task),
    teamRunning: runningTeamHtml(task),
    model: modelNameOf(task) ?? vscode.l10n.t('service default'),
    agentCount: String(task.agents?.length ?? task.agentCount ?? '—'),
    agents: (task.agents ?? []).map(a => ({
      label: vscode.l10n.t('Agent {0}', a.id),
      status: agentStatusLabel(a.status),
      pct: a.progress !== undefined ? Math.round(a.progress * 100) : undefined,
      preview: a.preview ?? '',
    })),
  };
}

/** Tells reruns apart: the title and the time it was sent. */
export function titleOf(task: Pick<TrackedTask, 'title' | 'submittedAt'>): string {
  const time = new Date(task.submittedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${task.title} · ${time}`;
}

function sourceText(task: TrackedTask): string | undefined {
  const s = task.source;
  if (!s) return undefined;
  if (!s.range) return s.label;
  const span = displayLines(s.range);
  return vscode.l10n.t('{0}, lines {1}–{2}', s.label, span.start, span.end);
}

/** The whole page. Pure apart from l10n: its output is checked by the tests. */
export function renderResultHtml(
  task: TrackedTask,
  result: string | undefined,
  cspSource: string,
  nonce: string,
  team: TeamHtml,
  waiting?: string,
  /** A check of its proposal running now (the checks store). */
  checking?: RunningCheck,
): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'none'; font-src ${cspSource}`;
  const t = (s: string) => escapeHtml(s);
  const running = !isFinished(task);
  const meta: string[] = [];
  meta.push(`<dt>${t(vscode.l10n.t('Model'))}</dt><dd id="model">${t(modelNameOf(task) ?? vscode.l10n.t('service default'))}</dd>`);
  meta.push(`<dt>${t(vscode.l10n.t('Agents'))}</dt><dd id="agent-count">${t(String(task.agents?.length ?? task.agentCount ?? '—'))}</dd>`);
  const took = tookMs(task);
  if (!running && task.trackingStopped && task.finishedAt !== undefined) {
    // No longer followed: it took no known time, and may still be running (issue 35: it said "Took 4s").
    const until = new Date(task.finishedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    meta.push(`<dt>${t(vscode.l10n.t('Followed'))}</dt><dd id="elapsed">${t(vscode.l10n.t('until {0}', until))}</dd>`);
  } else if (!running && took === undefined && task.finishedAt !== undefined) {
    // Followed again after Stop Tracking: the service does not say when it ended.
    const by = new Date(task.finishedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    meta.push(`<dt>${t(vscode.l10n.t('Finished'))}</dt><dd id="elapsed">${t(vscode.l10n.t('by {0} (not followed the whole time)', by))}</dd>`);
  } else {
    const elapsed = formatDuration(took ?? Date.now() - task.submittedAt);
    meta.push(
      `<dt>${t(running ? vscode.l10n.t('Running for') : vscode.l10n.t('Took'))}</dt><dd><span id="elapsed" data-start="${task.submittedAt}" data-running="${running}">${t(elapsed)}</span></dd>`,
    );
  }
  const offers = offersOf({ ...task, checking: !!checking }, 'view');
  const source = sourceText(task);
  const reveal = offers.find(o => o.id === 'source');
  if (source && reveal) meta.push(`<dt>${t(vscode.l10n.t('Source'))}</dt><dd><button class="link" data-offer="source" title="${t(vscode.l10n.t(reveal.detail!))}">${t(source)}</button></dd>`);
  meta.push(
    `<dt>${t(vscode.l10n.t('Attached'))}</dt><dd>${task.attachmentNames?.length ? task.attachmentNames.map(n => `<code>${t(n)}</code>`).join(', ') : t(vscode.l10n.t('nothing'))}</dd>`,
  );
  meta.push(`<div id="team-meta" class="contents">${team.meta}</div>`);

  // What the task offers here now (tasks/offers.ts), landing an answer first: Review Changes… for an answer that
  // names files (the blocks' own Apply… stays for any block), Cancel Task while it runs (redrawn without it once it ends).
  // Continue in Thread is a box under the answer (the follow-up typed where the user reads), not a button.
  const followUp = offers.some(o => o.id === 'continue') ? followUpForm() : '';
  // A checked task's check offers are in its Checks section.
  const checks = running ? '' : checksHtml(task, offers, offerButton, checking);
  const buttons = offers.filter(o => o.id !== 'source' && o.id !== 'continue' && !(checks && CHECK_SECTION_OFFERS.includes(o.id)));
  const actions = [...buttons.filter(o => o.primary), ...buttons.filter(o => !o.primary)].map(o => offerButton(o)).join('');

  let body: string;
  if (running) body = runningHtml(task, waiting) + `<div id="team-running">${team.running}</div>`;
  else if (result !== undefined) {
    body = renderMarkdown(result, {
      read: readOptionsOf(task),
      blockHeader: block => blockBar(task, block),
    });
  } else if (task.trackingStopped) body = `<p role="status">${t(task.error ?? notFollowed('sentence'))}</p>`; // the user's choice, no error
  else body = `<p class="error" role="alert">${t(task.error ?? vscode.l10n.t('No result is stored for this task.'))}</p>`;

  return webviewPage({
    csp,
    nonce,
    title: task.title,
    style: `${RENDERED_PAGE_STYLE}
.instruction { white-space: pre-wrap; color: var(--vscode-descriptionForeground); margin: 0 0 8px; }
details.sent { white-space: normal; }
.sent-request { margin: 4px 0 0 12px; max-width: 860px; }
.sent-request pre { max-height: 16em; overflow: auto; }
button.link { background: none; color: var(--vscode-textLink-foreground); padding: 0; text-decoration: underline; }
table.agents td { padding: 2px 12px 2px 0; }
progress { width: 120px; }
.contents { display: contents; }
.block-bar .target { margin-left: 8px; font-family: var(--vscode-editor-font-family); }
.block-bar .kind { margin-left: 8px; }
form.follow-up { margin: 16px 0; display: grid; gap: 6px; max-width: 720px; }
form.follow-up textarea { font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 4px 6px; resize: vertical; }
form.follow-up textarea:focus { outline: 1px solid var(--vscode-focusBorder); }
form.follow-up .row { display: flex; gap: 8px; align-items: center; }
${TEAM_STYLE}
${CHECK_STYLE}`,
    body: `<header>
<h1 class="title">${t(task.title)}</h1>
${instructionHtml(task)}
<dl>${meta.join('')}</dl>
<div class="actions">${actions}</div>
</header>
${checks}
<main id="answer">
${body}
</main>
${followUp}
${team.finished}`,
    script: resultPageScript(task.id),
  });
}

/**
 * The instruction under the title (when it says more than the title). A fix round's is the failing check sent to
 * the team (issue 37): folded, so that the answer and its Checks section come first, and read as the markdown it
 * is (issue 45: a raw fence and a whole test log): the output's block scrolls in a few lines' height.
 */
function instructionHtml(task: TrackedTask): string {
  const t = (s: string) => escapeHtml(s);
  if (task.instruction.trim() === task.title) return '';
  if (!task.fixOf) return `<p class="instruction">${t(task.instruction)}</p>`;
  return `<details class="instruction sent"><summary>${t(vscode.l10n.t('What was sent to the team: the failing check (round {0})', task.fixOf.round))}</summary><div class="sent-request">${renderMarkdown(task.instruction)}</div></details>`;
}

/** The box under a completed task's answer that continues its thread (the `continue` offer, with the text typed). */
function followUpForm(): string {
  const t = (s: string) => escapeHtml(s);
  return `<form id="follow-up" class="follow-up">
<label for="follow-up-text">${t(vscode.l10n.t('Continue in thread: ask the agents a follow-up'))}</label>
<textarea id="follow-up-text" rows="2" maxlength="${FOLLOW_UP_MAX_CHARS}" placeholder="${t(vscode.l10n.t('e.g. Now add tests for the empty list'))}"></textarea>
<div class="row"><button type="submit" data-follow-up="send">${t(vscode.l10n.t('Continue in Thread'))}</button><span class="muted">${t(vscode.l10n.t('Ctrl+Enter sends. No code goes with it: the thread has the answer.'))}</span></div>
</form>`;
}

/** A button for one of the task's offers: its one label, its sentence as the tooltip. */
function offerButton(o: TaskOffer): string {
  const t = (s: string) => escapeHtml(s);
  const title = o.detail ? ` title="${t(vscode.l10n.t(o.detail))}"` : '';
  return `<button data-offer="${o.id}"${o.primary ? '' : ' class="secondary"'}${title}>${t(vscode.l10n.t(o.label))}</button>`;
}

/**
 * A block's bar: its language, the file it is for, Copy, and Apply… when the block's kind lets Apply do
 * something (tasks/offers.ts): a diff, a patch or a named file is reviewed; a block for the sent range is
 * proposed as a diff; prose and program output offer Copy only.
 */
function blockBar(task: TrackedTask, block: AnswerBlock): string {
  const t = (s: string) => escapeHtml(s);
  const i = block.index;
  const way = applyWayOf(block, task);
  const target = block.targets.length > 1 ? vscode.l10n.t('{0} files', block.targets.length) : block.targets[0]?.path;
  const what =
    block.kind === 'output' ? vscode.l10n.t('output') : block.kind === 'diff' || block.kind === 'patch' ? vscode.l10n.t('changes') : block.kind === 'partial' ? vscode.l10n.t('part of a file') : undefined;
  const apply =
    way === 'review'
      ? `<button data-action="apply" data-block="${i}" title="${t(vscode.l10n.t('Review this block\'s changes hunk by hunk; nothing is written before you apply them'))}">${t(vscode.l10n.t('Apply…'))}</button>`
      : way === 'range' && !placedNowhere(task, block)
        ? `<button data-action="apply" data-block="${i}" title="${t(vscode.l10n.t('Review it against the code that was sent; nothing is written before you accept'))}">${t(vscode.l10n.t('Apply…'))}</button>`
        : way === 'range' && isInsertable(block)
          ? `<button data-action="insert" data-block="${i}" title="${t(vscode.l10n.t('It does not show that it replaces the code that was sent (an example, a test): insert it at the cursor'))}">${t(vscode.l10n.t('Insert…'))}</button>`
          : '';
  return (
    `<div class="block-bar" data-kind="${block.kind}"><span class="lang">${t(block.language || vscode.l10n.t('code'))}</span>` +
    (target ? `<span class="target">${t(target)}</span>` : '') +
    (what ? `<span class="kind muted">${t(what)}</span>` : '') +
    `<span class="spacer"></span>` +
    `<button data-action="copy" data-block="${i}" class="secondary">${t(vscode.l10n.t('Copy'))}</button>` +
    apply +
    `</div>`
  );
}

/**
 * Whether a block for the sent range is shown to go nowhere in the source as it is open now (issue 45: an example
 * had a blue Apply… that could only refuse): by the rule Apply… itself follows (review/proof.ts). Unknown (the
 * source not open) is not nowhere.
 */
function placedNowhere(task: TrackedTask, block: AnswerBlock): boolean {
  const source = task.source;
  const document = source && vscode.workspace.textDocuments.find(d => d.uri.toString() === source.uri);
  if (!source || !document) return false;
  const r = source.range;
  const range = r ? new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter) : new vscode.Range(0, 0, document.lineCount, 0);
  return placeUnnamedBlock(block.code, document, range).kind === 'none';
}

function runningHtml(task: TrackedTask, waiting: string | undefined): string {
  const t = (s: string) => escapeHtml(s);
  // The last progress is stale while the status cannot be read: say why, do not look busy.
  if (waiting) {
    const last = task.agents?.length ? `<p class="muted">${t(vscode.l10n.t('The agents may still be working on the service; their last reported state was:'))}</p>${agentTable(task)}` : '';
    return `<p role="status" class="warning">${t(waiting)}</p>${last}`;
  }
  const working = isAwaitingApproval(task)
    ? vscode.l10n.t('The agents are waiting for your approval in the web console. The answer appears here when they finish.')
    : vscode.l10n.t('The agents are working. The answer appears here when they finish.');
  return `<p role="status">${t(working)}</p>${agentTable(task)}<p class="muted" id="agents-waiting"${
    task.agents?.length ? ' hidden' : ''
  }>${t(vscode.l10n.t('Waiting for the agents to report…'))}</p>`;
}

function agentTable(task: TrackedTask): string {
  const t = (s: string) => escapeHtml(s);
  const rows = (task.agents ?? []).map(a => {
    const pct = a.progress !== undefined ? Math.round(a.progress * 100) : undefined;
    return `<tr><td>${t(vscode.l10n.t('Agent {0}', a.id))}</td><td>${t(agentStatusLabel(a.status))}</td><td>${
      pct !== undefined ? `<progress max="100" value="${pct}"></progress> ${pct}%` : ''
    }</td><td class="muted">${t(agentWords(a))}</td></tr>`;
  });
  return `<table class="agents" id="agents">${rows.join('')}</table>`;
}
