// Case 6: bad input. Each gets a clear message and sends nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { openAndSelect, useExtensionWithEmulator, workspaceUri } from '../helpers';
import { shownMessage, withSetting } from './common';
import { kase } from './table';

describe('faults: 6 bad input', () => {
  const ctx = useExtensionWithEmulator();
  const dir = () => workspaceUri('badinput');
  before(async () => {
    await vscode.workspace.fs.createDirectory(dir());
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir(), 'image.bin'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir(), 'huge.txt'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    for (let i = 1; i <= 6; i++) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir(), `note${i}.txt`), Buffer.from(`note ${i}\n`));
  });
  afterEach(() => ctx.api.attachments.clear());
  after(async () => {
    await vscode.workspace.fs.delete(dir(), { recursive: true });
  });

  /** Nothing reached the service and nothing is tracked. */
  const nothingSent = () => {
    assert.deepStrictEqual(ctx.emulator.requests.map(r => `${r.method} ${r.path}`), [], 'no request');
    assert.strictEqual(ctx.api.store.all().length, 0);
  };

  kase('6 empty file: a clear message, no request', async () => {
    await openAndSelect('empty.txt');
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    await shownMessage(ctx, /empty\.txt is empty/);
    nothingSent();
  });

  kase('6 empty selection: offers the whole file; declined, no request', async () => {
    await openAndSelect('src/math.ts');
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    // A question the command waits on: a modal dialog, not a corner toast (issue 26).
    await shownMessage(ctx, /No code is selected/, ['ask']);
    nothingSent();
  });

  kase('6 binary file: a clear message, no request', async () => {
    await vscode.commands.executeCommand('multiAgent.orchestrateFile', vscode.Uri.joinPath(dir(), 'image.bin'));
    await shownMessage(ctx, /image\.bin looks like a binary file/);
    nothingSent();
  });

  kase('6 a file over 10 MB: refused to send and to attach, no request', async () => {
    await vscode.commands.executeCommand('multiAgent.orchestrateFile', vscode.Uri.joinPath(dir(), 'huge.txt'));
    await shownMessage(ctx, /huge\.txt is 10\.0 MB; files up to 10 MB can be sent/);
    await vscode.commands.executeCommand('multiAgent.attachToNextTask', vscode.Uri.joinPath(dir(), 'huge.txt'));
    // An attachment goes in one request, which the platform caps at 4,500,000 bytes.
    await shownMessage(ctx, /huge\.txt is 10\.0 MB; the service takes attachments up to 4\.5 MB \(4,500,000 bytes\)/);
    assert.strictEqual(ctx.api.attachments.count, 0);
    nothingSent();
  });

  kase('6 a sixth attachment: refused, the five stay, no request', async () => {
    const notes = [1, 2, 3, 4, 5, 6].map(i => vscode.Uri.joinPath(dir(), `note${i}.txt`));
    await vscode.commands.executeCommand('multiAgent.attachToNextTask', notes[0], notes.slice(0, 5));
    assert.strictEqual(ctx.api.attachments.count, 5);
    await vscode.commands.executeCommand('multiAgent.attachToNextTask', notes[5]);
    await shownMessage(ctx, /At most 5 files can go with a task/);
    assert.strictEqual(ctx.api.attachments.count, 5);
    nothingSent();
  });

  kase('6 a prompt of 10,001 characters: never sent as text, and not uploaded when the instruction alone is too long', async () => {
    await openAndSelect('src/math.ts', 0, 3);
    const instruction = 'a'.repeat(10_001);
    ctx.user.inputs = [instruction];
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    await shownMessage(ctx, /would be 10,\d{3} characters.*Nothing was sent/, ['warn']);
    nothingSent();
    ctx.user.inputs = [instruction];
    ctx.user.onMessage = s => (s.actions.includes('Send as Attachment') ? 'Send as Attachment' : undefined);
    await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
    await shownMessage(ctx, /instruction alone is over 10,000 characters/);
    nothingSent();
  });

  const badSettings: [string, unknown, RegExp][] = [
    ['agentCount', 9, /multiAgent\.agentCount must be a whole number from 1 to 8 \(it is 9\)/],
    ['agentCount', 0, /multiAgent\.agentCount must be a whole number from 1 to 8 \(it is 0\)/],
    ['roleModels', { critic: 42 }, /multiAgent\.roleModels must map role names to model ids/],
    ['roleModels', ['openai/gpt-5.1'], /multiAgent\.roleModels must map role names to model ids/],
    ['baseUrl', 'not a url', /"not a url" is not a valid URL/],
  ];
  for (const [name, value, message] of badSettings) {
    kase(`6 ${name} = ${JSON.stringify(value)}: a clear message before any question, no request`, async () => {
      const undo = await withSetting(name, value);
      try {
        await openAndSelect('src/math.ts', 0, 3);
        ctx.user.inputs = ['Never asked'];
        await vscode.commands.executeCommand('multiAgent.orchestrateSelection');
        const shown = await shownMessage(ctx, message);
        assert.deepStrictEqual(shown.actions, ['Open Settings']);
        assert.deepStrictEqual(ctx.user.messages('input'), [], 'the user is not asked for an instruction first');
        nothingSent();
      } finally {
        await undo();
      }
    });
  }
});
