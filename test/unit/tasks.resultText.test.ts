// Issue 20's pure pieces: Insert at Cursor's placement of a block, and the transcript's heading levels.
import * as assert from 'node:assert/strict';
import { blockInsertion, lineCount, shiftHeadings } from '../../src/tasks/resultText';
import { renderMarkdown } from '../../src/views/pages/markdown';

/** Applies a LineEdit to a one-line document and returns the text. */
function applied(line: string, cursor: number, code: string, eol = '\n'): string {
  const edit = blockInsertion(line, cursor, code, eol);
  return line.slice(0, edit.start) + edit.text + line.slice(edit.end);
}

describe('issue 20: Insert at Cursor places a block on lines of its own', () => {
  const block = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';

  it('after a line of code: on the next lines, never glued to the end of the line', () => {
    assert.equal(applied('}', 1, block), '}\nexport function add(a: number, b: number): number {\n  return a + b;\n}');
  });

  it('takes the indentation of the cursor line, keeping the block\'s own relative indentation', () => {
    const indented = '    const x = 1;';
    assert.equal(applied(indented, indented.length, block), `${indented}\n    export function add(a: number, b: number): number {\n      return a + b;\n    }`);
    // A block that came indented is re-indented from its common indentation.
    assert.equal(applied('  foo();', 8, '\t\tif (a) {\n\t\t\tb();\n\t\t}\n'), '  foo();\n  if (a) {\n  \tb();\n  }');
  });

  it('before a blank line (which keeps its place), and before a line when the cursor is in its indentation', () => {
    assert.equal(applied('    ', 2, block), '    export function add(a: number, b: number): number {\n      return a + b;\n    }\n    ');
    assert.equal(applied('  mean();', 1, 'a();\nb();\n'), '  a();\n  b();\n  mean();');
    assert.equal(applied('', 0, 'a();\n\nb();\n'), 'a();\n\nb();\n', 'an empty line of the block stays empty (no trailing spaces)');
  });

  it('one line goes on a line of its own too (the cursor may be stale: issue 35), or fills a blank line; CRLF files get CRLF', () => {
    assert.equal(applied('const x = 1;', 6, 'log(x);\n'), 'const x = 1;\nlog(x);');
    assert.equal(applied('    return x;', 11, 'log(x);\n'), '    return x;\n    log(x);');
    assert.equal(applied('  ', 2, '  log(x);\n'), '  log(x);');
    assert.equal(applied('x', 1, 'y', '\r\n'), 'x\r\ny');
    assert.equal(applied('x', 1, 'a\nb\n', '\r\n'), 'x\r\na\r\nb');
  });

  it('handles a long block in one pass (every line indented once)', () => {
    const edit = blockInsertion('  y();', 6, 'x();\n'.repeat(200_000), '\n');
    assert.equal(lineCount(edit.text), 200_001);
    assert.ok(edit.text.endsWith('\n  x();'));
  });
});

describe('issue 20: transcripts nest the answer\'s headings under each message', () => {
  it('shifts ATX headings outside fences, capped at h6', () => {
    const text = '# Proposal\n\n## Why\n\n```md\n# not a heading\n```\n\n###### deep\n#no-space';
    assert.equal(shiftHeadings(text, 2), '### Proposal\n\n#### Why\n\n```md\n# not a heading\n```\n\n###### deep\n#no-space');
  });

  it('renders the answer\'s h1 as h3 with a heading offset', () => {
    const html = renderMarkdown('# Proposal\n\n###### deep', { headingOffset: 2 });
    assert.ok(html.includes('<h3>Proposal</h3>'), html);
    assert.ok(html.includes('<h6>deep</h6>'), html);
    assert.ok(!html.includes('<h1>'), html);
  });
});
