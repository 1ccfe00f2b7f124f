// Bundles the extension. dist/extension.js is what activation loads (through dist/main.js, the entry, which
// measures that); dist/api.js (axios + zod) is required the
// first time the extension needs the network; dist/reviewWorker.js is the review planner's thread
// (src/review/worker.ts), started for each Review Changes; dist/mcp.js (the MCP SDK) the first time VS Code
// starts the MCP server; dist/<part>.js, one per lazy part (src/lazy.ts), on its first use.
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/**
 * Every module's `import * as vscode from 'vscode'` (or `'node:path'`, …) reads one namespace object per bundle.
 * Left alone, esbuild gives each importing module its own copy (`__toESM(require("vscode"))`: a getter for each
 * of the ~400 names of the API): 69 copies were most of the activation bundle's load in the extension host
 * (62–82 ms → 4–11 ms). Here such an import from our sources resolves to one module that re-exports the real one.
 * (Dependencies keep esbuild's way: some take a default import, which a re-export does not carry.)
 */
const oneNamespacePerModule = {
  name: 'one-namespace-per-module',
  setup(build) {
    build.onResolve({ filter: /^(vscode|node:[\w/]+)$/ }, args => {
      if (args.namespace === 'one-namespace') return { path: args.path, external: true };
      if (!args.importer.startsWith(path.resolve('src'))) return undefined;
      return { path: args.path, namespace: 'one-namespace' };
    });
    build.onLoad({ filter: /.*/, namespace: 'one-namespace' }, args => ({ contents: `export * from ${JSON.stringify(args.path)};`, loader: 'js' }));
  },
};

/** The lazy parts, read from their one table (LAZY_PARTS in src/lazy.ts): part → module. */
function lazyParts() {
  const table = /LAZY_PARTS = \{([^}]*)\}/.exec(fs.readFileSync('src/lazy.ts', 'utf8'));
  const parts = Object.fromEntries([...(table?.[1] ?? '').matchAll(/(\w+): '([\w/]+)'/g)].map(([, part, module]) => [part, `src/${module}.ts`]));
  if (!Object.keys(parts).length) throw new Error('src/lazy.ts: no LAZY_PARTS table found');
  return parts;
}

const ctx = await esbuild.context({
  entryPoints: { main: 'src/main.ts', extension: 'src/extension.ts', api: 'src/api/index.ts', reviewWorker: 'src/review/worker.ts', mcp: 'src/mcp/bundle.ts', ...lazyParts() },
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
  logLevel: 'warning',
  plugins: [oneNamespacePerModule, problemMatcher],
});

if (watch) {
  await ctx.watch();
} else {
  const result = await ctx.rebuild();
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.js')) console.log(`${file}  ${(out.bytes / 1024).toFixed(1)} KB`);
  }
  // A bundle this build did not write is stale (a renamed part): it must not be packaged (.vscodeignore takes dist/*.js).
  const written = new Set(Object.keys(result.metafile.outputs).map(f => path.resolve(f)));
  for (const name of fs.readdirSync('dist')) {
    const file = path.resolve('dist', name);
    if (/\.js(\.map)?$/.test(name) && !written.has(file)) fs.rmSync(file);
  }
  await ctx.dispose();
}
