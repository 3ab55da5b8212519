/**
 * `engram/http`: Engram's JSON HTTP API (with MCP at `/mcp`) as a function, a Hono app, and
 * the OpenAPI document. `engram serve` is `startHttpServer` with the CLI's options.
 */
export type { ApiErrorBody, ApiErrorCode } from './api-error.js';
export { ApiError } from './api-error.js';
export type { ApiAppOptions } from './app.js';
export { createApiApp } from './app.js';
export type { TokenBinding } from './auth.js';
export { assertBindAllowed, isLoopbackHost, MIN_TOKEN_CHARS, parseTokenBindings, TenantResolver } from './auth.js';
export { DEFAULT_PORT } from './default-port.js';
export { InFlight } from './in-flight.js';
export { buildOpenApiDocument } from './openapi.js';
export { DEFAULT_MAX_BODY_BYTES } from './read-body.js';
export { API_ROUTES } from './routes/index.js';
export type { HttpServerOptions, RunningHttpServer } from './server.js';
export { startHttpServer } from './server.js';
export { TenantEngines } from './tenant-engines.js';
