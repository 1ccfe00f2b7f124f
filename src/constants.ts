/** Ids shared by package.json contributions and code. Kept in one place so a typo is a compile error. */

export const Commands = {
  orchestrateSelection: 'multiAgent.orchestrateSelection',
  orchestrateFile: 'multiAgent.orchestrateFile',
  setApiKey: 'multiAgent.setApiKey',
  clearApiKey: 'multiAgent.clearApiKey',
  setGatewayKey: 'multiAgent.setGatewayKey',
  clearGatewayKey: 'multiAgent.clearGatewayKey',
  openResult: 'multiAgent.openResult',
  copyResult: 'multiAgent.copyResult',
  insertResult: 'multiAgent.insertResult',
  cancelTask: 'multiAgent.cancelTask',
  applyToSource: 'multiAgent.applyToSource',
  reviewChanges: 'multiAgent.reviewChanges',
  openAllChanges: 'multiAgent.openAllChanges',
  // Checking a proposal (issue 37)
  checkProposal: 'multiAgent.checkProposal',
  askTeamToFix: 'multiAgent.askTeamToFix',
  showCheckOutput: 'multiAgent.showCheckOutput',
  cancelCheck: 'multiAgent.cancelCheck',
  openScratchCopy: 'multiAgent.openScratchCopy',
  acceptProposal: 'multiAgent.acceptProposal',
  discardProposal: 'multiAgent.discardProposal',
  openRawResult: 'multiAgent.openRawResult',
  showPromptSent: 'multiAgent.showPromptSent',
  removeAttachment: 'multiAgent.removeAttachment',
  stopTracking: 'multiAgent.stopTracking',
  followAgain: 'multiAgent.followAgain',
  showLog: 'multiAgent.showLog',
  showTasks: 'multiAgent.showTasks',
  // Sidebar: tasks
  refreshTasks: 'multiAgent.refreshTasks',
  revealSource: 'multiAgent.revealSource',
  runAgain: 'multiAgent.runAgain',
  removeTask: 'multiAgent.removeTask',
  clearFinished: 'multiAgent.clearFinished',
  // Sidebar: threads
  refreshThreads: 'multiAgent.refreshThreads',
  hideThread: 'multiAgent.hideThread',
  showHiddenThreads: 'multiAgent.showHiddenThreads',
  loadMoreThreads: 'multiAgent.loadMoreThreads',
  newThread: 'multiAgent.newThread',
  runInThread: 'multiAgent.runInThread',
  openTranscript: 'multiAgent.openTranscript',
  // Sidebar: files
  refreshFiles: 'multiAgent.refreshFiles',
  loadMoreFiles: 'multiAgent.loadMoreFiles',
  uploadFile: 'multiAgent.uploadFile',
  openFile: 'multiAgent.openFile',
  saveFileAs: 'multiAgent.saveFileAs',
  deleteFile: 'multiAgent.deleteFile',
  copyFileId: 'multiAgent.copyFileId',
  // Attachments, models, usage
  attachFiles: 'multiAgent.attachFiles',
  attachToNextTask: 'multiAgent.attachToNextTask',
  clearAttachments: 'multiAgent.clearAttachments',
  // What the team did (issue 18): the trace, produced files, sources, the task's thread
  showTrace: 'multiAgent.showTrace',
  continueInThread: 'multiAgent.continueInThread',
  openProducedFile: 'multiAgent.openProducedFile',
  saveProducedFileAs: 'multiAgent.saveProducedFileAs',
  attachProducedFile: 'multiAgent.attachProducedFile',
  openSource: 'multiAgent.openSource',
  selectModel: 'multiAgent.selectModel',
  refreshModels: 'multiAgent.refreshModels',
  showUsage: 'multiAgent.showUsage',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The commands the sidebar's views bind themselves (refresh and load more); commands/index.ts binds every other. */
export const VIEW_COMMANDS = [Commands.refreshTasks, Commands.refreshThreads, Commands.loadMoreThreads, Commands.refreshFiles, Commands.loadMoreFiles] as const;

export type ActionCommandId = Exclude<CommandId, (typeof VIEW_COMMANDS)[number]>;

export const ContextKeys = {
  hasApiKey: 'multiAgent.hasApiKey',
  /** Set once the stored key was read: until then the views say "Loading…", not "Set an API key". */
  keyRead: 'multiAgent.keyRead',
  /** A Threads read listed none (not "no key"): only then may the empty view say "No threads yet". */
  threadsListedNone: 'multiAgent.threadsListedNone',
  hasAttachments: 'multiAgent.hasAttachments',
  /** Some threads are hidden from the Threads view: Show Hidden Threads is offered. */
  hasHiddenThreads: 'multiAgent.hasHiddenThreads',
  /** Code was selected in an editor (a walkthrough step: `editorHasSelection` is per editor, see walkthrough.ts). */
  hasSelectedCode: 'multiAgent.hasSelectedCode',
  /** A task was sent (a walkthrough step). */
  hasSentTask: 'multiAgent.hasSentTask',
  /** Flipped when a page the API cannot name opens: the walkthrough's steps tick after it registers (walkthrough.ts). */
  walkthroughPulse: 'multiAgent.walkthroughPulse',
  /** A task has completed with a result (a walkthrough step). */
  hasResult: 'multiAgent.hasResult',
  /** A change from an answer was applied after its review (the walkthrough's last step). */
  hasAppliedChange: 'multiAgent.hasAppliedChange',
} as const;

export const SecretKeys = {
  apiKey: 'multiAgent.apiKey',
  gatewayKey: 'multiAgent.gatewayKey',
} as const;

export const StateKeys = {
  tasks: 'multiAgent.tasks.v1',
  recentInstructions: 'multiAgent.recentInstructions.v1',
  warnedWorkspaceAddress: 'multiAgent.warnedWorkspaceAddress',
  /** Where each task's source range is now, after the user's edits (workspaceState). */
  sourceRanges: 'multiAgent.sourceRanges.v1',
  /** Threads hidden from the Threads view (the service keeps them: a key cannot delete a thread). */
  hiddenThreads: 'multiAgent.hiddenThreads.v1',
} as const;

export const Views = {
  container: 'multiAgent',
  tasks: 'multiAgent.tasks',
  threads: 'multiAgent.threads',
  files: 'multiAgent.files',
} as const;

/**
 * What a task keeps of the files it sent, for Review Changes' three-way merge (bytes of UTF-8 text): per file,
 * and for all of a task's files together. Above them the review merges against the file as it is now.
 */
export const SENT_TEXT_LIMITS = { fileMaxBytes: 1024 * 1024, taskMaxBytes: 4 * 1024 * 1024 } as const;

/**
 * The URI schemes of the extension's read-only documents. The shell registers a stand-in for each row at
 * activation (standIns.ts); the core answers each with its provider, a record keyed by this table (core.ts), so a
 * scheme without a provider does not compile.
 */
export const DocumentSchemes = {
  /** The read-only result documents. */
  result: 'multi-agent-result',
  /** The read-only thread transcripts. */
  thread: 'multi-agent-thread',
  /** Service files opened as read-only text. */
  file: 'multi-agent-file',
  /** The two sides of an "Apply to Source" diff. */
  proposal: 'multi-agent-proposal',
  /** Review Changes' read-only documents: each file now and proposed, and the review's notes. */
  review: 'multi-agent-review',
  /** The "Show Prompt Sent" documents. */
  prompt: 'multi-agent-prompt',
} as const;
export type DocumentScheme = (typeof DocumentSchemes)[keyof typeof DocumentSchemes];

/**
 * The webview pages VS Code restores after a reload: the shell registers a serializer for each row (and
 * package.json an `onWebviewPanel` activation event); the core restores each, a record keyed by this table.
 */
export const WebviewTypes = {
  /** The rendered result of a task. */
  result: 'multiAgent.result',
  /** The rendered transcript of a thread. */
  transcript: 'multiAgent.transcript',
} as const;
export type WebviewType = (typeof WebviewTypes)[keyof typeof WebviewTypes];

export const OUTPUT_CHANNEL_NAME = 'Multi-Agent Tasks';

/**
 * How much of an answer the extension host reads in one step without being asked (counting its blocks when a
 * task ends, rendering it in the result view). An answer of thousands of small code blocks is the costliest
 * per character: 96 K characters take about 5 ms to count and 25 ms to render on an idle 2-core machine (128 K
 * took 50 ms, 3 MB over 500 ms). Past it the review plans on its own thread and the raw markdown holds the rest.
 */
export const HOST_READ_CHARS = 96 * 1024;
