/**
 * `engram mcp`: one MCP connection over stdio, for clients that start the server themselves
 * (Claude Desktop, Claude Code, Cursor). Standard output is the protocol's alone: anything a
 * library would print there is sent to standard error instead.
 */
import type { Command } from 'commander';

import { withEngram } from '../context.js';

interface McpOptions {
  scope: string;
  session?: string;
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the memory tools, session context and receipts to an MCP client over stdio')
    .option('--scope <scope>', 'the scope the session writes to and reads first, e.g. project:x', 'global')
    .option('--session <id>', 'resume this session id (default: a new session per connection)')
    .addHelpText(
      'after',
      `
Examples:
  engram mcp
  engram mcp --scope project:billing --db ~/.engram/engram.db
  claude mcp add engram -- npx engram mcp --scope project:billing`,
    )
    .action(async (options: McpOptions, command: Command) => {
      keepStdoutForProtocol();
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      // Loaded here, not with the CLI: every other command (and every hook call) would pay for it.
      const { serveMcpOverStdio } = await import('../../mcp/index.js');
      await withEngram(command, { mustExist: false }, (engram) =>
        serveMcpOverStdio({
          engram,
          scope: options.scope,
          sessionId: options.session,
          stop: stop.signal,
          log: (line) => process.stderr.write(`engram mcp: ${line}\n`),
        }),
      );
    });
}

/** Routes console output to standard error, so no library can corrupt the protocol stream. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
