/**
 * The Threads view shows the service's thread titles and messages cleaned as file names are (issue 35 item 5):
 * a right-to-left override, a bidi isolate, a zero-width space or a control character neither reorders nor
 * hides what a row, its tooltip or its accessible label says.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { useExtensionWithEmulator, waitFor } from './helpers';

/** What must never reach a row: C0/C1 controls, zero-width and bidi controls, the BOM. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

interface Row {
  kind: string;
  thread?: { id: number | string };
}

describe('threads: titles and messages shown without hidden characters', function () {
  const ctx = useExtensionWithEmulator();

  it('a thread row, its messages, tooltips and accessible labels hold no bidi override or control character', async () => {
    const client = ctx.api.api.client();
    const thread = await client.createThread({ title: 'Invoice\u202Efdp.exe\u202C \u2066review\u2069\u200B\u0007' });
    ctx.emulator.setNextTask({ result: 'Agents\u202E say: done\u001b[31m red\u0000' });
    await client.runInThread(thread.id, { prompt: 'Why\u2067 is it\u0008 slow\u202D?' });
    await waitFor(async () => ((await client.listThreadMessages(thread.id)).messages ?? []).length >= 2 || undefined, 'the thread to hold both messages');
    ctx.api.threads.refresh();
    const row = await waitFor(async () => ((await ctx.api.sidebar.threads.getChildren()) as unknown as Row[]).find(n => n.kind === 'thread' && String(n.thread?.id) === String(thread.id)), 'the thread row');
    const item = ctx.api.sidebar.threads.getTreeItem(row as never) as vscode.TreeItem;
    assert.strictEqual(item.label, 'Invoice fdp.exe review');
    const messages = (await ctx.api.sidebar.threads.getChildren(row as never)) as unknown as Row[];
    assert.ok(messages.filter(m => m.kind === 'message').length >= 2, JSON.stringify(messages));
    for (const node of [row, ...messages]) {
      const shown = ctx.api.sidebar.threads.getTreeItem(node as never) as vscode.TreeItem;
      const tooltip = shown.tooltip instanceof vscode.MarkdownString ? shown.tooltip.value : String(shown.tooltip ?? '');
      for (const [what, text] of [['label', String(shown.label)], ['tooltip', tooltip], ['accessible label', shown.accessibilityInformation?.label ?? '']]) {
        assert.doesNotMatch(text.replace(/\n/g, ' '), HIDDEN, `${node.kind} ${what}: ${JSON.stringify(text)}`);
      }
    }
    const labels = messages.map(m => String((ctx.api.sidebar.threads.getTreeItem(m as never) as vscode.TreeItem).label));
    assert.ok(labels.some(l => /^You: Why is it slow ?\?$/.test(l)), labels.join(' | '));
  });
});
