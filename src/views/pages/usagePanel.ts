/**
 * "Show Usage": one webview panel with the request history as an inline SVG bar chart, the totals, the
 * per-key table and storage. Strict CSP, no remote content; the only script (with the nonce) posts
 * "refresh" and "setApiKey".
 */
import * as vscode from 'vscode';
import type { Usage } from '../../api';
import { Commands } from '../../constants';
import { Disposable } from '../../disposable';
import { formatBytes } from '../../format';
import { Actions, keyNeeded } from '../../vocabulary';
import type { UsageData, UsageStore } from '../../stores/usageStore';
import { type TrackedTask, isFinished } from '../../tasks/model';
import type { TaskStore } from '../../tasks/store/taskStore';
import { formatDuration } from '../../format';
import { escapeHtml } from './markdown';
import { nonce, webviewPage } from './webviewPage';

export class UsagePanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private loading = 0;
  private consoleUrl: string | undefined;

  constructor(
    private readonly store: UsageStore,
    /** The tasks this VS Code tracks: counted here even where the service shows no request history to a key. */
    private readonly tasks?: Pick<TaskStore, 'all'>,
  ) {
    super();
    this._register({ dispose: () => this.panel?.dispose() });
  }

  /** The open panel, if any (tests read its html). */
  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Opens the panel (or brings it forward) and loads fresh numbers; resolves when they are shown. */
  async show(): Promise<vscode.WebviewPanel> {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel('multiAgent.usage', vscode.l10n.t('Multi-Agent Usage'), vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [],
      });
      this.panel = panel;
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = undefined;
      });
      panel.webview.onDidReceiveMessage((message: { type?: unknown }) => {
        if (message?.type === 'refresh') void this.load();
        if (message?.type === 'setApiKey') void vscode.commands.executeCommand(Commands.setApiKey).then(() => this.load());
        // The address comes from the user's settings (never from the page or the server).
        if (message?.type === 'openConsole' && this.consoleUrl) void vscode.env.openExternal(vscode.Uri.parse(this.consoleUrl));
      });
    } else this.panel.reveal();
    await this.load();
    return this.panel;
  }

  async load(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    const run = ++this.loading;
    panel.webview.html = renderUsageHtml(undefined, panel.webview.cspSource, nonce());
    const data = await this.store.read();
    if (run !== this.loading || this.panel !== panel) return;
    this.consoleUrl = data.consoleUrl;
    panel.webview.html = renderUsageHtml(data, panel.webview.cspSource, nonce(), this.tasks && localTasksSection(this.tasks.all()));
  }
}


const num = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));

