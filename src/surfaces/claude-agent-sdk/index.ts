/**
 * `engram/claude-agent-sdk`: Engram's recall and memory tools for the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk` 0.3, an optional peer dependency of Engram, read for its
 * types only): the `hooks` option, an in-process MCP server, or both with `engramForAgentSdk`.
 */
export type { EngramAgentSdkOptions, EngramForAgentSdkOptions } from './engram-for-agent-sdk.js';
export { engramForAgentSdk } from './engram-for-agent-sdk.js';
export type { EngramHooks, EngramHooksOptions } from './engram-hooks.js';
export { ENGRAM_HOOK_EVENTS, engramHooks } from './engram-hooks.js';
export type { EngramMcpServerOptions } from './mcp-server.js';
export { engramMcpServer, engramToolNames } from './mcp-server.js';
