/**
 * `engram/mcp`: Engram as a Model Context Protocol server — one server per connection with the
 * memory tools, the knowledge-graph tools, the session-start prompt and resources, and the
 * recall receipts; served over stdio (`engram mcp`) or streamable HTTP (`/mcp` of `engram serve`).
 */
export { PendingCalls } from './memory-tools.js';
export { RECEIPTS_TEMPLATE, SESSION_RECEIPTS_URI } from './receipts.js';
export type { EngramMcpServer, EngramMcpServerOptions } from './server.js';
export { createEngramMcpServer } from './server.js';
export { SESSION_CONTEXT_URI, SESSION_START_URI } from './session-context.js';
export type { McpStdioOptions } from './stdio.js';
export { serveMcpOverStdio } from './stdio.js';
export type { McpHttpEndpointOptions } from './streamable-http.js';
export { McpHttpEndpoint, SCOPE_HEADER, SESSION_HEADER } from './streamable-http.js';
