// Bundles the extension. dist/extension.js is what activation loads (through dist/main.js, the entry, which
// measures that); dist/<part>.js, one per lazy part (src/lazy.ts: the core, the API client, the MCP server, the
// review core, which is also the review planner's thread, the pages, the command handlers), on its first use.
// Each module is shipped once (HOME_ORDER below).
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

const parts = lazyParts();
const entryPoints = { main: 'src/main.ts', extension: 'src/extension.ts', ...parts };
const options = {
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
};

/**
 * Each module shipped once. esbuild splits shared code into chunks only for ESM output, which VS Code 1.100's
 * extension host cannot load, so every bundle would carry its own copy of what it imports (a fifth of the package
 * was copies, and `instanceof` failed across them). Instead each module has one home bundle: the first in
 * HOME_ORDER that uses it. The home exports it (`__shared`), and every other bundle reads it from there with a
 * `require` of the home. A bundle only requires bundles before it in the order, which are loaded before it anyway:
 * the shell by the time anything else loads, the core before its parts. `review` comes first because it is also
 * the review planner's thread (offThread.ts), where `vscode` cannot load: it must require nothing of ours.
 */
const HOME_ORDER = ['review', 'extension', 'core', ...Object.keys(parts).filter(p => !['review', 'core'].includes(p))];
/**
 * Bytes the package may still ship twice (minified). Our modules (src/) are shared; a dependency stays in each bundle that
 * uses it, tree-shaken to what that bundle calls: a shared module keeps all its exports, and sharing zod would put
 * all of it in the API client (338 KB → 726 KB) for 17 KB saved (the API client's zod/mini and the MCP SDK's zod
 * share its core). Plus the per-bundle shims of `vscode` and Node's modules.
 */
const DUPLICATE_BYTES_BOUND = 24 * 1024;

/**
 * Gives each module used by two bundles or more a home: the first of them in HOME_ORDER. Only ES modules are
 * shared (their namespace object is the module); the `vscode` and `node:` shims stay per bundle. Returns the
 * modules newly homed.
 */
function homeDuplicates(metafiles, homes) {
  const bundles = new Map();
  for (const metafile of metafiles) {
    for (const [file, output] of Object.entries(metafile.outputs)) {
      const part = path.basename(file, '.js');
      if (!HOME_ORDER.includes(part)) continue;
      for (const input of Object.keys(output.inputs)) {
        if (input.startsWith('src/')) bundles.set(input, [...(bundles.get(input) ?? []), part]);
      }
    }
  }
  let added = 0;
  for (const [input, parts] of bundles) {
    if (parts.length < 2) continue;
    const home = HOME_ORDER.find(part => parts.includes(part));
    if (homes.get(input) !== home) { homes.set(input, home); added++; }
  }
  return added;
}