/** The whole document; `data` undefined renders "Loading…". Pure, so its output can be checked. */
function renderUsageHtml(data: UsageData | undefined, cspSource: string, nonceValue: string, local = ''): string {
  const csp = `default-src 'none'; style-src ${cspSource} 'nonce-${nonceValue}'; script-src 'nonce-${nonceValue}'; img-src ${cspSource} data:`;
  let body: string;
  if (!data) body = `<p class="muted">${escapeHtml(vscode.l10n.t('Loading…'))}</p>`;
  else if (data.needsKey) {
    body = `<p class="error" role="alert">${escapeHtml(keyNeeded('usage'))}</p><p><button id="setKey">${escapeHtml(Actions.setApiKey())}</button></p>`;
  }
  else body = [usageSection(data), local, storageSection(data)].join('\n');
  return webviewPage({
    csp,
    nonce: nonceValue,
    title: vscode.l10n.t('Multi-Agent Usage'),
    style: `
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background-color: var(--vscode-editor-background); padding: 0 20px 20px; }
  h1 { font-size: 1.4em; font-weight: 600; } h2 { font-size: 1.1em; font-weight: 600; margin-top: 1.6em; }
  .toolbar { display: flex; gap: 12px; align-items: center; }
  button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: 1px solid var(--vscode-button-border, var(--vscode-contrastBorder, transparent)); padding: 3px 11px; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .muted { color: var(--vscode-descriptionForeground); }
  .error { color: var(--vscode-list-errorForeground, var(--vscode-errorForeground)); border-left: 3px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); padding: 6px 10px; }
  .totals { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
  .total { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); padding: 8px 12px; }
  .total .value { font-size: 1.5em; font-weight: 600; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
  svg text { fill: var(--vscode-descriptionForeground); font-size: 10px; font-family: var(--vscode-font-family); }
  svg .bar { fill: var(--vscode-charts-blue); } svg .bar:hover { fill: var(--vscode-charts-purple); }
  svg .axis { stroke: var(--vscode-widget-border, var(--vscode-descriptionForeground)); }
  svg .grid { stroke: var(--vscode-widget-border, var(--vscode-descriptionForeground)); stroke-opacity: .35; }
  svg.chart { max-width: 640px; }
  svg.meter { max-width: 480px; display: block; }
  svg.meter .track { fill: var(--vscode-input-background); stroke: var(--vscode-widget-border, var(--vscode-descriptionForeground)); stroke-width: 1px; vector-effect: non-scaling-stroke; } svg.meter .fill { fill: var(--vscode-charts-green); }
  svg.meter.high .fill { fill: var(--vscode-charts-red); }
`,
    body: `<div class="toolbar"><h1>${escapeHtml(vscode.l10n.t('Multi-Agent Usage'))}</h1><button id="refresh" title="${escapeHtml(vscode.l10n.t('Load the numbers again'))}">${escapeHtml(vscode.l10n.t('Refresh'))}</button></div>
${body}`,
    script: `
  const vscode = acquireVsCodeApi();
  document.getElementById('refresh')?.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
  document.getElementById('setKey')?.addEventListener('click', () => vscode.postMessage({ type: 'setApiKey' }));
  document.getElementById('console')?.addEventListener('click', () => vscode.postMessage({ type: 'openConsole' }));
`,
  });
}

function usageSection(data: UsageData): string {
  const requests = escapeHtml(vscode.l10n.t('Requests'));
  if (!data.usage && data.consoleUrl) {
    return `<h2>${requests}</h2><p class="muted">${escapeHtml(data.usageError ?? '')}</p><p><button id="console">${escapeHtml(vscode.l10n.t('Open Web Console'))}</button></p>`;
  }
  if (!data.usage) return `<h2>${requests}</h2><p class="error" role="alert">${escapeHtml(data.usageError ?? vscode.l10n.t('No usage was returned.'))}</p>`;
  const u = data.usage;
  const period =
    u.periodStart && u.periodEnd
      ? `<p class="muted">${escapeHtml(vscode.l10n.t('Billing period {0} – {1}', new Date(u.periodStart).toLocaleDateString(), new Date(u.periodEnd).toLocaleDateString()))}</p>`
      : '';
  const totals = [
    [vscode.l10n.t('Today'), u.requestsToday],
    [vscode.l10n.t('This week'), u.requestsThisWeek],
    [vscode.l10n.t('This month'), u.requestsThisMonth],
    [vscode.l10n.t('Monthly quota'), u.monthlyQuota],
    [vscode.l10n.t('Remaining this month'), u.monthlyRemaining],
    [vscode.l10n.t('All time'), u.totalRequests],
  ]
    .map(([label, value]) => `<div class="total"><div class="muted">${escapeHtml(String(label))}</div><div class="value">${num(value as number | undefined)}</div></div>`)
    .join('');
  return `<h2>${requests}</h2>${period}<div class="totals">${totals}</div>
<h2>${escapeHtml(vscode.l10n.t('Request history'))}</h2>${historyChart(u.usageHistory ?? [])}
<h2>${escapeHtml(vscode.l10n.t('API keys'))}</h2>${keysTable(u.apiKeys ?? [])}`;
}

/** Days of history drawn at most. */
const MAX_CHART_DAYS = 366;

