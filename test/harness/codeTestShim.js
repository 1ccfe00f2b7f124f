#!/usr/bin/env node
// Stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }).
// test-electron spawns it as: <exe> [launchArgs...] --no-sandbox ... --extensionTestsPath=X
//   --extensionDevelopmentPath=Y --extensions-dir=.. --user-data-dir=..
// and takes its exit code as the result. We map that onto a code-server + headless Chromium run
// (runExtTests.js). Other VS Code flags are accepted and ignored (the run uses fresh dirs).
'use strict';
const { runExtensionTests } = require('./runExtTests');

const args = process.argv.slice(2);
const VALUE_FLAGS = ['--extensionTestsPath', '--extensionDevelopmentPath', '--user-data-dir', '--extensions-dir'];
const opt = name => {
  const i = args.findIndex(a => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
};
const positional = args.filter((a, i) => !a.startsWith('-') && !VALUE_FLAGS.includes(args[i - 1]));
const extensionTestsPath = opt('extensionTestsPath');
const extensionDevelopmentPath = opt('extensionDevelopmentPath');
if (!extensionTestsPath || !extensionDevelopmentPath) {
  console.error('codeTestShim: need --extensionTestsPath and --extensionDevelopmentPath');
  process.exit(1);
}
runExtensionTests({ extensionDevelopmentPath, extensionTestsPath, workspace: positional[0] })
  .then(c => process.exit(c));
