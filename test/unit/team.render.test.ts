/**
 * The team sections of the result view rendered from hostile input (issue 18): a trace with scripts, command
 * links, images and 5 MB of steps renders inert and bounded, and says what it left out; the page's messages
 * about files, sources and the trace are checked before anything acts.
 */
import * as assert from 'node:assert/strict';
import { safeName, shownFileName } from '../../src/api/filenames';
import { TRACE_LIMITS, readTrace } from '../../src/api/trace';
import { type TeamWords, activityHtml, filesHtml, sourcesHtml, traceHtml } from '../../src/views/pages/traceView';
import { validTeamMessage } from '../../src/views/pages/teamMessages';

export const words: TeamWords = {
  goal: 'Goal',
  plan: 'Plan',
  steps: 'Steps',
  step: (i, agent) => `Step ${i}${agent ? `: ${agent}` : ''}`,
  subtask: 'Subtask:',
  pending: 'not finished',
  failed: 'failed',
  took: ms => `took ${ms} ms`,
  tools: 'Tools used:',
  selfEval: 'Self-evaluation',
  report: 'Report',
  summary: 'Summary',
  keySteps: 'Key steps',
  decisions: 'Decisions',
  rubric: 'Rubric',
  finalAnswer: 'Final answer',
  partial: 'still running',
  stepsLeftOut: n => `${n} more steps`,
  planLeftOut: n => `${n} more plan items`,
  charsLeftOut: n => `${n} more characters`,
  noSteps: 'none yet',
  agent: n => `Agent ${n}`,
  toolStatus: s => s,
  open: 'Open',
  saveAs: 'Save As…',
  attach: 'Attach',
  notStored: 'not stored',
  openInBrowser: 'Open in Browser',
  notHttps: 'not https',
  size: b => `${b} B`,
  results: (n, more) => `${n}${more ? '+' : ''} results`,
  passed: (p, f) => (f ? `${p} passed, ${f} failed` : `${p} passed`),
  exitCode: c => `exit code ${c}`,
  made: f => `made ${f}`,
  rawResult: 'Result',
};

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src="https://evil.example/x.png" onerror="alert(1)">',
  '[run me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%22%7D)',
  '![pixel](https://evil.example/p.gif)',
  '<a href="javascript:alert(2)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '```html\n<script>alert(3)</script>\n```',
].join('\n\n');

function assertInert(html: string): void {
  assert.ok(!/<(script|img|a|iframe|object|embed|link|meta|style|form|input)\b/i.test(html), 'no active element');
  assert.ok(!/<[a-z][^>]*\s(href|src|srcdoc|on\w+|style)\s*=/i.test(html), 'no element carries a link, a source, a handler or a style');
  assert.ok(!/<[^>]*command:/i.test(html), 'command URIs only as text, never inside a tag');
}

