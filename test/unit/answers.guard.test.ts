/**
 * Issue 43: the landing guard judges what would be written, whatever form the answer took. Two parts:
 * - families of answers written the way models and tools answer (each with the exact texts it must land, or the
 *   hunks it must hold and why): a definition gone that the answer never removes, a definition twice, the same
 *   run of lines twice; and the answers that must still land (a stated removal, a rename, a method of the same
 *   name in another class, a property's setter, an overload);
 * - a property over thousands of generated variants of right answers (a definition dropped or duplicated, a run
 *   pasted twice, lines renumbered, re-indented, the path's case changed, wrapped in another tool's markup), each
 *   sent in four forms: whatever is offered checked by default must leave every definition as often as the file
 *   or the right answer has it, no run twice, no edit syntax, no new file beside one of another case.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { type ReviewFiles, applyHunks, buildPlan, type ReviewPlan } from '../../src/review/plan';
import { checkedByDefault } from '../../src/review/defaults';
import { insertionRepeats } from '../../src/review/landingGuard';

const lines = (...l: string[]) => `${l.join('\n')}\n`;
const fence = (info: string, ...body: string[]) => [`\`\`\`${info}`, ...body, '```'].join('\n');
const body = (text: string) => text.trimEnd().split('\n');

const MONEY = lines(
  "import { Currency } from './currency';",
  '',
  'export function parseAmount(text: string): number {',
  "  const clean = text.replace(/[^0-9.-]/g, '');",
  '  return Number.parseFloat(clean);',
  '}',
  '',
  'export function formatAmount(value: number, currency: Currency): string {',
  "  return `${currency.symbol}${value.toFixed(2)}`;",
  '}',
  '',
  'export function roundCents(value: number): number {',
  '  return Math.round(value * 100) / 100;',
  '}',
  '',
  'export function sumAmounts(values: number[]): number {',
  '  let total = 0;',
  '  for (const v of values) total += v;',
  '  return roundCents(total);',
  '}',
);
/** The right answer to "round before formatting": formatAmount changed, nothing else. */
const MONEY_FIXED = MONEY.replace('${value.toFixed(2)}', '${roundCents(value).toFixed(2)}');

const SHAPES = lines(
  'export class Circle {',
  '  constructor(readonly r: number) {}',
  '',
  '  area(): number {',
  '    return Math.PI * this.r * this.r;',
  '  }',
  '',
  '  toString(): string {',
  '    return `Circle(${this.r})`;',
  '  }',
  '}',
  '',
  'export class Square {',
  '  constructor(readonly side: number) {}',
  '',
  '  area(): number {',
  '    return this.side * this.side;',
  '  }',
  '}',
);

const ACCOUNT = lines(
  'class Account:',
  '    def __init__(self, owner):',
  '        self._owner = owner',
  '        self._balance = 0',
  '',
  '    @property',
  '    def balance(self):',
  '        return self._balance',
  '',
  '    def deposit(self, amount):',
  '        if amount <= 0:',
  '            raise ValueError("amount must be positive")',
  '        self._balance += amount',
  '',
  '',
  'def open_account(owner):',
  '    return Account(owner)',
);

const ROUTES = lines(
  'export const routes = [',
  ...['home', 'about', 'pricing', 'blog', 'careers', 'contact', 'docs', 'status', 'login', 'signup', 'terms', 'privacy'].map(n => `  { path: '/${n}', view: '${n}View', auth: false },`),
  '];',
);

const CART = lines(
  'class Cart:',
  '    def __init__(self, items):',
  '        self.items = items',
  '',
  '    def total(self):',
  '        return sum(i.price for i in self.items)',
  '',
  '',
  'class Order:',
  '    def __init__(self, items):',
  '        self.items = items',
  '',
  '    def total(self):',
  '        return sum(i.price for i in self.items)',
);

const FILES: Record<string, string> = {
  'app/cart.py': CART, 'src/money.ts': MONEY, 'src/shapes.ts': SHAPES, 'app/account.py': ACCOUNT, 'src/routes.ts': ROUTES };

