/**
 * `engram mcp`: one MCP connection over standard input and output. Standard output carries
 * protocol messages only; anything else goes to standard error. The connection ends when the
 * client closes standard input (or `stop` fires); running tool calls finish first, then the
 * session is marked ended.
 */
import type { Readable, Writable } from 'node:stream';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createEngramMcpServer, type EngramMcpServerOptions } from './server.js';
import { StdioGuard } from './stdio-guard.js';

/** How to serve over stdio. */
export interface McpStdioOptions extends EngramMcpServerOptions {
  /** @default process.stdin */
  stdin?: Readable;
  /** @default process.stdout */
  stdout?: Writable;
  /** Ends the connection, e.g. on SIGTERM. */
  stop?: AbortSignal;
  /** Diagnostics, one line each (to standard error). @default nothing */
  log?: (line: string) => void;
}

/** Serves one MCP client until it disconnects; resolves once the session is closed. */
export async function serveMcpOverStdio(options: McpStdioOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? (() => undefined);
  const { server, session, settled } = createEngramMcpServer(options);
  // Requests the SDK would drop unanswered are answered (or logged) before it reads them.
  const guard = new StdioGuard(
    (line) => stdout.write(`${line}\n`),
    (line) => log(line),
  );
  const transport = new StdioServerTransport(stdin.pipe(guard), stdout);
  const ended = new Promise<string>((resolve) => {
    stdin.once('end', () => resolve('the client closed the connection'));
    stdin.once('close', () => resolve('the client closed the connection'));
    server.server.onclose = () => resolve('the connection closed');
    if (options.stop?.aborted) resolve('stopped');
    options.stop?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  server.server.onerror = (error) => log(`protocol error: ${error.message}`);
  await server.connect(transport);
  log(`serving session ${session.id} (scope ${session.scope}) over stdio`);
  const why = await ended;
  await settled();
  await server.close();
  await session.end();
  log(`${why}; session ${session.id} ended`);
}
