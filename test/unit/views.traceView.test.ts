/** Issue 26: a tool call's activity in one line (`toolSummary`), the raw preview on expand (`activityHtml`). */
import * as assert from 'assert';
import { activityHtml, toolSummary } from '../../src/views/pages/traceView';
import type { TeamWords } from '../../src/views/pages/traceView';

describe('issue 26: tool activity in one line, the raw text on expand', () => {
  // The emulator writes previews as the service does: JSON, cut at 500 bytes with "...".
  const words = {
    agent: (n: number) => `Agent ${n}`,
    toolStatus: (s: string) => s,
    results: (n: number, more: boolean) => `${n}${more ? '+' : ''} results`,
    passed: (p: number, f: number) => (f ? `${p} passed, ${f} failed` : `${p} passed`),
    exitCode: (c: number) => `exit code ${c}`,
    made: (f: string) => `made ${f}`,
    rawResult: 'Result',
  } as TeamWords;
  const cut = (json: string) => (json.length > 500 ? `${json.slice(0, 500)}...` : json);
  const results = (n: number) => JSON.stringify({ query: 'mean edge cases', results: Array.from({ length: n }, (_, i) => ({ title: `Result ${i}`, url: `https://example.com/${i}`, snippet: 'x'.repeat(20) })) });

  it('says "search_web: 3 results", "execute_code: 3 passed", "made findings.csv" instead of the JSON', () => {
    assert.equal(toolSummary(results(3), words), '3 results');
    assert.equal(toolSummary(JSON.stringify({ stdout: 'examples ran: 3 passed, 0 failed\n', exit_code: 0 }), words), '3 passed');
    assert.equal(toolSummary(JSON.stringify({ stdout: 'ran: 2 passed, 1 failed', exit_code: 1 }), words), '2 passed, 1 failed');
    assert.equal(toolSummary(JSON.stringify({ stdout: 'Traceback…', exit_code: 2 }), words), 'exit code 2');
    assert.equal(toolSummary(JSON.stringify({ success: true, generated_file: { filename: 'findings.csv', bytes: 120 } }), words), 'made findings.csv');
  });

  it('reads a preview the service cut: "5+ results", never a parse error', () => {
    const preview = cut(results(12));
    assert.ok(preview.endsWith('...'));
    assert.match(toolSummary(preview, words) ?? '', /^\d+\+ results$/);
    assert.equal(toolSummary(cut(JSON.stringify({ a: 'y'.repeat(600) })), words), undefined, 'nothing short to say');
  });

  it('free text: its first line, cut; nothing for nothing', () => {
    assert.equal(toolSummary('Permission denied\nat line 3', words), 'Permission denied');
    assert.equal(toolSummary('z'.repeat(300), words)?.length, 80);
    assert.equal(toolSummary(undefined, words), undefined);
    assert.equal(toolSummary('   ', words), undefined);
  });

  it('the activity row shows the summary, the raw preview in a <details>, escaped and wrapped', () => {
    const preview = cut(results(12)).replace('Result 0', '<img src=x onerror=alert(1)>');
    const html = activityHtml([{ tool: 'search_web', agent: 1, status: 'completed', preview }], words);
    assert.match(html, /<details class="tool-raw"><summary>\d+\+ results<\/summary><pre tabindex="0">\{&quot;query/);
    assert.ok(!html.includes('<img'), 'server text stays text');
  });

  it('reads at most the first few thousand characters of a hostile 1 MB preview', () => {
    const count = Number(/^(\d+)\+ results$/.exec(toolSummary(`{"results":[${'{"url":'.repeat(150_000)}`, words) ?? '')?.[1]);
    assert.ok(count > 100 && count < 1_000, String(count));
    assert.equal(toolSummary(`${'9'.repeat(1_000_000)} passed`, words)?.length, 80, 'a line of digits, cut: no count read past the cap');
  });
});
