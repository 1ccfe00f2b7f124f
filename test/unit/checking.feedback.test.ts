/** What "Ask the Team to Fix" sends: redacted, bounded, fenced (tasks/checking/feedback.ts, issue 37). */
import * as assert from 'node:assert/strict';
import { fencedBlocks } from '../../src/review';
import { FIX_REQUEST_MAX_CHARS, fixRequest, machineSecrets, redactCommand, redactForTeam } from '../../src/tasks/checking/feedback';
import { type CheckRecord, FIX_REQUEST_OPENING } from '../../src/tasks/checking/types';
import { assertLinear, fiveMegabytesOf } from './linearTime';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
const HOME = '/home/dana';
const WORKSPACE = '/home/dana/projects/shop';
const SCRATCH = '/tmp/multi-agent-check-x1y2z3/shop';

function record(extra: Partial<CheckRecord> = {}): CheckRecord {
  return {
    id: 'c1',
    command: 'npm test',
    startedAt: 0,
    after: { end: 'failed', exitCode: 1, durationMs: 900, summary: '12 passed, 1 failed', failing: ['mean of nothing'], tail: '', outputBytes: 100 },
    changes: { files: ['src/mean.js'], leftOut: [] },
    newlyFailing: ['mean of nothing'],
    verdict: 'failing',
    ...extra,
  };
}

const OUTPUT = [
  '> shop@1.0.0 test',
  '> node --test',
  '',
  '✖ mean of nothing (1.1ms)',
  '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  `      at TestContext.<anonymous> (${SCRATCH}/test/mean.test.js:5:10)`,
  `      at Object.<anonymous> (${WORKSPACE}/node_modules/foo/index.js:1:1)`,
  `      at run (${HOME}/.nvm/versions/node/v20.11.0/lib/node_modules/npm/index.js:3:3)`,
  '      at Test.run (node:internal/test_runner/test:796:25)',
  `  request to https://api.example.com/v1/things?key=${KEY} failed`,
  '  config read from /etc/shop/config.json and C:\\Users\\dana\\AppData\\shop.ini',
  `  see file://${SCRATCH}/coverage/index.html`,
  'ℹ tests 13',
  'ℹ pass 12',
  'ℹ fail 1',
].join('\n');

const request = (extra: Partial<Parameters<typeof fixRequest>[0]> = {}) =>
  fixRequest({ command: 'npm test', record: record(), output: OUTPUT, secrets: [KEY], home: HOME, roots: [WORKSPACE, `${SCRATCH}/`], ...extra });

