/**
 * Issue 34: realistic answers as tools and models of several vendors write them (aider, Cline, Roo Code, Copilot
 * chat, Cursor, ChatGPT, Claude, Gemini, DeepSeek, Llama, Codex), each with the exact texts it must land per file or
 * the reason it must not. The rule under test: a hunk is offered only when every line it removes is shown removed by
 * the answer (a `-` line, a SEARCH half, a block that demonstrably targets it), its place is unique, and it writes no
 * edit syntax into the file. Each case runs the real reader, parseAnswer and buildPlan against a small workspace,
 * then applies every offered hunk; every file's skipped hunks are checked too.
 */
import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../src/review/answer';
import { type ReviewFiles, applyHunks, buildPlan } from '../../src/review/plan';

const lines = (...l: string[]) => `${l.join('\n')}\n`;
const fence = (info: string, ...body: string[]) => [`\`\`\`${info}`, ...body, '```'].join('\n');
const body = (text: string) => text.trimEnd().split('\n');

/** `text` with the lines `from` (found exactly once, as whole lines) replaced by `to`: guards the expectations. */
function edit(text: string, from: string[], to: string[]): string {
  const all = text.split('\n');
  const at: number[] = [];
  for (let i = 0; i + from.length <= all.length; i++) if (from.every((l, k) => all[i + k] === l)) at.push(i);
  if (at.length !== 1) throw new Error(`edit(): ${at.length} matches for ${JSON.stringify(from)}`);
  return editAt(text, at[0] + 1, from, to);
}

/** `text` with the lines `from` at 1-based line `line` (checked) replaced by `to`. */
function editAt(text: string, line: number, from: string[], to: string[]): string {
  const all = text.split('\n');
  from.forEach((l, k) => {
    if (all[line - 1 + k] !== l) throw new Error(`editAt(): line ${line + k} is ${JSON.stringify(all[line - 1 + k])}, not ${JSON.stringify(l)}`);
  });
  all.splice(line - 1, from.length, ...to);
  return all.join('\n');
}

/** A sent range of whole 1-based lines [first, last]. */
const range = (first: number, last: number) => ({ startLine: first - 1, startCharacter: 0, endLine: last, endCharacter: 0 });

// ——— the workspace ———

const CART = lines(
  "import type { Item } from './types';",
  '',
  'export function findItem(items: Item[], id: string): Item | null {',
  '  for (const item of items) {',
  '    if (item.id === id) return item;',
  '  }',
  '  return null;',
  '}',
  '',
  'export function findByName(items: Item[], name: string): Item | null {',
  '  for (const item of items) {',
  '    if (item.name === name) return item;',
  '  }',
  '  return null;',
  '}',
  '',
  'export function total(items: Item[]): number {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price * item.qty;',
  '  return sum;',
  '}',
);
const FIND_ITEM = body(CART).slice(2, 8);
const FIND_ITEM_NEW = ['export function findItem(items: Item[], id: string): Item | null {', '  return items.find((item) => item.id === id) ?? null;', '}'];
const FIND_BY_NAME = body(CART).slice(9, 15);
const FIND_BY_NAME_NEW = [
  'export function findByName(items: Item[], name: string): Item | null {',
  '  const needle = name.toLowerCase();',
  '  for (const item of items) {',
  '    if (item.name.toLowerCase() === needle) return item;',
  '  }',
  '  return null;',
  '}',
];
const TOTAL = body(CART).slice(16, 21);
const ROUNDED = '  return Math.round(sum * 100) / 100;';
const CART_ROUNDED = edit(CART, ['  return sum;'], [ROUNDED]);

const TYPES = lines('export interface Item {', '  id: string;', '  name: string;', '  price: number;', '  qty: number;', '}');

const STORE = lines(
  'import json',
  'import os',
  '',
  '',
  'class Store:',
  '    def __init__(self, path):',
  '        self.path = path',
  '        self.data = {}',
  '',
  '    def load(self):',
  '        if not os.path.exists(self.path):',
  '            return None',
  '        with open(self.path) as f:',
  '            self.data = json.load(f)',
  '        return self.data',
  '',
  '    def get(self, key):',
  '        if key not in self.data:',
  '            return None',
  '        return self.data[key]',
  '',
  '    def save(self):',
  '        with open(self.path, "w") as f:',
  '            json.dump(self.data, f)',
);
const GET = body(STORE).slice(16, 20);
const GET_NEW = ['    def get(self, key, default=None):', '        return self.data.get(key, default)'];
const SAVE = body(STORE).slice(21, 24);
const SAVE_NEW = ['    def save(self):', '        with open(self.path, "w", encoding="utf-8") as f:', '            json.dump(self.data, f, indent=2)'];
const STORE_SAVED = edit(STORE, SAVE, SAVE_NEW);

const MAIN = lines(
  'package main',
  '',
  'import (',
  '\t"fmt"',
  '\t"log"',
  '\t"net/http"',
  ')',
  '',
  'func health(w http.ResponseWriter, r *http.Request) {',
  '\tw.WriteHeader(http.StatusOK)',
  '\tfmt.Fprintln(w, "ok")',
  '}',
  '',
  'func version(w http.ResponseWriter, r *http.Request) {',
  '\tw.WriteHeader(http.StatusOK)',
  '\tfmt.Fprintln(w, "1.0.0")',
  '}',
  '',
  'func main() {',
  '\thttp.HandleFunc("/health", health)',
  '\thttp.HandleFunc("/version", version)',
  '\tlog.Fatal(http.ListenAndServe(":8080", nil))',
  '}',
);
const MAIN_READY = edit(MAIN, ['\thttp.HandleFunc("/version", version)'], ['\thttp.HandleFunc("/version", version)', '\thttp.HandleFunc("/ready", health)']);

const README = lines(
  '# cart',
  '',
  'A tiny shopping cart library.',
  '',
  '## Install',
  '',
  '```sh',
  'npm install cart',
  '```',
  '',
  '## Usage',
  '',
  '```ts',
  "import { total } from 'cart';",
  'console.log(total([]));',
  '```',
  '',
  '## License',
  '',
  'MIT',
);
const README_TEST = edit(README, ['## License'], ['## Test', '', '```sh', 'npm test', '```', '', '## License']);

const PKG = lines(
  '{',
  '  "name": "cart",',
  '  "version": "1.0.0",',
  '  "main": "dist/index.js",',
  '  "scripts": {',
  '    "build": "tsc -p .",',
  '    "test": "mocha"',
  '  },',
  '  "dependencies": {',
  '    "lodash": "^4.17.21"',
  '  },',
  '  "devDependencies": {',
  '    "mocha": "^10.2.0",',
  '    "typescript": "^5.4.0"',
  '  }',
  '}',
);

