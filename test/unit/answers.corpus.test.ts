/**
 * Issue 24: a corpus of answers as models really write them (prose around the blocks, every naming, every diff
 * form, the usual mistakes), each with the exact texts it must land or the reason it must not. Each runs the
 * real reader, parseAnswer and buildPlan against the given files, then applies every offered hunk.
 */
import * as assert from 'node:assert/strict';
import { byFolder, parseAnswer } from '../../src/review/answer';
import { type ReviewFiles, applyHunks, buildPlan } from '../../src/review/plan';
import type { SkipCode } from '../../src/review/words';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const MATH = lines(
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function mean(xs: number[]): number {',
  '  let total = 0;',
  '  for (const x of xs) total += x;',
  '  return total / xs.length;',
  '}',
);
/** MATH with mean() guarding an empty list. */
const MATH_GUARDED = MATH.replace('  let total = 0;\n', '  if (xs.length === 0) return 0;\n  let total = 0;\n');
const MEAN_GUARDED = lines(
  'export function mean(xs: number[]): number {',
  '  if (xs.length === 0) return 0;',
  '  let total = 0;',
  '  for (const x of xs) total += x;',
  '  return total / xs.length;',
  '}',
);

const UTIL = lines(
  'import os',
  '',
  '',
  'def read(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  '',
  'def write(path, text):',
  '    with open(path, "w") as f:',
  '        f.write(text)',
);
const UTIL_UTF8 = UTIL.replace('open(path) as f', 'open(path, encoding="utf-8") as f').replace('open(path, "w") as f', 'open(path, "w", encoding="utf-8") as f');

const HTML = lines('<!doctype html>', '<html>', '<head>', '  <title>Demo</title>', '</head>', '<body>', '  <h1>Hello</h1>', '  <p>Welcome.</p>', '</body>', '</html>');

const GREET = lines('export function greet(name: string): string {', "  return 'Hello, ' + name;", '}');
const GREET_NEW = lines('export function greet(name: string): string {', '  return `Hello, ${name}!`;', '}');

const STATS = lines(
  "import { add, mean } from './math';",
  '',
  'export function total(xs: number[]): number {',
  '  return xs.reduce(add, 0);',
  '}',
  '',
  'export function average(xs: number[]): number {',
  '  return mean(xs);',
  '}',
  '',
  'export function spread(xs: number[]): number {',
  '  const lo = Math.min(...xs);',
  '  const hi = Math.max(...xs);',
  '  return hi - lo;',
  '}',
);

const FILES: Record<string, string> = {
  'src/stats.ts': STATS,
  'src/math.ts': MATH,
  'app/util.py': UTIL,
  'web/index.html': HTML,
  'src/greet.ts': GREET,
  'README.md': lines('# Demo', '', 'Run it.'),
};

interface Case {
  name: string;
  answer: string;
  /** Files now (default FILES); the sent texts are the same unless `sent` says otherwise. */
  files?: Record<string, string>;
  sent?: Record<string, string>;
  source?: { path: string; range?: { startLine: number; startCharacter: number; endLine: number; endCharacter: number } };
  folders?: string[];
  /** Multi-root: the files of each workspace folder (the first is the task's); `lands` keys are `folder:path`. */
  roots?: Record<string, Record<string, string>>;
  /** Every file that lands, with its full text after all offered hunks are applied. */
  lands: Record<string, string>;
  /** Every entry not landed: [path ('' when none), reason code]. */
  skips?: [string, SkipCode][];
}

const fence = (info: string, ...body: string[]) => [`\`\`\`${info}`, ...body, '```'].join('\n');
const MEAN_DIFF = ['@@ -5,4 +5,5 @@', ' export function mean(xs: number[]): number {', '+  if (xs.length === 0) return 0;', '   let total = 0;', '   for (const x of xs) total += x;', '   return total / xs.length;'];
const MATH_GUARDED_LINES = MATH_GUARDED.trimEnd().split('\n');

const CASES: Case[] = [
  // ——— namings in the info string ———
  {
    name: 'the path after the language (```ts src/math.ts), the commonest form',
    answer: ['The mean of an empty list divides by zero. Guard it:', '', fence('ts src/math.ts', ...MATH_GUARDED_LINES), '', 'Now `mean([])` returns 0.'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'language and path joined by a colon (```ts:src/math.ts)',
    answer: ['Here is the updated file:', '', fence('ts:src/math.ts', ...MATH_GUARDED_LINES)].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'path= (the landing format)',
    answer: ['Updated:', '', fence('ts path=src/math.ts', ...MATH_GUARDED_LINES)].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'file= and filename= attributes',
    answer: [fence('ts file=src/math.ts', ...MATH_GUARDED_LINES), '', 'And the Python side:', '', fence('python filename=app/util.py', ...UTIL_UTF8.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED, 'app/util.py': UTIL_UTF8 },
  },
  {
    name: 'title="…" naming a path (docs sites write it), with braces',
    answer: ['```ts {title="src/math.ts"}', ...MATH_GUARDED_LINES, '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'the path alone as the info string',
    answer: ['Replace the file with:', '', fence('src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a quoted path with spaces (path="docs/my notes.md") creates the file',
    answer: ['I added a note:', '', fence('md path="docs/my notes.md"', '# Notes', '', 'Remember the guard.')].join('\n'),
    lands: { 'docs/my notes.md': lines('# Notes', '', 'Remember the guard.') },
  },
  // ——— the line before the fence ———
  {
    name: 'a bold path on the line before',
    answer: ['Two files change.', '', '**src/greet.ts**', '', fence('ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a code span on the line before, with a colon',
    answer: ['`src/greet.ts`:', fence('typescript', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a heading naming the file',
    answer: ['## Changes', '', '### src/greet.ts', '', fence('ts', ...GREET_NEW.trimEnd().split('\n')), '', '### app/util.py', '', fence('python', ...UTIL_UTF8.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW, 'app/util.py': UTIL_UTF8 },
  },
  {
    name: '"File: …" and "**File:** `…`" lines',
    answer: ['File: src/greet.ts', fence('ts', ...GREET_NEW.trimEnd().split('\n')), '', '**File:** `app/util.py`', '', fence('py', ...UTIL_UTF8.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW, 'app/util.py': UTIL_UTF8 },
  },
  {
    name: '"In `src/greet.ts`:" and a numbered list item "1. **`src/math.ts`**"',
    answer: ['In `src/greet.ts`:', '', fence('ts', ...GREET_NEW.trimEnd().split('\n')), '', '1. **`src/math.ts`**', '', fence('ts', ...MATH_GUARDED_LINES)].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW, 'src/math.ts': MATH_GUARDED },
  },
  {
    name: '"Here is the updated `src/greet.ts`:" names the file',
    answer: ['Here is the updated `src/greet.ts`:', '', fence('ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a sentence that mentions a file is not a naming: the block has no path',
    answer: ['This replaces the loop in `src/math.ts` with reduce, which reads better:', '', fence('ts', 'const total = xs.reduce((s, x) => s + x, 0);')].join('\n'),
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: '"**Node.js**" above a block is a heading, not a file',
    answer: ['**Python**', '', fence('python', 'print("hi")'), '', '**Node.js**', '', fence('js', 'console.log("hi");')].join('\n'),
    lands: {},
    skips: [['', 'noPath'], ['', 'noPath']],
  },
  {
    name: 'a title that is prose names nothing',
    answer: [fence('ts title="Example usage"', "greet('Ada');")].join('\n'),
    lands: {},
    skips: [['', 'noPath']],
  },
  // ——— a first comment line ———
  {
    name: 'a first comment line // src/greet.ts names the file and is not written into it',
    answer: ['Use a template literal:', '', fence('ts', '// src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a first comment line # app/util.py in Python',
    answer: ['Always pass an encoding:', '', fence('python', '# app/util.py', ...UTIL_UTF8.trimEnd().split('\n'))].join('\n'),
    lands: { 'app/util.py': UTIL_UTF8 },
  },
  {
    name: 'an HTML comment <!-- web/index.html --> names the file',
    answer: [fence('html', '<!-- web/index.html -->', ...HTML.replace('Welcome.', 'Welcome back.').trimEnd().split('\n'))].join('\n'),
    lands: { 'web/index.html': HTML.replace('Welcome.', 'Welcome back.') },
  },
  {
    name: 'a /* … */ comment names a new CSS file',
    answer: ['Add a stylesheet:', '', fence('css', '/* web/style.css */', 'h1 {', '  color: teal;', '}')].join('\n'),
    lands: { 'web/style.css': lines('h1 {', '  color: teal;', '}') },
  },
  {
    name: 'a comment naming the same file as the info string is left out once',
    answer: [fence('ts path=src/greet.ts', '// src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  // ——— unified diffs ———
  {
    name: 'a git diff (diff --git, index, a/ b/)',
    answer: ['```diff', 'diff --git a/src/math.ts b/src/math.ts', 'index 3b18e51..a9f2c3d 100644', '--- a/src/math.ts', '+++ b/src/math.ts', ...MEAN_DIFF, '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a diff with ---/+++ and a/ b/ but no git lines',
    answer: ['Patch:', '', '```diff', '--- a/src/math.ts', '+++ b/src/math.ts', ...MEAN_DIFF, '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a diff with bare paths (no prefixes) and a patch language',
    answer: ['```patch', '--- src/math.ts', '+++ src/math.ts', ...MEAN_DIFF, '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'hunk header with wrong counts: placed by its lines',
    answer: ['```diff', '--- a/src/math.ts', '+++ b/src/math.ts', '@@ -5,9 +5,2 @@', ...MEAN_DIFF.slice(1), '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'hunk header without numbers (@@ … @@): placed by its context',
    answer: ['```diff', '--- a/src/math.ts', '+++ b/src/math.ts', '@@ ... @@', ...MEAN_DIFF.slice(1), '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'hunk numbers far off: the exact context still places it',
    answer: ['```diff', '--- a/src/math.ts', '+++ b/src/math.ts', '@@ -40,4 +40,5 @@', ...MEAN_DIFF.slice(1), '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a headerless diff named by a bold line before',
    answer: ['**src/math.ts**', '', '```diff', ...MEAN_DIFF, '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a multi-file diff: both files land',
    answer: [
      '```diff',
      'diff --git a/src/math.ts b/src/math.ts',
      '--- a/src/math.ts',
      '+++ b/src/math.ts',
      ...MEAN_DIFF,
      'diff --git a/src/greet.ts b/src/greet.ts',
      '--- a/src/greet.ts',
      '+++ b/src/greet.ts',
      '@@ -1,3 +1,3 @@',
      ' export function greet(name: string): string {',
      "-  return 'Hello, ' + name;",
      '+  return `Hello, ${name}!`;',
      ' }',
      '```',
    ].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED, 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a hunk whose context is not in the file is listed; the other hunk lands',
    answer: [
      '```diff',
      '--- a/src/math.ts',
      '+++ b/src/math.ts',
      '@@ -1,3 +1,3 @@',
      ' export function add(a: number, b: number): number {',
      '-  return a - b;',
      '+  return b + a;',
      ' }',
      ...MEAN_DIFF,
      '```',
    ].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a new file by a diff from /dev/null',
    answer: ['```diff', '--- /dev/null', '+++ b/src/sum.ts', '@@ -0,0 +1,3 @@', '+export function sum(xs: number[]): number {', '+  return xs.reduce((s, x) => s + x, 0);', '+}', '```'].join('\n'),
    lands: { 'src/sum.ts': lines('export function sum(xs: number[]): number {', '  return xs.reduce((s, x) => s + x, 0);', '}') },
  },
  {
    name: 'path= naming one file and a header naming another: refused',
    answer: ['```diff path=src/greet.ts', '--- a/src/math.ts', '+++ b/src/math.ts', ...MEAN_DIFF, '```'].join('\n'),
    lands: {},
    skips: [['src/greet.ts', 'conflictingHeader']],
  },
  // ——— *** Begin Patch ———
  {
    name: '*** Begin Patch with *** Update File',
    answer: ['```', '*** Begin Patch', '*** Update File: src/math.ts', '@@ export function mean(xs: number[]): number {', ' export function mean(xs: number[]): number {', '+  if (xs.length === 0) return 0;', '   let total = 0;', '*** End Patch', '```'].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: '*** Begin Patch adding a file and updating another (two files, one block)',
    answer: [
      'Apply this patch:',
      '',
      '```patch',
      '*** Begin Patch',
      '*** Add File: src/sum.ts',
      '+export const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);',
      '*** Update File: src/greet.ts',
      '@@',
      ' export function greet(name: string): string {',
      "-  return 'Hello, ' + name;",
      '+  return `Hello, ${name}!`;',
      '*** End Patch',
      '```',
    ].join('\n'),
    lands: { 'src/sum.ts': lines('export const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);'), 'src/greet.ts': GREET_NEW },
  },
  {
    name: '*** Delete File is listed, never applied; *** End of File is understood',
    answer: [
      '```',
      '*** Begin Patch',
      '*** Delete File: README.md',
      '*** Update File: app/util.py',
      '@@ def write(path, text):',
      '-    with open(path, "w") as f:',
      '-        f.write(text)',
      '+    with open(path, "w", encoding="utf-8") as f:',
      '+        f.write(text)',
      '*** End of File',
      '*** End Patch',
      '```',
    ].join('\n'),
    lands: { 'app/util.py': UTIL.replace('open(path, "w") as f', 'open(path, "w", encoding="utf-8") as f') },
    skips: [['README.md', 'deletion']],
  },
  {
    name: '*** Move to: is a rename, listed',
    answer: ['```', '*** Begin Patch', '*** Update File: src/greet.ts', '*** Move to: src/hello.ts', '@@', "-  return 'Hello, ' + name;", '+  return `Hello, ${name}!`;', '*** End Patch', '```'].join('\n'),
    lands: {},
    skips: [['src/greet.ts', 'rename']],
  },
  {
    name: '*** Begin Patch adding lines after the line its @@ names',
    answer: ['```', '*** Begin Patch', '*** Update File: app/util.py', '@@ def read(path):', "+    '''Read a text file.'''", '*** End Patch', '```'].join('\n'),
    lands: { 'app/util.py': UTIL.replace('def read(path):\n', "def read(path):\n    '''Read a text file.'''\n") },
  },
  {
    name: 'a hunk with no numbers and no line to find is listed, never put at the top of the file',
    answer: ['```diff', '--- a/src/greet.ts', '+++ b/src/greet.ts', '@@ @@', '+// greeting helpers', '```'].join('\n'),
    lands: {},
    skips: [['src/greet.ts', 'doesNotApply']],
  },
  // ——— partial files ———
  {
    name: 'a "whole file" with // ... existing code ... lands only the part it shows',
    answer: ['Only `mean` changes:', '', fence('ts path=src/math.ts', '// ... existing code ...', '', ...MEAN_GUARDED.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'a partial Python file with # rest unchanged, named by its first comment',
    answer: [
      fence('python', '# app/util.py', 'import os', '', '', 'def read(path):', '    with open(path, encoding="utf-8") as f:', '        return f.read()', '', '', '# rest of the file unchanged'),
    ].join('\n'),
    lands: { 'app/util.py': UTIL.replace('open(path) as f', 'open(path, encoding="utf-8") as f') },
  },
  {
    name: 'a lone ... between shown parts',
    answer: [fence('ts src/math.ts', 'export function add(a: number, b: number): number {', '  return a + b;', '}', '...', ...MEAN_GUARDED.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: '"(rest of file unchanged)" after the shown part',
    answer: [fence('ts src/math.ts', 'export function add(a: number, b: number): number {', '  return b + a;', '}', '', '(rest of file unchanged)')].join('\n'),
    lands: { 'src/math.ts': MATH.replace('return a + b', 'return b + a') },
  },
  {
    name: 'an HTML partial with <!-- ... -->',
    answer: [fence('html web/index.html', '<!-- ... -->', '<body>', '  <h1>Hello, world</h1>', '  <p>Welcome.</p>', '</body>', '</html>')].join('\n'),
    lands: { 'web/index.html': HTML.replace('<h1>Hello</h1>', '<h1>Hello, world</h1>') },
  },
  {
    name: 'two partial snippets for one file are two parts, not two whole files',
    answer: [
      'First `add`:',
      '',
      fence('ts src/math.ts', 'export function add(a: number, b: number): number {', '  return b + a;', '}', '// ... existing code ...'),
      '',
      'Then `mean`:',
      '',
      fence('ts src/math.ts', '// ... existing code ...', ...MEAN_GUARDED.trimEnd().split('\n')),
    ].join('\n'),
    lands: { 'src/math.ts': MATH_GUARDED.replace('return a + b', 'return b + a') },
  },
  {
    name: 'a partial whose shown parts are not in the file is listed, nothing lost',
    answer: [fence('ts src/math.ts', 'export function median(xs: number[]): number {', '  // ... existing code ...', '}')].join('\n'),
    lands: {},
    skips: [['src/math.ts', 'partial']],
  },
  {
    name: 'a partial block for a file that does not exist is not created',
    answer: [fence('ts src/report.ts', "import { mean } from './math';", '// ... rest of the file ...')].join('\n'),
    lands: {},
    skips: [['src/report.ts', 'elided']],
  },
  {
    name: '"In `src/stats.ts`:" above one function is a fragment: it lands by its lines, the rest of the file stays',
    answer: ['In `src/stats.ts`:', '', fence('ts', 'export function spread(xs: number[]): number {', '  if (xs.length === 0) return 0;', '  const lo = Math.min(...xs);', '  const hi = Math.max(...xs);', '  return hi - lo;', '}')].join('\n'),
    lands: { 'src/stats.ts': STATS.replace('export function spread(xs: number[]): number {\n', 'export function spread(xs: number[]): number {\n  if (xs.length === 0) return 0;\n') },
  },
  {
    name: 'a new function "for" a file, with none of its lines: listed as a fragment, the file untouched',
    answer: ['**src/stats.ts**', '', fence('ts', 'export function median(xs: number[]): number {', '  const s = [...xs].sort((a, b) => a - b);', '  return s[Math.floor(s.length / 2)];', '}')].join('\n'),
    lands: {},
    skips: [['src/stats.ts', 'fragment']],
  },
  // ——— refused and ambiguous ———
  {
    name: 'two different names for one block (info string vs the line before): listed, not guessed',
    answer: ['**src/greet.ts**', '', fence('ts src/math.ts', ...MATH_GUARDED_LINES)].join('\n'),
    lands: {},
    skips: [['src/math.ts', 'ambiguousName']],
  },
  {
    name: 'two paths in the info string: ambiguous',
    answer: [fence('ts src/math.ts path=src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: {},
    skips: [['src/math.ts', 'ambiguousName']],
  },
  {
    name: 'paths outside the workspace (../, absolute, a drive) are listed',
    answer: [fence('text ../notes.txt', 'n'), fence('ts /etc/app.ts', 'x'), fence('ts C:\\Windows\\x.ts', 'y'), '', 'And the real change:', '', fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
    skips: [['../notes.txt', 'outside'], ['/etc/app.ts', 'outside'], ['C:\\Windows\\x.ts', 'outside']],
  },
  {
    name: 'a path into .git is refused',
    answer: [fence('sh path=.git/hooks/pre-commit', 'rm -rf /')].join('\n'),
    lands: {},
    skips: [['', 'invalidPath']],
  },
  // ——— fences ———
  {
    name: 'CRLF answer',
    answer: ['Fixed:', '', fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\r\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'tilde fences',
    answer: ['~~~ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n'), '~~~'].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  {
    name: 'a longer fence around a README with a shorter fence inside',
    answer: ['````md README.md', '# Demo', '', 'Run it:', '', '```sh', 'npm start', '```', '````'].join('\n'),
    lands: { 'README.md': lines('# Demo', '', 'Run it:', '', '```sh', 'npm start', '```') },
  },
  {
    name: 'an unclosed last fence (the answer was cut off) is listed, the closed blocks land',
    answer: [fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n')), '', 'And also:', '', '```ts src/math.ts', 'export function add('].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
    skips: [['src/math.ts', 'unclosed']],
  },
  {
    name: 'an output block and a shell transcript are not changes and are not listed',
    answer: ['Run the tests:', '', fence('console', '$ npm test', '12 passing'), '', fence('text', 'mean([]) = 0'), '', fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
  },
  // ——— paths ———
  {
    name: 'Windows backslashes and ./',
    answer: [fence('ts src\\greet.ts', ...GREET_NEW.trimEnd().split('\n')), fence('ts path=./src/math.ts', ...MATH_GUARDED_LINES)].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW, 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'multi-root: a path starting with a folder name lands in that folder; others in the task\'s folder',
    answer: [
      'The server and the client both change:',
      '',
      '**server/src/greet.ts**',
      '',
      fence('ts', ...GREET_NEW.trimEnd().split('\n')),
      '',
      '```diff',
      '--- a/client/src/math.ts',
      '+++ b/client/src/math.ts',
      ...MEAN_DIFF,
      '```',
      '',
      fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n')),
    ].join('\n'),
    folders: ['client', 'server'],
    roots: { client: { 'src/math.ts': MATH, 'src/greet.ts': GREET }, server: { 'src/greet.ts': GREET } },
    lands: { 'server:src/greet.ts': GREET_NEW, 'client:src/math.ts': MATH_GUARDED, 'client:src/greet.ts': GREET_NEW },
  },
  {
    name: 'multi-root: a name two folders share is listed, not guessed',
    answer: ['```ts app/src/greet.ts', ...GREET_NEW.trimEnd().split('\n'), '```'].join('\n'),
    folders: ['app', 'app'],
    roots: { app: { 'src/greet.ts': GREET } },
    lands: {},
    skips: [['app/src/greet.ts', 'ambiguousFolder']],
  },
  {
    name: 'a leading workspace-folder name is dropped (one folder)',
    answer: ['**demo/src/greet.ts**', '', fence('ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    folders: ['demo'],
    lands: { 'src/greet.ts': GREET_NEW },
  },
  // ——— the range that was sent ———
  {
    name: 'one unnamed block is the new code for the range that was sent',
    answer: ['Guarded:', '', fence('ts', ...MEAN_GUARDED.trimEnd().split('\n')), '', 'Output:', '', fence('text', '0')].join('\n'),
    source: { path: 'src/math.ts', range: { startLine: 4, startCharacter: 0, endLine: 9, endCharacter: 0 } },
    lands: { 'src/math.ts': MATH_GUARDED },
  },
  {
    name: 'several blocks: the later whole file for the same path wins, the earlier is listed',
    answer: [fence('ts src/greet.ts', 'draft'), '', 'Actually, better:', '', fence('ts src/greet.ts', ...GREET_NEW.trimEnd().split('\n'))].join('\n'),
    lands: { 'src/greet.ts': GREET_NEW },
    skips: [['src/greet.ts', 'superseded']],
  },
  {
    name: 'a named draft, then "the final version" without a name: the final lands in that file, the draft is superseded (issue 34)',
    answer: [
      'A first try:',
      '',
      fence('ts src/math.ts', ...MATH.replace('  let total = 0;\n', '  if (!xs.length) return NaN;\n  let total = 0;\n').trimEnd().split('\n')),
      '',
      'On second thought, 0 is what callers expect. The final version:',
      '',
      fence('ts', ...MATH_GUARDED_LINES),
    ].join('\n'),
    source: { path: 'src/stats.ts', range: { startLine: 6, startCharacter: 0, endLine: 9, endCharacter: 0 } },
    lands: { 'src/math.ts': MATH_GUARDED },
    skips: [['src/math.ts', 'superseded']],
  },
  {
    name: 'a one-line usage example under the selected function has no proven place: listed, the function stays (issue 34)',
    answer: ['Call it like this:', '', fence('ts', 'const m = mean([1, 2, 3]); // 2')].join('\n'),
    source: { path: 'src/math.ts', range: { startLine: 4, startCharacter: 0, endLine: 9, endCharacter: 0 } },
    lands: {},
    skips: [['', 'noPath']],
  },
  {
    name: 'a block redefining add() while mean() was selected replaces add(), found once by its name (issue 34)',
    answer: ['`add` should reject NaN:', '', fence('ts', 'export function add(a: number, b: number): number {', '  if (Number.isNaN(a + b)) throw new Error("NaN");', '  return a + b;', '}')].join('\n'),
    source: { path: 'src/math.ts', range: { startLine: 4, startCharacter: 0, endLine: 9, endCharacter: 0 } },
    lands: { 'src/math.ts': MATH.replace('  return a + b;\n', '  if (Number.isNaN(a + b)) throw new Error("NaN");\n  return a + b;\n') },
  },
  {
    name: "Python's indented ... is code, not an elision",
    answer: [fence('python app/proto.py', 'class Reader:', '    def read(self) -> str:', '        ...')].join('\n'),
    lands: { 'app/proto.py': lines('class Reader:', '    def read(self) -> str:', '        ...') },
  },
];

function multiRoot(c: Case) {
  const roots = c.roots!;
  const home = Object.keys(roots)[0];
  const landed: Record<string, string> = {};
  const skipped: [string, string][] = [];
  for (const [folder, parsed] of byFolder(parseAnswer(c.answer, { folders: c.folders }), home)) {
    const now = roots[folder] ?? {};
    for (const f of buildPlan(parsed, workspace(now, now)).files) {
      if (f.kind === 'skip') skipped.push([f.path, f.reasonCode ?? '']);
      else landed[`${folder}:${f.path}`] = applyHunks(now[f.path] ?? '', f.hunks);
    }
  }
  assert.deepEqual(landed, c.lands);
  assert.deepEqual(skipped, c.skips ?? []);
}

function workspace(now: Record<string, string>, sent: Record<string, string>): ReviewFiles {
  return { current: p => (now[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: now[p] }), sent: p => sent[p] };
}

describe('answers corpus (issue 24): every naming, diff form and mistake lands right or is listed', () => {
  it(`holds at least 45 answers`, () => assert.ok(CASES.length >= 45, `${CASES.length}`));
  for (const c of CASES) {
    it(c.name, () => {
      if (c.roots) return multiRoot(c);
      const now = c.files ?? FILES;
      const sent = c.sent ?? now;
      const parsed = parseAnswer(c.answer, { sourcePath: c.source?.path, folders: c.folders });
      const plan = buildPlan(parsed, workspace(now, sent), c.source ? { source: c.source } : {});
      const landed: Record<string, string> = {};
      const skipped: [string, string][] = [];
      for (const f of plan.files) {
        if (f.kind === 'skip') skipped.push([f.path, f.reasonCode ?? '']);
        else {
          assert.ok(!(f.path in landed), `one entry per landed file (${f.path})`);
          landed[f.path] = applyHunks(now[f.path] ?? '', f.hunks);
        }
      }
      assert.deepEqual(landed, c.lands);
      assert.deepEqual(skipped, c.skips ?? []);
    });
  }
});
