/**
 * The memory tools on an MCP server. They are served through the SDK's low-level request
 * handlers rather than `registerTool`, so `tools/list` carries exactly the JSON Schema every
 * other provider gets (`toMcpTools`) and a bad argument comes back with Engram's own message,
 * as an `isError` result the model can act on.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { callMcpTool, type MemoryTool, toMcpTools } from '../../entries/tools.js';

/** Counts calls still running, so a closing server can let them finish their writes. */
export class PendingCalls {
  private readonly running = new Set<Promise<unknown>>();

  /** Runs `call`, remembering it until it settles. */
  track<T>(call: Promise<T>): Promise<T> {
    this.running.add(call);
    const forget = () => this.running.delete(call);
    call.then(forget, forget);
    return call;
  }

  /** Resolves once every call started so far has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** Serves `tools` as the server's `tools/list` and `tools/call`. */
export function registerMemoryTools(server: McpServer, tools: readonly MemoryTool[], pending: PendingCalls): void {
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toMcpTools(tools) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => ({
    ...(await pending.track(callMcpTool(tools, request.params))),
  }));
}
