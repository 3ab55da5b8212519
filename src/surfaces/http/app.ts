/**
 * The HTTP API as a Hono app: the `/v1` JSON routes from the route table, `/mcp` (streamable
 * HTTP), `/health` and `/openapi.json`, and the web inspector's pages at `/`. Around them: the
 * shutdown gate, the token check that names the tenant, body limits, and one error shape for
 * every failure of the API (the inspector answers with pages of its own).
 */
import type { ServerResponse } from 'node:http';

import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

import type { McpHttpEndpoint } from '../mcp/index.js';
import { ENGRAM_VERSION } from '../version.js';
import { createInspectorApp, INSPECTOR_PATHS } from '../web/index.js';
import { ApiError, errorResponse } from './api-error.js';
import { type AnyApiRoute, parseInput } from './api-route.js';
import type { TenantResolver } from './auth.js';
import type { InFlight } from './in-flight.js';
import { assertLocalRequest } from './local-origin.js';
import { buildOpenApiDocument } from './openapi.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-body.js';
import { API_ROUTES } from './routes/index.js';
import type { TenantEngines } from './tenant-engines.js';

/** What the app is made of. */
export interface ApiAppOptions {
  engines: TenantEngines;
  tenants: TenantResolver;
  inFlight: InFlight;
  /** The MCP endpoint at `/mcp`; none when null. */
  mcp: McpHttpEndpoint | null;
  /** Refuse requests whose Host or Origin names another machine (DNS rebinding). @default false */
  localOnly?: boolean;
  /** @default 1 MiB */
  maxBodyBytes?: number;
  /** Serve the web inspector at `/` (docs/inspector.md). @default true */
  inspector?: boolean;
  /** Where unexpected errors go (the server log). */
  report: (error: unknown) => void;
}

type AppEnv = { Variables: { tenant: string } };

/** Paths outside `/v1`, for telling "no such route" from "wrong method". */
const OTHER_ROUTES: readonly { method: string; path: string }[] = [
  { method: 'GET', path: '/health' },
  { method: 'GET', path: '/openapi.json' },
  ...['GET', 'POST', 'DELETE'].map((method) => ({ method, path: '/mcp' })),
];

export function createApiApp(options: ApiAppOptions): Hono<AppEnv> {
  const { engines, tenants, inFlight, mcp, report } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const document = buildOpenApiDocument(API_ROUTES, ENGRAM_VERSION);
  const app = new Hono<AppEnv>();

  app.onError((error, c) => {
    const { status, body } = errorResponse(error, report);
    // The rest of a refused body may still be on the wire: the connection cannot be reused.
    if (status === 413) c.header('Connection', 'close');
    return c.json(body, status as ContentfulStatusCode);
  });
  app.notFound((c) => {
    const allowed = allowedMethods(API_ROUTES, c.req.path);
    if (allowed.length > 0) c.header('Allow', allowed.join(', '));
    const error =
      allowed.length === 0
        ? new ApiError(404, 'route_not_found', `no route ${c.req.path}: GET /openapi.json lists them`)
        : new ApiError(405, 'method_not_allowed', `${c.req.path} takes ${allowed.join(', ')}, not ${c.req.method}`);
    return c.json({ error: { code: error.code, message: error.message } }, error.status as ContentfulStatusCode);
  });

  app.use(async (c, next) => {
    if (inFlight.isDraining) {
      c.header('Connection', 'close');
      throw new ApiError(503, 'shutting_down', 'the server is shutting down: retry against its replacement');
    }
    const done = inFlight.begin();
    // Under Node the request counts until its reply has left: shutdown closes every connection
    // once none runs, and a reply still being written would be cut off.
    const reply = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    reply?.once('close', done);
    try {
      if (options.localOnly) assertLocalRequest(c.req.header('host'), c.req.header('origin'));
      await next();
    } finally {
      if (!reply) done();
    }
  });
  app.use('/v1/*', async (c, next) => {
    c.set('tenant', tenants.tenantFor(c.req.header('authorization')));
    await next();
  });

  app.get('/health', (c) => c.json({ status: 'ok', version: ENGRAM_VERSION }));
  app.get('/openapi.json', (c) => c.json(document));
  if (mcp)
    app.on(['GET', 'POST', 'DELETE'], '/mcp', (c) => mcp.handle(c.req.raw, tenants.tenantFor(c.req.header('authorization'))));

  if (options.inspector ?? true) {
    // A separate app, handed its own paths only: its sessions, CSRF checks and error pages never
    // touch the API, whose callers send bearer tokens and read JSON.
    const inspector = createInspectorApp({ engines, tenants, report });
    for (const path of INSPECTOR_PATHS) app.all(path, (c) => inspector.fetch(c.req.raw, c.env));
  }

  for (const route of API_ROUTES) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const result = await runRoute(route, {
        request: c.req.raw,
        params: c.req.param() as Record<string, string>,
        engines,
        tenant: c.get('tenant'),
        maxBodyBytes,
      });
      return c.json(result, (route.status ?? 200) as ContentfulStatusCode);
    });
  }
  return app;
}

async function runRoute(
  route: AnyApiRoute,
  input: { request: Request; params: Record<string, string>; engines: TenantEngines; tenant: string; maxBodyBytes: number },
): Promise<unknown> {
  let body: unknown;
  if (route.body) {
    const raw = await readJsonBody(input.request, input.maxBodyBytes);
    if (raw === undefined && !route.bodyOptional) {
      throw new ApiError(400, 'invalid_input', `${route.method.toUpperCase()} ${route.path} needs a JSON object body`);
    }
    body = parseInput(route.body, raw ?? {}, 'body');
  }
  const query = route.query ? parseInput(route.query, queryObject(input.request.url), 'query') : undefined;
  const engram = await input.engines.get(input.tenant);
  return route.handle({ engram, params: input.params, body, query });
}

/** The query string as an object; a repeated parameter's values are joined with commas. */
function queryObject(url: string): Record<string, string> {
  const params = new URL(url).searchParams;
  return Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.getAll(key).join(',')]));
}

function allowedMethods(routes: readonly AnyApiRoute[], path: string): string[] {
  const all = [...routes.map((route) => ({ method: route.method.toUpperCase(), path: route.path })), ...OTHER_ROUTES];
  return [...new Set(all.filter((route) => pathPattern(route.path).test(path)).map((route) => route.method))];
}

function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:[A-Za-z_]+/g, '[^/]+')}$`);
}
