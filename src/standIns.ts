/**
 * What activation registers in place of the team's core (core.ts, a part loaded on first use): every command,
 * document scheme, tree view, webview serializer, and the chat participant and tool. VS Code must know them all
 * from the start; each stand-in loads the core on its first call and hands the call on. Until then the
 * extension host holds only the shell (extension.ts), so a window where nobody uses the team pays for none of it.
 */
import * as vscode from 'vscode';
import { Chat } from './chat/ids';
import { Commands, type CommandId, DocumentSchemes, type DocumentScheme, Views, WebviewTypes, type WebviewType } from './constants';
import { messageOf } from './format';
import type { Logger } from './log';

/** A tree view's provider: its two calls, and its change event once the core is there. */
interface TreeProvider<T> {
  onDidChangeTreeData?: vscode.Event<T | T[] | undefined | null | void>;
  getChildren(element?: T): vscode.ProviderResult<T[]>;
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem>;
}

/**
 * Hands every call on to the provider that `target` returns (the first call loads the core), and relays that
 * provider's change event: only a view or document that asked once can have anything to change.
 */
class Forward<P> {
  private real: P | undefined;
  private relay: vscode.Disposable | undefined;

  constructor(
    private readonly target: () => P,
    private readonly listen: (real: P) => vscode.Disposable | undefined,
  ) {}

  get(): P {
    if (!this.real) {
      this.real = this.target();
      this.relay = this.listen(this.real);
    }
    return this.real;
  }

  dispose(): void {
    this.relay?.dispose();
  }
}

class TreeStandIn<T> implements TreeProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly forward: Forward<TreeProvider<T>>;

  constructor(target: () => TreeProvider<T>) {
    this.forward = new Forward(target, real => real.onDidChangeTreeData?.(e => this.changed.fire(e)));
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.forward.get().getChildren(element);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.forward.get().getTreeItem(element);
  }

  dispose(): void {
    this.forward.dispose();
    this.changed.dispose();
  }
}

class DocumentStandIn implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly forward: Forward<vscode.TextDocumentContentProvider>;

  constructor(target: () => vscode.TextDocumentContentProvider) {
    this.forward = new Forward(target, real => real.onDidChange?.(uri => this.changed.fire(uri)));
  }

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): vscode.ProviderResult<string> {
    return this.forward.get().provideTextDocumentContent(uri, token);
  }

  dispose(): void {
    this.forward.dispose();
    this.changed.dispose();
  }
}

/** The tree views of the sidebar, made by the shell with stand-in providers; the core's sidebar dresses them. */
export interface SidebarViews {
  tasks: vscode.TreeView<unknown>;
  threads: vscode.TreeView<unknown>;
  files: vscode.TreeView<unknown>;
}

/** A page VS Code restores after a reload (webviews' serializers). */
export interface PageRestorer {
  restore(panel: vscode.WebviewPanel, state: unknown): Thenable<void>;
}

/**
 * What the core answers the stand-ins with: one target per row of each table the shell registers (commands,
 * document schemes, trees, webview types), so a row without its target does not compile.
 */
export interface CoreTargets {
  /** The command's handler, which shows its own failures (commands/run.ts `guarded`). */
  command(id: CommandId): (...args: unknown[]) => unknown;
  documents: Record<DocumentScheme, vscode.TextDocumentContentProvider>;
  trees: Record<keyof SidebarViews, TreeProvider<unknown>>;
  pages: Record<WebviewType, PageRestorer>;
  chatHandler: vscode.ChatRequestHandler;
  /** What the chat offers after an `@team` answer. */
  chatFollowups: (result: vscode.ChatResult) => vscode.ChatFollowup[];
  chatTool: vscode.LanguageModelTool<never>;
}

export interface StandInsDeps {
  log: Logger;
  extensionUri: vscode.Uri;
  /** Loads the core on the first call, later calls return it. */
  core: () => CoreTargets;
}

export function registerStandIns(d: StandInsDeps): { views: SidebarViews; disposable: vscode.Disposable } {
  const { core } = d;
  const disposables: vscode.Disposable[] = [];
  for (const id of Object.values(Commands)) disposables.push(vscode.commands.registerCommand(id, (...args: unknown[]) => core().command(id)(...args)));
  for (const scheme of Object.values(DocumentSchemes)) {
    const standIn = new DocumentStandIn(() => core().documents[scheme]);
    disposables.push(standIn, vscode.workspace.registerTextDocumentContentProvider(scheme, standIn));
  }
  const tree = (view: keyof SidebarViews, options: Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>) => {
    const standIn = new TreeStandIn(() => core().trees[view]);
    const treeView = vscode.window.createTreeView(Views[view], { ...options, treeDataProvider: standIn });
    disposables.push(standIn, treeView);
    return treeView;
  };
  const views: SidebarViews = {
    tasks: tree('tasks', { showCollapseAll: false }),
    threads: tree('threads', { showCollapseAll: true }),
    files: tree('files', { canSelectMany: false }),
  };
  for (const viewType of Object.values(WebviewTypes)) {
    disposables.push(vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: (panel, state) => core().pages[viewType].restore(panel, state) }));
  }
  disposables.push(registerChat(d));
  return { views, disposable: vscode.Disposable.from(...disposables) };
}

/** The `@team` participant and the `#multiAgent` tool. Where the running VS Code lacks the chat API, nothing is registered and nothing breaks. */
function registerChat({ core, log, extensionUri }: StandInsDeps): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  try {
    const tool: vscode.LanguageModelTool<never> = {
      prepareInvocation: (options, token) => core().chatTool.prepareInvocation?.(options, token),
      invoke: (options, token) => core().chatTool.invoke(options, token),
    };
    disposables.push(vscode.lm.registerTool(Chat.tool, tool));
  } catch (e) {
    log.warn(`chat: the language model tool is not available here: ${messageOf(e)}`);
  }
  try {
    const participant = vscode.chat.createChatParticipant(Chat.participant, (request, context, stream, token) => core().chatHandler(request, context, stream, token));
    participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'multi-agent.svg');
    // The check loop stays in chat (issue 45): Check Proposal… and Ask the Team to Fix follow the answer.
    participant.followupProvider = { provideFollowups: result => core().chatFollowups(result) };
    disposables.push(participant);
  } catch (e) {
    log.warn(`chat: the @team participant is not available here: ${messageOf(e)}`);
  }
  return vscode.Disposable.from(...disposables);
}