/** The files, as the extension's ReviewFiles answers (its contract): a missing path that differs only in letter case from a file is refused. */
function workspace(now: Record<string, string>): ReviewFiles {
  const otherCase = (p: string) => Object.keys(now).find(k => k !== p && k.toLowerCase() === p.toLowerCase());
  return {
    current: p => (now[p] !== undefined ? { kind: 'file', text: now[p] } : otherCase(p) ? { kind: 'refused', reason: `differs only in letter case from ${otherCase(p)}` } : { kind: 'missing' }),
    sent: p => now[p],
  };
}

type Range = { startLine: number; startCharacter: number; endLine: number; endCharacter: number };
const range = (first: number, last: number): Range => ({ startLine: first - 1, startCharacter: 0, endLine: last, endCharacter: 0 });

function planOf(answer: string, source?: { path: string; range?: Range }, now = FILES): ReviewPlan {
  return buildPlan(parseAnswer(answer, { sourcePath: source?.path }), workspace(now), source ? { source } : {});
}

/** What a click on Apply in the preview writes when nothing is changed there: path → text. */
function landedByDefault(plan: ReviewPlan, now = FILES): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of plan.files) {
    if (f.kind === 'skip') continue;
    const chosen = f.hunks.filter(h => checkedByDefault(f, h));
    if (chosen.length) out[f.path] = f.kind === 'create' ? chosen[0].newText : applyHunks(now[f.path] ?? '', chosen);
  }
  return out;
}

const held = (plan: ReviewPlan) => plan.files.flatMap(f => f.skippedHunks.map(s => s.code));

interface Family {
  name: string;
  answer: string;
  source?: { path: string; range?: Range };
  lands: Record<string, string>;
  /** The hunks held, by their code. */
  holds?: string[];
}

