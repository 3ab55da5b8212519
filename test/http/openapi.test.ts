/**
 * The OpenAPI document against the running server: every documented operation is served,
 * every served route is documented, and the parameters and fields it lists are the ones the
 * server accepts and requires.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { API_ROUTES, type RunningHttpServer } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { send, startInProcess } from './helpers.js';

interface Operation {
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: { properties?: object; required?: string[] } } } };
  responses: Record<string, unknown>;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'patch', 'delete'];

describe('GET /openapi.json', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  let document: Document;
  let memoryId: string;
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ path, method, operation })),
    );
  const concrete = (path: string) => path.replace('{id}', memoryId);

  beforeAll(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir);
    document = (await send<Document>(server.url, 'GET', '/openapi.json')).body;
    memoryId = (await send<{ memory: { id: string } }>(server.url, 'POST', '/v1/memories', { body: { text: 'a memory' } })).body
      .memory.id;
  });
  afterAll(async () => {
    await server.close();
    temp.remove();
  });

  it('is an OpenAPI 3.1 document listing exactly the served routes', () => {
    expect(document.openapi).toBe('3.1.0');
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    const served = [
      ...API_ROUTES.map((route) => `${route.method} ${route.path.replace(/:([a-z]+)/g, '{$1}')}`),
      'get /health',
      'get /openapi.json',
      'get /mcp',
      'post /mcp',
      'delete /mcp',
    ];
    expect(documented.sort()).toEqual(served.sort());
  });

  it('documents routes the server answers, with the methods it takes', async () => {
    for (const { path, method } of operations()) {
      const reply = await send<{ error?: { code: string } }>(server.url, method.toUpperCase(), concrete(path), {
        body: method === 'get' || method === 'delete' ? undefined : {},
      });
      expect([reply.status, reply.body?.error?.code], `${method} ${path}`).not.toContain('route_not_found');
      expect(reply.status, `${method} ${path}`).not.toBe(405);
      expect(reply.status, `${method} ${path}`).toBeLessThan(500);
    }
  });

  it('declares every path parameter of a path', () => {
    for (const { path, operation } of operations()) {
      const inPath = [...path.matchAll(/\{([a-z]+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      expect(declared, path).toEqual(inPath);
    }
  });

  it('lists query parameters the server accepts', async () => {
    for (const { path, method, operation } of operations()) {
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
        const reply = await send<{ error?: { message: string } }>(
          server.url,
          method.toUpperCase(),
          `${concrete(path)}?${parameter.name}=1`,
        );
        expect(reply.body?.error?.message ?? '', `${method} ${path} ?${parameter.name}`).not.toMatch(/unknown query parameter/);
      }
      const unknown = await send<{ error?: { message: string } }>(server.url, method.toUpperCase(), `${concrete(path)}?zzz=1`);
      if ((operation.parameters ?? []).some((p) => p.in === 'query')) {
        expect(unknown.body?.error?.message, `${method} ${path}`).toMatch(/unknown query parameter zzz/);
      }
    }
  });

  it('lists body fields the server accepts, and requires the ones it marks required', async () => {
    for (const { path, method, operation } of operations().filter(({ path }) => path !== '/mcp')) {
      const schema = operation.requestBody?.content['application/json'].schema;
      if (!schema) continue;
      for (const field of Object.keys(schema.properties ?? {})) {
        const reply = await send<{ error?: { message: string } }>(server.url, method.toUpperCase(), concrete(path), {
          body: { [field]: null },
        });
        expect(reply.body?.error?.message ?? '', `${method} ${path} ${field}`).not.toMatch(/unknown field/);
      }
      const empty = await send<{ error?: { message: string } }>(server.url, method.toUpperCase(), concrete(path), { body: {} });
      for (const field of schema.required ?? []) {
        expect(empty.body?.error?.message ?? '', `${method} ${path} requires ${field}`).toMatch(new RegExp(`body\\.${field}`));
      }
      if ((schema.required ?? []).length === 0) expect(empty.status, `${method} ${path}`).toBeLessThan(300);
      expect(operation.requestBody?.required, `${method} ${path}`).toBe(
        !['/v1/sessions/{id}/start', '/v1/sessions/{id}/end'].includes(path),
      );
    }
  });
});
