/** The look of a page that shows rendered server text: the result view and the transcript view (each adds its own few rules). */
export const RENDERED_PAGE_STYLE = `
/* The background said, not left to the frame: text is checked against the colour it is really on (high contrast). */
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background-color: var(--vscode-editor-background); padding: 0 20px 40px; line-height: 1.5; }
header { border-bottom: 1px solid var(--vscode-panel-border); margin-bottom: 12px; padding-bottom: 8px; }
h1.title { font-size: 1.4em; margin: 12px 0 4px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
dt { color: var(--vscode-descriptionForeground); }
dd { margin: 0; }
button { font: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 3px 10px; border-radius: 2px; cursor: pointer; margin-right: 6px; }
button:hover { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
.code-block { border: 1px solid var(--vscode-panel-border); border-radius: 4px; margin: 10px 0; }
.block-bar { display: flex; align-items: center; padding: 4px 6px; background: var(--vscode-editorGroupHeader-tabsBackground); }
.block-bar .spacer { flex: 1; }
.lang { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
pre { margin: 0; padding: 8px 10px; overflow-x: auto; background: var(--vscode-textCodeBlock-background); font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
code { font-family: var(--vscode-editor-font-family); }
/* VS Code gives code the preformat colours (black on white in high contrast): inside a block, the block's own. */
pre code { background: none; padding: 0; color: inherit; }
.tok-keyword { color: var(--vscode-symbolIcon-keywordForeground, #569cd6); }
.tok-string { color: var(--vscode-debugTokenExpression-string, #ce9178); }
.tok-number { color: var(--vscode-debugTokenExpression-number, #b5cea8); }
.tok-comment { color: var(--vscode-descriptionForeground); font-style: italic; }
/* The light themes' token colors fall under 4.5:1 on a code block (#098658 on #f8f8f8 is 4.3): darker ones (axe audit, issue 26). */
body.vscode-light .tok-number { color: #07704a; }
body.vscode-light .tok-string { color: #a31515; }
body.vscode-light .tok-keyword { color: #0000ff; }
pre:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
blockquote { border-left: 3px solid var(--vscode-textBlockQuote-border); margin: 4px 0; padding-left: 10px; color: var(--vscode-descriptionForeground); }
.muted { color: var(--vscode-descriptionForeground); }
.error { color: var(--vscode-errorForeground); }
.warning { color: var(--vscode-editorWarning-foreground); }
`;
