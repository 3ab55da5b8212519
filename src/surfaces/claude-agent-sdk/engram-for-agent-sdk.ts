/**
 * `engramForAgentSdk`: everything an Agent SDK `query()` needs for Engram in one object — the
 * hooks, the memory tools' in-process MCP server and the tool names to allow — spread into its
 * options. The tools write for the session the hooks last saw, so the model's notes, thoughts and
 * handoff belong to the same Engram session as the recall around them.
 */
import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';

import { createEngramHooks, type EngramHooks, type EngramHooksOptions } from './engram-hooks.js';
import { createEngramMcpServer, type EngramMcpServerOptions, engramToolNames } from './mcp-server.js';

/** What `engramForAgentSdk` takes. */
export interface EngramForAgentSdkOptions extends EngramHooksOptions, Omit<EngramMcpServerOptions, 'sessionId'> {
  /**
   * The session the tools write for until a hook has named one: give the id `query()` runs
   * with (its `sessionId` option) when the model may call a tool before any hook ran. @default a new session
   */
  sessionId?: string | undefined;
}

/** The parts of `query()`'s options Engram fills. */
export interface EngramAgentSdkOptions {
  /** For `options.hooks`. */
  hooks: EngramHooks;
  /** For `options.mcpServers`: the memory tools' server under its name. */
  mcpServers: Record<string, McpSdkServerConfigWithInstance>;
  /** For `options.allowedTools`: the server's tools, so they run without a permission prompt. */
  allowedTools: string[];
}

/**
 * Engram for one agent: `query({ prompt, options: { ...engramForAgentSdk({ engram }) } })`
 * (merge `allowedTools` and `mcpServers` with your own). Create one per agent or conversation
 * being run at a time.
 */
export function engramForAgentSdk(options: EngramForAgentSdkOptions): EngramAgentSdkOptions {
  let current: string | undefined = options?.sessionId;
  const hooks = createEngramHooks(options, (sessionId) => {
    current = sessionId;
  });
  const server = createEngramMcpServer(options, () => (current ??= options.engram.session({ scope: options.scope }).id));
  return {
    hooks,
    mcpServers: { [server.name]: server },
    allowedTools: engramToolNames(options),
  };
}
