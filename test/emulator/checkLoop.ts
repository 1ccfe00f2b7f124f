// The check loop of the demo (issue 37): the sample workspace (test/workspace) has a real test command
// (`npm test`, i.e. `node --test`, nothing to install) over src/text.js. One sample request — the sample
// instruction with that module's code — gets a proposal with a realistic off-by-one that fails exactly one of the
// workspace's tests; a fix request in the task's thread (a thread run opening with FIX_REQUEST_OPENING) that names
// that test gets the same file, fixed, which passes them all. Any other fix request gets a generic answer without a
// proposal. Deterministic. Tests build the same workspace from these constants (`DEMO_CHECK_FILES`).
import { FIX_REQUEST_OPENING } from '../../src/tasks/checking/types';
import { codeSections } from './landing';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;

/** The instruction the demo suggests with src/text.js selected (or the whole file sent). */
export const SAMPLE_INSTRUCTION = 'Add a function that truncates a text at a word boundary';

/** The demo module, workspace-relative (in a workspace of several folders the prompt names it `<folder>/src/text.js`). */
export const DEMO_FILE_PATH = 'src/text.js';

/** The module's opening lines, the same in the shipped file and in both proposals. */
const MODULE_HEAD = [
  '// Text helpers of the sample workspace. `npm test` runs their tests (test/text.test.js) with node --test.',
  "'use strict';",
  '',
  '/** The words of a text, split at any white space. */',
  'function words(text) {',
  '  return text.split(/\\s+/).filter(Boolean);',
  '}',
];

/** test/workspace/src/text.js as shipped (a unit test holds the two equal). */
export const DEMO_FILE_TEXT = lines(
  ...MODULE_HEAD,
  '',
  '/** The text cut to at most `max` characters, ending with an ellipsis (…) when something was cut. */',
  'function truncate(text, max) {',
  '  if (text.length <= max) {',
  '    return text;',
  '  }',
  '  return `${text.slice(0, max - 1)}…`;',
  '}',
  '',
  'module.exports = { words, truncate };',
);

export const DEMO_TEST_PATH = 'test/text.test.js';

/** test/workspace/test/text.test.js: four node:test tests, all passing on DEMO_FILE_TEXT. */
export const DEMO_TEST_TEXT = lines(
  "// The sample workspace's tests: `npm test` runs them with node --test (Node's own runner, nothing to install).",
  "'use strict';",
  "const test = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const { words, truncate } = require('../src/text');",
  '',
  "test('words splits a text at any white space', () => {",
  "  assert.deepEqual(words(' one  two\\tthree\\n'), ['one', 'two', 'three']);",
  '});',
  '',
  "test('truncate keeps a short text as it is', () => {",
  "  assert.equal(truncate('short', 10), 'short');",
  '});',
  '',
  "test('truncate keeps a text of exactly max characters', () => {",
  "  assert.equal(truncate('exact', 5), 'exact');",
  '});',
  '',
  "test('truncate cuts a long text to max characters, the ellipsis included', () => {",
  "  const cut = truncate('a rather long sentence', 10);",
  "  assert.equal(cut, 'a rather …');",
  '  assert.equal(cut.length, 10);',
  '});',
);

/** The one test the sample proposal fails (its off-by-one cuts a text of exactly `max` characters). */
export const FAILING_TEST_NAME = 'truncate keeps a text of exactly max characters';

/** The test script of the workspace's package.json. */
export const DEMO_TEST_SCRIPT = 'node --test';

/** test/workspace/package.json: the test script, no dependencies. */
export const DEMO_PACKAGE_JSON = `${JSON.stringify(
  {
    name: 'sample-workspace',
    version: '1.0.0',
    private: true,
    description: 'The sample workspace of the Multi-Agent Tasks demo and tests. Nothing to install.',
    scripts: { test: DEMO_TEST_SCRIPT },
  },
  null,
  2,
)}\n`;

/** What a check needs, by workspace-relative path: write these into a folder and `npm test` (or `node --test`) runs. */
export const DEMO_CHECK_FILES: Readonly<Record<string, string>> = {
  'package.json': DEMO_PACKAGE_JSON,
  [DEMO_FILE_PATH]: DEMO_FILE_TEXT,
  [DEMO_TEST_PATH]: DEMO_TEST_TEXT,
};

/** src/text.js with the fix or the off-by-one in `fits()`, and the new truncateWords(). */
function withTruncateWords(fitsCheck: string): string {
  return lines(
    ...MODULE_HEAD,
    '',
    '/** Whether the text fits in `max` characters as it is. */',
    'function fits(text, max) {',
    `  return ${fitsCheck};`,
    '}',
    '',
    '/** The text cut to at most `max` characters, ending with an ellipsis (…) when something was cut. */',
    'function truncate(text, max) {',
    '  if (fits(text, max)) {',
    '    return text;',
    '  }',
    '  return `${text.slice(0, max - 1)}…`;',
    '}',
    '',
    '/** The text cut after the last whole word that fits in `max` characters with the ellipsis; one long word is cut as truncate() cuts it. */',
    'function truncateWords(text, max) {',
    '  if (fits(text, max)) {',
    '    return text;',
    '  }',
    "  let kept = '';",
    '  for (const word of words(text)) {',
    "    const next = kept === '' ? word : `${kept} ${word}`;",
    '    if (next.length > max - 1) {',
    '      break;',
    '    }',
    '    kept = next;',
    '  }',
    "  return kept === '' ? truncate(text, max) : `${kept}…`;",
    '}',
    '',
    'module.exports = { words, truncate, truncateWords };',
  );
}

