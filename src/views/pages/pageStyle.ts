/** The look of a page that shows rendered server text: the result view and the transcript view (each adds its own few rules). */
export const RENDERED_PAGE_STYLE = `
/* The background said, not left to the frame: text is checked against the colour it is really on (high contrast). */
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background-color: var(--vscode-editor-background); padding: 0 20px 40px; line-height: 1.5; }
header { border-bottom: 1px solid var(--vscode-panel-border); margin-bottom: 12px; padding-bottom: 8px; }
h1.title { font-size: 1.4em; margin: 12px 0 4px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
dt { color: var(--vscode-descriptionForeground); }
dd { margin: 0; }
/* A button keeps its theme's border: in high contrast it is what sets a button apart from text (issue 35). */
button { font: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, var(--vscode-contrastBorder, transparent)); padding: 2px 9px; border-radius: 2px; cursor: pointer; margin-right: 6px; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
button.link { border-color: transparent; } /* a link reads as a link (underlined, in the link colour) */
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
/* The light themes' number colour falls under 4.5:1 on a code block (#098658 on #f8f8f8 is 4.3): darkened toward the
   theme's text (axe audit, issues 26 and 35); keywords take the theme's light blue. Theme colours only. */
body.vscode-light .tok-number { color: color-mix(in srgb, var(--vscode-debugTokenExpression-number, #098658) 70%, var(--vscode-editor-foreground, #000000)); }
body.vscode-light .tok-keyword { color: var(--vscode-debugTokenExpression-boolean, var(--vscode-foreground)); }
pre:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
blockquote { border-left: 3px solid var(--vscode-textBlockQuote-border); margin: 4px 0; padding-left: 10px; color: var(--vscode-descriptionForeground); }
.muted { color: var(--vscode-descriptionForeground); }
/* Error and warning text in the theme's list colours, which every theme makes readable on its background:
   Light Modern's errorForeground is #f85149, 3.35:1 on white, and editorWarning.foreground is #bf8803, 3.1:1
   (issue 35). High contrast themes leave the list colours unset: their errorForeground is readable there. */
.error { color: var(--vscode-list-errorForeground, var(--vscode-errorForeground)); }
.warning { color: var(--vscode-list-warningForeground, var(--vscode-editorWarning-foreground)); }
`;