/** Builds `part` with each module homed elsewhere read from its home, and exports what others read from it. */
function sharing(part, homes) {
  const exported = [...homes].filter(([, home]) => home === part).map(([input]) => input);
  return {
    name: 'share-modules',
    setup(build) {
      build.onResolve({ filter: /^shared-entry:/ }, args => ({ path: args.path.slice('shared-entry:'.length), namespace: 'shared-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'shared-entry' }, args => {
        // The part's own exports, and a registry of its modules: each as an object with one getter per export.
        const lines = [`export * from ${JSON.stringify(path.resolve(args.path))};`];
        lines.push('const esm = ns => Object.defineProperties({ __esModule: true }, Object.fromEntries(Object.keys(ns).map(k => [k, { get: () => ns[k], enumerable: true }])));');
        exported.forEach((input, i) => lines.push(`import * as m${i} from ${JSON.stringify(path.resolve(input))};`));
        lines.push(`export const __shared = { ${exported.map((input, i) => `${JSON.stringify(input)}: esm(m${i})`).join(', ')} };`);
        return { contents: lines.join('\n'), loader: 'js', resolveDir: path.resolve('.') };
      });
      // The home bundle beside this one, at run time.
      build.onResolve({ filter: /.*/, namespace: 'shared' }, args => ({ path: args.path, external: true }));
      build.onResolve({ filter: /.*/ }, async args => {
        if (args.pluginData?.sharing || args.namespace !== 'file' || /^(vscode|node:)/.test(args.path) || args.kind === 'entry-point') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { sharing: true } });
        if (found.errors.length || found.external || found.namespace !== 'file') return found.errors.length ? { errors: found.errors } : { path: found.path, namespace: found.namespace, external: found.external };
        const input = path.relative('.', found.path).split(path.sep).join('/');
        const home = homes.get(input);
        if (!home || home === part) return { path: found.path, sideEffects: found.sideEffects };
        return { path: input, namespace: 'shared', pluginData: { home } };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared' }, args => ({
        contents: `module.exports = require("./${args.pluginData.home}.js").__shared[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/** What is still shipped twice: each module's bytes in every bundle but its largest. */
function duplicateBytes(metafiles) {
  const copies = new Map();
  for (const metafile of metafiles) {
    for (const [file, output] of Object.entries(metafile.outputs)) {
      if (!file.endsWith('.js')) continue;
      // The `require` of a home (a line per module and bundle) is a reference, not a copy.
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (!input.startsWith('shared:')) copies.set(input, [...(copies.get(input) ?? []), bytesInOutput]);
    }
  }
  let total = 0;
  for (const sizes of copies.values()) total += sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes);
  return total;
}

if (watch) {
  // Watching rebuilds one context without sharing: every bundle works alone, only bigger.
  const ctx = await esbuild.context({ ...options, entryPoints, plugins: [oneNamespacePerModule, problemMatcher] });
  await ctx.watch();
} else {
  const buildAll = (homes, write) => Promise.all(Object.entries(entryPoints).map(([part, entry]) =>
    esbuild.build({
      ...options,
      write,
      entryPoints: { [part]: HOME_ORDER.includes(part) ? `shared-entry:${entry}` : entry },
      plugins: [...(HOME_ORDER.includes(part) ? [sharing(part, homes)] : []), oneNamespacePerModule, ...(write ? [problemMatcher] : [])],
    })));
  // A module shared keeps all its exports, which can bring in modules a bundle did not use before: share again
  // until nothing new is shipped twice.
  const homes = new Map();
  for (let round = 0; round < 5; round++) {
    if (!homeDuplicates((await buildAll(homes, false)).map(r => r.metafile), homes)) break;
  }
  const results = await buildAll(homes, true);
  const metafiles = results.map(r => r.metafile);
  if (process.env.MAT_METAFILE) fs.writeFileSync(process.env.MAT_METAFILE, JSON.stringify(metafiles));
  for (const metafile of metafiles) {
    for (const [file, out] of Object.entries(metafile.outputs)) {
      if (!file.endsWith('.js')) continue;
      console.log(`${file}  ${(out.bytes / 1024).toFixed(1)} KB`);
      // The start's cost comes back silently if a change of esbuild or of the plugin brings copies back: the one
      // `require("vscode")` of a bundle must be its module's `module.exports = require("vscode")`.
      const text = fs.readFileSync(file, 'utf8');
      const requires = text.match(/require\("vscode"\)/g)?.length ?? 0;
      const plain = text.match(/\.exports ?= ?require\("vscode"\)/g)?.length ?? 0;
      if (requires > 1 || plain !== requires) throw new Error(`${file}: ${requires} require("vscode"), ${plain} of them plain: oneNamespacePerModule no longer applies`);
    }
  }
  const twice = duplicateBytes(metafiles);
  console.log(`shipped twice: ${(twice / 1024).toFixed(1)} KB${production ? ` (bound ${DUPLICATE_BYTES_BOUND / 1024} KB)` : ''}`);
  // The bound is for what ships (minified): a development build only says it.
  if (production && twice > DUPLICATE_BYTES_BOUND) throw new Error(`${twice} bytes are shipped in more than one bundle (bound ${DUPLICATE_BYTES_BOUND}): a module esbuild.mjs does not share`);
  // A bundle this build did not write is stale (a renamed part): it must not be packaged (.vscodeignore takes dist/*.js).
  const written = new Set(metafiles.flatMap(m => Object.keys(m.outputs)).map(f => path.resolve(f)));
  for (const name of fs.readdirSync('dist')) {
    const file = path.resolve('dist', name);
    if (/\.js(\.map)?$/.test(name) && !written.has(file)) fs.rmSync(file);
  }
}
