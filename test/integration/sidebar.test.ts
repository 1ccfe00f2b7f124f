import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Sidebar } from '../../src/views/trees/sidebar';
import { SECOND_API_KEY } from '../emulator/server';
import { LEGACY_BASE_PATH } from '../emulator/types';
import { openAndSelect, setSetting, useExtensionWithEmulator, waitFor, workspaceUri } from './helpers';

type Node = { kind: string; [key: string]: unknown };

const iconOf = (item: vscode.TreeItem) => (item.iconPath as vscode.ThemeIcon | undefined)?.id;
/** Markdown as the user reads it: appendText escapes spaces and punctuation. */
const plainText = (md: unknown) => (md as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
const labelOf = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

describe('sidebar', () => {
  const ctx = useExtensionWithEmulator();
  const sidebar = (): Sidebar => {
    assert.ok(ctx.api.sidebar, 'registerSidebar put the providers on the services');
    return ctx.api.sidebar;
  };
  /** Reads the service directly over HTTP, not through the extension's client. */
  const serviceGet = async <T>(url: string): Promise<T> => {
    const res = await fetch(url, { headers: { 'x-api-key': ctx.emulator.apiKey } });
    assert.strictEqual(res.status, 200, url);
    return (await res.json()) as T;
  };
  const servicePost = async (url: string, body: unknown) => {
    const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': ctx.emulator.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.strictEqual(res.status, 200, url);
  };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mat-sidebar-'));
  const tmpFile = (name: string, bytes: Uint8Array | string) => {
    const file = path.join(scratch, name);
    fs.writeFileSync(file, bytes);
    return vscode.Uri.file(file);
  };

  afterEach(() => {
    ctx.api.attachments.clear();
  });
  after(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  describe('tasks view', () => {
    it('lists this workspace first, refreshes one node on progress, badges running tasks and shows the status icons', async () => {
      ctx.emulator.setTaskDuration(2500);
      const now = Date.now();
      // A newer task from another window's workspace must still come after this workspace's.
      await ctx.api.store.add({
        id: 'task_elsewhere',
        title: 'From another workspace',
        instruction: 'x',
        promptChars: 1,
        workspace: 'file:///somewhere/else',
        submittedAt: now + 60_000,
        updatedAt: now + 60_000,
        finishedAt: now + 61_000,
        status: 'failed',
        error: 'boom',
      });
      const events: (Node | undefined)[] = [];
      const sub = sidebar().tasks.onDidChangeTreeData(e => events.push(e as Node | undefined));
      try {
        ctx.user.inputs = ['Review math'];
        const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateFile', workspaceUri('src', 'math.ts'));
        assert.ok(task?.id);
        const roots = sidebar().tasks.getChildren() as unknown as Node[];
        assert.deepStrictEqual(roots.map(n => (n.task as { id: string }).id), [task.id, 'task_elsewhere']);
        const running = sidebar().tasks.getTreeItem(roots[0] as never);
        assert.strictEqual(iconOf(running), 'sync~spin');
        assert.strictEqual(running.contextValue, 'task prompt trace source cancel stopFollowing remove', 'no Open: these suites open results as markdown, which has nothing to show yet');
        assert.strictEqual(sidebar().views.tasks.badge?.value, 1);
        assert.strictEqual(iconOf(sidebar().tasks.getTreeItem(roots[1] as never)), 'error');

        await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task to complete');
        assert.ok(events.includes(undefined), 'adding refreshed the root');
        const nodeEvents = events.filter((e): e is Node => !!e);
        assert.ok(nodeEvents.length > 0, 'progress and completion refreshed single nodes');
        assert.ok(nodeEvents.every(e => e === roots[0]), 'the same element instance is refreshed');
        const done = sidebar().tasks.getTreeItem(roots[0] as never);
        assert.strictEqual(iconOf(done), 'check');
        // The emulator's answer names files (the landing format, issue 16): the menus offer Review Changes, and
        // not Apply to Source beside it (tasks/offers.ts); Insert when the answer has a code block to insert.
        assert.match(String(done.contextValue), /^task open copy review allChanges check( insert)? prompt trace continue source runAgain remove$/);
        assert.strictEqual(done.command?.command, 'multiAgent.openResult');
        assert.match(String(done.description), /\d+s/);
        assert.strictEqual(sidebar().views.tasks.badge, undefined);
      } finally {
        sub.dispose();
      }
    });

    it('runs a task again from the re-read source, reveals the source, removes a task and clears finished ones', async () => {
      const editor = await openAndSelect('src/math.ts', 0, 3);
      ctx.user.inputs = ['Document these lines'];
      const first = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateSelection');
      assert.ok(first);
      await editor.edit(e => e.insert(new vscode.Position(0, 0), '// edited since\n'));
      const node = (sidebar().tasks.getChildren() as unknown as Node[]).find(n => (n.task as { id: string }).id === first.id);
      ctx.user.confirms = [true, true]; // Run Again and Clear Finished ask first
      const again = await vscode.commands.executeCommand<{ id: string; instruction: string }>('multiAgent.runAgain', node);
      assert.ok(again && again.id !== first.id, 'a new task');
      assert.strictEqual(again.instruction, 'Document these lines');
      const runs = ctx.emulator.requests.filter(r => r.path.endsWith('/run'));
      assert.strictEqual(runs.length, 2);
      const prompt = (runs[1].body as { prompt: string }).prompt;
      assert.ok(prompt.startsWith('Document these lines\n\nsrc/math.ts (lines 1-3):'), prompt);
      assert.ok(prompt.includes('// edited since'), 'the current text was sent');

      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const revealed = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.revealSource', node);
      assert.strictEqual(revealed?.document.uri.toString(), workspaceUri('src', 'math.ts').toString());
      assert.strictEqual(revealed.selection.start.line, 0);
      assert.strictEqual(revealed.selection.end.line, 3);
      await vscode.commands.executeCommand('workbench.action.files.revert');

      await waitFor(() => ctx.api.store.all().every(t => t.status === 'completed'), 'both tasks to complete');
      await vscode.commands.executeCommand('multiAgent.removeTask', again.id);
      assert.strictEqual(ctx.api.store.get(again.id), undefined);
      await ctx.api.store.add({ id: 'task_running', title: 'Still running', instruction: 'x', promptChars: 1, submittedAt: Date.now(), updatedAt: Date.now(), status: 'processing' });
      ctx.api.poller.forget('task_running');
      await vscode.commands.executeCommand('multiAgent.clearFinished');
      assert.deepStrictEqual(ctx.api.store.all().map(t => t.id), ['task_running']);
    });
  });

  describe('threads view', () => {
    it('lists the service threads with paging and "Load more…"', async () => {
      // Every completed task is saved as a thread too (the live service does that, a moment after the
      // completion): count only the threads made here.
      const ours = (t: { user_input: string }) => /^(Paged thread \d+|Sidebar thread)$/.test(t.user_input);
      await new Promise(r => setTimeout(r, 500)); // past the emulator's 250 ms save of an earlier test's task
      for (let i = 0; i < 21; i++) await servicePost(`${ctx.emulator.baseUrl}/threads`, { title: `Paged thread ${i}` });
      ctx.user.inputs = ['Sidebar thread'];
      const created = await vscode.commands.executeCommand<{ id: number }>('multiAgent.newThread');
      assert.ok(created?.id);
      const held = await serviceGet<{ conversations: { id: number; user_input: string }[]; total: number }>(`${ctx.emulator.baseUrl}/threads?limit=100`);
      assert.strictEqual(held.conversations.filter(ours).length, 22);

      const first = (await sidebar().threads.getChildren()) as Node[];
      assert.strictEqual(first.length, 21, '20 threads and "Load more…"');
      assert.strictEqual(first[20].kind, 'loadMore');
      assert.strictEqual(labelOf(sidebar().threads.getTreeItem(first[20] as never)), 'Load more…');
      assert.strictEqual(labelOf(sidebar().threads.getTreeItem(first[0] as never)), 'Sidebar thread');
      await vscode.commands.executeCommand('multiAgent.loadMoreThreads');
      const all = (await sidebar().threads.getChildren()) as Node[];
      assert.deepStrictEqual(
        all.map(n => (n.thread as { id: number }).id),
        held.conversations.map(t => t.id),
      );
    });

    it('runs in a thread: a tracked task, then the thread shows the new messages and the transcript', async () => {
      ctx.user.inputs = ['Thread for a run'];
      const thread = await vscode.commands.executeCommand<{ id: number }>('multiAgent.newThread');
      assert.ok(thread);
      const node = ((await sidebar().threads.getChildren()) as Node[]).find(n => (n.thread as { id: number } | undefined)?.id === thread.id);
      assert.ok(node, 'the new thread is listed');
      assert.deepStrictEqual(((await sidebar().threads.getChildren(node as never)) as Node[]).map(n => n.kind), ['notice']);

      const refreshed: unknown[] = [];
      const sub = sidebar().threads.onDidChangeTreeData(e => refreshed.push(e));
      try {
        await openAndSelect('src/greet.py', 0, 2);
        ctx.user.inputs = ['Summarize greet'];
        const task = await vscode.commands.executeCommand<{ id: string; threadId: string }>('multiAgent.runInThread', node);
        assert.ok(task, 'a task was sent');
        assert.strictEqual(task.threadId, String(thread.id));
        assert.ok(ctx.api.store.get(task.id), 'the task is tracked');
        const run = ctx.emulator.requests.find(r => r.path.endsWith(`/threads/${thread.id}/runs`));
        assert.ok((run?.body as { prompt: string }).prompt.startsWith('Summarize greet\n\nsrc/greet.py (lines 1-2):'));

        await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the thread run to complete');
        await waitFor(() => refreshed.filter(e => e === node).length >= 2, 'the thread node to refresh on add and finish');
        // The service saves a finished run's messages a moment after the completion: the view reads again then.
        let items: vscode.TreeItem[] = [];
        await waitFor(async () => {
          const messages = (await sidebar().threads.getChildren(node as never)) as Node[];
          items = messages.map(m => sidebar().threads.getTreeItem(m as never));
          return items.length === 2;
        }, 'the saved messages to show');
        assert.deepStrictEqual(items.map(iconOf), ['account', 'hubot']);
        // Who said it, then what, in words (issue 26): the question, then the agents' answer without its markup.
        assert.strictEqual(labelOf(items[0]), 'You: Summarize greet');
        assert.match(labelOf(items[1]), /^Agents: [^#*`\s]/);
        assert.ok(!labelOf(items[1]).includes('Synthesized answer'), labelOf(items[1]));
        assert.ok(items[0].description, 'time in the description');
      } finally {
        sub.dispose();
      }

      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('multiAgent.openTranscript', node);
      assert.strictEqual(editor?.document.uri.scheme, 'multi-agent-thread');
      assert.strictEqual(editor.document.uri.path, `/${thread.id}/Thread for a run.md`);
      assert.strictEqual(editor.document.languageId, 'markdown');
      const text = editor.document.getText();
      assert.ok(text.startsWith('# Thread for a run'), text);
      assert.ok(text.includes('## You') && text.includes('Summarize greet') && text.includes('## Agents'), text);
    });

    it('a thread saved from a task starts with its instruction; an answer is labelled by what it says (issue 35 item 9)', async () => {
      const res = await fetch(`${ctx.emulator.baseUrl}/run`, { method: 'POST', headers: { 'x-api-key': ctx.emulator.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'Explain the greet helper' }) });
      const { taskId } = (await res.json()) as { taskId: string };
      let threadId: string | undefined;
      await waitFor(async () => {
        threadId = (await serviceGet<{ conversationId?: string | number }>(`${ctx.emulator.baseUrl}/status/${taskId}`)).conversationId?.toString();
        return !!threadId;
      }, 'the task to be saved as a thread');
      const listed = await serviceGet<{ conversations: { id: number; user_input: string }[] }>(`${ctx.emulator.baseUrl}/threads`);
      const thread = listed.conversations.find(t => String(t.id) === threadId);
      assert.ok(thread, 'the saved thread is listed');
      let labels: string[] = [];
      await waitFor(async () => {
        const rows = (await sidebar().threads.getChildren({ kind: 'thread', thread } as never)) as Node[];
        labels = rows.map(n => labelOf(sidebar().threads.getTreeItem(n as never)));
        return rows.every(n => n.kind === 'message') && rows.length >= 1;
      }, 'the saved messages to show');
      assert.strictEqual(labels[0], 'You: Explain the greet helper', labels.join(' | '));
      assert.match(labels[1], /^Agents: /);
      assert.ok(!labels[1].includes('Synthesized answer'), `a heading every answer has is not what this one says: ${labels[1]}`);
    });

    it('hides a thread from the list and the pickers, says the service keeps it, and shows it again (issue 26)', async () => {
      ctx.user.inputs = ['Thread to hide'];
      const thread = await vscode.commands.executeCommand<{ id: number }>('multiAgent.newThread');
      assert.ok(thread);
      const ids = async () => ((await sidebar().threads.getChildren()) as Node[]).map(n => (n.thread as { id: number } | undefined)?.id);
      assert.ok((await ids()).includes(thread.id));
      const before = ctx.user.shown.length;
      // Its Undo is clicked only after Show Hidden Threads (below): the toast outlives it.
      let clickUndo!: (button: string) => void;
      const later = new Promise<string>(resolve => (clickUndo = resolve));
      ctx.user.onMessage = s => (s.message.includes('is hidden from this list') ? (later as unknown as string) : undefined);
      const hiding = vscode.commands.executeCommand('multiAgent.hideThread', String(thread.id));
      await waitFor(() => ctx.user.shown.slice(before).some(s => s.kind === 'info'), 'the toast');
      assert.ok(!(await ids()).includes(thread.id), 'gone from the list');
      assert.ok(!(await ctx.api.threads.threads()).some(t => t.id === thread.id), 'and from the pickers');
      const told = ctx.user.shown.slice(before).find(s => s.kind === 'info');
      assert.strictEqual(told?.message, '"Thread to hide" is hidden from this list. The service keeps the thread (a key cannot delete threads); Show Hidden Threads brings it back.');
      assert.deepStrictEqual(told?.actions, ['Undo']);
      assert.ok(!ctx.emulator.requests.some(r => r.method === 'DELETE' && r.path.includes('/threads/')), 'nothing asked of the service');
      assert.deepStrictEqual(ctx.api.context.globalState.get('multiAgent.hiddenThreads.v1'), [String(thread.id)], 'kept across a reload');

      const shown = await vscode.commands.executeCommand<number>('multiAgent.showHiddenThreads');
      assert.strictEqual(shown, 1);
      assert.ok((await ids()).includes(thread.id), 'listed again');
      assert.deepStrictEqual(ctx.api.context.globalState.get('multiAgent.hiddenThreads.v1'), []);
      // The stale toast's Undo says so (issue 35).
      clickUndo('Undo');
      await hiding;
      assert.ok(ctx.user.messages('note').includes('"Thread to hide" is already listed again.'), JSON.stringify(ctx.user.shown));
    });

    it('says "No threads yet" only after a list that found none, never on the way to a list with threads', async () => {
      // The second key is another user of the emulator: no threads yet.
      const listedNone: boolean[] = [];
      const sub = sidebar().threads.onDidChangeListedNone(none => listedNone.push(none));
      const roots = async () => {
        ctx.api.threads.refresh();
        return (await sidebar().threads.getChildren()) as Node[];
      };
      try {
        await ctx.api.keys.clearApiKey();
        assert.deepStrictEqual(await roots(), [], 'no key: an empty tree, the welcome offers Set API Key');
        await ctx.api.keys.setApiKey(SECOND_API_KEY);
        assert.deepStrictEqual(await roots(), []);
        assert.strictEqual(listedNone.at(-1), true, 'an empty list: "No threads yet" may show');

        const made = await fetch(`${ctx.emulator.baseUrl}/threads`, {
          method: 'POST',
          headers: { 'x-api-key': SECOND_API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'The only thread' }),
        });
        assert.strictEqual(made.status, 200);
        await ctx.api.keys.clearApiKey();
        await roots();
        assert.strictEqual(listedNone.at(-1), false, 'no key: not "No threads yet"');
        const seen = listedNone.length;
        await ctx.api.keys.setApiKey(SECOND_API_KEY);
        const listed = await roots();
        assert.deepStrictEqual(listed.map(n => n.kind), ['thread']);
        // Switched on here, the context would reach the workbench before the row and flash "No threads yet".
        assert.deepStrictEqual(listedNone.slice(seen), [], 'a list with threads leaves it off');
      } finally {
        sub.dispose();
        await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
        ctx.api.threads.refresh();
        await sidebar().threads.getChildren();
      }
    });

    it('shows one explanatory item on the earlier API form', async () => {
      await setSetting('baseUrl', ctx.emulator.legacyBaseUrl);
      try {
        const roots = (await waitFor(async () => {
          const r = (await sidebar().threads.getChildren()) as Node[];
          return r.length === 1 && r[0].kind === 'notice' ? r : undefined;
        }, 'the notice')) as Node[];
        assert.match(labelOf(sidebar().threads.getTreeItem(roots[0] as never)), /^Threads are not available on the earlier API form \(…\/api\/developer\)/);
        // On the earlier form's address: a read of the view started before the switch may still reach the other.
        assert.strictEqual(ctx.emulator.requests.filter(r => r.path.startsWith(LEGACY_BASE_PATH) && r.path.includes('/threads')).length, 0);
      } finally {
        await setSetting('baseUrl', ctx.emulator.baseUrl);
      }
    });
  });

  describe('files view', () => {
    it('uploads, lists, opens, saves and deletes files with the bytes intact', async () => {
      // A PNG by its first bytes (the service judges types by content), binary after that: opened, it is saved, not shown.
      const binary = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), randomBytes(200 * 1024)]);
      const text = 'line one\nline two — ünïcode\n';
      const binUri = tmpFile('blob.bin', binary);
      const txtUri = tmpFile('notes.txt', text);
      const uploaded = await vscode.commands.executeCommand<{ id: string; filename: string }[]>('multiAgent.uploadFile', binUri, [binUri, txtUri]);
      assert.strictEqual(uploaded?.length, 2);
      const stored = ctx.emulator.files();
      assert.ok(Buffer.compare(stored.find(f => f.filename === 'blob.bin')!.bytes, binary) === 0, 'the service holds the exact bytes');
      assert.strictEqual(stored.find(f => f.filename === 'notes.txt')!.bytes.toString('utf8'), text);

      const held = await serviceGet<{ files: { id: string; filename: string }[] }>(`${ctx.emulator.baseUrl}/files?limit=100`);
      const nodes = (await sidebar().files.getChildren()) as Node[];
      assert.deepStrictEqual(nodes.map(n => (n.file as { id: string }).id), held.files.map(f => f.id));
      const binNode = nodes.find(n => (n.file as { filename: string }).filename === 'blob.bin')!;
      const txtNode = nodes.find(n => (n.file as { filename: string }).filename === 'notes.txt')!;
      const binItem = sidebar().files.getTreeItem(binNode as never);
      assert.strictEqual(binItem.description, '200 KB');
      assert.ok(plainText(binItem.tooltip).includes(`Id: ${uploaded[0].id}`), plainText(binItem.tooltip));

      // A click on the row opens it (issue 35): the row's own command, with its arguments.
      const click = sidebar().files.getTreeItem(txtNode as never).command!;
      assert.strictEqual(click.command, 'multiAgent.openFile');
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>(click.command, ...(click.arguments ?? []));
      assert.strictEqual(editor?.document.getText(), text);
      assert.strictEqual(editor.document.uri.scheme, 'multi-agent-file');

      ctx.user.saveTo = vscode.Uri.file(path.join(scratch, 'opened.bin'));
      await vscode.commands.executeCommand('multiAgent.openFile', binNode);
      assert.ok(Buffer.compare(fs.readFileSync(ctx.user.saveTo.fsPath), binary) === 0, 'binary "open" saved the exact bytes');
      ctx.user.saveTo = vscode.Uri.file(path.join(scratch, 'saved.bin'));
      await vscode.commands.executeCommand('multiAgent.saveFileAs', binNode);
      assert.ok(Buffer.compare(fs.readFileSync(ctx.user.saveTo.fsPath), binary) === 0, 'save as streamed the exact bytes');

      ctx.user.confirms = [false];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.deleteFile', binNode), false);
      assert.ok(ctx.emulator.files().some(f => f.filename === 'blob.bin'), 'not deleted without confirmation');
      ctx.user.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.deleteFile', binNode), true);
      assert.ok(!ctx.emulator.files().some(f => f.filename === 'blob.bin'));
      const after = (await sidebar().files.getChildren()) as Node[];
      assert.ok(!after.some(n => (n.file as { filename: string } | undefined)?.filename === 'blob.bin'), 'the view refreshed');
      assert.deepStrictEqual(ctx.user.messages('confirm').length, 2);
    });

    it('refuses a file over 10 MB before sending anything', async () => {
      const big = tmpFile('big.bin', Buffer.alloc(11 * 1024 * 1024, 1));
      const result = await vscode.commands.executeCommand('multiAgent.uploadFile', big);
      assert.strictEqual(result, undefined);
      assert.ok(ctx.user.messages('error').some(m => /big\.bin is 11\.0 MB.*up to 10 MB/.test(m)), JSON.stringify(ctx.user.shown));
      assert.strictEqual(ctx.emulator.requests.filter(r => r.method === 'POST').length, 0);
    });
  });

  describe('attachments', () => {
    const folder = () => workspaceUri('tmp-sidebar');
    const write = async (name: string, bytes: Uint8Array) => {
      const uri = vscode.Uri.joinPath(folder(), name);
      await vscode.workspace.fs.writeFile(uri, bytes);
      return uri;
    };
    afterEach(async () => {
      await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
      await vscode.workspace.getConfiguration('search').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    });

    it('attaches two picked workspace files; they go as attachment_ids the service resolves and the result names both', async () => {
      const big = (seed: string) => new TextEncoder().encode(`${seed}\n`.repeat(3000)); // > 16 KB: uploaded, not inlined
      await write('alpha.log', big('alpha'));
      await write('beta.log', big('beta'));
      await write('hidden/gamma.log', big('gamma'));
      await vscode.workspace.getConfiguration('search').update('exclude', { '**/tmp-sidebar/hidden': true }, vscode.ConfigurationTarget.Global);

      let offered: string[] = [];
      ctx.user.picks = [
        (_s: unknown, items: unknown) => {
          const list = items as { label: string }[];
          offered = list.map(i => i.label);
          return list.filter(i => /tmp-sidebar\/(alpha|beta)\.log$/.test(i.label));
        },
      ];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachFiles'), 2);
      assert.ok(offered.some(l => l.endsWith('src/math.ts')), offered.join(', '));
      assert.ok(!offered.some(l => l.includes('gamma')), 'search.exclude applies');
      assert.strictEqual(sidebar().views.tasks.description, '2 files attached');
      assert.match(plainText(ctx.api.statusBar.item.tooltip), /2 files attached to the next task/);

      ctx.user.inputs = ['Compare with the logs'];
      const task = await vscode.commands.executeCommand<{ id: string }>('multiAgent.orchestrateFile', workspaceUri('src', 'math.ts'));
      assert.ok(task);
      const run = ctx.emulator.requests.find(r => r.path.endsWith('/run'));
      const ids = (run?.body as { attachment_ids?: string[] }).attachment_ids ?? [];
      assert.strictEqual(ids.length, 2);
      const held = ctx.emulator.attachments();
      assert.deepStrictEqual(ids.map(id => held.find(a => a.id === id)?.filename).sort(), ['alpha.log', 'beta.log']);
      assert.strictEqual(sidebar().views.tasks.description, undefined, 'sent files leave the basket');
      await waitFor(() => ctx.api.store.get(task.id)?.status === 'completed', 'the task to complete');
      const result = (await ctx.api.store.readResult(task.id)) ?? '';
      assert.ok(result.includes('alpha.log') && result.includes('beta.log'), result);
    });

    it('inlines a small text file instead of uploading it', async () => {
      const small = await write('small.md', new TextEncoder().encode('# Small note\n'));
      await vscode.commands.executeCommand('multiAgent.attachToNextTask', small, [small]);
      ctx.user.inputs = ['Use the note'];
      await vscode.commands.executeCommand('multiAgent.orchestrateFile', workspaceUri('src', 'math.ts'));
      const body = ctx.emulator.requests.find(r => r.path.endsWith('/run'))?.body as { prompt: string; attachment_ids?: string[] };
      assert.strictEqual(body.attachment_ids, undefined);
      assert.ok(body.prompt.includes('Attached file tmp-sidebar/small.md') && body.prompt.includes('# Small note'), body.prompt);
      assert.strictEqual(ctx.emulator.requests.filter(r => r.path.includes('/attachments/upload')).length, 0);
    });

    it('refuses a sixth attachment and an 11 MB file before any request, and asks before attaching .env', async () => {
      const five = await Promise.all([1, 2, 3, 4, 5].map(i => write(`f${i}.txt`, new TextEncoder().encode(`file ${i}\n`))));
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', five[0], five), 5);
      const sixth = await write('f6.txt', new TextEncoder().encode('six\n'));
      await vscode.commands.executeCommand('multiAgent.attachToNextTask', sixth, [sixth]);
      assert.ok(ctx.user.messages('error').some(m => /At most 5 files/.test(m)), JSON.stringify(ctx.user.shown));
      assert.strictEqual(ctx.api.attachments.count, 5);

      await vscode.commands.executeCommand('multiAgent.clearAttachments');
      assert.strictEqual(ctx.api.attachments.count, 0);
      const big = await write('huge.bin', new Uint8Array(11 * 1024 * 1024));
      await vscode.commands.executeCommand('multiAgent.attachToNextTask', big, [big]);
      assert.ok(ctx.user.messages('error').some(m => /huge\.bin is 11\.0 MB; the service takes attachments up to 4\.5 MB/.test(m)), JSON.stringify(ctx.user.shown));
      assert.strictEqual(ctx.api.attachments.count, 0);

      const env = await write('.env', new TextEncoder().encode('TOKEN=abc\n'));
      ctx.user.confirms = [false];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', env, [env]), 0);
      assert.ok(ctx.user.messages('confirm').some(m => /\.env looks like it holds secrets/.test(m)));
      assert.strictEqual(ctx.api.attachments.count, 0);
      ctx.user.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.attachToNextTask', env, [env]), 1);
      // Nothing sent: no upload, no run. A view's read for the task before (its thread, a moment after it
      // finished) may still land here, so reads are not counted.
      assert.strictEqual(ctx.emulator.requests.filter(r => r.method !== 'GET').length, 0, 'nothing was sent');
    });
  });

  describe('models and usage', () => {
    afterEach(async () => {
      await setSetting('modelId', undefined);
    });

    it('lists the service models, marks default and current, writes the setting, and caches the list', async () => {
      const served = await serviceGet<{ options: { id: string; label: string }[]; defaultModelId: string }>(`${ctx.emulator.origin}/api/v1/models`);
      const fetches = () => ctx.emulator.requests.filter(r => r.path === '/api/v1/models').length;
      const before = fetches();
      await setSetting('modelId', 'openai/gpt-5.1');
      let items: { label: string; description?: string; detail?: string; modelId?: string }[] = [];
      ctx.user.picks = [
        (_s: unknown, offered: unknown) => {
          items = offered as typeof items;
          return items.find(i => i.modelId === 'anthropic/claude-sonnet-4.5');
        },
      ];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.selectModel'), 'anthropic/claude-sonnet-4.5');
      assert.strictEqual(items[0].label, 'Service default');
      assert.deepStrictEqual(items.slice(1).map(i => i.modelId), served.options.map(m => m.id));
      assert.ok(items.find(i => i.modelId === served.defaultModelId)?.detail?.includes('service default'));
      assert.ok(items.find(i => i.modelId === 'openai/gpt-5.1')?.label.startsWith('$(check)'), 'current marked');
      assert.strictEqual(items.find(i => i.modelId === 'anthropic/claude-sonnet-4.5')?.description, 'Pro · Strong at code review and long-context reasoning.');
      assert.strictEqual(vscode.workspace.getConfiguration('multiAgent').get('modelId'), 'anthropic/claude-sonnet-4.5');

      ctx.user.picks = [(_s: unknown, offered: unknown) => (offered as typeof items)[0]];
      assert.strictEqual(await vscode.commands.executeCommand('multiAgent.selectModel'), '');
      assert.strictEqual(vscode.workspace.getConfiguration('multiAgent').inspect('modelId')?.globalValue, undefined);
      assert.strictEqual(fetches() - before, 1, 'the list is cached for the session');
      await vscode.commands.executeCommand('multiAgent.refreshModels');
      assert.strictEqual(fetches() - before, 2);
    });

    it('shows usage in a webview with a chart, totals, keys and storage under a strict CSP; errors render in the panel', async () => {
      const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>('multiAgent.showUsage');
      assert.ok(panel);
      const html = panel.webview.html;
      const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
      assert.ok(nonce, 'a nonce in the CSP');
      assert.ok(html.includes(`default-src 'none'; style-src ${panel.webview.cspSource} 'nonce-${nonce}'`));
      const csp = /content="([^"]*default-src[^"]*)"/.exec(html)?.[1] ?? '';
      assert.strictEqual(/script-src ([^;]*)/.exec(csp)?.[1], `'nonce-${nonce}'`, `scripts by nonce only: ${csp}`);
      assert.doesNotMatch(csp, /script-src[^;]*('unsafe-inline'|'unsafe-eval'|https?:|\*)/, csp);
      assert.strictEqual((html.match(/<script/g) ?? []).length, 1);
      assert.ok(html.includes(`<script nonce="${nonce}">`));
      assert.ok(!/(src|href)="https?:/.test(html), 'no remote content');
      assert.strictEqual((html.match(/<rect class="bar"/g) ?? []).length, 14);
      assert.match(html, /<title id="chartTitle">Requests per day/);
      assert.match(html, /var\(--vscode-charts-blue\)/);
      assert.match(html, /tfai_demo_/);
      assert.match(html, /of 40 GB used/);

      await setSetting('baseUrl', ctx.emulator.legacyBaseUrl);
      try {
        await vscode.commands.executeCommand('multiAgent.showUsage');
        assert.match(panel.webview.html, /not available on the earlier API form/);
      } finally {
        await setSetting('baseUrl', ctx.emulator.baseUrl);
      }
      await ctx.api.keys.setApiKey('tfai_wrong_key_0000000000');
      try {
        await vscode.commands.executeCommand('multiAgent.showUsage');
        assert.match(panel.webview.html, /rejected the API key/);
      } finally {
        await ctx.api.keys.setApiKey(ctx.emulator.apiKey);
      }
      panel.dispose();
    });
  });
});
