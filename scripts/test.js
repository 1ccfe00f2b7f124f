#!/usr/bin/env node
// Test entry point: node scripts/test.js [unit|integration|e2e ...]   (no args = all three, in order)
//   unit         mocha in plain Node on out/test/unit/**/*.test.js (timeout 20 s)
//   integration  mocha inside the real VS Code extension host (test/harness/runIntegration.js)
//   e2e          `npm run package`, then mocha in plain Node on out/test/e2e/**/*.e2e.js (timeout 180 s),
//                driving the installed .vsix in code-server through headless Chromium
// Builds once first (`npm run build`, `npm run build:tests`; MAT_SKIP_BUILD=1 skips that).
// Integration runs on VS Code 1.100 and then on the newest code-server when no layer is named
// (MAT_SKIP_NEWEST=1: only 1.100); VSCODE_VERSION=1.100|newest picks exactly one version. After each, the
// suites titled "several folders (multi-root)" run again alone in a workspace of two folders
// (MAT_SKIP_MULTI_ROOT=1 skips that; a MOCHA_GREP that does not match that title does too).
// Every layer runs even if one fails. The last line is the total "N passed, N failed"; the exit
// code is non-zero when anything failed or a layer reported no result.
// Before integration or e2e it installs what they need (scripts/install-vscode.sh: apt packages,
// Chromium, code-server for each VS Code version, Node 24 for the newest): a no-op once installed,
// so a newcomer's first `npm test` on a fresh machine works. MAT_SKIP_INSTALL=1 skips that step.
'use strict';
const { spawn } = require('child_process');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const LAYERS = ['unit', 'integration', 'e2e'];
/** The integration suites that run in a workspace of two folders too (their title; they skip with one folder). */
const MULTI_ROOT_SUITE = 'several folders (multi-root)';
const flag = name => !!process.env[name] && !/^(0|false|no)$/i.test(process.env[name]);
const CLOSING_RE = /^([\w-]+): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

/** Runs a command with inherited stdin-less stdio teed to ours; resolves { code, lines }. */
function run(cmd, args, env = {}) {
  return new Promise(resolve => {
    const p = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = [];
    let buf = '';
    p.stdout.on('data', d => {
      process.stdout.write(d);
      buf += d;
      const parts = buf.split('\n');
      buf = parts.pop();
      lines.push(...parts);
    });
    p.stderr.on('data', d => process.stderr.write(d));
    p.on('error', e => { console.error(`${cmd}: ${e.message}`); });
    p.on('close', code => { if (buf) lines.push(buf); resolve({ code: code ?? 1, lines }); });
  });
}

const banner = s => console.log(`\n===== ${s} (${new Date().toISOString().slice(11, 19)})`);

/** Runs one layer's command; returns its result from the LAST closing line "<label>: N passed, N failed". */
async function layer(name, label, cmd, args, env) {
  banner(name);
  const t0 = Date.now();
  const { code, lines } = await run(cmd, args, env);
  let m;
  for (const l of lines) { const x = CLOSING_RE.exec(l.trim()); if (x && x[1] === label) m = x; }
  const r = { name, passed: m ? Number(m[2]) : 0, failed: m ? Number(m[3]) : 0, skipped: m ? Number(m[4] || 0) : 0,
    secs: (Date.now() - t0) / 1000, note: '' };
  // The failures' titles and first lines, repeated in the summary: CI shows only the end of the output.
  const failing = lines.findIndex(l => /\b\d+ failing\b/.test(l));
  r.failures = failing < 0 ? [] : lines.slice(failing, failing + 40).filter(l => l.trim());
  if (!m) { r.failed += 1; r.note = ' (no result reported)'; }
  else if (code !== 0 && r.failed === 0) { r.failed = 1; r.note = ` (exit code ${code})`; }
  else if (r.passed + r.failed === 0) { r.failed = 1; r.note = ' (no tests ran)'; }
  return r;
}

