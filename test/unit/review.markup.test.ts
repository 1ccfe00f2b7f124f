/**
 * Issue 43: the guard holds what would be written, whatever form the answer took. Answers written the way Zed,
 * Windsurf and chat models write them — edit markup, a `{{ ... }}` placeholder, an "existing code" comment, a
 * "Before"/"After" pair — would land their markup in the file; each such hunk is held with its reason, never offered
 * checked. The same change without the markup is offered, and markup the file already has is content.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { type ReviewFiles, applyHunks, buildPlan } from '../../src/review/plan';

const MONEY = [
  "export function format(cents: number): string {",
  "  return `$${(cents / 100).toFixed(2)}`;",
  '}',
  '',
  'export function parse(text: string): number {',
  "  return Math.round(Number(text.replace('$', '')) * 100);",
  '}',
  '',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
].join('\n');

function workspace(files: Record<string, string>): ReviewFiles {
  return { current: p => (files[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: files[p] }), sent: p => files[p] };
}

/** What the answer would write into src/money.ts with every hunk offered checked; the reasons of those held. */
function landed(answer: string, file = MONEY): { text: string; held: string[] } {
  const plan = buildPlan(parseAnswer(answer, { sourcePath: 'src/money.ts' }), workspace({ 'src/money.ts': file }));
  const f = plan.files.find(x => x.path === 'src/money.ts');
  const held = plan.files.flatMap(x => x.skippedHunks.map(s => s.code as string)).concat(f?.kind === 'skip' ? [f.reasonCode ?? 'skip'] : []);
  if (!f || f.kind === 'skip') return { text: file, held };
  return { text: applyHunks(file, f.hunks, h => !h.conflict), held };
}

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\``;

describe('review: the guard holds what would be written (issue 43)', () => {
  it('Zed\'s edit markup inside a block for the file: held, never written; the file keeps its functions', () => {
    const answer = [
      'I fixed `format` for negative amounts.',
      '',
      fence('ts src/money.ts', ['<edits>', '<old_text line=1>', 'export function format(cents: number): string {', "  return `$${(cents / 100).toFixed(2)}`;", '</old_text>', '<new_text>', 'export function format(cents: number): string {', "  const sign = cents < 0 ? '-' : '';", "  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;", '</new_text>', '</edits>'].join('\n')),
    ].join('\n');
    const { text } = landed(answer);
    assert.doesNotMatch(text, /<\/?(edits|old_text|new_text)/, text);
    assert.match(text, /export function parse/);
    assert.match(text, /export function add/);
  });

  it('Windsurf\'s {{ ... }} placeholder: held, the placeholder never lands', () => {
    const answer = fence('ts src/money.ts', ['{{ ... }}', 'export function add(a: number, b: number): number {', '  return Math.round(a + b);', '}', '{{ ... }}'].join('\n'));
    const { text } = landed(answer);
    assert.doesNotMatch(text, /\{\{\s*\.\.\.\s*\}\}/, text);
    assert.match(text, /export function format/);
  });

  it('a "Before" and "After" in one unnamed block for the selection: the labels never land', () => {
    const answer = fence('ts', ['// ❌ Before', 'export function add(a: number, b: number): number {', '  return a + b;', '}', '', '// ✅ After', 'export function add(a: number, b: number): number {', '  return Math.round(a + b);', '}'].join('\n'));
    const plan = buildPlan(parseAnswer(answer, { sourcePath: 'src/money.ts' }), workspace({ 'src/money.ts': MONEY }), {
      source: { path: 'src/money.ts', range: { startLine: 8, startCharacter: 0, endLine: 11, endCharacter: 0 } },
    });
    for (const f of plan.files) for (const h of f.hunks) assert.doesNotMatch(h.newText, /❌ Before|✅ After/, h.newText);
  });

  it('an "existing code" comment in a whole file: held', () => {
    const answer = fence('ts src/money.ts', ['// ... existing code ...', 'export function add(a: number, b: number): number {', '  return Math.round(a + b);', '}'].join('\n'));
    const { text } = landed(answer);
    assert.doesNotMatch(text, /existing code/, text);
    assert.match(text, /export function parse/);
  });

  it('the same change without markup is offered; markup the file already has is its content', () => {
    const plain = fence('diff', ['--- a/src/money.ts', '+++ b/src/money.ts', '@@ -9,3 +9,3 @@', ' export function add(a: number, b: number): number {', '-  return a + b;', '+  return Math.round(a + b);', ' }'].join('\n'));
    const { text, held } = landed(plain);
    assert.deepEqual(held, []);
    assert.match(text, /return Math\.round\(a \+ b\);/);
    // A template file that holds {{ ... }} itself: a hunk writing one more is content, not a placeholder.
    const template = 'header\n{{ ... }}\nfooter\n';
    const more = fence('diff', ['--- a/src/money.ts', '+++ b/src/money.ts', '@@ -3,1 +3,2 @@', ' footer', '+{{ ... }}'].join('\n'));
    assert.match(landed(more, template).text, /footer\n\{\{ \.\.\. \}\}\n/);
  });
});