const FAMILIES: Family[] = [
  // ——— a definition disappears that the answer does not remove ———
  {
    name: 'a whole file that forgot a function (the model wrote "the rest is unchanged" in prose): the loss is held, the fix lands',
    answer: ['Round before formatting. The rest is unchanged.', '', fence('ts src/money.ts', ...body(MONEY_FIXED.replace(/\nexport function roundCents[^]*?\n}\n/, '\n')))].join('\n'),
    lands: {},
    holds: ['definitionLost'],
  },
  {
    name: 'a whole file that removes a function the prose says it removes: lands',
    answer: ['I removed the unused `sumAmounts` helper.', '', fence('ts src/money.ts', ...body(MONEY.replace(/\n\nexport function sumAmounts[^]*$/, '\n')))].join('\n'),
    lands: { 'src/money.ts': MONEY.replace(/\n\nexport function sumAmounts[^]*$/, '\n') },
  },
  {
    name: 'a whole file that renames a function, said in prose: lands',
    answer: ['Renamed `roundCents` to `toCents` and updated its caller.', '', fence('ts src/money.ts', ...body(MONEY.replace(/roundCents/g, 'toCents')))].join('\n'),
    lands: { 'src/money.ts': MONEY.replace(/roundCents/g, 'toCents') },
  },
  {
    name: 'a diff whose - lines remove a function: explicit, lands',
    answer: fence('diff', '--- a/src/money.ts', '+++ b/src/money.ts', '@@ -11,9 +11,4 @@', ' ', '-export function roundCents(value: number): number {', '-  return Math.round(value * 100) / 100;', '-}', '-', ' export function sumAmounts(values: number[]): number {', '   let total = 0;', '   for (const v of values) total += v;', '-  return roundCents(total);', '+  return Math.round(total * 100) / 100;'),
    lands: { 'src/money.ts': MONEY.replace(/export function roundCents[^]*?\n}\n\n/, '').replace('return roundCents(total);', 'return Math.round(total * 100) / 100;') },
  },
  // ——— a definition twice ———
  {
    name: 'one unnamed block with the old and the new version of the selected function, unlabelled: held, nothing pasted',
    answer: ['The current version rounds late:', '', fence('ts', ...body(MONEY).slice(7, 10), '', ...body(MONEY_FIXED).slice(7, 10))].join('\n'),
    source: { path: 'src/money.ts', range: range(8, 10) },
    lands: {},
    holds: ['definitionTwice'],
  },
  {
    name: 'the whole module, unnamed, while one function is selected (the file named only in a Japanese sentence): held',
    answer: ['`src/money.ts` の修正版です。', '', fence('ts', ...body(MONEY_FIXED))].join('\n'),
    source: { path: 'src/money.ts', range: range(12, 14) },
    lands: {},
    holds: ['definitionTwice'],
  },
  {
    name: 'a diff that adds a second copy of a function: held',
    answer: fence('diff', '--- a/src/money.ts', '+++ b/src/money.ts', '@@ -20,1 +20,5 @@', ' }', '+', '+export function roundCents(value: number): number {', '+  return Math.round(value * 100) / 100;', '+}'),
    lands: {},
    holds: ['definitionTwice'],
  },
  {
    name: 'a diff that pastes a long run of the file a second time (no definition in it): held',
    answer: fence('diff', '--- a/src/routes.ts', '+++ b/src/routes.ts', '@@ -13,2 +13,14 @@', ...body(ROUTES).slice(12, 13).map(l => ` ${l}`), ...body(ROUTES).slice(1, 13).map(l => `+${l}`), ' ];'),
    lands: {},
    holds: ['linesTwice'],
  },
  // ——— what must still land ———
  {
    name: 'a toString() added to Square while Circle has one: two classes, two methods, lands',
    answer: fence('ts src/shapes.ts', ...body(SHAPES.replace('    return this.side * this.side;\n  }\n', '    return this.side * this.side;\n  }\n\n  toString(): string {\n    return `Square(${this.side})`;\n  }\n'))),
    lands: { 'src/shapes.ts': SHAPES.replace('    return this.side * this.side;\n  }\n', '    return this.side * this.side;\n  }\n\n  toString(): string {\n    return `Square(${this.side})`;\n  }\n') },
  },
  {
    name: "a property's setter (a second def of its name under @balance.setter): lands",
    answer: fence('python app/account.py', ...body(ACCOUNT.replace('        return self._balance\n', '        return self._balance\n\n    @balance.setter\n    def balance(self, value):\n        self._balance = value\n'))),
    lands: { 'app/account.py': ACCOUNT.replace('        return self._balance\n', '        return self._balance\n\n    @balance.setter\n    def balance(self, value):\n        self._balance = value\n') },
  },
  {
    name: 'an overload signature added above a function: lands',
    answer: fence('ts src/money.ts', ...body(MONEY.replace('export function parseAmount(text: string): number {', 'export function parseAmount(text: string): number;\nexport function parseAmount(text: string): number {'))),
    lands: { 'src/money.ts': MONEY.replace('export function parseAmount(text: string): number {', 'export function parseAmount(text: string): number;\nexport function parseAmount(text: string): number {') },
  },
  {
    name: 'the right fix as a whole file: lands',
    answer: ['Round before formatting:', '', fence('ts src/money.ts', ...body(MONEY_FIXED))].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  // ——— other tools' edit markup, read as the edits it is (issue 43, item 2) ———
  {
    name: "Zed's <edits> with <old_text line=N> and <new_text>, under a line naming the file: lands as an edit",
    answer: [
      'Edits for `src/money.ts`:',
      '',
      fence('xml', '<edits>', '', '<old_text line=9>', '  return `${currency.symbol}${value.toFixed(2)}`;', '</old_text>', '<new_text>', '  return `${currency.symbol}${roundCents(value).toFixed(2)}`;', '</new_text>', '', '</edits>'),
    ].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "Cline's <replace_in_file> tool XML in a fence, the file in its <path>: lands as an edit",
    answer: [
      "I'll round before formatting.",
      '',
      fence('xml', '<replace_in_file>', '<path>src/money.ts</path>', '<diff>', '------- SEARCH', '  return `${currency.symbol}${value.toFixed(2)}`;', '=======', '  return `${currency.symbol}${roundCents(value).toFixed(2)}`;', '+++++++ REPLACE', '</diff>', '</replace_in_file>'),
    ].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "Cline's <replace_in_file> written outside any fence, as its tool call: lands as an edit",
    answer: ["I'll round before formatting.", '', '<replace_in_file>', '<path>src/money.ts</path>', '<diff>', '------- SEARCH', '  return `${currency.symbol}${value.toFixed(2)}`;', '=======', '  return `${currency.symbol}${roundCents(value).toFixed(2)}`;', '+++++++ REPLACE', '</diff>', '</replace_in_file>', '', 'Done.'].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "Cline's <write_to_file> outside a fence: its <path> names the file, its <content> is the text",
    answer: ['Adding a helper module:', '', '<write_to_file>', '<path>src/cents.ts</path>', '<content>', 'export const cents = (value: number) => Math.round(value * 100);', '</content>', '</write_to_file>'].join('\n'),
    lands: { 'src/cents.ts': 'export const cents = (value: number) => Math.round(value * 100);\n' },
  },
  {
    name: "Roo's newer <apply_diff> with <args><file><diff><content>, outside a fence: lands as an edit",
    answer: ['<apply_diff>', '<args>', '<file>', '<path>src/money.ts</path>', '<diff>', '<content>', '<<<<<<< SEARCH', '  return `${currency.symbol}${value.toFixed(2)}`;', '=======', '  return `${currency.symbol}${roundCents(value).toFixed(2)}`;', '>>>>>>> REPLACE', '</content>', '</diff>', '</file>', '</args>', '</apply_diff>'].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "Roo's <apply_diff> with :start_line: in a fence: lands as an edit",
    answer: fence('xml', '<apply_diff>', '<path>src/money.ts</path>', '<diff>', '<<<<<<< SEARCH', ':start_line:9', '-------', '  return `${currency.symbol}${value.toFixed(2)}`;', '=======', '  return `${currency.symbol}${roundCents(value).toFixed(2)}`;', '>>>>>>> REPLACE', '</diff>', '</apply_diff>'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "Zed's markup whose old text is not in the file: listed, nothing written",
    answer: ['`src/money.ts`:', '', fence('xml', '<edits>', '<old_text>', '  return value.toFixed(2);', '</old_text>', '<new_text>', '  return roundCents(value).toFixed(2);', '</new_text>', '</edits>')].join('\n'),
    lands: {},
    holds: ['notFound'],
  },
  {
    name: "Windsurf's {{ ... }} placeholders around the changed function: read as code left out, the shown part lands by its context",
    answer: ['`src/money.ts`', '', fence('ts', '{{ ... }}', ...body(MONEY_FIXED).slice(6, 11), '{{ ... }}')].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  // ——— fences where markdown puts them: in a quote, in a list; HTML's <pre><code> ———
  {
    name: 'a fenced block inside a blockquote, the file named in the quote: lands without the quote markers',
    answer: ['> **src/money.ts**', '>', '> ```ts', ...body(MONEY_FIXED).map(l => (l ? `> ${l}` : '>')), '> ```', '', 'That rounds first.'].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: 'a fenced block in a nested list item, indented five spaces: lands at the margin',
    answer: ['1. Round before formatting:', '   - in `src/money.ts`:', '', ...['```ts', ...body(MONEY_FIXED), '```'].map(l => (l ? `     ${l}` : l)), '', '2. Run the tests.'].join('\n'),
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: "an HTML answer's <pre><code class=\"language-ts\">, entities encoded, for the selected function: lands decoded",
    answer: [
      '<p>Round negative amounts away from zero:</p>',
      '<pre><code class="language-ts">export function roundCents(value: number): number {',
      '  return value &lt; 0 ? -Math.round(-value * 100) / 100 : Math.round(value * 100) / 100;',
      '}',
      '</code></pre>',
    ].join('\n'),
    source: { path: 'src/money.ts', range: range(12, 14) },
    lands: { 'src/money.ts': MONEY.replace('  return Math.round(value * 100) / 100;', '  return value < 0 ? -Math.round(-value * 100) / 100 : Math.round(value * 100) / 100;') },
  },
  {
    name: 'a quoted block whose quote ends without a closing fence: ends with the quote, the prose after it is not code',
    answer: ['> ```ts', '> const x = 1;', '', 'Then run it.'].join('\n'),
    lands: {},
  },
  // ——— apply_patch's @@ anchors pick one of two identical places ———
  {
    name: 'Codex apply_patch with stacked anchors (@@ class Order, @@ def total): the Order one changes, not the Cart one',
    answer: fence('', '*** Begin Patch', '*** Update File: app/cart.py', '@@ class Order:', '@@     def total(self):', '-        return sum(i.price for i in self.items)', '+        return sum(i.price * i.quantity for i in self.items)', '*** End Patch'),
    lands: { 'app/cart.py': CART.replace(/return sum\(i\.price for i in self\.items\)\n$/, 'return sum(i.price * i.quantity for i in self.items)\n') },
  },
  {
    name: 'Codex apply_patch with one anchor (@@ class Cart): the Cart one changes',
    answer: fence('', '*** Begin Patch', '*** Update File: app/cart.py', '@@ class Cart', '     def total(self):', '-        return sum(i.price for i in self.items)', '+        return round(sum(i.price for i in self.items), 2)', '*** End Patch'),
    lands: { 'app/cart.py': CART.replace('return sum(i.price for i in self.items)', 'return round(sum(i.price for i in self.items), 2)') },
  },
  {
    name: 'an anchor the file does not have: still listed as in several places, never guessed',
    answer: fence('', '*** Begin Patch', '*** Update File: app/cart.py', '@@ class Invoice', '-        return sum(i.price for i in self.items)', '+        return 0', '*** End Patch'),
    lands: {},
    holds: ['ambiguous'],
  },
  // ——— "before" and "after": only the after lands ———
  {
    name: 'one block with "// ❌ Before" and "// ✅ After" versions of the selected function: the after lands',
    answer: ['Round first:', '', fence('ts', '// ❌ Before', ...body(MONEY).slice(7, 10), '', '// ✅ After', ...body(MONEY_FIXED).slice(7, 10))].join('\n'),
    source: { path: 'src/money.ts', range: range(8, 10) },
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: 'two unnamed blocks, "Before:" and "After:", while the function is selected: the after lands',
    answer: ['Before:', '', fence('ts', ...body(MONEY).slice(7, 10)), '', 'After:', '', fence('ts', ...body(MONEY_FIXED).slice(7, 10))].join('\n'),
    source: { path: 'src/money.ts', range: range(8, 10) },
    lands: { 'src/money.ts': MONEY_FIXED },
  },
  {
    name: 'the right fix as the selected function: lands',
    answer: fence('ts', ...body(MONEY_FIXED).slice(7, 10)),
    source: { path: 'src/money.ts', range: range(8, 10) },
    lands: { 'src/money.ts': MONEY_FIXED },
  },
];

describe('issue 43: the landing guard holds what would be written wrong, whatever the form', () => {
  for (const f of FAMILIES) {
    it(f.name, () => {
      const plan = planOf(f.answer, f.source);
      assert.deepEqual(landedByDefault(plan), f.lands);
      assert.deepEqual(held(plan), f.holds ?? []);
      for (const s of plan.files.flatMap(x => x.skippedHunks)) if (s.code !== 'notFound' && s.code !== 'ambiguous') assert.match(s.reason, /held back/);
    });
  }

  it('Insert at Cursor asks the same guard: a second definition, a repeated run; a new helper or a method of another class is fine', () => {
    const end = body(MONEY).length;
    assert.deepEqual(insertionRepeats(MONEY, end, '\nexport function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n'), { code: 'definitionTwice', detail: 'roundCents' });
    assert.equal(insertionRepeats(MONEY, end, '\nexport function half(value: number): number {\n  return value / 2;\n}\n'), undefined);
    assert.equal(insertionRepeats(SHAPES, 18, '\n  toString(): string {\n    return `Square(${this.side})`;\n  }'), undefined, 'Square.toString beside Circle.toString');
    assert.equal(insertionRepeats(ROUTES, 13, body(ROUTES).slice(1, 13).join('\n'))?.code, 'linesTwice');
  });

  it('says which definition, in words', () => {
    const plan = planOf(FAMILIES[0].answer);
    assert.match(plan.files[0].skippedHunks[0].reason, /would remove "roundCents", which the answer does not say it removes/);
    const twice = planOf(FAMILIES[4].answer, FAMILIES[4].source);
    assert.match(twice.files[0].skippedHunks[0].reason, /"formatAmount" would be defined twice/);
  });
});

// ——— the property ———

/** A small seeded generator (mulberry32): the same variants every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A base file, a right new text, and the names it defines (read by a plain regex, not by the guard's reader). */
interface Base {
  path: string;
  before: string;
  after: string;
  /** 1-based lines of the definition the right answer changes. */
  changed: [number, number];
}

const BASES: Base[] = [
  { path: 'src/money.ts', before: MONEY, after: MONEY_FIXED, changed: [8, 10] },
  { path: 'app/account.py', before: ACCOUNT, after: ACCOUNT.replace('raise ValueError("amount must be positive")', 'raise ValueError(f"amount must be positive, not {amount}")'), changed: [10, 13] },
  { path: 'src/shapes.ts', before: SHAPES, after: SHAPES.replace('return Math.PI * this.r * this.r;', 'return Math.PI * this.r ** 2;'), changed: [4, 6] },
];

const DEFINES = /^\s*(?:export\s+)?(?:class\s+(\w+)|function\s+(\w+)|def\s+(\w+)|(\w+)\([^)]*\)(?::\s*\w+)?\s*\{)/;
function definitionCounts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of text.split('\n')) {
    if (/;\s*$/.test(l)) continue;
    const m = DEFINES.exec(l);
    const name = m && (m[1] ?? m[2] ?? m[3] ?? m[4]);
    if (name && name !== 'constructor') out.set(name, (out.get(name) ?? 0) + 1);
  }
  return out;
}

