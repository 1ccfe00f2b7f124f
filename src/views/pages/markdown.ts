/**
 * A small markdown renderer for server text shown in a webview. Pure (no vscode) and linear in the input:
 * one pass over the lines, and inline markup found by splitting, never by a backtracking regex. Everything
 * is escaped; only headings, paragraphs, lists, quotes, emphasis, inline code and fenced code come out as
 * markup. Links and images become plain text: server text never becomes something that navigates or loads.
 * Fenced blocks are found by the one reader of answers (review/reader.ts), never here.
 */
import { HOST_READ_CHARS } from '../../constants';
import type { AnswerBlock, ReadOptions } from '../../review';
import { reviewPart } from '../../parts';

/** The review core, loaded on first use (lazy.ts). */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export interface RenderOptions {
  /** Markup placed before each fenced code block, given the block as the reader read it. */
  blockHeader?: (block: AnswerBlock) => string;
  /** How the reader reads the answer (the task's source and folders), so blocks have the kinds the buttons follow. */
  read?: ReadOptions;
  /** Characters of input rendered at most; the rest is left out with a note. */
  maxChars?: number;
  /** Levels added to every heading (at most h6): an answer's `#` under a transcript's own `h2` is an `h3`. */
  headingOffset?: number;
}

/** Renders `text` to an HTML fragment. Fenced code blocks are the reader's (review/reader.ts), numbered as it numbers them. */
export function renderMarkdown(text: string, options: RenderOptions = {}): string {
  const max = options.maxChars ?? HOST_READ_CHARS;
  const cut = text.length > max;
  const shown = cut ? text.slice(0, max) : text;
  const answer = reviewPart().readAnswer(shown, options.read);
  const lines = shown.split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: 'ul' | 'ol' | undefined;

  const closeParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(renderInline).join('<br>')}</p>`);
    paragraph = [];
  };
  const closeList = () => {
    if (list) out.push(`</${list}>`);
    list = undefined;
  };
  const closeAll = () => {
    closeParagraph();
    closeList();
  };

  // The blocks in line order; the unclosed last one (the answer may be cut off) is shown as text, never a block.
  const blocks = answer.unclosed ? [...answer.blocks, answer.unclosed] : answer.blocks;
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const block = blocks[next];
    if (block && i === block.startLine) {
      closeAll();
      const body = block.body.endsWith('\n') ? block.body.slice(0, -1) : block.body;
      if (block.closed) out.push(codeBlockHtml(block.language, body ? body.split('\n') : [], options.blockHeader?.(block) ?? ''));
      else out.push(`<pre class="unclosed" tabindex="0"><code>${escapeHtml([block.fence + block.info, body].filter(Boolean).join('\n'))}</code></pre>`);
      i = block.endLine;
      next++;
      continue;
    }
    const line = lines[i].replace(/\r$/, '');
    if (!line.trim()) {
      closeAll();
      continue;
    }
    const heading = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      closeAll();
      const level = Math.min(6, heading[1].length + (options.headingOffset ?? 0));
      out.push(`<h${level}>${renderInline(heading[2])}</h${level}>`);
      continue;
    }
    if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      closeAll();
      out.push('<hr>');
      continue;
    }
    const item = /^\s{0,6}([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
    if (item) {
      closeParagraph();
      const kind = /\d/.test(item[1][0]) ? 'ol' : 'ul';
      if (list !== kind) {
        closeList();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${renderInline(item[2])}</li>`);
      continue;
    }
    const quote = /^ {0,3}>\s?(.*)$/.exec(line);
    if (quote) {
      closeAll();
      out.push(`<blockquote>${renderInline(quote[1])}</blockquote>`);
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      // A continuation line of the last item.
      out[out.length - 1] = out[out.length - 1].replace(/<\/li>$/, ` ${renderInline(line.trim())}</li>`);
      continue;
    }
    closeList();
    paragraph.push(line.trim());
  }
  closeAll();
  if (cut) out.push(`<p class="muted">… (${(text.length - max).toLocaleString('en-US')} more characters: open the raw markdown to read them)</p>`);
  return out.join('\n');
}

/** Inline markup of one line: `code`, **strong**, *em* / _em_, links and images as their text. */
export function renderInline(text: string): string {
  // Backticks split the line into text and code; an odd last backtick is literal.
  const parts = text.split('`');
  let html = '';
  for (let i = 0; i < parts.length; i++) {
    const isCode = i % 2 === 1 && i < parts.length - 1;
    if (isCode) html += `<code>${escapeHtml(parts[i])}</code>`;
    else html += (i > 0 && i === parts.length - 1 && parts.length % 2 === 0 ? '`' : '') + emphasis(linksAsText(parts[i]));
  }
  return html;
}

