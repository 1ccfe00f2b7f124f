/**
 * The shell every webview page of the extension shares: a strict Content-Security-Policy, the nonce that
 * admits its one style and one script, and nothing loaded from anywhere else.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { escapeHtml } from './markdown';

/** A fresh value for a webview's Content-Security-Policy nonce. */
export function nonce(): string {
  return randomBytes(16).toString('base64');
}

export interface WebviewPage {
  /** The whole Content-Security-Policy; it must admit the style and the script by `nonce` only. */
  csp: string;
  nonce: string;
  title: string;
  style: string;
  /** Markup, already escaped. */
  body: string;
  script: string;
}

export function webviewPage(page: WebviewPage): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${page.csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style nonce="${page.nonce}">
${page.style.trim()}
</style>
</head>
<body>
${page.body}
<script nonce="${page.nonce}">
${page.script.trim()}
</script>
</body>
</html>`;
}
