/**
 * `engram proxy --upstream URL`: an OpenAI-compatible endpoint that adds Engram's recall to
 * every chat completion and forwards it to the upstream, until SIGINT or SIGTERM. Point any
 * OpenAI client's base URL at it; `--json` prints where it listens as one JSON line.
 */
import type { Command } from 'commander';

import { openEngram } from '../../../index.js';
import { commandConfig, globalOptions } from '../context.js';
import { checkDatabasePath } from '../database-path.js';
import { parsePort, untilSignal } from '../listening.js';

/** `engram proxy`'s port unless told otherwise (as in surfaces/proxy, which loads only when run). */
const DEFAULT_PROXY_PORT = 7078;

interface ProxyOptions {
  upstream: string;
  port: string;
  scope: string;
}

export function registerProxy(program: Command): void {
  program
    .command('proxy')
    .description('an OpenAI-compatible /v1/chat/completions on loopback that adds recall and forwards to --upstream')
    .requiredOption('--upstream <url>', 'base URL of the OpenAI-compatible API to forward to, e.g. http://127.0.0.1:11434/v1')
    .option('--port <n>', 'port to listen on, on 127.0.0.1 (0 picks a free one)', String(DEFAULT_PROXY_PORT))
    .option('--scope <scope>', 'scope of sessions whose request names none (header x-engram-scope)', 'global')
    .addHelpText(
      'after',
      `
The session is the x-engram-session header, or else the request's "user" field; a request with
neither is forwarded without recall. The client's Authorization header goes to the upstream as
sent and is never stored or logged; upstream errors come back unchanged.

Examples:
  engram proxy --upstream https://api.example.com/v1
  engram proxy --upstream http://127.0.0.1:11434/v1 --port 8088
  # then, in the client: baseURL = "http://127.0.0.1:7078/v1"`,
    )
    .action(async (options: ProxyOptions, command: Command) => {
      const { db, json } = globalOptions(command);
      const config = commandConfig(command);
      // Loaded here, not with the CLI: the other commands would pay for it.
      const { parseUpstream, startRecallProxy } = await import('../../proxy/index.js');
      const upstream = parseUpstream(options.upstream);
      const port = parsePort(options.port);
      const path = db ?? config.store.path;
      checkDatabasePath(config, path, { mustExist: false });
      const engram = await openEngram({ config, path });
      const proxy = await startRecallProxy({ engram, upstream: upstream.href, port, scope: options.scope }).catch(
        async (error: unknown) => {
          await engram.close();
          throw error;
        },
      );
      const where = { url: proxy.url, upstream: upstream.origin + upstream.pathname, database: path };
      if (json) process.stdout.write(`${JSON.stringify(where)}\n`);
      else {
        process.stdout.write(
          [
            `Engram proxy for ${where.upstream}`,
            `  base URL   ${proxy.url}   (POST /chat/completions adds recall; other routes pass through)`,
            `  database   ${path}`,
            'Press Ctrl+C to stop.',
            '',
          ].join('\n'),
        );
      }
      await untilSignal();
      await proxy.close();
      await engram.close();
    });
}
