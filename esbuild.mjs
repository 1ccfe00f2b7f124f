// Bundles the extension. Three entry points: dist/extension.js is what activation loads; dist/api.js
// (axios + zod) is required the first time the extension needs the network; dist/mcp.js (the MCP SDK)
// the first time VS Code starts the MCP server.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the problem-matcher format of .vscode/tasks.json. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd(result => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const ctx = await esbuild.context({
  entryPoints: { extension: 'src/extension.ts', api: 'src/api/index.ts', mcp: 'src/mcp/bundle.ts' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  metafile: true,
  // First and last statements of each bundle: how long loading it takes (logged by extension.ts).
  banner: { js: '"use strict";\nconst __matLoadStart = typeof performance === "object" ? performance.now() : 0;' },
  footer: { js: 'var __matLoadEnd = typeof performance === "object" ? performance.now() : 0;' },
  logLevel: 'warning',
  plugins: [problemMatcher],
});

if (watch) {
  await ctx.watch();
} else {
  const result = await ctx.rebuild();
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.js')) console.log(`${file}  ${(out.bytes / 1024).toFixed(1)} KB`);
  }
  await ctx.dispose();
}
