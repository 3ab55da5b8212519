/**
 * MCP over streamable HTTP: each client that sends `initialize` gets its own MCP session (the
 * `Mcp-Session-Id` header) backed by its own Engram session, bound to the tenant of the token
 * that opened it — a session id presented with another tenant's token is unknown. Responses
 * are plain JSON (no long-lived event streams to drain). Sessions idle past `idleMs`, or the
 * oldest past `maxSessions`, are closed.
 */
import { randomUUID } from 'node:crypto';

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

import type { Engram } from '../../index.js';
import { createEngramMcpServer, type EngramMcpServer } from './server.js';

/** How the endpoint opens sessions. */
export interface McpHttpEndpointOptions {
  /** The engine of a tenant. */
  engineFor: (tenant: string) => Promise<Engram>;
  /** Scope of a session whose client names none (`?scope=`). @default "global" */
  defaultScope?: string;
  /** Largest request body, in bytes. @default 1 MiB */
  maxBodyBytes?: number;
  /** Live sessions at most; the least recently used is closed to make room. @default 256 */
  maxSessions?: number;
  /** A session unused this long is closed. @default 1 hour */
  idleMs?: number;
  /** @default Date.now */
  now?: () => number;
}

interface LiveSession extends EngramMcpServer {
  tenant: string;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

/** Request headers that name the Engram session and scope of a new MCP session (the query string works too). */
export const SESSION_HEADER = 'x-engram-session';
export const SCOPE_HEADER = 'x-engram-scope';

export class McpHttpEndpoint {
  private readonly options: Required<Omit<McpHttpEndpointOptions, 'engineFor'>> & Pick<McpHttpEndpointOptions, 'engineFor'>;
  private readonly sessions = new Map<string, LiveSession>();

  constructor(options: McpHttpEndpointOptions) {
    this.options = {
      engineFor: options.engineFor,
      defaultScope: options.defaultScope ?? 'global',
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      maxSessions: options.maxSessions ?? 256,
      idleMs: options.idleMs ?? 60 * 60 * 1000,
      now: options.now ?? Date.now,
    };
  }

  /** Live MCP sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Answers one request to the MCP endpoint for `tenant`. */
  async handle(request: Request, tenant: string): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const live = this.sessions.get(id);
      if (!live || live.tenant !== tenant) {
        return rpcError(
          404,
          -32001,
          'unknown MCP session (it expired, was closed, or belongs to another token): initialize a new one',
        );
      }
      live.lastUsed = this.options.now();
      return live.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return rpcError(400, -32000, 'no MCP session yet: POST an initialize request first');
    return this.open(request, tenant);
  }

  /** Closes every session: their tool calls finish, their Engram sessions are marked ended. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async open(request: Request, tenant: string): Promise<Response> {
    await this.closeIdle();
    const url = new URL(request.url);
    const engram = await this.options.engineFor(tenant);
    const served = createEngramMcpServer({
      engram,
      sessionId: url.searchParams.get('session') ?? request.headers.get(SESSION_HEADER) ?? undefined,
      scope: url.searchParams.get('scope') ?? request.headers.get(SCOPE_HEADER) ?? this.options.defaultScope,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: this.options.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { ...served, tenant, transport, lastUsed: this.options.now() });
      },
      onsessionclosed: (id) => this.close(id),
    });
    await served.server.connect(transport);
    const response = await transport.handleRequest(request);
    // Anything but a successful initialize leaves no session behind.
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await served.server.close();
    return response;
  }

  private async close(id: string): Promise<void> {
    const live = this.sessions.get(id);
    if (!live) return;
    this.sessions.delete(id);
    await live.settled();
    await live.server.close();
    await live.session.end();
  }

  private async closeIdle(): Promise<void> {
    const now = this.options.now();
    const byAge = [...this.sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const excess = Math.max(0, byAge.length + 1 - this.options.maxSessions);
    const stale = byAge.filter(([, live], index) => index < excess || now - live.lastUsed > this.options.idleMs);
    await Promise.all(stale.map(([id]) => this.close(id)));
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