async function main() {
  const requested = process.argv.slice(2);
  for (const a of requested) {
    if (!LAYERS.includes(a)) { console.error(`unknown layer "${a}"; use: ${LAYERS.join(' ')}`); process.exit(2); }
  }
  const layers = requested.length ? LAYERS.filter(l => requested.includes(l)) : LAYERS;
  const versions = process.env.VSCODE_VERSION ? [process.env.VSCODE_VERSION]
    : !requested.length && !flag('MAT_SKIP_NEWEST') ? ['1.100', 'newest'] : ['1.100'];
  const results = [];
  let installFailed = false;

  // The unit layer alone needs the check's sandbox too (issue 44): Debian's bubblewrap, installed once.
  if (!flag('MAT_SKIP_INSTALL') && process.platform === 'linux' && layers.length === 1 && layers[0] === 'unit') {
    const { code } = await run('bash', ['-c', 'command -v bwrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap; }']);
    if (code !== 0) results.push({ name: 'install bubblewrap', passed: 0, failed: 1, skipped: 0, secs: 0, note: ` (exit code ${code})` });
  }
  if (!flag('MAT_SKIP_INSTALL') && (layers.includes('integration') || layers.includes('e2e'))) {
    // e2e runs on 1.100, its chat suite on the newest (the Chat view); integration on each requested version.
    const needed = new Set(layers.includes('e2e') ? ['1.100', 'newest'] : []);
    if (layers.includes('integration')) for (const v of versions) needed.add(v);
    for (const v of needed) {
      const arg = v === 'newest' || v.startsWith('1.139') ? '24' : '20';
      banner(`install VS Code ${v} (scripts/install-vscode.sh ${arg})`);
      const { code } = await run('bash', [path.join(ROOT, 'scripts/install-vscode.sh'), arg]);
      if (code !== 0) {
        results.push({ name: `install VS Code ${v}`, passed: 0, failed: 1, skipped: 0, secs: 0, note: ` (exit code ${code})` });
        installFailed = true; // the unit layer still runs; nothing above it can
        break;
      }
    }
  }

  if (!flag('MAT_SKIP_BUILD')) {
    for (const script of ['build', 'build:tests']) {
      banner(`npm run ${script}`);
      const { code } = await run('npm', ['run', script]);
      if (code !== 0) {
        results.push({ name: `npm run ${script}`, passed: 0, failed: 1, skipped: 0, secs: 0, note: ` (exit code ${code})` });
        return results; // nothing meaningful can run on a broken build
      }
    }
  }

  for (const l of layers) {
    if (installFailed && l !== 'unit') continue;
    if (l === 'unit') {
      results.push(await layer('unit', 'unit', process.execPath,
        [path.join(ROOT, 'test/harness/runMocha.js'), 'unit', '20000', 'out/test/unit/**/*.test.js']));
    } else if (l === 'integration') {
      for (const v of versions) {
        results.push(await layer(`integration (VS Code ${v})`, 'integration', process.execPath,
          [path.join(ROOT, 'test/harness/runIntegration.js')], { VSCODE_VERSION: v }));
        // The suites that need several folders (issue 26) again, alone, in a workspace of two: a short run.
        const grep = process.env.MOCHA_GREP;
        if (!flag('MAT_SKIP_MULTI_ROOT') && (!grep || new RegExp(grep).test(MULTI_ROOT_SUITE))) {
          results.push(await layer(`integration, two folders (VS Code ${v})`, 'integration', process.execPath,
            [path.join(ROOT, 'test/harness/runIntegration.js')], { VSCODE_VERSION: v, MAT_MULTI_ROOT: '1', MOCHA_GREP: grep || 'multi-root' }));
        }
      }
    } else if (l === 'e2e') {
      banner('npm run package');
      const { code } = await run('npm', ['run', 'package']);
      if (code !== 0) {
        console.log('e2e: 0 passed, 1 failed');
        results.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0, secs: 0, note: ' (npm run package failed)' });
        continue;
      }
      results.push(await layer('e2e', 'e2e', process.execPath,
        [path.join(ROOT, 'test/harness/runMocha.js'), 'e2e', '180000', 'out/test/e2e/**/*.e2e.js']));
    }
  }
  return results;
}

main().then(results => {
  for (const r of results.filter(x => x.failures && x.failures.length)) {
    console.log(`\n===== what failed in ${r.name}`);
    for (const l of r.failures) console.log(l);
  }
  console.log('\n===== summary');
  for (const r of results) {
    console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note} [${r.secs.toFixed(0)} s]`);
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed || !results.length ? 1 : 0);
}, e => {
  console.error(e);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
