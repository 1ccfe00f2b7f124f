#!/usr/bin/env node
// Runs compiled mocha tests in plain Node (the unit and e2e layers) and prints the closing line
// "<label>: N passed, N failed[, N skipped]". Exit code 1 on failures AND when no test ran.
// Usage: node runMocha.js <label> <timeoutMs> <glob relative to the repo root>...
// Env: MOCHA_GREP=<regexp> runs only matching tests.
'use strict';
const path = require('path');
const Mocha = require('mocha');
const { globSync } = require('glob');
const { REPO_ROOT } = require('./codeserver');

async function main() {
  const [label, timeout, ...patterns] = process.argv.slice(2);
  if (!label || !timeout || !patterns.length) throw new Error('usage: runMocha.js <label> <timeoutMs> <glob>...');
  const files = [...new Set(patterns.flatMap(p => globSync(p, { cwd: REPO_ROOT, absolute: true })))].sort();
  if (!files.length) {
    console.error(`${label}: no test files match ${patterns.join(' ')} (did \`npm run build:tests\` run?)`);
    return { label, passes: 0, failures: 1, pending: 0 };
  }
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: Number(timeout), grep: process.env.MOCHA_GREP || undefined });
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  const stats = await new Promise(resolve => { const r = mocha.run(() => resolve(r.stats)); });
  if (stats.passes + stats.failures === 0) {
    console.error(`${label}: no test ran`);
    return { label, passes: 0, failures: 1, pending: stats.pending };
  }
  return { label, passes: stats.passes, failures: stats.failures, pending: stats.pending };
}

main().then(r => {
  console.log(`${r.label}: ${r.passes} passed, ${r.failures} failed${r.pending ? `, ${r.pending} skipped` : ''}`);
  // Exit explicitly: leftover handles (servers, browsers) must not keep the layer alive.
  process.exit(r.failures ? 1 : 0);
}, e => {
  console.error(e && e.stack || e);
  console.log(`${process.argv[2] || 'mocha'}: 0 passed, 1 failed`);
  process.exit(1);
});
