/** The chat participant (`@team`), its commands and the language model tool (`#multiAgent`), as in package.json. */
export const Chat = {
  participant: 'multi-agent-tasks.agents',
  tool: 'multiAgent_runTask',
  commands: { file: 'file', thread: 'thread', check: 'check', fix: 'fix' },
} as const;
