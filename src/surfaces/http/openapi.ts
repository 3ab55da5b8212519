/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route table and its zod
 * schemas (plus the few routes outside `/v1`), so it always says what the server does.
 */
import { z } from 'zod';

import type { AnyApiRoute } from './api-route.js';
import { ErrorResponse, HealthResponse } from './response-schemas.js';

type JsonObject = Record<string, unknown>;

/** `/v1/memories/:id` → `/v1/memories/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The document for `routes`. */
export function buildOpenApiDocument(routes: readonly AnyApiRoute[], version: string): JsonObject {
  const paths: Record<string, JsonObject> = {
    '/health': {
      get: {
        operationId: 'health',
        tags: ['server'],
        summary: 'Whether the server is up (no token needed)',
        security: [],
        responses: { '200': jsonResponse('The server is up', schemaOf(HealthResponse, 'output')) },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['server'],
        summary: 'This document (no token needed)',
        security: [],
        responses: { '200': jsonResponse('The OpenAPI document', { type: 'object' }) },
      },
    },
    '/mcp': mcpPathItem(),
  };
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram HTTP API',
      version,
      description:
        'Long-term memory and recall for AI agents. JSON in and out; every error is { "error": { "code", "message" } }. ' +
        'When the server has tokens (ENGRAM_TOKEN, ENGRAM_TOKENS), every route but /health and /openapi.json needs ' +
        '`Authorization: Bearer <token>`, and the token decides the tenant.',
    },
    security: [{}, { bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

function operation(route: AnyApiRoute): JsonObject {
  const pathParams = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const op: JsonObject = {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: [...pathParams, ...queryParameters(route.query)],
    responses: {
      [String(route.status ?? 200)]: jsonResponse('Success', schemaOf(route.response, 'output')),
      ...(route.body || route.query ? { '400': errorResponse('Malformed JSON, a wrong type, or a bad value') } : {}),
      '401': errorResponse('A token is needed, or the token is not valid'),
      ...(pathParams.length > 0 ? { '404': errorResponse('No such id in the caller’s tenant') } : {}),
      ...(route.body ? { '413': errorResponse('The body is larger than the limit (1 MiB by default)') } : {}),
      '503': errorResponse(
        'The server is shutting down, or its database is locked by another process (database_locked) or read-only (database_read_only)',
      ),
      '507': errorResponse('The disk holding the database is full (disk_full)'),
    },
  };
  if (route.body) {
    op.requestBody = {
      required: !route.bodyOptional,
      content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
    };
  }
  return op;
}

function queryParameters(query: z.ZodType | undefined): JsonObject[] {
  if (!query) return [];
  const schema = schemaOf(query, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operationId(route: AnyApiRoute): string {
  const words = route.path
    .replace(/^\/v1\//, '')
    .split(/[/-]/)
    .filter((part) => part.length > 0)
    .map((part) => (part.startsWith(':') ? 'by ' + part.slice(1) : part));
  return [route.method, ...words]
    .join(' ')
    .split(' ')
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  return json;
}

function jsonResponse(description: string, schema: JsonObject): JsonObject {
  return { description, content: { 'application/json': { schema } } };
}

function errorResponse(description: string): JsonObject {
  return jsonResponse(description, schemaOf(ErrorResponse, 'output'));
}

function mcpPathItem(): JsonObject {
  const description =
    'The Model Context Protocol over streamable HTTP: the memory tools, the session_start prompt, the session context and the recall receipts as resources. ' +
    'Use an MCP client. A new session may name its Engram session and scope with ?session=ID&scope=SCOPE (or the X-Engram-Session and X-Engram-Scope headers).';
  const rpc = { description: 'A JSON-RPC response or error', content: { 'application/json': { schema: { type: 'object' } } } };
  return {
    post: {
      operationId: 'mcpPost',
      tags: ['mcp'],
      summary: 'Send MCP JSON-RPC messages (initialize first)',
      description,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': rpc, '202': { description: 'A notification was accepted' }, '400': rpc, '404': rpc },
    },
    get: {
      operationId: 'mcpGet',
      tags: ['mcp'],
      summary: 'Open the event stream of an MCP session',
      responses: { '200': { description: 'Server-sent events' }, '400': rpc, '404': rpc },
    },
    delete: {
      operationId: 'mcpDelete',
      tags: ['mcp'],
      summary: 'Close an MCP session',
      responses: { '200': { description: 'Closed' }, '400': rpc, '404': rpc },
    },
  };
}
