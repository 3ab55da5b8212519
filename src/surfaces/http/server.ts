/**
 * `engram serve` as a function: listens, serves the API and MCP for every tenant a token
 * names, and shuts down gracefully — new requests are refused, running ones finish, MCP
 * sessions end, then the database closes.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';

import { ConfigError, type Engram } from '../../index.js';
import { McpHttpEndpoint } from '../mcp/index.js';
import { createApiApp } from './app.js';
import { assertBindAllowed, isLoopbackHost, TenantResolver, type TokenBinding } from './auth.js';
import { DEFAULT_PORT } from './default-port.js';
import { InFlight } from './in-flight.js';
import { DEFAULT_MAX_BODY_BYTES } from './read-body.js';
import { TenantEngines } from './tenant-engines.js';

/** Where and how to serve. */
export interface HttpServerOptions {
  /** Opens the engine of a tenant (all on the same database). */
  openEngine: (tenant: string) => Promise<Engram>;
  /** @default "127.0.0.1" */
  host?: string;
  /** 0 picks a free port. @default 7077 */
  port?: number;
  /** Bearer tokens and their tenants; none means open access, on loopback only. @default [] */
  tokens?: readonly TokenBinding[];
  /** The tenant of a server without tokens, and of `ENGRAM_TOKEN`. @default "default" */
  defaultTenant?: string;
  /** Scope of MCP sessions whose client names none. @default "global" */
  mcpScope?: string;
  /** @default 1 MiB */
  maxBodyBytes?: number;
  /** How long shutdown waits for running requests. @default 10000 */
  drainMs?: number;
  /** Server log lines (errors, shutdown). @default standard error */
  log?: (line: string) => void;
}

/** A running server. */
export interface RunningHttpServer {
  /** e.g. `http://127.0.0.1:7077` */
  url: string;
  host: string;
  port: number;
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Stops gracefully; safe to call twice. Resolves when the database is closed. */
  close(): Promise<void>;
}

/** Starts the server; rejects (before listening) on a bind that needs a token, or a busy port. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const tokens = options.tokens ?? [];
  const defaultTenant = options.defaultTenant ?? 'default';
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  assertBindAllowed(host, tokens);
  const engines = new TenantEngines(options.openEngine);
  // Open the database now, so a bad path or a newer schema fails here and not on the first request.
  await (await engines.get(tokens.length > 0 ? (tokens[0] as TokenBinding).tenant : defaultTenant)).stats();
  const inFlight = new InFlight();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const mcp = new McpHttpEndpoint({ engineFor: (tenant) => engines.get(tenant), defaultScope: options.mcpScope, maxBodyBytes });
  const app = createApiApp({
    engines,
    tenants: new TenantResolver(tokens, defaultTenant),
    inFlight,
    mcp,
    localOnly: isLoopbackHost(host),
    maxBodyBytes,
    report: (error) => log(`engram serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const server = await listen(app.fetch, host, options.port ?? DEFAULT_PORT).catch(async (error: unknown) => {
    await engines.closeAll();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    get inFlight() {
      return inFlight.running;
    },
    close: () =>
      (closing ??= (async () => {
        server.close();
        server.closeIdleConnections();
        const drained = await inFlight.drain(options.drainMs ?? 10_000);
        if (!drained) log(`engram serve: ${inFlight.running} request(s) still running after the grace period; closing anyway`);
        await mcp.closeAll();
        server.closeAllConnections();
        await engines.closeAll();
      })()),
  };
}

function listen(fetch: (request: Request) => Response | Promise<Response>, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }) as Server;
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ConfigError(`port ${port} on ${host} is in use: choose another with --port`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new ConfigError(`cannot listen on ${host}: no such address on this machine (try 127.0.0.1 or 0.0.0.0)`));
      else reject(error);
    });
    server.once('listening', () => resolve(server));
  });
}
