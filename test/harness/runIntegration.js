#!/usr/bin/env node
// Integration layer: the mocha suite in out/test/integration/ runs inside the real VS Code extension
// host (code-server + headless Chromium), launched through @vscode/test-electron's runTests() with
// the shim as the "VS Code executable" (nothing is downloaded when vscodeExecutablePath is given).
// Needs `npm run build` (dist/extension.js) and `npm run build:tests` (out/) first.
// Env: VSCODE_VERSION=1.100|newest, MOCHA_GREP=<regexp>, MAT_EXTENSION_PATH=<ext root> (default repo root),
//      MAT_MULTI_ROOT=1 (open a workspace of two folders instead of test/workspace: the multi-root suites),
//      plus everything in runExtTests.js / codeserver.js. The extension host gets MAT_INTEGRATION=1.
'use strict';
const fs = require('fs');
const path = require('path');
const { runTests } = require('@vscode/test-electron');
const { REPO_ROOT, resolveCodeServer, makeRunDir, copyWorkspace, multiRootWorkspace } = require('./codeserver');

(async () => {
  const ext = path.resolve(process.env.MAT_EXTENSION_PATH || REPO_ROOT);
  const testsPath = path.join(ext, 'out', 'test', 'integration', 'index.js');
  const scratch = makeRunDir('mat-int-');
  const resultFile = path.join(scratch, 'result.txt');
  let code = 0;
  try {
    console.log(`[integration] ${resolveCodeServer().label}; extension ${ext}`);
    if (!fs.existsSync(testsPath)) throw new Error(`${testsPath} missing: run \`npm run build:tests\``);
    await runTests({
      vscodeExecutablePath: path.join(__dirname, 'codeTestShim.js'),
      extensionDevelopmentPath: ext,
      extensionTestsPath: testsPath,
      // A copy of test/workspace, so tests may edit files without touching the repo.
      launchArgs: [(process.env.MAT_MULTI_ROOT === '1' ? multiRootWorkspace : copyWorkspace)(path.join(ext, 'test', 'workspace'), scratch)],
      // Keeps test-electron from pointing at ./.vscode-test (the shim ignores these anyway).
      reuseMachineInstall: true,
      extensionTestsEnv: { MAT_INTEGRATION: '1', MAT_RESULT_FILE: resultFile },
    });
  } catch (e) {
    console.error(`[integration] ${e.message}`);
    code = 1;
  }
  // test-electron prints "Exit code: N" after the shim's output: repeat the closing line last.
  let closing = fs.existsSync(resultFile) ? fs.readFileSync(resultFile, 'utf8').trim() : '';
  if (!closing) closing = 'integration: 0 passed, 1 failed';
  if (code === 0) fs.rmSync(scratch, { recursive: true, force: true });
  else console.log(`[integration] kept ${scratch} (workspace copy)`);
  console.log(closing);
  process.exit(code);
})();
