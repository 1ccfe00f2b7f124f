/**
 * The result view's Checks section (issue 37): the newest check of the task's proposal — the command, passed or
 * failed, how long, what newly fails, the run without the proposal, what was left out of the copy, the output's
 * tail — and the offers about it (Ask the Team to Fix, Show Check Output, Open Scratch Copy). Escaped text only:
 * the output is the check's, and test names may hold anything.
 */
import * as vscode from 'vscode';
import { formatRunTime } from '../../format';
import type { CheckRecord, CheckRun } from '../../tasks/checking/types';
import { checkFailed, teamCanFix } from '../../tasks/checking/policy';
import type { RunningCheck } from '../../tasks/checking/store';
import { type TrackedTask, latestCheck } from '../../tasks/model';
import type { TaskOffer } from '../../tasks/offers';
import { checkLeftOutWhy, checkSentence, checkVerdictWords, checkingWords } from '../../tasks/checkWords';
import { escapeHtml } from './markdown';

/** The offers drawn in the section, not in the page's header. */
export const CHECK_SECTION_OFFERS: readonly string[] = ['check', 'cancelCheck', 'askToFix', 'checkOutput', 'scratch'];

export const CHECK_STYLE = `
section.checks { margin: 12px 0 16px; padding: 8px 12px; border-left: 3px solid var(--vscode-testing-iconPassed, var(--vscode-focusBorder)); background: var(--vscode-textBlockQuote-background); }
section.checks.running { border-left-color: var(--vscode-testing-iconQueued, var(--vscode-focusBorder)); }
section.checks.failing { border-left-color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
section.checks h2 { font-size: 1.05em; margin: 0 0 6px; }
section.checks pre.tail { max-height: 16em; overflow: auto; }
section.checks ul { margin: 4px 0; }`;

/** The section's markup, or '' for a task never checked and not being checked. */
export function checksHtml(task: TrackedTask, offers: readonly TaskOffer[], button: (o: TaskOffer) => string, running?: RunningCheck): string {
  // After a failing check the next step is the team's (issue 45): Ask the Team to Fix is the primary button, first.
  const fixFirst = !running && teamCanFix(task);
  const shown = offers.filter(o => CHECK_SECTION_OFFERS.includes(o.id)).map(o => (fixFirst ? { ...o, primary: o.id === 'askToFix' } : o));
  const actions = [...shown.filter(o => o.primary), ...shown.filter(o => !o.primary)].map(button).join('');
  if (running) return checkingHtml(running, actions);
  const check = latestCheck(task);
  if (!check) return '';
  const t = (s: string) => escapeHtml(s);
  const failing = checkFailed(task);
  const rows: string[] = [
    row(vscode.l10n.t('Command'), `<code>${t(check.command)}</code>`),
    row(vscode.l10n.t('With the proposal'), t(runWords(check.after))),
  ];
  if (check.before) rows.push(row(vscode.l10n.t('Without it'), t(runWords(check.before))));
  if (check.rerun) rows.push(row(vscode.l10n.t('Once more'), t(runWords(check.rerun))));
  rows.push(row(vscode.l10n.t('Sandbox'), t(sandboxWords(check.sandbox))));
  rows.push(row(vscode.l10n.t('Checked'), t(new Date(check.startedAt).toLocaleString())));
  const newly = check.newlyFailing.length
    ? `<p>${t(check.before?.end === 'passed' || check.before?.end === 'failed' ? vscode.l10n.t('Newly failing:') : vscode.l10n.t('Failing:'))}</p><ul>${check.newlyFailing.map(n => `<li><code>${t(n)}</code></li>`).join('')}</ul>`
    : '';
  const list = (words: string, names?: readonly string[]) => (names?.length ? `<p>${t(words)}</p><ul>${names.map(n => `<li><code>${t(n)}</code></li>`).join('')}</ul>` : '');
  const differently = list(vscode.l10n.t('Failing before too, but differently now:'), check.failsDifferently);
  const flaky = list(vscode.l10n.t('Flaky (failed once, passed when run again):'), check.flaky);
  const leftOut = check.changes.leftOut.length
    ? `<p>${t(vscode.l10n.t('Left out of the check:'))}</p><ul>${check.changes.leftOut.map(l => `<li><code>${t(l.path)}</code> — ${t(checkLeftOutWhy(l.why))}</li>`).join('')}</ul>`
    : '';
  const tail = check.after.tail.trim()
    ? `<details${failing ? ' open' : ''}><summary>${t(vscode.l10n.t('The output\'s last lines'))}</summary><pre class="tail"><code>${t(check.after.tail)}</code></pre></details>`
    : '';
  return `<section id="checks" class="checks${failing ? ' failing' : ''}" aria-labelledby="checks-title">
<h2 id="checks-title">${t(vscode.l10n.t('Checks'))} · ${t(checkVerdictWords(check))}</h2>
<p role="status">${t(checkSentence(check))}</p>
<div class="actions">${actions}</div>
<dl>${rows.join('')}</dl>
${newly}${differently}${flaky}${leftOut}${tail}
</section>`;
}

/** A check running now: what it is doing, and Cancel Check. */
function checkingHtml(running: RunningCheck, actions: string): string {
  return `<section id="checks" class="checks running" aria-labelledby="checks-title" aria-busy="true">
<h2 id="checks-title">${escapeHtml(vscode.l10n.t('Checks'))} · ${escapeHtml(vscode.l10n.t('checking…'))}</h2>
<p role="status">${escapeHtml(checkingWords(running))}</p>
<div class="actions">${actions}</div>
</section>`;
}

/** Where the runs ran (issue 44): the sandbox and whether it had the network, or none (the user chose). */
function sandboxWords(sandbox: CheckRecord['sandbox']): string {
  if (!sandbox) return vscode.l10n.t('none: you chose to run checks without one on this machine');
  return sandbox.network ? vscode.l10n.t('{0}, with network (multiAgent.check.allowNetwork)', sandbox.kind) : vscode.l10n.t('{0}: no network, writes only in the copy', sandbox.kind);
}

function row(term: string, html: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${html}</dd>`;
}

/** "failed, exit 1, 12 passed, 1 failed, 3s". */
function runWords(run: CheckRun): string {
  const end =
    run.end === 'passed'
      ? vscode.l10n.t('passed')
      : run.end === 'failed'
        ? vscode.l10n.t('failed')
        : run.end === 'timedOut'
          ? vscode.l10n.t('timed out')
          : run.end === 'canceled'
            ? vscode.l10n.t('canceled')
            : vscode.l10n.t('did not start');
  return [end, run.exitCode !== undefined ? vscode.l10n.t('exit {0}', run.exitCode) : '', run.summary, formatRunTime(run.durationMs), run.error ?? ''].filter(Boolean).join(', ');
}