const CSS = lines(
  ':root {',
  '  --accent: #0a7;',
  '}',
  '',
  'body {',
  '  margin: 0;',
  '  font-family: sans-serif;',
  '}',
  '',
  '.button {',
  '  color: white;',
  '  background: var(--accent);',
  '}',
  '',
  '.button:hover {',
  '  color: white;',
  '  background: #086;',
  '}',
);
const CSS_HOVER = edit(CSS, ['  background: #086;'], ['  background: #075;']);

const MONEY = lines('export function roundCents(value: number): number {', '  return Math.round(value * 100) / 100;', '}');

const FILES: Record<string, string> = {
  'src/cart.ts': CART,
  'src/types.ts': TYPES,
  'app/store.py': STORE,
  'cmd/server/main.go': MAIN,
  'README.md': README,
  'package.json': PKG,
  'web/site.css': CSS,
};

// ——— the edit-block forms ———

/** aider: <<<<<<< SEARCH / ======= / >>>>>>> REPLACE. */
const aider = (search: string[], replace: string[]) => ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'];
/** Cline: ------- SEARCH / ======= / +++++++ REPLACE. */
const cline = (search: string[], replace: string[]) => ['------- SEARCH', ...search, '=======', ...replace, '+++++++ REPLACE'];
/** Roo Code apply_diff: <<<<<<< SEARCH, :start_line:N, -------, …, =======, …, >>>>>>> REPLACE. */
const roo = (line: number, search: string[], replace: string[]) => ['<<<<<<< SEARCH', `:start_line:${line}`, '-------', ...search, '=======', ...replace, '>>>>>>> REPLACE'];

interface Case {
  name: string;
  answer: string;
  /** Files now (default FILES); the sent texts are the same unless `sent` says otherwise. */
  files?: Record<string, string>;
  sent?: Record<string, string>;
  source?: { path: string; range?: { startLine: number; startCharacter: number; endLine: number; endCharacter: number } };
  /** Every file that lands, with its full text after all offered hunks are applied. */
  lands: Record<string, string>;
  /** Every entry not landed: [path ('' when none), reason code]. */
  skips?: [string, string][];
  /** Every hunk listed but not offered, of landed and skipped files alike: [path, hunk code]. */
  hunkSkips?: [string, string][];
}

