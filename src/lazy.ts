/**
 * The parts of the extension the first minute does not need: each is its own bundle (esbuild.mjs builds
 * dist/<part>.js from LAZY_PARTS), required on first use through `lazy()`, so activation
 * parses only what it runs. Other modules name a part's module with `import type` only (architecture test).
 * Each module is shipped once: a part's bundle reads what another bundle already holds from there (esbuild.mjs),
 * so a part also loads the parts whose modules it uses.
 */
import * as path from 'node:path';

/** Each part and its module under src/ (esbuild.mjs reads this table). */
export const LAZY_PARTS = {
  api: 'api/index',
  checking: 'tasks/checking/index',
  commands: 'commands/index',
  core: 'core',
  mcp: 'mcp/bundle',
  results: 'views/pages/resultPanel',
  review: 'review/index',
  transcripts: 'views/pages/transcriptPanel',
  usage: 'views/pages/usagePanel',
} as const;

export type LazyPart = keyof typeof LAZY_PARTS;

const loaded = new Map<LazyPart, unknown>();
let report: ((part: LazyPart, ms: number) => void) | undefined;

/** Tells `to` what each part's first load took (the shell logs it; the bench reads the log). */
export function reportPartLoads(to: (part: LazyPart, ms: number) => void): void {
  report = to;
}

/** A loader of the part's module: the first call requires it (synchronously, a few ms), later calls return it. */
export function lazy<T>(part: LazyPart): () => T {
  return () => {
    if (!loaded.has(part)) {
      // Bundled (into dist/extension.js or any bundle beside it): dist/<part>.js. From compiled sources
      // (out/src/lazy.js): the module itself. A computed path keeps esbuild from inlining the part.
      const file = path.basename(__filename) !== 'lazy.js' ? `${part}.js` : `${LAZY_PARTS[part]}.js`;
      const started = performance.now();
      loaded.set(part, require(path.join(__dirname, file)));
      report?.(part, performance.now() - started);
    }
    return loaded.get(part) as T;
  };
}

/**
 * `build` run once, on the first call; later calls return what it built. A build that threw is not run again
 * (half of what it made would stay behind each time): every later call throws its error. The shell builds the
 * team's core through it (extension.ts).
 */
export function buildOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  let failed: { error: unknown } | undefined;
  return () => {
    if (failed) throw failed.error;
    if (!built) {
      try {
        built = { value: build() };
      } catch (e) {
        failed = { error: e };
        throw e;
      }
    }
    return built.value;
  };
}