/** `[label](target)` and `![alt](src)` become "label (target)" as text: bounded, so linear. */
function linksAsText(text: string): string {
  return text.replace(/!?\[([^\]\n]{0,500})\]\(([^()\s]{0,2000})(?:\s+"[^"\n]{0,200}")?\)/g, (_m, label: string, target: string) =>
    target && target !== label ? `${label} (${target})` : label,
  );
}

/** Escapes, then pairs `**`, then `*` and `_` markers by splitting (pairs only; a lone marker stays). */
function emphasis(text: string): string {
  return pair(text, '**', 'strong', s => pair(s, '*', 'em', t => pair(t, '_', 'em', escapeHtml)));
}

function pair(input: string, marker: string, tag: string, inner: (s: string) => string): string {
  const pieces = input.split(marker);
  let out = inner(pieces[0]);
  let i = 1;
  while (i < pieces.length) {
    const body = pieces[i];
    // `snake_case` is not emphasis: underscores pair only at word boundaries.
    const bounded = marker !== '_' || (!/\w$/.test(pieces[i - 1]) && !/^\w/.test(pieces[i + 1] ?? ''));
    if (i < pieces.length - 1 && body.length > 0 && !/^\s|\s$/.test(body) && bounded) {
      out += `<${tag}>${inner(body)}</${tag}>${inner(pieces[i + 1])}`;
      i += 2;
    } else {
      out += marker + inner(body);
      i++;
    }
  }
  return out;
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default del do elif else enum export extends false final finally for ' +
    'from func function fn go if impl import in interface is lambda let match mod module mut new nil none not null of or package pass private ' +
    'protected pub public raise readonly return self static struct super switch this throw true try type typeof undefined use var void while with yield'
  ).split(' '),
);

/** Highlights one line of code: comments, strings, numbers and keywords. One left-to-right pass. */
export function highlightLine(line: string, hashComments: boolean): string {
  let out = '';
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if ((c === '/' && line[i + 1] === '/') || (hashComments && c === '#')) {
      out += `<span class="tok-comment">${escapeHtml(line.slice(i))}</span>`;
      break;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < n && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      j = Math.min(j + 1, n);
      out += `<span class="tok-string">${escapeHtml(line.slice(i, j))}</span>`;
      i = j;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(line[j])) j++;
      const word = line.slice(i, j);
      out += KEYWORDS.has(word) ? `<span class="tok-keyword">${word}</span>` : escapeHtml(word);
      i = j;
      continue;
    }
    if (/\d/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(line[j])) j++;
      out += `<span class="tok-number">${escapeHtml(line.slice(i, j))}</span>`;
      i = j;
      continue;
    }
    out += escapeHtml(c);
    i++;
  }
  return out;
}

const HASH_COMMENT_LANGUAGES = new Set(['py', 'python', 'sh', 'bash', 'shell', 'shellscript', 'zsh', 'rb', 'ruby', 'yaml', 'yml', 'toml', 'r', 'perl', 'pl']);

function codeBlockHtml(language: string, body: string[], header: string): string {
  const hash = HASH_COMMENT_LANGUAGES.has(language);
  const code = body.map(l => highlightLine(l, hash)).join('\n');
  const cls = language ? ` class="language-${escapeHtml(language.replace(/[^\w-]/g, ''))}"` : '';
  return `<div class="code-block">${header}<pre tabindex="0"><code${cls}>${code}</code></pre></div>`;
}

/**
 * The first line of a markdown text as words, for a one-line label: fence lines skipped (the reader's rule),
 * a heading's `#`, a quote's `>`, a list marker and whole-line bold or code marks taken off ("# Proposal" →
 * "Proposal"). A heading that names only the kind of text ("# Synthesized answer", "## Summary", "**Result**")
 * says nothing of this one: the line after it is taken (issue 35 item 9: every agent message of a thread read
 * "Agents: Synthesized answer"). Reads the first 4 KB only.
 */
export function plainFirstLine(text: string | null | undefined, max = 80): string {
  const head = (text ?? '').slice(0, 4096);
  const fences = reviewPart().fenceMask(head);
  const lines = head.split(/\r?\n/);
  let generic = '';
  for (let i = 0; i < lines.length; i++) {
    if (fences[i] === 1) continue;
    const line = lines[i]
      .trim()
      .replace(/^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
      .replace(/^(\*\*|__|`)(.*)\1$/, '$2')
      .trim();
    if (!line) continue;
    if (!generic && GENERIC_HEADING.test(line)) {
      generic = line;
      continue;
    }
    return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
  }
  return generic;
}

/** A heading naming only the kind of text, not what it says (the one line skipped by plainFirstLine). */
const GENERIC_HEADING = /^(?:(?:the|our|final|synthesi[sz]ed|combined|merged|team(?:'s)?|agents'?)\s+)*(?:answer|result|response|reply|output|summary|synthesis)s?:?$/i;
