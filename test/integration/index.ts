// Entry point loaded INSIDE the VS Code extension host (extensionTestsPath); VS Code awaits run().
// Runs every *.test.js under out/test/integration/ with mocha. Env MOCHA_GREP filters tests.
import * as path from 'path';
import Mocha from 'mocha';
import { globSync } from 'glob';
import { runMarkedLast } from './runsLast';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    grep: process.env.MOCHA_GREP || undefined,
  });
  for (const f of globSync('**/*.test.js', { cwd: __dirname }).sort()) {
    mocha.addFile(path.resolve(__dirname, f));
  }
  // The one root hook: the suites that check what the whole run left behind (describeLast) run after the others.
  mocha.suite.beforeAll(function () {
    runMarkedLast(mocha.suite);
  });
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(failures => {
        const s = runner.stats!;
        // Closing line; the outside runner picks it up (the format is matched there).
        console.log(`integration: ${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (s.passes === 0) reject(new Error('no integration tests ran'));
        else resolve();
      });
    } catch (err) {
      console.log('integration: 0 passed, 1 failed');
      reject(err);
    }
  });
}