/** Lines that are some tool's edit syntax, a placeholder or a gutter: never written into a file that has none. */
const SYNTAX = /^(?:<{7}|={7}$|>{7}|\s*<\/?(?:edits|old_text|new_text|search|replace|diff)>|\s*\{\{\s*\.\.\.\s*\}\}|\s*(?:\/\/|#)\s*\.\.\.\s*existing|\s*(?:\/\/|#)\s*(?:Before|After)\b|@@ |\*\*\* Begin Patch|\s*\d+\s*\|\s)/;

type Mutation = (lines: string[], r: () => number, base: Base) => string[];
const defStarts = (ls: string[]) => ls.flatMap((l, i) => (DEFINES.test(l) && !/constructor/.test(l) ? [i] : []));
/** The end (exclusive) of the definition starting at `i`: the next line back at its indentation or less. */
function defEnd(ls: string[], i: number): number {
  const indent = /^\s*/.exec(ls[i])![0].length;
  let j = i + 1;
  while (j < ls.length && (!ls[j].trim() || /^\s*/.exec(ls[j])![0].length > indent)) j++;
  return j < ls.length && /^\s*[})\]]/.test(ls[j]) ? j + 1 : j;
}
const pick = <T>(xs: T[], r: () => number): T => xs[Math.floor(r() * xs.length)];