/** The sample proposal: truncateWords() and a shared fits() that compares with `<` — FAILING_TEST_NAME fails. */
export const PROPOSAL_TEXT = withTruncateWords('text.length < max');

/** The fixed proposal: fits() compares with `<=`; every test passes. */
export const FIXED_TEXT = withTruncateWords('text.length <= max');

/** The instruction's part of a prompt: what comes before its first code section (`<label>:`, a blank line, a fence). */
function instructionOf(prompt: string): string {
  const cut = /\n\n(?:Attached file )?[^\n]+:\n\n(?:`{3,}|~{3,})/.exec(prompt);
  return cut ? prompt.slice(0, cut.index) : prompt;
}

/** Whether an instruction asks for the sample task: truncating at word boundaries (any wording naming both). */
export function asksSampleTask(instruction: string): boolean {
  return /truncat/i.test(instruction) && /\bwords?\b|truncateWords/i.test(instruction);
}

/** Code lines as one text: line ends without `\r`, trailing blank lines dropped. */
function normalized(code: readonly string[]): string {
  const out = code.map((l) => l.replace(/\r$/, ''));
  while (out.length > 0 && out[out.length - 1].trim() === '') out.pop();
  return out.join('\n');
}

/**
 * The label the prompt gives the demo module when it is the sample request: the sample task asked, and a code
 * section (sent or inlined) of src/text.js holding the module as shipped (all of it or a part); else undefined.
 */
export function sampleRequestLabel(prompt: string): string | undefined {
  if (!asksSampleTask(instructionOf(prompt))) return undefined;
  const shipped = DEMO_FILE_TEXT.replace(/\n$/, '');
  const section = codeSections(prompt).find(
    (s) => (s.label === DEMO_FILE_PATH || s.label.endsWith(`/${DEMO_FILE_PATH}`)) && s.code.some((l) => l.trim() !== '') && shipped.includes(normalized(s.code)),
  );
  return section?.label;
}

/** Whether a prompt is a fix request ("Ask the Team to Fix"): it opens with FIX_REQUEST_OPENING. */
export const isFixRequest = (prompt: string): boolean => prompt.trimStart().startsWith(FIX_REQUEST_OPENING);

/**
 * The demo module's name in a fix request's answer: as the thread's sample request named it (`<folder>/src/text.js`
 * in a workspace of several folders), else as the fix request names it with one of the folders it lists, else
 * DEMO_FILE_PATH.
 */
function fixLabel(prompt: string, earlier: readonly string[]): string {
  for (const p of [...earlier].reverse()) {
    const label = sampleRequestLabel(p);
    if (label !== undefined) return label;
  }
  const several = /The workspace has several folders \(([^)]*)\)/.exec(prompt);
  const folders = several ? several[1].split(',').map((f) => f.trim()) : [];
  const folder = folders.find((f) => f !== '' && prompt.includes(`${f}/${DEMO_FILE_PATH}`));
  return folder ? `${folder}/${DEMO_FILE_PATH}` : DEMO_FILE_PATH;
}

function fileBlock(label: string, text: string): string {
  const info = /\s/.test(label) ? `js path="${label}"` : `js path=${label}`;
  return `\`\`\`${info}\n${text}\`\`\``;
}

/**
 * The answer's body for the check loop, or undefined when the prompt is not part of it: the sample request's
 * proposal (one test fails); in a thread run (`thread`: the user prompts already in the thread, oldest first), a
 * fix request naming FAILING_TEST_NAME gets the fixed file, any other fix request a generic answer without a proposal.
 */
export function checkLoopAnswer(prompt: string, thread?: readonly string[]): string[] | undefined {
  if (thread !== undefined && isFixRequest(prompt)) {
    if (prompt.includes(FAILING_TEST_NAME)) {
      return [
        `The check was right: \`fits()\` compared with \`<\`, so a text of exactly \`max\` characters was cut ("exact" became "exac…"), which is what "${FAILING_TEST_NAME}" caught.`,
        '`fits()` compares with `<=` now, as `truncate()` did before; `truncateWords()` is unchanged.',
        '',
        fileBlock(fixLabel(prompt, thread), FIXED_TEXT),
      ];
    }
    return [
      'The agents read the failures you sent, but could not tie them to a change of theirs: the output names no test they recognise.',
      'They propose no change this time. Send the failing test names with their output (or the test file) and they will look again.',
    ];
  }
  const label = sampleRequestLabel(prompt);
  if (label === undefined) return undefined;
  return [
    '`truncateWords(text, max)` cuts a text after its last whole word that fits, the ellipsis included; a single word longer than `max` is cut as `truncate()` cuts it.',
    'Both functions now share one check of whether a text fits as it is (`fits()`).',
    '',
    fileBlock(label, PROPOSAL_TEXT),
  ];
}