describe('team: the trace and the team sections render hostile text inert and bounded', () => {
  it('a hostile trace of 5 MB of steps: scripts and command links stay text, and the output is bounded with the cuts said', () => {
    const steps = Array.from({ length: 400 }, (_, i) => ({
      AgentID: i,
      AgentName: `<b onmouseover=alert(${i})>Agent</b>`,
      Status: i % 3 ? 'success' : 'error',
      Response: `${HOSTILE}\n\n${'d'.repeat(12_000)}`,
      ExecutionTime: 1000,
      ToolEvents: [{ toolName: '<script>t</script>', agentLabel: 'agent-1', status: 'completed', resultPreview: HOSTILE, sources: [{ url: 'javascript:alert(1)', title: HOSTILE }] }],
    }));
    const raw = {
      goal: HOSTILE,
      plan: Array.from({ length: 100 }, () => HOSTILE),
      steps,
      self_eval: { status: '<script>x</script>' },
      report: { summary: HOSTILE, key_steps: [{ agent: HOSTILE, action: HOSTILE, observation: HOSTILE }], decisions: [{ agent: 'a', rationale: HOSTILE, outcome: HOSTILE }], rubric: { accuracy: '<script>', risk: 'high' } },
      artifacts: { final_answer: HOSTILE },
    };
    assert.ok(JSON.stringify(raw).length > 5_000_000, 'at least 5 MB');
    const trace = readTrace(raw);
    assert.equal(trace.steps.length, TRACE_LIMITS.steps);
    assert.equal(trace.cut.steps, 400 - TRACE_LIMITS.steps);
    assert.equal(trace.cut.plan, 100 - TRACE_LIMITS.plan);
    assert.ok(trace.cut.chars > 0, 'texts over their limits were cut');
    assert.ok(JSON.stringify(trace).length < 600_000, `kept ${JSON.stringify(trace).length} characters`);

    const html = traceHtml(trace, words, false);
    assertInert(html);
    assert.ok(html.length < 2_000_000, `${html.length} characters of markup`);
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the script is shown as text');
    assert.ok(html.includes('run me (command:workbench'), 'the command link is plain text');
    assert.ok(html.includes(`${400 - TRACE_LIMITS.steps} more steps`) && html.includes('more characters'), 'says what was left out');
  });

  it('produced files\' names are shown cleaned, as Save As cleans them: no right-to-left override, control or bidi character', () => {
    const rlo = 'invoice\u202efdp.exe';
    const html = filesHtml(
      [
        { fileId: 'f1', filename: rlo },
        { fileId: 'f2', filename: 'report\u061c\u2066.csv\u2069' },
        { fileId: 'f3', filename: 'line\nbreak\u0007.txt' },
      ],
      words,
    );
    assert.ok(html.includes('<span class="file-name">invoicefdp.exe</span>'), html);
    assert.ok(html.includes('<span class="file-name">report.csv</span>'), html);
    assert.ok(html.includes('<span class="file-name">linebreak.txt</span>'), html);
    assert.ok(!/[\u0000-\u001f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(html.replace(/\n/g, '')), 'no hidden character reaches the page');
    assert.equal(shownFileName(rlo), safeName(rlo), 'the same cleaner as Save As');
    assert.equal(shownFileName('\u202e'), '_', 'nothing left: a placeholder, never an empty row');
  });

  it('files and sources: names and addresses are text; only https sources get a button; every button names an index, never an address', () => {
    const files = filesHtml(
      [
        { fileId: 'file-1', filename: '<img src=x onerror=alert(1)>.csv', mimeType: 'text/csv"><script>', bytes: 12 },
        { filename: 'unstored.pdf' },
      ],
      words,
    );
    assertInert(files);
    assert.equal((files.match(/data-action="openFile" data-index="0"/g) ?? []).length, 1);
    assert.ok(!files.includes('data-index="1"'), 'an unstored file has no buttons');
    const sources = sourcesHtml(
      [
        { url: 'https://example.com/doc?a=1&b=2', title: '<script>alert(1)</script>', snippet: '[x](command:evil)' },
        { url: 'http://plain.example/', title: 'plain' },
        { url: 'javascript:alert(1)', title: 'js' },
        { url: 'command:workbench.action.quit', title: 'cmd' },
      ],
      words,
    );
    assertInert(sources);
    assert.equal((sources.match(/data-action="openSource"/g) ?? []).length, 1, 'one https source, one button');
    assert.ok(sources.includes('example.com'), 'the host is shown');
    const activity = activityHtml([{ tool: '<script>', agent: 2, status: 'running', preview: '<img src=x>' }], words);
    assertInert(activity);
  });

  it('messages from the page: known types for this task, indexes in range only', () => {
    const counts = { files: 2, sources: 1 };
    assert.deepEqual(validTeamMessage({ type: 'openFile', taskId: 't', index: 1 }, 't', counts), { type: 'openFile', index: 1 });
    assert.deepEqual(validTeamMessage({ type: 'openSource', taskId: 't', index: 0 }, 't', counts), { type: 'openSource', index: 0 });
    assert.deepEqual(validTeamMessage({ type: 'loadTrace', taskId: 't' }, 't', counts), { type: 'loadTrace' });
    for (const bad of [
      { type: 'openFile', taskId: 't', index: 2 },
      { type: 'openSource', taskId: 't', index: 1 },
      { type: 'openFile', taskId: 'other', index: 0 },
      { type: 'saveFile', taskId: 't', index: 0.5 },
      { type: 'saveFile', taskId: 't', index: '0' },
      { type: 'openExternal', taskId: 't', url: 'https://x' },
      null,
      'openFile',
    ]) {
      assert.equal(validTeamMessage(bad, 't', counts), undefined, JSON.stringify(bad));
    }
  });
});