/** Bars per day with a y axis (0, half, max) and dates under every other bar. */
export function historyChart(all: readonly { date: string; count: number }[]): string {
  // A server may send years of days: chart the most recent ones (a spread over a huge array would throw).
  const history = all.length > MAX_CHART_DAYS ? all.slice(-MAX_CHART_DAYS) : all;
  if (!history.length) return `<p class="muted">${escapeHtml(vscode.l10n.t('No requests recorded yet.'))}</p>`;
  const width = 640;
  const height = 220;
  const m = { top: 12, right: 12, bottom: 36, left: 52 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const max = history.reduce((m, h) => Math.max(m, Number.isFinite(h.count) ? h.count : 0), 1);
  const step = plotW / history.length;
  const barW = Math.max(2, step * 0.7);
  const total = history.reduce((n, h) => n + (Number.isFinite(h.count) ? h.count : 0), 0);
  const labelEvery = Math.ceil(history.length / 10);
  const ticks = [0, Math.round(max / 2), max]
    .map(v => {
      const y = m.top + plotH - (v / max) * plotH;
      return `<line class="grid" x1="${m.left}" x2="${width - m.right}" y1="${y}" y2="${y}"/><text x="${m.left - 6}" y="${y + 3}" text-anchor="end">${num(v)}</text>`;
    })
    .join('');
  const bars = history
    .map((h, i) => {
      const barH = (h.count / max) * plotH;
      const x = m.left + i * step + (step - barW) / 2;
      const y = m.top + plotH - barH;
      const label = i % labelEvery === 0 ? `<text x="${x + barW / 2}" y="${height - m.bottom + 14}" text-anchor="middle">${escapeHtml(h.date.slice(5))}</text>` : '';
      return `<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${barH.toFixed(1)}"><title>${escapeHtml(vscode.l10n.t('{0}: {1} requests', h.date, num(h.count)))}</title></rect>${label}`;
    })
    .join('');
  const first = history[0].date;
  const last = history[history.length - 1].date;
  return `<svg role="img" aria-labelledby="chartTitle chartDesc" viewBox="0 0 ${width} ${height}" class="chart" width="100%" preserveAspectRatio="xMinYMin meet">
<title id="chartTitle">${escapeHtml(vscode.l10n.t('Requests per day, {0} to {1}', first, last))}</title>
<desc id="chartDesc">${escapeHtml(vscode.l10n.t('{0} requests over {1} days; the busiest day had {2}.', num(total), history.length, num(max)))}</desc>
${ticks}
<line class="axis" x1="${m.left}" x2="${width - m.right}" y1="${m.top + plotH}" y2="${m.top + plotH}"/>
<line class="axis" x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + plotH}"/>
${bars}
<text x="${m.left + plotW / 2}" y="${height - 4}" text-anchor="middle">${escapeHtml(vscode.l10n.t('Date (UTC)'))}</text>
<text transform="translate(12 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(vscode.l10n.t('Requests'))}</text>
</svg>`;
}

function keysTable(keys: NonNullable<Usage['apiKeys']>): string {
  if (!keys.length) return `<p class="muted">${escapeHtml(vscode.l10n.t('No keys.'))}</p>`;
  const when = (iso: string | null | undefined) => (iso ? escapeHtml(new Date(iso).toLocaleString()) : '—');
  const revoked = ` <span class="muted">${escapeHtml(vscode.l10n.t('(revoked)'))}</span>`;
  const rows = keys
    .map(
      k => `<tr><td>${escapeHtml(k.displayKey ?? String(k.keyId))}${k.revokedAt ? revoked : ''}</td><td>${escapeHtml(k.tier ?? '')}</td>
<td class="n">${num(k.currentHourlyUsage)} / ${num(k.hourlyLimit)}</td><td class="n">${num(k.dailyUsage)}</td><td class="n">${num(k.weeklyUsage)}</td>
<td class="n">${num(k.monthlyUsage)} / ${num(k.monthlyQuota)}</td><td>${when(k.lastUsedAt)}</td></tr>`,
    )
    .join('');
  const th = (label: string, numeric = false) => `<th${numeric ? ' class="n"' : ''}>${escapeHtml(label)}</th>`;
  const head = [
    th(vscode.l10n.t('Key')),
    th(vscode.l10n.t('Tier')),
    th(vscode.l10n.t('This hour / limit'), true),
    th(vscode.l10n.t('Today'), true),
    th(vscode.l10n.t('This week'), true),
    th(vscode.l10n.t('This month / quota'), true),
    th(vscode.l10n.t('Last used')),
  ].join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function storageSection(data: UsageData): string {
  const heading = `<h2>${escapeHtml(vscode.l10n.t('Storage'))}</h2>`;
  if (!data.storage) return `${heading}<p class="error" role="alert">${escapeHtml(data.storageError ?? vscode.l10n.t('No storage figures were returned.'))}</p>`;
  const { usedBytes, quotaBytes, categories } = data.storage;
  const pct = quotaBytes > 0 ? Math.min(100, (usedBytes / quotaBytes) * 100) : 0;
  const parts = (categories ?? []).map(c => `<li>${escapeHtml(categoryLine(c.label ?? c.id, formatBytes(c.bytes), c.count))}</li>`).join('');
  const used = vscode.l10n.t('{0} of {1} used ({2}%)', formatBytes(usedBytes), formatBytes(quotaBytes), pct.toFixed(1));
  const meterTitle = vscode.l10n.t('{0}% of the storage quota used', pct.toFixed(1));
  return `${heading}<p>${escapeHtml(used)}</p>
<svg class="meter${pct > 90 ? ' high' : ''}" role="meter" aria-label="${escapeHtml(vscode.l10n.t('Storage used'))}" aria-valuemin="0" aria-valuemax="${quotaBytes}" aria-valuenow="${usedBytes}" viewBox="0 0 100 4" preserveAspectRatio="none" width="100%" height="10"><title>${escapeHtml(meterTitle)}</title><rect class="track" width="100" height="4"/><rect class="fill" width="${pct.toFixed(2)}" height="4"/></svg>
${parts ? `<ul>${parts}</ul>` : ''}`;
}

/** `Cache: 1.2 MB in 3 items`. */
function categoryLine(label: string, size: string, count: number | undefined): string {
  if (count === undefined) return vscode.l10n.t('{0}: {1}', label, size);
  return count === 1 ? vscode.l10n.t('{0}: {1} in 1 item', label, size) : vscode.l10n.t('{0}: {1} in {2} items', label, size, num(count));
}

/**
 * The tasks this VS Code sent and still tracks (Clear Finished removes them): how many, how they ended, how
 * long they took. Counted here, from the task store: the service shows its request history to the web
 * console only.
 */
export function localTasksSection(tasks: readonly TrackedTask[]): string {
  const heading = `<h2>${escapeHtml(vscode.l10n.t('Tasks sent from VS Code'))}</h2>`;
  if (!tasks.length) return `${heading}<p class="muted">${escapeHtml(vscode.l10n.t('No tasks are tracked here yet.'))}</p>`;
  const count = (test: (t: TrackedTask) => boolean) => tasks.filter(test).length;
  const took = tasks.filter(t => t.status === 'completed' && t.finishedAt !== undefined).map(t => t.finishedAt! - t.submittedAt);
  const mean = took.length ? took.reduce((a, b) => a + b, 0) / took.length : undefined;
  const longest = took.length ? took.reduce((a, b) => Math.max(a, b), 0) : undefined;
  const first = tasks.reduce((a, t) => Math.min(a, t.submittedAt), Number.POSITIVE_INFINITY);
  const totals: [string, string][] = [
    [vscode.l10n.t('Tracked'), num(tasks.length)],
    [vscode.l10n.t('Running'), num(count(t => !isFinished(t)))],
    [vscode.l10n.t('Completed'), num(count(t => t.status === 'completed' && !t.error))],
    [vscode.l10n.t('Failed'), num(count(t => t.status === 'failed' || (t.status === 'completed' && !!t.error)))],
    [vscode.l10n.t('Canceled'), num(count(t => t.status === 'canceled' && !t.trackingStopped))],
    [vscode.l10n.t('No longer followed'), num(count(t => !!t.trackingStopped))],
    [vscode.l10n.t('Average time'), mean === undefined ? '—' : formatDuration(mean)],
    [vscode.l10n.t('Longest'), longest === undefined ? '—' : formatDuration(longest)],
  ];
  const cards = totals.map(([label, value]) => `<div class="total"><div class="muted">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div></div>`).join('');
  return `${heading}<p class="muted">${escapeHtml(vscode.l10n.t('Since {0}; tasks removed with Clear Finished are not counted.', new Date(first).toLocaleString()))}</p><div class="totals">${cards}</div>`;
}
