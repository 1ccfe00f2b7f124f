/**
 * Issue 35: the one list of files that may hold secrets. Attach Files… asks about them; a tool call (MCP
 * run_task, the #multiAgent tool) refuses them through `refuseSensitiveFiles` (tasks/sending/delegate.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isSensitivePath } from '../../src/tasks/sending/sensitiveFiles';

const ROOT = path.join(__dirname, '../../..');

describe('files that may hold secrets (one list)', () => {
  it('the files a tool call attached without a question in 0.4.0, and the usual others', () => {
    for (const p of [
      '.git/config',
      '.git/hooks/pre-commit',
      'sub/.git/config',
      '.git-credentials',
      '.envrc',
      '.pypirc',
      '.env',
      '.env.local',
      'app/.env.production',
      '.npmrc',
      '.netrc',
      '_netrc',
      '.aws/credentials',
      '.ssh/id_ed25519',
      'id_rsa',
      'keys/server.pem',
      'certs/site.key',
      'secrets.yaml',
      'credentials.json',
      '.docker/config.json',
      '.kube/config',
    ]) {
      assert.equal(isSensitivePath(p), true, p);
    }
  });

  it('judged as Windows opens the name: trailing dots and spaces, a data stream, any case, either separator', () => {
    for (const p of ['.git./config', '.GIT\\config', '.envrc.', '.pypirc ', '.env::$DATA', 'sub\\.Git\\HEAD', '.Git-Credentials']) {
      assert.equal(isSensitivePath(p), true, p);
    }
  });

  it('ordinary files pass', () => {
    for (const p of ['src/config.ts', 'README.md', '.gitignore', '.github/workflows/ci.yml', 'src/env.ts', 'keys.ts', 'docs/secrets-management.md', 'environment.yml', '.vscode/settings.json', 'git/config.ts']) {
      assert.equal(isSensitivePath(p), false, p);
    }
  });

  it('is declared once: no other source file carries its own list', () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (full.endsWith('.ts') && !full.endsWith(path.join('sending', 'sensitiveFiles.ts'))) {
          if (/pypirc|id_\(rsa|git-credentials/.test(fs.readFileSync(full, 'utf8'))) hits.push(path.relative(ROOT, full));
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    assert.deepEqual(hits, []);
  });
});
