/**
 * `engram serve`: the HTTP API and MCP over streamable HTTP, until SIGINT or SIGTERM. Prints
 * where everything is; `--json` prints the same as one JSON line (for scripts and tests).
 */
import type { Command } from 'commander';

import { openEngram } from '../../../index.js';
import { DEFAULT_PORT } from '../../http/default-port.js';
import { commandConfig, describeStore, globalOptions } from '../context.js';
import { checkDatabasePath } from '../database-path.js';
import { parsePort, untilSignal } from '../listening.js';

interface ServeOptions {
  port: string;
  host: string;
  scope: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API (/v1) and MCP over streamable HTTP (/mcp) until Ctrl+C')
    .option('--port <n>', 'port to listen on (0 picks a free one)', String(DEFAULT_PORT))
    .option('--host <host>', 'interface to listen on; anything but loopback needs ENGRAM_TOKEN', '127.0.0.1')
    .option('--scope <scope>', 'scope of MCP sessions whose client names none', 'global')
    .addHelpText(
      'after',
      `
Tokens (bearer; required on any host but loopback):
  ENGRAM_TOKEN=<token>                            one token, for the default tenant
  ENGRAM_TOKENS="<tokenA>=acme,<tokenB>=globex"   tokens bound to tenants: each sees only its own memories

Examples:
  engram serve
  engram serve --port 8080 --db /srv/engram/engram.db
  ENGRAM_TOKEN=$(openssl rand -hex 24) engram serve --host 0.0.0.0`,
    )
    .action(async (options: ServeOptions, command: Command) => {
      const { db, json } = globalOptions(command);
      const config = commandConfig(command);
      const path = db ?? config.store.path;
      checkDatabasePath(config, path, { mustExist: false });
      // Loaded here, not with the CLI: every other command (and every hook call) would pay for it.
      const { parseTokenBindings, startHttpServer } = await import('../../http/index.js');
      const tokens = parseTokenBindings(process.env, config.store.tenant);
      const server = await startHttpServer({
        openEngine: (tenant) => openEngram({ config, path, tenant }),
        host: options.host,
        port: parsePort(options.port),
        tokens,
        defaultTenant: config.store.tenant,
        mcpScope: options.scope,
      });
      const where = {
        api: `${server.url}/v1`,
        mcp: `${server.url}/mcp`,
        openapi: `${server.url}/openapi.json`,
        health: `${server.url}/health`,
        inspector: `${server.url}/`,
        database: describeStore(config, path),
        auth:
          tokens.length > 0 ? `bearer tokens for ${new Set(tokens.map((t) => t.tenant)).size} tenant(s)` : 'none (loopback only)',
      };
      if (json) process.stdout.write(`${JSON.stringify(where)}\n`);
      else {
        process.stdout.write(
          [
            `Engram is serving ${where.database}`,
            `  HTTP API      ${where.api}   (routes: ${where.openapi})`,
            `  MCP endpoint  ${where.mcp}   (streamable HTTP; over stdio: engram mcp)`,
            `  inspector     ${where.inspector}   (the web inspector: memories, sessions, receipts)`,
            `  auth          ${where.auth}`,
            'Press Ctrl+C to stop.',
            '',
          ].join('\n'),
        );
      }
      await untilSignal();
      process.stderr.write(`engram serve: stopping (finishing ${server.inFlight} request(s), then closing the database)\n`);
      await server.close();
    });
}