const MUTATIONS: Record<string, Mutation> = {
  none: ls => ls,
  'a definition dropped': (ls, r) => {
    const starts = defStarts(ls).filter(i => /^\S/.test(ls[i]) || r() < 0.5);
    const i = pick(starts, r);
    return [...ls.slice(0, i), ...ls.slice(defEnd(ls, i))];
  },
  'a definition duplicated': (ls, r) => {
    const i = pick(defStarts(ls), r);
    const e = defEnd(ls, i);
    return [...ls.slice(0, e), '', ...ls.slice(i, e), ...ls.slice(e)];
  },
  'a run pasted twice': ls => {
    const n = Math.min(12, ls.length);
    return [...ls, ...ls.slice(0, n)];
  },
  'renumbered': ls => ls.map((l, i) => `${String(i + 1).padStart(3)} | ${l}`),
  're-indented': (ls, r) => {
    const by = ' '.repeat(r() < 0.5 ? 2 : 4);
    return ls.map(l => (l ? by + l : l));
  },
  'lines re-indented unevenly': (ls, r) => ls.map(l => (l ? ' '.repeat(r() < 0.5 ? 2 : 4) + l : l)),
  'a placeholder for the rest': (ls, r) => {
    const i = pick(defStarts(ls), r);
    const placeholder = pick(['{{ ... }}', '// ... existing code ...', '# ... rest of the file unchanged ...'], r);
    return [...ls.slice(0, i), placeholder, ...ls.slice(defEnd(ls, i))];
  },
  'wrapped in Zed edits': ls => ['<edits>', '<old_text>', '</old_text>', '<new_text>', ...ls, '</new_text>', '</edits>'],
  'before and after labels': (ls, _r, base) => ['// Before', ...body(base.before), '', '// After', ...ls],
};

