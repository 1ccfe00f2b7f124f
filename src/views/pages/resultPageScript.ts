/**
 * The result view's page script, run in the webview under the page's nonce (resultPage.ts): clicks become
 * messages to the extension, the trace loads when first opened, the follow-up box keeps its draft, the scroll and
 * open sections are kept across redraws, and a running page ticks its elapsed time and takes progress in place.
 * Durations read as everywhere else: the extension's own formatter goes into the page (`formatDuration` is
 * self-contained, so its source runs there as is).
 */
import { formatDuration } from '../../format';

/** What the page does, given `vscode` (the webview's API), `taskId` and `formatDuration` (see below). */
const BODY = `
  const kept = vscode.getState();
  let keptScroll;
  document.addEventListener('click', e => {
    const el = e.target instanceof Element ? e.target.closest('[data-action],[data-offer]') : null;
    if (!el) return;
    e.preventDefault();
    const offer = el.getAttribute('data-offer');
    if (offer !== null) return vscode.postMessage({ type: 'offer', offer, taskId });
    const block = el.getAttribute('data-block');
    const index = el.getAttribute('data-index');
    vscode.postMessage({ type: el.getAttribute('data-action'), taskId, block: block === null ? undefined : Number(block), index: index === null ? undefined : Number(index) });
  });
  // The trace loads when its section is first opened; the extension sends it back as markup.
  // The follow-up box: Continue in Thread with what is typed (Ctrl+Enter sends too); empty, it asks for words.
  // What is typed there is kept in the page's state, like its scroll: a page drawn again (the tab hidden and shown,
  // a later read of the task, a reload) gives the words back; a sent follow-up leaves none behind, one not sent comes back.
  const followUp = document.getElementById('follow-up');
  const box = document.getElementById('follow-up-text');
  if (followUp && box) {
    if (kept && kept.taskId === taskId && typeof kept.draft === 'string') box.value = kept.draft;
    const send = () => {
      const text = box.value.trim();
      if (!text) return box.focus();
      vscode.postMessage({ type: 'offer', offer: 'continue', taskId, text });
      box.value = '';
      remember();
    };
    followUp.addEventListener('submit', e => { e.preventDefault(); send(); });
    box.addEventListener('keydown', e => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); } });
    box.addEventListener('input', () => remember());
    // A follow-up that did not go (no key given, the service out of reach, …) comes back into the box, never lost.
    window.addEventListener('message', e => {
      const m = e.data;
      if (!m || m.type !== 'draft' || typeof m.text !== 'string' || box.value.trim()) return;
      box.value = m.text;
      remember();
      box.focus();
    });
  }
  const trace = document.getElementById('trace');
  if (trace) {
    trace.addEventListener('toggle', () => {
      if (trace.open && trace.dataset.loaded !== 'true') {
        trace.dataset.loaded = 'true';
        vscode.postMessage({ type: 'loadTrace', taskId });
      }
    });
  }
  window.addEventListener('message', e => {
    const m = e.data;
    if (!m || m.type !== 'trace' || typeof m.html !== 'string' || !trace) return;
    trace.dataset.loaded = 'true';
    trace.open = true;
    document.getElementById('trace-body').innerHTML = m.html;
    if (m.reveal === true) trace.scrollIntoView({ block: 'start' });
    // The kept scroll may lie in the trace, which only now has its height.
    else if (typeof keptScroll === 'number') window.scrollTo(0, keptScroll);
    keptScroll = undefined;
  });
  // A hidden tab's page is drawn again when it comes back (and on every change of the task): its scroll, its
  // open sections and the follow-up's draft are kept in the webview's state and put back.
  const sections = () => Array.from(document.querySelectorAll('details'));
  const keyOf = (d, i) => d.id || 'section-' + i;
  const remember = () => vscode.setState({ taskId, scrollY: window.scrollY, open: sections().map((d, i) => (d.open ? keyOf(d, i) : '')).filter(Boolean), draft: box && box.value ? box.value : undefined });
  if (kept && kept.taskId === taskId) {
    if (Array.isArray(kept.open)) sections().forEach((d, i) => { if (kept.open.includes(keyOf(d, i))) d.open = true; });
    if (typeof kept.scrollY === 'number') window.scrollTo(0, kept.scrollY);
    if (trace && trace.open && trace.dataset.loaded !== 'true') keptScroll = kept.scrollY;
  }
  remember();
  let queued = false;
  window.addEventListener('scroll', () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; remember(); });
  });
  document.addEventListener('toggle', remember, true);
  // What was sent to the team ends with the output's end, where the failures are: its block opens scrolled there.
  document.addEventListener('toggle', e => {
    const sent = e.target;
    if (!(sent instanceof HTMLDetailsElement) || !sent.open || !sent.classList.contains('sent')) return;
    sent.querySelectorAll('pre').forEach(pre => { pre.scrollTop = pre.scrollHeight; });
  }, true);
  const elapsed = document.getElementById('elapsed');
  if (elapsed && elapsed.dataset.running === 'true') {
    const start = Number(elapsed.dataset.start);
    const tick = () => {
      elapsed.textContent = formatDuration(Date.now() - start);
      setTimeout(tick, 1000);
    };
    tick();
  }
  // A running page is updated in place (the extension's own messages: text, and the team sections' escaped markup).
  window.addEventListener('message', event => {
    const m = event.data;
    if (!m || m.type !== 'progress' || !Array.isArray(m.agents)) return;
    const set = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = String(text); };
    set('model', m.model);
    set('agent-count', m.agentCount);
    const table = document.getElementById('agents');
    if (!table) return;
    table.replaceChildren(...m.agents.map(a => {
      const row = document.createElement('tr');
      const cell = text => { const td = document.createElement('td'); td.textContent = String(text); row.appendChild(td); return td; };
      cell(a.label);
      cell(a.status);
      const bar = cell('');
      if (typeof a.pct === 'number') {
        const progress = document.createElement('progress');
        progress.max = 100;
        progress.value = a.pct;
        bar.append(progress, ' ' + a.pct + '%');
      }
      cell(a.preview).className = 'muted';
      return row;
    }));
    const waiting = document.getElementById('agents-waiting');
    if (waiting) waiting.hidden = m.agents.length > 0;
    const html = (id, markup) => { const el = document.getElementById(id); if (el && typeof markup === 'string') el.innerHTML = markup; };
    html('team-meta', m.teamMeta);
    html('team-running', m.teamRunning);
  });
`;

export function resultPageScript(taskId: string): string {
  return `(function () {
  const vscode = acquireVsCodeApi();
  const taskId = ${JSON.stringify(taskId).replace(/</g, '\\u003c')};
  const formatDuration = ${formatDuration.toString()};
${BODY}
})();`;
}