describe('checking: the fix request sent to the team', () => {
  it('opens with FIX_REQUEST_OPENING, says what ran and what newly fails, ends asking for whole files by path', () => {
    const text = request();
    assert.ok(text.startsWith(`${FIX_REQUEST_OPENING}\n`), text);
    assert.ok(text.includes('I ran `npm test` on your proposal: it fails.'));
    assert.ok(text.includes('Summary: 12 passed, 1 failed'));
    assert.ok(text.includes('Newly failing with your change:\n- mean of nothing\n'));
    assert.ok(!text.includes('Left out of the check'), 'nothing was left out');
    assert.match(text, /```text\n> shop@1\.0\.0 test\n[^]*ℹ fail 1\n```\n\nPlease send a corrected proposal: the whole of each file you change[^]*workspace-relative path/);
  });

  it('says which files the check left out, and why', () => {
    const text = request({
      record: record({ changes: { files: ['src/mean.js'], leftOut: [{ path: 'package.json', why: 'runsCode' }, { path: 'b/x.js', why: 'otherFolder' }] } }),
    });
    assert.ok(text.includes('Left out of the check:\n- package.json (it can run code, so it was not applied for the check)\n- b/x.js (it belongs to another folder)'), text);
  });

  it('redacts the key, the roots (→ .), the home folder (→ ~) and any other absolute path (→ …/last)', () => {
    const text = request();
    assert.ok(!text.includes(KEY) && text.includes('?key=[redacted] failed'), 'the key');
    assert.ok(text.includes('(./test/mean.test.js:5:10)'), 'the scratch copy is the workspace: relative paths');
    assert.ok(text.includes('(./node_modules/foo/index.js:1:1)'), 'the workspace folder');
    assert.ok(text.includes('(~/.nvm/versions/node/v20.11.0/lib/node_modules/npm/index.js:3:3)'), 'the home folder');
    assert.ok(text.includes('config read from …/config.json and …/shop.ini'), 'other absolute paths, POSIX and Windows');
    assert.ok(text.includes('see file://./coverage/index.html'), 'a file URL of the copy');
    assert.ok(text.includes('https://api.example.com/v1/things'), 'a URL is not a path');
    assert.ok(text.includes('(node:internal/test_runner/test:796:25)'), 'node internals untouched');
    for (const secret of [HOME, 'dana', 'multi-agent-check', '/etc/', 'AppData']) assert.ok(!text.includes(secret), `${secret} is out`);
  });

  it('redaction: a root only as a whole path, longest first, with or without its separator; short secrets ignored', () => {
    const opts = { secrets: ['short', 'a-long-secret-value'], home: '/home/u', roots: ['/w/app', '/w/app/sub/'] };
    assert.equal(redactForTeam('/w/app/sub/x.ts /w/app/y.ts /w/app /w/apples/z.ts /v/w/app/q', opts), './x.ts ./y.ts . …/z.ts …/q');
    assert.equal(redactForTeam('short a-long-secret-value', opts), 'short [redacted]');
    assert.equal(redactForTeam('/home/u/.npmrc and /home/user2/x and /home/u', opts), '~/.npmrc and …/x and ~');
    assert.equal(redactForTeam('12/05/2024 a / b ./rel/x ../up/y src/z /single', opts), '12/05/2024 a / b ./rel/x ../up/y src/z /single');
    assert.equal(redactForTeam('C:\\proj\\src\\a.ts:3 "C:/proj/b.ts"', { secrets: [], roots: ['C:\\proj'] }), '.\\src\\a.ts:3 "./b.ts"');
  });

  it('issue 44: nothing secret goes to the service — secret variables\' values, .env values, URL passwords, a command\'s NAME=value prefixes', () => {
    const env = { GITHUB_TOKEN: 'ghp_abcdefghijklmnop', DATABASE_URL: 'postgres://app:hunter2hunter2@db.internal/shop', NPM_TOKEN: 'npm_shortish_value', PATH: '/usr/bin:/bin', HOME: '/home/dana', SHORT_KEY: 'abc' };
    const dotEnv = 'STRIPE_KEY="sk_live_0123456789abcdef"\n# a comment\nexport MAIL_PASS=correct-horse-battery\nDEBUG=1\n';
    const secrets = [KEY, ...machineSecrets(env, dotEnv)];
    assert.deepEqual(machineSecrets(env, dotEnv).sort(), ['correct-horse-battery', 'ghp_abcdefghijklmnop', 'npm_shortish_value', 'postgres://app:hunter2hunter2@db.internal/shop', 'sk_live_0123456789abcdef'].sort());
    const leaky = [OUTPUT, 'env dump: GITHUB_TOKEN=ghp_abcdefghijklmnop', 'connecting to postgres://app:hunter2hunter2@db.internal/shop', 'stripe key sk_live_0123456789abcdef', 'mail correct-horse-battery', 'other url https://bob:pa55word@git.example/x'].join('\n');
    const command = 'DATABASE_URL=postgres://app:hunter2hunter2@db.internal/shop API_TOKEN="tok en" node --test';
    const text = request({ command, output: leaky, secrets });
    for (const secret of ['ghp_abcdefghijklmnop', 'hunter2hunter2', 'sk_live_0123456789abcdef', 'correct-horse-battery', 'pa55word', 'tok en']) assert.ok(!text.includes(secret), secret);
    assert.ok(text.includes('node --test'), 'the command itself is said');
    assert.equal(redactCommand(command, []), 'DATABASE_URL=*** API_TOKEN=*** node --test');
    assert.equal(redactCommand('node --test --grep=FOO=bar', []), 'node --test --grep=FOO=bar', 'only leading assignments');
  });

  it('a fence in the output cannot close the block: the fence is longer than any backtick run', () => {
    const output = 'before\n```\nafter a fence\n`````js\ninner\n`````\nend of output';
    const text = request({ output });
    assert.ok(text.includes('``````text\n'), 'a fence of six backticks');
    // The team's reader sees one block holding the whole output.
    const outputBlocks = fencedBlocks(text).blocks;
    assert.equal(outputBlocks.length, 1);
    assert.ok(outputBlocks[0].code.includes('`````js\ninner\n`````\nend of output'), JSON.stringify(outputBlocks[0].code));
  });

  it('bounded: at most maxChars in all, keeping the end of the output (where the failures are)', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `log line ${i} ${'·'.repeat(20)}`);
    const output = `${lines.join('\n')}\n✖ the failure at the end\n${'`'.repeat(40)}\n`;
    for (const maxChars of [FIX_REQUEST_MAX_CHARS, 3000, 1200]) {
      const text = request({ output, maxChars });
      assert.ok(text.length <= maxChars, `${text.length} > ${maxChars}`);
      assert.ok(text.includes('✖ the failure at the end'), `${maxChars}: the end is kept`);
      assert.ok(text.includes('The end of the output (its beginning left out):'));
      assert.ok(!text.includes('log line 0 '), 'the beginning is out');
      assert.ok(text.endsWith('so that I can review and check it again.'), 'the closing is kept');
    }
    assert.equal(request({ output, maxChars: undefined }).length <= FIX_REQUEST_MAX_CHARS, true);
    // Too small for any output: the request without it, still bounded.
    const tiny = request({ output, maxChars: 450 });
    assert.ok(tiny.length <= 450 && !tiny.includes('log line') && tiny.startsWith(FIX_REQUEST_OPENING), tiny);
  });

  it('redacts before bounding: a key or path cut by the bound cannot leak half of itself', () => {
    // The bound falls at every place of the key and the path in turn.
    for (let pad = 250; pad < 600; pad += 3) {
      const output = `${'x'.repeat(20_000)}\n${KEY} ${WORKSPACE}/src/a.js${'y'.repeat(pad)}`;
      const text = request({ output, maxChars: 1000 });
      assert.ok(!text.includes(KEY.slice(-12)) && !text.includes('shop/src') && !text.includes('dana'), text.slice(-400));
    }
  });

  it('redaction is linear (5 MB of path-like and root-like text)', function () {
    this.timeout(60_000);
    const opts = { secrets: [KEY], home: HOME, roots: [WORKSPACE, SCRATCH] };
    for (const unit of ['/a', '/', `${WORKSPACE.slice(0, -1)} `, 'C:\\a', 'file://', '//x']) assertLinear(fiveMegabytesOf(unit), text => redactForTeam(text, opts));
    assertLinear(fiveMegabytesOf('x\n'), text => fixRequest({ command: 'npm test', record: record(), output: text, secrets: [KEY], roots: [WORKSPACE] }));
  });
});
