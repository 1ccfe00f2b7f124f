/**
 * The extension's entry (package.json `main`): requires the activation bundle and measures what that costs —
 * reading, compiling and running its top level —, which the bundle cannot see of itself. VS Code counts the
 * same span as the extension's code loading; extension.ts logs it with the activation.
 */
import * as path from 'node:path';
import type * as Extension from './extension';

const start = performance.now();
const startCpu = process.cpuUsage();
// A computed path keeps esbuild from inlining the bundle this file measures.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require(path.join(__dirname, 'extension.js')) as typeof Extension;
const loaded: Extension.LoadCost = { ms: performance.now() - start, cpu: process.cpuUsage(startCpu) };

export const activate: typeof Extension.activate = context => extension.activate(context, loaded);
export const deactivate: typeof Extension.deactivate = () => extension.deactivate();
