/** Issue 35.10: a core that fails to build is not built again (extension.ts builds it through `buildOnce`). */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildOnce } from '../../src/lazy';

describe('the core is built once (buildOnce)', () => {
  it('built once, then the same value', () => {
    let builds = 0;
    const get = buildOnce(() => ({ n: ++builds }));
    assert.equal(get(), get());
    assert.equal(builds, 1);
  });

  it('a build that threw is not run again: every later call throws its error', () => {
    let builds = 0;
    const failure = new Error('half-built');
    const get = buildOnce(() => {
      builds++;
      throw failure;
    });
    for (let i = 0; i < 3; i++) assert.throws(get, e => e === failure);
    assert.equal(builds, 1, 'built once only');
  });

  it('the shell builds the team’s core through it, and nowhere else', () => {
    const shell = fs.readFileSync(path.join(__dirname, '../../../src/extension.ts'), 'utf8');
    const calls = shell.split('.buildCore(').length - 1;
    assert.equal(calls, 1, 'one call of buildCore');
    const at = shell.indexOf('.buildCore(');
    const wrapper = shell.lastIndexOf('buildOnce(', at);
    assert.ok(wrapper >= 0 && !shell.slice(wrapper, at).includes('});\n'), 'buildCore is called inside buildOnce(…)');
  });
});
