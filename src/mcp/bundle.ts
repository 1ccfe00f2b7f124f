/**
 * The entry of `dist/mcp.js`, loaded the first time VS Code starts the MCP server: the SDK's server (server.ts)
 * and the tools over the pipeline and the stores (tools.ts). Activation loads neither.
 */
export { startMcpServer } from './server';
export { McpTools } from './tools';