const CASES: Case[] = [
  // ——— aider (the filename alone on the line before the fence) ———
  {
    name: 'aider: one SEARCH/REPLACE block rewriting a whole function',
    answer: ['I will simplify `findItem` with `Array.prototype.find`.', '', 'src/cart.ts', fence('typescript', ...aider(FIND_ITEM, FIND_ITEM_NEW))].join('\n'),
    lands: { 'src/cart.ts': edit(CART, FIND_ITEM, FIND_ITEM_NEW) },
  },
  {
    name: 'aider: two blocks in one fence both land',
    answer: ['src/cart.ts', fence('typescript', ...aider(FIND_ITEM, FIND_ITEM_NEW), ...aider(['  return sum;'], [ROUNDED]))].join('\n'),
    lands: { 'src/cart.ts': edit(CART_ROUNDED, FIND_ITEM, FIND_ITEM_NEW) },
  },
  {
    name: 'aider: two fences for one file are two edits, not a superseded draft',
    answer: [
      'First `findItem`:',
      '',
      'src/cart.ts',
      fence('typescript', ...aider(FIND_ITEM, FIND_ITEM_NEW)),
      '',
      'Then make `findByName` case-insensitive:',
      '',
      'src/cart.ts',
      fence('typescript', ...aider(FIND_BY_NAME, FIND_BY_NAME_NEW)),
    ].join('\n'),
    lands: { 'src/cart.ts': edit(edit(CART, FIND_ITEM, FIND_ITEM_NEW), FIND_BY_NAME, FIND_BY_NAME_NEW) },
  },
  {
    name: 'aider: an empty SEARCH creates a new file; a second fence edits the importer',
    answer: [
      'To create a new file I use an empty SEARCH section.',
      '',
      'src/money.ts',
      fence('typescript', ...aider([], body(MONEY))),
      '',
      'src/cart.ts',
      fence('typescript', ...aider(["import type { Item } from './types';"], ["import type { Item } from './types';", "import { roundCents } from './money';"]), ...aider(['  return sum;'], ['  return roundCents(sum);'])),
    ].join('\n'),
    lands: {
      'src/money.ts': MONEY,
      'src/cart.ts': edit(edit(CART, ["import type { Item } from './types';"], ["import type { Item } from './types';", "import { roundCents } from './money';"]), ['  return sum;'], ['  return roundCents(sum);']),
    },
  },
  {
    name: 'aider: blocks for two files (TypeScript and Python) in one answer',
    answer: ['src/cart.ts', fence('typescript', ...aider(['  return sum;'], [ROUNDED])), '', 'app/store.py', fence('python', ...aider(SAVE, SAVE_NEW))].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED, 'app/store.py': STORE_SAVED },
  },
  {
    name: 'aider: a SEARCH text that is not in the file is listed (notFound), nothing forced over real code',
    answer: ['src/cart.ts', fence('typescript', ...aider(['  return undefined;'], ['  return null;']))].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'notFound']],
  },
  {
    name: 'aider: a SEARCH of one line found twice (return null;) is ambiguous, never the first match',
    answer: ['src/cart.ts', fence('typescript', ...aider(['  return null;'], ['  return undefined;']))].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  {
    name: 'aider: of two blocks the one found lands, the one not found is listed',
    answer: ['src/cart.ts', fence('typescript', ...aider(['  return sum;'], [ROUNDED]), ...aider(['export function count(items: Item[]): number {'], ['export function countItems(items: Item[]): number {']))].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
    hunkSkips: [['src/cart.ts', 'notFound']],
  },
  {
    name: 'aider: trailing blanks in the SEARCH lines are tolerated',
    answer: ['src/cart.ts', fence('typescript', ...aider(['  let sum = 0;   ', '  for (const item of items) sum += item.price * item.qty;  ', '  return sum; '], ['  let sum = 0;', '  for (const item of items) sum += item.price * item.qty;', ROUNDED]))].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'aider diff-fenced (Gemini): the filename is the first line inside the fence',
    answer: ['```', 'src/cart.ts', ...aider(['  return sum;'], [ROUNDED]), '```'].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'aider whole format: the filename line, then the whole new file',
    answer: ['Here is the updated file with explicit encodings.', '', 'app/store.py', fence('python', ...body(STORE_SAVED))].join('\n'),
    lands: { 'app/store.py': STORE_SAVED },
  },
  {
    name: 'aider: a Go block with tabs whose SEARCH line is unique',
    answer: ['cmd/server/main.go', fence('go', ...aider(['\tfmt.Fprintln(w, "1.0.0")'], ['\tfmt.Fprintln(w, "1.1.0")']))].join('\n'),
    lands: { 'cmd/server/main.go': edit(MAIN, ['\tfmt.Fprintln(w, "1.0.0")'], ['\tfmt.Fprintln(w, "1.1.0")']) },
  },
  {
    name: 'aider: a Go SEARCH line that both handlers have is ambiguous',
    answer: ['cmd/server/main.go', fence('go', ...aider(['\tw.WriteHeader(http.StatusOK)'], ['\tw.WriteHeader(http.StatusNoContent)']))].join('\n'),
    lands: {},
    skips: [['cmd/server/main.go', 'doesNotApply']],
    hunkSkips: [['cmd/server/main.go', 'ambiguous']],
  },
  {
    name: 'aider: a repeated line followed by a unique one is found once',
    answer: [
      'cmd/server/main.go',
      fence('go', ...aider(['\tw.WriteHeader(http.StatusOK)', '\tfmt.Fprintln(w, "ok")'], ['\tw.Header().Set("Content-Type", "text/plain")', '\tw.WriteHeader(http.StatusOK)', '\tfmt.Fprintln(w, "ok")'])),
    ].join('\n'),
    lands: { 'cmd/server/main.go': edit(MAIN, ['\tw.WriteHeader(http.StatusOK)', '\tfmt.Fprintln(w, "ok")'], ['\tw.Header().Set("Content-Type", "text/plain")', '\tw.WriteHeader(http.StatusOK)', '\tfmt.Fprintln(w, "ok")']) },
  },
  {
    name: 'aider: an empty REPLACE deletes the function the SEARCH shows',
    answer: ['`findByName` is unused; remove it.', '', 'src/cart.ts', fence('typescript', ...aider([...FIND_BY_NAME, ''], []))].join('\n'),
    lands: { 'src/cart.ts': edit(CART, [...FIND_BY_NAME, ''], []) },
  },
  {
    name: 'aider: a Python method rewritten in place',
    answer: ['app/store.py', fence('python', ...aider(GET, GET_NEW))].join('\n'),
    lands: { 'app/store.py': edit(STORE, GET, GET_NEW) },
  },
  {
    name: 'aider: output and shell transcripts around the edit are neither landed nor listed',
    answer: [
      'src/cart.ts',
      fence('typescript', ...aider(['  return sum;'], [ROUNDED])),
      '',
      'Run the tests:',
      '',
      fence('console', '$ npm test', '', '  cart', '    ✓ totals price times quantity', '', '  1 passing (4ms)'),
      '',
      fence('text', 'total([{ price: 0.1, qty: 3 }]) = 0.3'),
    ].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  // ——— Cline ———
  {
    name: 'Cline: ------- SEARCH / +++++++ REPLACE named by a bold path',
    answer: ['**src/cart.ts**', '', fence('', ...cline(FIND_ITEM, FIND_ITEM_NEW))].join('\n'),
    lands: { 'src/cart.ts': edit(CART, FIND_ITEM, FIND_ITEM_NEW) },
  },
  {
    name: 'Cline: two blocks in one fence for a Python file',
    answer: [
      'I will make loading and saving use UTF-8.',
      '',
      '`app/store.py`:',
      fence('python', ...cline(['        with open(self.path) as f:'], ['        with open(self.path, encoding="utf-8") as f:']), ...cline(SAVE, SAVE_NEW)),
    ].join('\n'),
    lands: { 'app/store.py': edit(STORE_SAVED, ['        with open(self.path) as f:'], ['        with open(self.path, encoding="utf-8") as f:']) },
  },
  {
    name: 'Cline: a SEARCH the file does not have is listed',
    answer: ['**app/store.py**', '', fence('python', ...cline(['    def delete(self, key):', '        del self.data[key]'], ['    def delete(self, key):', '        self.data.pop(key, None)']))].join('\n'),
    lands: {},
    skips: [['app/store.py', 'doesNotApply']],
    hunkSkips: [['app/store.py', 'notFound']],
  },
  {
    name: 'Cline: a SEARCH of `return None` (twice in the file) is ambiguous',
    answer: ['**app/store.py**', '', fence('python', ...cline(['            return None'], ['            return {}']))].join('\n'),
    lands: {},
    skips: [['app/store.py', 'doesNotApply']],
    hunkSkips: [['app/store.py', 'ambiguous']],
  },
  {
    name: 'Cline: a CSS block whose first line repeats but whose second is unique',
    answer: ['**web/site.css**', '', fence('css', ...cline(['  color: white;', '  background: #086;'], ['  color: white;', '  background: #075;']))].join('\n'),
    lands: { 'web/site.css': CSS_HOVER },
  },
  {
    name: 'Cline: a CSS SEARCH of one repeated declaration is ambiguous',
    answer: ['**web/site.css**', '', fence('css', ...cline(['  color: white;'], ['  color: #fafafa;']))].join('\n'),
    lands: {},
    skips: [['web/site.css', 'doesNotApply']],
    hunkSkips: [['web/site.css', 'ambiguous']],
  },
  // ——— Roo Code apply_diff ———
  {
    name: 'Roo: :start_line:7 picks the first of two `return null;` lines',
    answer: ['**src/cart.ts**', '', fence('', ...roo(7, ['  return null;'], ['  throw new Error(`no item ${id}`);']))].join('\n'),
    lands: { 'src/cart.ts': editAt(CART, 7, ['  return null;'], ['  throw new Error(`no item ${id}`);']) },
  },
  {
    name: 'Roo: :start_line:14 picks the second `return null;` line',
    answer: ['**src/cart.ts**', '', fence('diff', ...roo(14, ['  return null;'], ['  throw new Error(`no item named ${name}`);']))].join('\n'),
    lands: { 'src/cart.ts': editAt(CART, 14, ['  return null;'], ['  throw new Error(`no item named ${name}`);']) },
  },
  {
    name: 'Roo: a unique SEARCH at its stated line in a Go file',
    answer: ['`cmd/server/main.go`', fence('go', ...roo(16, ['\tfmt.Fprintln(w, "1.0.0")'], ['\tfmt.Fprintln(w, "1.1.0")']))].join('\n'),
    lands: { 'cmd/server/main.go': edit(MAIN, ['\tfmt.Fprintln(w, "1.0.0")'], ['\tfmt.Fprintln(w, "1.1.0")']) },
  },
  {
    name: 'Roo: a unique SEARCH with a stale :start_line: still lands where the text is',
    answer: ['**src/cart.ts**', '', fence('', ...roo(3, ['  return sum;'], [ROUNDED]))].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'Roo: :start_line:12 picks `return None` in load(), not in get()',
    answer: ['**app/store.py**', '', fence('python', ...roo(12, ['            return None'], ['            return {}']))].join('\n'),
    lands: { 'app/store.py': editAt(STORE, 12, ['            return None'], ['            return {}']) },
  },
  {
    name: 'Roo: two blocks in one apply_diff, both land',
    answer: ['**app/store.py**', '', fence('python', ...roo(17, GET, GET_NEW), ...roo(22, SAVE, SAVE_NEW))].join('\n'),
    lands: { 'app/store.py': edit(STORE_SAVED, GET, GET_NEW) },
  },
  {
    name: 'Roo: a SEARCH that is not in the file is listed',
    answer: ['**cmd/server/main.go**', '', fence('go', ...roo(20, ['\thttp.HandleFunc("/healthz", health)'], ['\thttp.HandleFunc("/livez", health)']))].join('\n'),
    lands: {},
    skips: [['cmd/server/main.go', 'doesNotApply']],
    hunkSkips: [['cmd/server/main.go', 'notFound']],
  },
  {
    name: 'Roo: a :start_line: that is at neither of two matches does not pick one: ambiguous',
    answer: ['**src/cart.ts**', '', fence('', ...roo(40, ['  return null;'], ['  return undefined;']))].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  // ——— GitHub Copilot chat ———
  {
    name: 'Copilot: // filepath: first line and // ...existing code... before a function whose lines prove the place',
    answer: [
      'Round the total to cents:',
      '',
      fence('ts', '// filepath: src/cart.ts', '// ...existing code...', 'export function total(items: Item[]): number {', '  let sum = 0;', '  for (const item of items) sum += item.price * item.qty;', ROUNDED, '}'),
    ].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'Copilot: the changed line after an inner ...existing code... marker cannot be placed: partial',
    answer: [fence('ts', '// filepath: src/cart.ts', '// ...existing code...', 'export function total(items: Item[]): number {', '  // ...existing code...', ROUNDED, '}')].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'partial']],
  },
  {
    name: 'Copilot: # filepath: in Python, the last method changed after its anchor',
    answer: [fence('python', '# filepath: app/store.py', '# ...existing code...', ...SAVE_NEW)].join('\n'),
    lands: { 'app/store.py': STORE_SAVED },
  },
  {
    name: 'Copilot: a Go route added inside main() between existing lines',
    answer: [
      'Register a readiness endpoint:',
      '',
      fence('go', '// filepath: cmd/server/main.go', '// ...existing code...', 'func main() {', '\thttp.HandleFunc("/health", health)', '\thttp.HandleFunc("/version", version)', '\thttp.HandleFunc("/ready", health)', '\tlog.Fatal(http.ListenAndServe(":8080", nil))', '}'),
    ].join('\n'),
    lands: { 'cmd/server/main.go': MAIN_READY },
  },
  {
    name: 'Copilot: // filepath: naming a new file creates it without the comment',
    answer: ['Create a helper:', '', fence('typescript', '// filepath: src/money.ts', ...body(MONEY))].join('\n'),
    lands: { 'src/money.ts': MONEY },
  },
  // ——— Cursor ———
  {
    name: 'Cursor: ```ts:src/cart.ts with // ... existing code ... around one rewritten function',
    answer: ['```ts:src/cart.ts', '// ... existing code ...', '', ...FIND_BY_NAME_NEW, '', '// ... existing code ...', '```'].join('\n'),
    lands: { 'src/cart.ts': edit(CART, FIND_BY_NAME, FIND_BY_NAME_NEW) },
  },
  {
    name: 'Cursor: a Python change after an inner # ... existing code ... is not guessed: partial',
    answer: ['```python:app/store.py', '# ... existing code ...', '    def load(self):', '        # ... existing code ...', '        return dict(self.data)', '```'].join('\n'),
    lands: {},
    skips: [['app/store.py', 'partial']],
  },
  {
    name: 'Cursor: a CSS rule changed under /* ... existing code ... */',
    answer: ['```css:web/site.css', '/* ... existing code ... */', '', '.button:hover {', '  color: white;', '  background: #075;', '}', '```'].join('\n'),
    lands: { 'web/site.css': CSS_HOVER },
  },
  {
    name: 'Cursor: a snippet with no unique line (`  }` / return / `}`) is not placed: partial',
    answer: ['```ts:src/cart.ts', '// ... existing code ...', '  }', '  return undefined;', '}', '// ... existing code ...', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'partial']],
  },
  {
    name: 'Cursor: a new function appended after the last one, shown whole',
    answer: ['```ts:src/cart.ts', '// ... existing code ...', '', ...TOTAL, '', 'export function count(items: Item[]): number {', '  return items.reduce((n, item) => n + item.qty, 0);', '}', '```'].join('\n'),
    lands: { 'src/cart.ts': `${CART}\nexport function count(items: Item[]): number {\n  return items.reduce((n, item) => n + item.qty, 0);\n}\n` },
  },
  {
    name: 'Cursor: an import inserted after the first line, followed by its blank line and a marker',
    answer: ['```ts:src/cart.ts', "import type { Item } from './types';", "import { roundCents } from './money';", '', '// ... existing code ...', '```'].join('\n'),
    lands: { 'src/cart.ts': edit(CART, ["import type { Item } from './types';"], ["import type { Item } from './types';", "import { roundCents } from './money';"]) },
  },
  {
    name: 'Cursor: a changed line right before a marker, after the last unique anchor, may be an insertion or a replacement: partial',
    answer: ['```ts:src/cart.ts', '// ... existing code ...', 'export function total(items: Item[]): number {', '  let sum = 0;', '  for (const item of items) sum += item.price * item.qty * 1.2;', '  // ... existing code ...', '}', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'partial']],
  },
  // ——— chat models: named whole files ———
  {
    name: 'Llama: **File: `src/cart.ts`** above the whole updated file',
    answer: ['**File: `src/cart.ts`**', '', fence('typescript', ...body(CART_ROUNDED)), '', 'This avoids floating-point noise such as 0.30000000000000004.'].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'Claude: a ### heading naming a Python file, whole file',
    answer: ['## Changes', '', '### app/store.py', '', fence('python', ...body(edit(STORE, GET, GET_NEW)))].join('\n'),
    lands: { 'app/store.py': edit(STORE, GET, GET_NEW) },
  },
  {
    name: 'Gemini: a first comment line // cmd/server/main.go names the whole Go file',
    answer: ['Here is the complete file:', '', fence('go', '// cmd/server/main.go', ...body(MAIN_READY))].join('\n'),
    lands: { 'cmd/server/main.go': MAIN_READY },
  },
  {
    name: 'DeepSeek: a test file written under the name of the module it tests is unproven, never a replacement',
    answer: [
      '**src/cart.ts**',
      '',
      fence(
        'ts',
        "import { describe, it } from 'mocha';",
        "import * as assert from 'node:assert';",
        "import { findItem, total } from './cart';",
        '',
        'const items = [',
        "  { id: 'a', name: 'Apple', price: 1.5, qty: 2 },",
        "  { id: 'b', name: 'Bread', price: 2.25, qty: 1 },",
        '];',
        '',
        "describe('cart', () => {",
        "  it('finds an item by id', () => {",
        "    assert.equal(findItem(items, 'a')?.name, 'Apple');",
        '  });',
        '',
        "  it('returns null for a missing id', () => {",
        "    assert.equal(findItem(items, 'z'), null);",
        '  });',
        '',
        "  it('totals price times quantity', () => {",
        '    assert.equal(total(items), 5.25);',
        '  });',
        '});',
      ),
    ].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'unproven']],
  },
  {
    name: 'Mistral: "Here\'s the updated `package.json`:" with a new script',
    answer: ["Here's the updated `package.json`:", '', fence('json', ...body(edit(PKG, ['    "test": "mocha"'], ['    "test": "mocha",', '    "lint": "eslint src"'])))].join('\n'),
    lands: { 'package.json': edit(PKG, ['    "test": "mocha"'], ['    "test": "mocha",', '    "lint": "eslint src"']) },
  },
  {
    name: 'DeepSeek: ### `src/cart.ts` rewritten shorter, keeping every declaration: a replacement',
    answer: [
      '### `src/cart.ts`',
      '',
      fence(
        'typescript',
        "import type { Item } from './types';",
        '',
        ...FIND_ITEM_NEW,
        '',
        'export function findByName(items: Item[], name: string): Item | null {',
        '  return items.find((item) => item.name === name) ?? null;',
        '}',
        '',
        'export function total(items: Item[]): number {',
        '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);',
        '}',
      ),
    ].join('\n'),
    lands: {
      'src/cart.ts': lines(
        "import type { Item } from './types';",
        '',
        ...FIND_ITEM_NEW,
        '',
        'export function findByName(items: Item[], name: string): Item | null {',
        '  return items.find((item) => item.name === name) ?? null;',
        '}',
        '',
        'export function total(items: Item[]): number {',
        '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);',
        '}',
      ),
    },
  },
  {
    name: 'ChatGPT: **src/money.ts** (new) creates a file',
    answer: ['Add a small helper module:', '', '**src/money.ts** (new)', '', fence('ts', ...body(MONEY))].join('\n'),
    lands: { 'src/money.ts': MONEY },
  },
  {
    name: 'Claude: a draft and then "the final version of `src/cart.ts`": the final lands, the draft is superseded',
    answer: [
      'A first attempt:',
      '',
      fence('ts src/cart.ts', ...body(edit(CART, ['  return sum;'], ['  return Math.round(sum);']))),
      '',
      'That rounds to whole units, which loses the cents.',
      '',
      'Here is the final version of `src/cart.ts`:',
      '',
      fence('ts', ...body(CART_ROUNDED)),
    ].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
    skips: [['src/cart.ts', 'superseded']],
  },
  {
    name: 'ChatGPT: a diff draft, then the whole file as the final version: the diff is superseded',
    answer: [
      fence('diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -17,5 +17,5 @@', ' export function total(items: Item[]): number {', '   let sum = 0;', '   for (const item of items) sum += item.price * item.qty;', '-  return sum;', '+  return Math.round(sum);', ' }'),
      '',
      'On second thought, keep the cents.',
      '',
      'Final version of `src/cart.ts`:',
      '',
      fence('ts', ...body(CART_ROUNDED)),
    ].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
    skips: [['src/cart.ts', 'superseded']],
  },
  {
    name: 'Claude: two whole files, one of them re-emitted unchanged: that one is listed as unchanged',
    answer: ['### src/cart.ts', '', fence('ts', ...body(CART_ROUNDED)), '', '### src/types.ts', '', 'Unchanged, for reference:', '', fence('ts src/types.ts', ...body(TYPES))].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
    skips: [['src/types.ts', 'unchanged']],
  },
  {
    name: 'Gemini: a Go test file under the name of the server it tests is unproven',
    answer: [
      '### cmd/server/main.go',
      '',
      fence(
        'go',
        'package main',
        '',
        'import (',
        '\t"net/http"',
        '\t"net/http/httptest"',
        '\t"testing"',
        ')',
        '',
        'func TestHealth(t *testing.T) {',
        '\trec := httptest.NewRecorder()',
        '\thealth(rec, httptest.NewRequest(http.MethodGet, "/health", nil))',
        '\tif rec.Code != http.StatusOK {',
        '\t\tt.Fatalf("status %d", rec.Code)',
        '\t}',
        '}',
        '',
        'func TestVersion(t *testing.T) {',
        '\trec := httptest.NewRecorder()',
        '\tversion(rec, httptest.NewRequest(http.MethodGet, "/version", nil))',
        '\tif got := rec.Body.String(); got != "1.0.0\\n" {',
        '\t\tt.Fatalf("body %q", got)',
        '\t}',
        '}',
      ),
    ].join('\n'),
    lands: {},
    skips: [['cmd/server/main.go', 'unproven']],
  },
  {
    name: 'Llama: a whole CSS file with `N | ` gutters on every line (blank lines too) lands without them',
    answer: ['**web/site.css**', '', fence('css', ...body(CSS_HOVER).map((l, i) => (l ? `${i + 1} | ${l}` : `${i + 1} |`)))].join('\n'),
    lands: { 'web/site.css': CSS_HOVER },
  },
  // ——— unified diffs ———
  {
    name: 'Claude: a git diff whose numbered hunk matches exactly at its line lands there, though its context repeats',
    answer: ['```diff', 'diff --git a/src/cart.ts b/src/cart.ts', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -6,3 +6,3 @@', '   }', '-  return null;', '+  throw new Error(`no item ${id}`);', ' }', '```'].join('\n'),
    lands: { 'src/cart.ts': editAt(CART, 7, ['  return null;'], ['  throw new Error(`no item ${id}`);']) },
  },
  {
    name: 'ChatGPT: the same hunk under a bare @@ matches twice: ambiguous',
    answer: ['```diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@', '   }', '-  return null;', '+  return undefined;', ' }', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  {
    name: 'Gemini: a headerless diff under a bold path whose lines occur twice: ambiguous',
    answer: ['**src/cart.ts**', '', '```diff', '   }', '-  return null;', '+  return undefined;', ' }', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  {
    name: 'Gemini: a headerless diff whose lines occur once lands',
    answer: ['**src/cart.ts**', '', '```diff', ' export function total(items: Item[]): number {', '   let sum = 0;', '   for (const item of items) sum += item.price * item.qty;', '-  return sum;', `+${ROUNDED}`, ' }', '```'].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'DeepSeek: two bare @@ hunks, one unique and one ambiguous: the unique lands, the other is listed',
    answer: [
      '```diff',
      '--- a/src/cart.ts',
      '+++ b/src/cart.ts',
      '@@',
      '   let sum = 0;',
      '   for (const item of items) sum += item.price * item.qty;',
      '-  return sum;',
      `+${ROUNDED}`,
      '@@',
      '   }',
      '-  return null;',
      '+  return undefined;',
      ' }',
      '```',
    ].join('\n'),
    lands: { 'src/cart.ts': CART_ROUNDED },
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  {
    name: 'Claude: a numbered Go diff with tabs',
    answer: ['```diff', '--- a/cmd/server/main.go', '+++ b/cmd/server/main.go', '@@ -14,4 +14,4 @@', ' func version(w http.ResponseWriter, r *http.Request) {', ' \tw.WriteHeader(http.StatusOK)', '-\tfmt.Fprintln(w, "1.0.0")', '+\tfmt.Fprintln(w, "1.1.0")', ' }', '```'].join('\n'),
    lands: { 'cmd/server/main.go': edit(MAIN, ['\tfmt.Fprintln(w, "1.0.0")'], ['\tfmt.Fprintln(w, "1.1.0")']) },
  },
  {
    name: 'ChatGPT: a diff from /dev/null creates a Python module',
    answer: ['```diff', '--- /dev/null', '+++ b/app/cache.py', '@@ -0,0 +1,4 @@', '+from functools import lru_cache', '+', '+', '+cached = lru_cache(maxsize=128)', '```'].join('\n'),
    lands: { 'app/cache.py': lines('from functools import lru_cache', '', '', 'cached = lru_cache(maxsize=128)') },
  },
  {
    name: 'Llama: a numbered hunk far from its place whose context repeats is ambiguous, not placed by guess',
    answer: ['```diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -30,3 +30,3 @@', '   }', '-  return null;', '+  return undefined;', ' }', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  {
    name: 'Mistral: a diff whose removed lines the file does not have is listed',
    answer: [
      '```diff',
      '--- a/app/store.py',
      '+++ b/app/store.py',
      '@@ -17,4 +17,2 @@',
      '     def get(self, key):',
      '-        if key in self.data:',
      '-            return self.data[key]',
      '-        return None',
      '+        return self.data.get(key)',
      '```',
    ].join('\n'),
    lands: {},
    skips: [['app/store.py', 'doesNotApply']],
    hunkSkips: [['app/store.py', 'doesNotApply']],
  },
  {
    name: 'Claude: a CSS diff whose repeated line sits next to a unique selector',
    answer: ['```diff', '--- a/web/site.css', '+++ b/web/site.css', '@@ -15,4 +15,4 @@', ' .button:hover {', '   color: white;', '-  background: #086;', '+  background: #075;', ' }', '```'].join('\n'),
    lands: { 'web/site.css': CSS_HOVER },
  },
  {
    name: 'ChatGPT: a package.json diff adding a devDependency',
    answer: [
      'Add the mocha types:',
      '',
      '```diff',
      '--- a/package.json',
      '+++ b/package.json',
      '@@ -12,4 +12,5 @@',
      '   "devDependencies": {',
      '     "mocha": "^10.2.0",',
      '-    "typescript": "^5.4.0"',
      '+    "typescript": "^5.4.0",',
      '+    "@types/mocha": "^10.0.6"',
      '   }',
      '```',
    ].join('\n'),
    lands: { 'package.json': edit(PKG, ['    "typescript": "^5.4.0"'], ['    "typescript": "^5.4.0",', '    "@types/mocha": "^10.0.6"']) },
  },
  {
    name: 'Claude: a terse numbered diff (@@ -14 +14 @@) with no context lands at its line',
    answer: ['```diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -14 +14 @@', '-  return null;', '+  throw new Error(`no item named ${name}`);', '```'].join('\n'),
    lands: { 'src/cart.ts': editAt(CART, 14, ['  return null;'], ['  throw new Error(`no item named ${name}`);']) },
  },
  {
    name: 'aider udiff: @@ ... @@ hunks without numbers whose lines are unique land',
    answer: [
      '```diff',
      '--- src/cart.ts',
      '+++ src/cart.ts',
      '@@ ... @@',
      ' export function total(items: Item[]): number {',
      '-  let sum = 0;',
      '-  for (const item of items) sum += item.price * item.qty;',
      '-  return sum;',
      '+  return items.reduce((sum, item) => sum + item.price * item.qty, 0);',
      ' }',
      '```',
    ].join('\n'),
    lands: { 'src/cart.ts': edit(CART, TOTAL, ['export function total(items: Item[]): number {', '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);', '}']) },
  },
  {
    name: 'ChatGPT: two diffs for two parts of one file, in two fences: both land, neither supersedes the other',
    answer: [
      'First, `findItem`:',
      '',
      fence('diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -3,6 +3,3 @@', ' export function findItem(items: Item[], id: string): Item | null {', '-  for (const item of items) {', '-    if (item.id === id) return item;', '-  }', '-  return null;', '+  return items.find((item) => item.id === id) ?? null;', ' }'),
      '',
      'Then `total`:',
      '',
      fence('diff', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -17,5 +17,5 @@', ' export function total(items: Item[]): number {', '   let sum = 0;', '   for (const item of items) sum += item.price * item.qty;', '-  return sum;', `+${ROUNDED}`, ' }'),
    ].join('\n'),
    lands: { 'src/cart.ts': edit(CART_ROUNDED, FIND_ITEM, FIND_ITEM_NEW) },
  },
  // ——— Codex *** Begin Patch ———
  {
    name: 'Codex: *** Begin Patch whose @@ line names the function picks the second return null;',
    answer: [
      '```',
      '*** Begin Patch',
      '*** Update File: src/cart.ts',
      '@@ export function findByName(items: Item[], name: string): Item | null {',
      '   for (const item of items) {',
      '     if (item.name === name) return item;',
      '   }',
      '-  return null;',
      '+  throw new Error(`no item named ${name}`);',
      ' }',
      '*** End Patch',
      '```',
    ].join('\n'),
    lands: { 'src/cart.ts': editAt(CART, 14, ['  return null;'], ['  throw new Error(`no item named ${name}`);']) },
  },
  {
    name: 'Codex: *** Begin Patch with a bare @@ and context found twice: ambiguous',
    answer: ['```', '*** Begin Patch', '*** Update File: src/cart.ts', '@@', '   }', '-  return null;', '+  return undefined;', ' }', '*** End Patch', '```'].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'ambiguous']],
  },
  // ——— unnamed blocks and the range that was sent ———
  {
    name: 'Claude: an unnamed block for the sent function keeps its declaration: it replaces the range',
    answer: ['`find` says it in one line:', '', fence('typescript', ...FIND_ITEM_NEW)].join('\n'),
    source: { path: 'src/cart.ts', range: range(3, 8) },
    lands: { 'src/cart.ts': edit(CART, FIND_ITEM, FIND_ITEM_NEW) },
  },
  {
    name: 'ChatGPT: an unnamed block that rewrites another function of the sent file replaces that function, not the selection',
    answer: [
      '`findItem` is fine; the bug is in `total`, which ignores discounts:',
      '',
      fence('ts', 'export function total(items: Item[]): number {', '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);', '}'),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(3, 8) },
    lands: { 'src/cart.ts': edit(CART, TOTAL, ['export function total(items: Item[]): number {', '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);', '}']) },
  },
  {
    name: 'Gemini: a new module the prose asks to create, unnamed, is not written over the selection',
    answer: ['Create a new file for the money helpers and import it in the cart:', '', fence('ts', ...body(MONEY)), '', 'Then call `roundCents(sum)` in `total`.'].join('\n'),
    source: { path: 'src/cart.ts', range: range(17, 21) },
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: 'ChatGPT: "replace line 19 with:" and a one-line fragment does not replace the selection',
    answer: ['Replace line 19 with:', '', fence('ts', '  for (const item of items) sum += item.price * item.qty * (1 - (item.discount ?? 0));')].join('\n'),
    source: { path: 'src/cart.ts', range: range(17, 21) },
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: 'Claude: a citation of another file is not a change; the fix for the selection lands',
    answer: [
      'For reference, `src/types.ts` declares the item like this:',
      '',
      fence('ts', ...body(TYPES)),
      '',
      'so `id` is always a string and `find` is enough:',
      '',
      fence('ts', ...FIND_ITEM_NEW),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(3, 8) },
    lands: { 'src/cart.ts': edit(CART, FIND_ITEM, FIND_ITEM_NEW) },
    skips: [['', 'noPath']],
  },
  {
    name: 'Llama: a handler template does not replace the selected main()',
    answer: [
      'Add new endpoints with this template:',
      '',
      fence(
        'go',
        'func handleXxx(w http.ResponseWriter, r *http.Request) {',
        '\tif r.Method != http.MethodGet {',
        '\t\thttp.Error(w, "method not allowed", http.StatusMethodNotAllowed)',
        '\t\treturn',
        '\t}',
        '\t// write the response here',
        '}',
      ),
    ].join('\n'),
    source: { path: 'cmd/server/main.go', range: range(19, 23) },
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: 'Copilot: the fix and a usage example: the fix lands, the example is only offered to insert',
    answer: [
      'Compare names case-insensitively:',
      '',
      fence('ts', ...FIND_BY_NAME_NEW),
      '',
      'Usage:',
      '',
      fence('ts', "const apple = findByName(items, 'APPLE');"),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(10, 15) },
    lands: { 'src/cart.ts': edit(CART, FIND_BY_NAME, FIND_BY_NAME_NEW) },
    skips: [['', 'noPath']],
  },
  {
    name: 'ChatGPT: line-numbered code `17 | …` for the selection has its gutter stripped',
    answer: [
      'Updated lines:',
      '',
      fence('ts', '17 | export function total(items: Item[]): number {', '18 |   let sum = 0;', '19 |   for (const item of items) sum += item.price * item.qty;', `20 | ${ROUNDED}`, '21 | }'),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(17, 21) },
    lands: { 'src/cart.ts': CART_ROUNDED },
  },
  {
    name: 'DeepSeek: line-numbered Python `17: …` under "In `app/store.py`:" lands without the numbers',
    answer: [
      'In `app/store.py`:',
      '',
      fence('python', '17:     def get(self, key):', '18:         if key not in self.data:', '19:             raise KeyError(key)', '20:         return self.data[key]'),
    ].join('\n'),
    lands: { 'app/store.py': editAt(STORE, 19, ['            return None'], ['            raise KeyError(key)']) },
  },
  {
    name: 'Gemini: an unnamed function that exists nowhere does not replace the selected one',
    answer: [
      'You could also add a discount helper:',
      '',
      fence('ts', 'export function applyDiscount(items: Item[], pct: number): Item[] {', '  return items.map((item) => ({ ...item, price: item.price * (1 - pct) }));', '}'),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(3, 8) },
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: 'Claude: the sent function unchanged plus a new one after it replaces the range',
    answer: [
      'Keep `total` and add `count` next to it:',
      '',
      fence('ts', ...TOTAL, '', 'export function count(items: Item[]): number {', '  return items.reduce((n, item) => n + item.qty, 0);', '}'),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(17, 21) },
    lands: { 'src/cart.ts': `${CART}\nexport function count(items: Item[]): number {\n  return items.reduce((n, item) => n + item.qty, 0);\n}\n` },
  },
  {
    name: 'ChatGPT: an unnamed Python method defined elsewhere in the sent file replaces that method',
    answer: ['`load` is fine. Simplify `get`:', '', fence('python', ...GET_NEW)].join('\n'),
    source: { path: 'app/store.py', range: range(10, 15) },
    lands: { 'app/store.py': edit(STORE, GET, GET_NEW) },
  },
  {
    name: 'Copilot: the fix for the selection and a unit test: only the fix replaces the range',
    answer: [
      fence('ts', ...FIND_ITEM_NEW),
      '',
      'And a test:',
      '',
      fence('ts', "it('finds by id', () => {", "  assert.equal(findItem([{ id: 'a', name: 'A', price: 1, qty: 1 }], 'a')?.name, 'A');", '});'),
    ].join('\n'),
    source: { path: 'src/cart.ts', range: range(3, 8) },
    lands: { 'src/cart.ts': edit(CART, FIND_ITEM, FIND_ITEM_NEW) },
    skips: [['', 'noPath']],
  },
  // ——— markdown with inner fences ———
  {
    name: 'Claude: a ```markdown README.md block with inner ```sh and ```ts fences is read whole',
    answer: ['Document the test command:', '', fence('markdown README.md', ...body(README_TEST))].join('\n'),
    lands: { 'README.md': README_TEST },
  },
  {
    name: 'ChatGPT: **README.md** above a ```md block with inner fences is read whole',
    answer: ['**README.md**', '', fence('md', ...body(edit(README, ['console.log(total([]));'], ["console.log(total([{ id: 'a', name: 'Apple', price: 1.5, qty: 2 }])); // 3"])))].join('\n'),
    lands: { 'README.md': edit(README, ['console.log(total([]));'], ["console.log(total([{ id: 'a', name: 'Apple', price: 1.5, qty: 2 }])); // 3"]) },
  },
  {
    name: 'Gemini: "Create `docs/USAGE.md`:" with an inner ```ts fence creates the whole file',
    answer: ['Create `docs/USAGE.md`:', '', fence('markdown', '# Usage', '', '```ts', "import { findItem } from 'cart';", '', "findItem(items, 'a');", '```', '', 'It returns `null` when no item matches.')].join('\n'),
    lands: { 'docs/USAGE.md': lines('# Usage', '', '```ts', "import { findItem } from 'cart';", '', "findItem(items, 'a');", '```', '', 'It returns `null` when no item matches.') },
  },
  // ——— edit syntax never lands ———
  {
    name: 'ChatGPT: a whole file with leftover conflict markers is listed (editSyntax)',
    answer: [
      '**src/cart.ts**',
      '',
      fence('ts', ...body(editAt(CART, 7, ['  return null;'], ['<<<<<<< HEAD', '  return null as Item | null;', '=======', '  throw new Error(`no item ${id}`);', '>>>>>>> fix']))),
    ].join('\n'),
    lands: {},
    skips: [['src/cart.ts', 'doesNotApply']],
    hunkSkips: [['src/cart.ts', 'editSyntax']],
  },
  {
    name: 'Gemini: a CSS file with conflict markers around a changed declaration is listed (editSyntax)',
    answer: [fence('css web/site.css', ...body(editAt(CSS, 17, ['  background: #086;'], ['<<<<<<< HEAD', '  background: #075;', '=======', '  background: #064;', '>>>>>>> theme'])))].join('\n'),
    lands: {},
    skips: [['web/site.css', 'doesNotApply']],
    hunkSkips: [['web/site.css', 'editSyntax']],
  },
  {
    name: 'Claude: a guide that already shows conflict markers may get another example',
    files: {
      ...FILES,
      'docs/merging.md': lines('# Resolving conflicts', '', 'Git marks a conflict like this:', '', '    <<<<<<< HEAD', '    our line', '    =======', '    their line', '    >>>>>>> branch', '', 'Keep the side you want and delete the markers.'),
    },
    answer: [
      '### docs/merging.md',
      '',
      fence(
        'md',
        '# Resolving conflicts',
        '',
        'Git marks a conflict like this:',
        '',
        '    <<<<<<< HEAD',
        '    our line',
        '    =======',
        '    their line',
        '    >>>>>>> branch',
        '',
        'In a list it looks the same:',
        '',
        '    <<<<<<< HEAD',
        '    - apples',
        '    =======',
        '    - pears',
        '    >>>>>>> branch',
        '',
        'Keep the side you want and delete the markers.',
      ),
    ].join('\n'),
    lands: {
      'docs/merging.md': lines(
        '# Resolving conflicts',
        '',
        'Git marks a conflict like this:',
        '',
        '    <<<<<<< HEAD',
        '    our line',
        '    =======',
        '    their line',
        '    >>>>>>> branch',
        '',
        'In a list it looks the same:',
        '',
        '    <<<<<<< HEAD',
        '    - apples',
        '    =======',
        '    - pears',
        '    >>>>>>> branch',
        '',
        'Keep the side you want and delete the markers.',
      ),
    },
  },
];

function workspace(now: Record<string, string>, sent: Record<string, string>): ReviewFiles {
  return { current: p => (now[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: now[p] }), sent: p => sent[p] };
}

const sorted = (pairs: [string, string][]) => [...pairs].sort((a, b) => (a.join('\0') < b.join('\0') ? -1 : a.join('\0') > b.join('\0') ? 1 : 0));

describe('realistic answers (issue 34): edit blocks, unnamed blocks and placement prove every line they remove', () => {
  it('holds at least 65 answers', () => assert.ok(CASES.length >= 65, `${CASES.length}`));
  for (const c of CASES) {
    it(c.name, () => {
      const now = c.files ?? FILES;
      const sent = c.sent ?? now;
      const parsed = parseAnswer(c.answer, { sourcePath: c.source?.path });
      const plan = buildPlan(parsed, workspace(now, sent), c.source ? { source: c.source } : {});
      const landed: Record<string, string> = {};
      const skipped: [string, string][] = [];
      const hunkSkips: [string, string][] = [];
      for (const f of plan.files) {
        for (const h of f.skippedHunks) hunkSkips.push([f.path, h.code]);
        if (f.kind === 'skip') skipped.push([f.path, f.reasonCode ?? '']);
        else {
          assert.ok(!(f.path in landed), `one entry per landed file (${f.path})`);
          landed[f.path] = applyHunks(now[f.path] ?? '', f.hunks);
        }
      }
      assert.deepEqual(landed, c.lands);
      assert.deepEqual(sorted(skipped), sorted(c.skips ?? []));
      assert.deepEqual(sorted(hunkSkips), sorted(c.hunkSkips ?? []));
    });
  }
});
