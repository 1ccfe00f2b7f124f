/**
 * Issue 35: the chat participant's name. Typing `@age` offered VS Code 1.139's own `@agent` before ours (`@agents`):
 * a name that a built-in participant's name starts, or that starts one, is shadowed in the suggestions.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The chat participants VS Code 1.139 brings (its built-in Copilot Chat extension's manifest, code-server 4.139.1). */
const BUILT_IN_PARTICIPANTS = ['GitHubCopilot', 'agent', 'vscode', 'terminal', 'workspace'];

describe('issue 35: the chat participant\'s name', () => {
  const manifest = JSON.parse(read('package.json')) as { contributes: { chatParticipants: { id: string; name: string }[] } };
  const [participant] = manifest.contributes.chatParticipants;

  it('is @team, which no built-in participant shadows (neither a prefix of it nor starting with it)', () => {
    assert.strictEqual(participant.name, 'team');
    for (const builtIn of BUILT_IN_PARTICIPANTS) {
      const [a, b] = [participant.name.toLowerCase(), builtIn.toLowerCase()];
      assert.ok(!a.startsWith(b) && !b.startsWith(a), `@${participant.name} and VS Code's @${builtIn}`);
    }
  });

  it('the texts a user reads name @team, never the old @agents', () => {
    for (const file of ['package.nls.json', 'scripts/demo.js', 'src/chat/participant.ts', 'media/walkthrough']) {
      const full = path.join(ROOT, file);
      const texts = fs.statSync(full).isDirectory() ? fs.readdirSync(full).filter(f => f.endsWith('.md')).map(f => read(path.join(file, f))) : [read(file)];
      for (const text of texts) assert.ok(!/@agents\b/.test(text), `${file} still says @agents`);
    }
  });
});