/** The four forms one text of a file goes out in. */
function formsOf(base: Base, text: string, path: string): { form: string; answer: string; source?: { path: string; range?: Range } }[] {
  const ls = body(text);
  const [first, last] = base.changed;
  const lang = base.path.endsWith('.py') ? 'python' : 'ts';
  return [
    { form: 'a named whole file', answer: ['Here is the file:', '', fence(`${lang} ${path}`, ...ls)].join('\n') },
    { form: 'an unnamed whole file, the file sent', answer: fence(lang, ...ls), source: { path: base.path } },
    { form: 'an unnamed block, the definition selected', answer: fence(lang, ...ls.slice(first - 1, first - 1 + (last - first + 1) + (ls.length - body(base.before).length))), source: { path: base.path, range: range(first, last) } },
    { form: 'a bold path, then the block', answer: [`**${path}**`, '', fence(lang, ...ls)].join('\n') },
  ];
}

describe('issue 43: the landing guard as a property over generated variants', () => {
  const seeds = 40;
  let variants = 0;
  let landedRight = 0;
  let held = 0;
  for (const base of BASES) {
    for (const [mutation, mutate] of Object.entries(MUTATIONS)) {
      it(`${base.path}, ${mutation}: whatever lands by default is what a careful person lands, or it is held`, () => {
        for (let seed = 1; seed <= seeds; seed++) {
          const r = random(seed * 7919 + base.path.length);
          const text = `${mutate(body(base.after), r, base).join('\n')}\n`;
          const path = r() < 0.3 ? base.path.replace(/[a-z](?=[a-z]*\.\w+$)/, c => c.toUpperCase()) : base.path;
          for (const { form, answer, source } of formsOf(base, text, path)) {
            variants++;
            const plan = planOf(answer, source);
            const landed = landedByDefault(plan);
            const what = `${mutation} (seed ${seed}), ${form}, named ${path}:\n${answer}\n→ ${JSON.stringify(landed, null, 1)}`;
            for (const p of Object.keys(landed)) {
              assert.ok(p === base.path, `nothing lands beside the file, in another letter case or elsewhere: ${what}`);
            }
            const now = landed[base.path];
            if (now === undefined) {
              held++;
              continue;
            }
            if (now === base.after) landedRight++;
            const counts = definitionCounts(now);
            const before = definitionCounts(base.before);
            const after = definitionCounts(base.after);
            for (const name of new Set([...before.keys(), ...after.keys(), ...counts.keys()])) {
              const n = counts.get(name) ?? 0;
              const lo = Math.min(before.get(name) ?? 0, after.get(name) ?? 0);
              const hi = Math.max(before.get(name) ?? 0, after.get(name) ?? 0);
              assert.ok(n >= lo && n <= hi, `"${name}" ${n} times, the file has it ${before.get(name) ?? 0}, the right answer ${after.get(name) ?? 0}: ${what}`);
            }
            for (const l of now.split('\n')) assert.ok(!SYNTAX.test(l), `no edit syntax, placeholder or gutter written (${JSON.stringify(l)}): ${what}`);
            const indent = (s: string) => Math.min(...s.split('\n').filter(l => l.trim()).map(l => /^\s*/.exec(l)![0].length));
            assert.equal(indent(now), 0, `the file is not re-indented as a whole: ${what}`);
          }
        }
      });
    }
  }
  after(() => {
    // Bounds the property's reach: it ran thousands of variants, and the right ones did land (the guard is not "hold everything").
    assert.ok(variants >= 2_000, `${variants} variants`);
    assert.ok(landedRight >= seeds * BASES.length * 2, `${landedRight} right landings of ${variants}, ${held} held`);
    console.log(`      landing guard property: ${variants} variants, ${landedRight} landed right, ${held} held, 0 wrong`);
  });
});
