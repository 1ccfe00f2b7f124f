#!/usr/bin/env node
// Runs a mocha suite INSIDE code-server's real (Node) extension host, headlessly, through VS Code's
// extension-test protocol for web clients (as @vscode/test-web does): the workbench URL's `payload`
// carries extensionDevelopmentPath + extensionTestsPath as vscode-remote:// URIs; the extension host
// loads the dev extension, require()s extensionTestsPath and awaits its run(); the workbench then
// calls window.codeAutomationExit(code) and forwards the host's console to
// window.codeAutomationLog(type, args). Playwright exposes both to this process.
//
// Usage: node runExtTests.js <extensionDevelopmentPath> <extensionTestsPath> [workspaceFolder]
// Env: VSCODE_VERSION / CODE_SERVER_BIN (see codeserver.js), MAT_EXT_TEST_TIMEOUT_MS (default 1800000: the whole suite, which takes 8–10 min on a quiet 2-core machine and twice that on a busy one),
//      MAT_KEEP_TMP=1 keep the run folder also on success, MAT_BROWSER_LOG=1 print the page console,
//      MAT_RESULT_FILE=<file> also write the closing line there.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const { startCodeServer, workbenchUrl } = require('./codeserver');
const { launchChromium } = require('./chromium');

// The suite's own summary line, e.g. "integration: 3 passed, 0 failed, 1 skipped".
const SUMMARY_RE = /^([\w-]+): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

/** Runs the suite; resolves to the exit code (never rejects) after printing the closing line. */
async function runExtensionTests(opts) {
  const label = opts.label || 'integration';
  let res;
  try {
    res = await runOnce({ ...opts, label });
  } catch (e) {
    console.error(`[runner] ${e && e.stack || e}`);
    res = { code: 1 };
  }
  let closing = res.summary || `${label}: 0 passed, 1 failed`;
  const m = SUMMARY_RE.exec(closing);
  if (res.code !== 0 && Number(m[3]) === 0) closing = `${label}: ${m[2]} passed, 1 failed${m[4] ? `, ${m[4]} skipped` : ''}`;
  console.log(closing);
  if (process.env.MAT_RESULT_FILE) fs.writeFileSync(process.env.MAT_RESULT_FILE, `${closing}\n`);
  return res.code;
}

async function runOnce({ extensionDevelopmentPath, extensionTestsPath, workspace, settings, label,
  timeoutMs = Number(process.env.MAT_EXT_TEST_TIMEOUT_MS || 1800000) }) {
  const t0 = Date.now();
  const cs = await startCodeServer({ settings });
  console.log(`[runner] ${cs.label} up on ${cs.url} in ${Date.now() - t0} ms (run folder ${cs.root})`);
  const remote = p => `vscode-remote://127.0.0.1:${cs.port}${path.resolve(p)}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['enableProposedApi', ''],
    ['skipWelcome', 'true'],
  ]);
  const url = workbenchUrl(cs, workspace, `payload=${encodeURIComponent(payload)}`);

  const browser = await launchChromium({ profileDir: path.join(cs.root, 'chrome-profile') });
  let code = 1;
  let summary;
  try {
    const { context, page } = browser;
    const exit = new Promise(resolve => {
      context.exposeFunction('codeAutomationLog', (type, args) => {
        const line = util.format(...(Array.isArray(args) ? args : [args]));
        const m = SUMMARY_RE.exec(line.trim());
        if (m && m[1] === label) summary = line.trim();
        // Drop the workbench's offline-gallery noise and its stack frames.
        if (!/ENOTFOUND open-vsx\.org|^\s+at .*workbench\.js/.test(line)) console.log(`[ext-host:${type}] ${line}`);
      });
      context.exposeFunction('codeAutomationExit', c => resolve(c));
    });
    // VS Code >= ~1.13x honours the payload's extensionTestsPath only with
    // developmentOptions.enableSmokeTestDriver; code-server's CLI rejects --enable-smoke-test-driver,
    // so set it in <meta id="vscode-workbench-web-configuration" data-settings> as soon as the parser
    // inserts it, before workbench.js reads it. (Rewriting the HTML via page.route() breaks the
    // WebSockets: ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECK.)
    await context.addInitScript(() => {
      const patch = el => {
        if (!el || el.id !== 'vscode-workbench-web-configuration' || el.dataset.devPatched) return;
        const cfg = JSON.parse(el.getAttribute('data-settings'));
        cfg.developmentOptions = { ...(cfg.developmentOptions || {}), enableSmokeTestDriver: true };
        el.setAttribute('data-settings', JSON.stringify(cfg));
        el.dataset.devPatched = '1';
      };
      new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes) patch(n); })
        .observe(document, { childList: true, subtree: true });
    });
    if (process.env.MAT_BROWSER_LOG) page.on('console', m => console.log(`[browser:${m.type()}] ${m.text()}`));
    page.on('pageerror', e => console.log(`[browser:pageerror] ${e.message}`));
    await page.goto(url);
    let timer;
    const timeout = new Promise(resolve => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const r = await Promise.race([exit, timeout]);
    clearTimeout(timer);
    if (r === 'timeout') {
      const shot = path.join(cs.root, 'timeout.png');
      console.error(`[runner] TIMEOUT after ${timeoutMs} ms waiting for the suite (screenshot ${shot})`);
      await page.screenshot({ path: shot }).catch(() => {});
      code = 2;
    } else {
      code = r;
    }
  } finally {
    await browser.close();
  }
  if (!summary && code === 0) {
    console.error(`[runner] the suite exited 0 but never printed "${label}: N passed, N failed"`);
    code = 1;
  }
  if (code === 0 && !process.env.MAT_KEEP_TMP) await cs.cleanup();
  else { await new Promise(r => { cs.stop(); setTimeout(r, 1000); }); console.log(`[runner] kept run folder for inspection: ${cs.root} (code-server.log)`); }
  console.log(`[runner] exit code ${code} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { code, summary };
}

module.exports = { runExtensionTests, SUMMARY_RE };

if (require.main === module) {
  const [ext, tests, ws] = process.argv.slice(2);
  if (!ext || !tests) { console.error('usage: runExtTests.js <extensionDevelopmentPath> <extensionTestsPath> [workspace]'); process.exit(2); }
  runExtensionTests({ extensionDevelopmentPath: ext, extensionTestsPath: tests, workspace: ws, label: process.env.MAT_SUITE_LABEL })
    .then(c => process.exit(c));
}
