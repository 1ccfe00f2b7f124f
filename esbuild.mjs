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
 * Every module's `import * as vscode from 'vscode'` (or `'node:path'`, …) should read the module object itself.
 * Left alone, esbuild gives each importing module its own copy (`__toESM(require("vscode"))`: a getter for each
 * of the ~400 names of the API): 69 copies were most of the activation bundle's load in the extension host
 * (62–82 ms → 4–11 ms). So, in our sources:
 * - a namespace import is bundled as TypeScript's `import vscode = require('vscode')`, which reads one module per
 *   bundle that is the real one (`module.exports = require('vscode')`): no copy at all (the last copy of the
 *   API, one per bundle, cost about 3 ms of the load), and one real `require` per bundle (VS Code resolves each
 *   `require('vscode')` again, with a realpath of the caller);
 * - a named import (`import { createHash } from 'node:crypto'`) resolves to one module per bundle that
 *   re-exports the real one: one copy.
 * (Dependencies keep esbuild's way: some take a default import, which a re-export does not carry.)
 */
const NAMESPACE_IMPORT = /^import \* as (\w+) from '(vscode|node:[\w/]+)';$/gm;
const oneNamespacePerModule = {
  name: 'one-namespace-per-module',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async args => {
      if (!args.path.startsWith(path.resolve('src'))) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      // Same line count, so the source map's lines stay right.
      return { contents: text.replace(NAMESPACE_IMPORT, "import $1 = require('$2');"), loader: 'ts' };
    });
    build.onResolve({ filter: /^(vscode|node:[\w/]+)$/ }, args => {
      if (args.namespace === 'one-namespace' || args.namespace === 'one-module') return { path: args.path, external: true };
      if (!args.importer.startsWith(path.resolve('src'))) return undefined;
      return { path: args.path, namespace: args.kind === 'require-call' ? 'one-module' : 'one-namespace' };
    });
    build.onLoad({ filter: /.*/, namespace: 'one-module' }, args => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
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
    if (!file.endsWith('.js')) continue;
    console.log(`${file}  ${(out.bytes / 1024).toFixed(1)} KB`);
    // The start's cost comes back silently if a change of esbuild or of the plugin brings copies back: the one
    // `require("vscode")` of a bundle must be its module's `module.exports = require("vscode")`.
    const text = fs.readFileSync(file, 'utf8');
    const requires = text.match(/require\("vscode"\)/g)?.length ?? 0;
    const plain = text.match(/\.exports ?= ?require\("vscode"\)/g)?.length ?? 0;
    if (requires > 1 || plain !== requires) throw new Error(`${file}: ${requires} require("vscode"), ${plain} of them plain: oneNamespacePerModule no longer applies`);
  }
  // A bundle this build did not write is stale (a renamed part): it must not be packaged (.vscodeignore takes dist/*.js).
  const written = new Set(Object.keys(result.metafile.outputs).map(f => path.resolve(f)));
  for (const name of fs.readdirSync('dist')) {
    const file = path.resolve('dist', name);
    if (/\.js(\.map)?$/.test(name) && !written.has(file)) fs.rmSync(file);
  }
  await ctx.dispose();
}
