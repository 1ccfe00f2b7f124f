/** Ids shared by package.json contributions and code. Kept in one place so a typo is a compile error. */
export const EXTENSION_ID = 'multi-agent-tasks.multi-agent-tasks';

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
  stopTracking: 'multiAgent.stopTracking',
  showLog: 'multiAgent.showLog',
  showTasks: 'multiAgent.showTasks',
} as const;

export const ContextKeys = {
  hasApiKey: 'multiAgent.hasApiKey',
} as const;

export const SecretKeys = {
  apiKey: 'multiAgent.apiKey',
  gatewayKey: 'multiAgent.gatewayKey',
} as const;

export const StateKeys = {
  tasks: 'multiAgent.tasks.v1',
  recentInstructions: 'multiAgent.recentInstructions.v1',
  warnedWorkspaceAddress: 'multiAgent.warnedWorkspaceAddress',
} as const;

export const Views = {
  container: 'multiAgent',
  tasks: 'multiAgent.tasks',
  threads: 'multiAgent.threads',
  files: 'multiAgent.files',
} as const;

/** URI scheme of the read-only result documents. */
export const RESULT_SCHEME = 'multi-agent-result';
export const OUTPUT_CHANNEL_NAME = 'Multi-Agent Tasks';
