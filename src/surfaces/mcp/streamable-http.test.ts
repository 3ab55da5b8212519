import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, openEngram } from '../../index.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { McpHttpEndpoint } from './streamable-http.js';

const URL = 'http://127.0.0.1/mcp';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function initialize(): Request {
  return new Request(URL, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unit', version: '1' } },
    }),
  });
}

function listTools(sessionId: string): Request {
  return new Request(URL, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
}

describe('McpHttpEndpoint', () => {
  let engram: Engram;
  let now: number;
  beforeEach(async () => {
    engram = await openEngram({ store: new SqliteStore(':memory:'), embedder: null });
    now = 0;
  });
  afterEach(() => engram.close());

  const open = async (endpoint: McpHttpEndpoint, tenant = 'default') => {
    const response = await endpoint.handle(initialize(), tenant);
    expect(response.status).toBe(200);
    return response.headers.get('mcp-session-id') as string;
  };

  it('opens one session per initialize and answers on it', async () => {
    const endpoint = new McpHttpEndpoint({ engineFor: async () => engram });
    const id = await open(endpoint);
    const response = await endpoint.handle(listTools(id), 'default');
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('search_memory');
    expect(endpoint.size).toBe(1);
    await endpoint.closeAll();
    expect(endpoint.size).toBe(0);
  });

  it('leaves no session behind for a first request that is not initialize', async () => {
    const endpoint = new McpHttpEndpoint({ engineFor: async () => engram });
    const request = new Request(URL, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    const response = await endpoint.handle(request, 'default');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(endpoint.size).toBe(0);
    expect((await endpoint.handle(new Request(URL), 'default')).status).toBe(400);
  });

  it('treats a session id presented for another tenant as unknown', async () => {
    const endpoint = new McpHttpEndpoint({ engineFor: async () => engram });
    const id = await open(endpoint, 'acme');
    expect((await endpoint.handle(listTools(id), 'globex')).status).toBe(404);
    expect((await endpoint.handle(listTools(id), 'acme')).status).toBe(200);
    await endpoint.closeAll();
  });

  it('closes the least recently used session past maxSessions, and idle ones', async () => {
    const endpoint = new McpHttpEndpoint({ engineFor: async () => engram, maxSessions: 2, idleMs: 1000, now: () => now });
    const first = await open(endpoint);
    now = 10;
    const second = await open(endpoint);
    now = 20;
    await endpoint.handle(listTools(first), 'default'); // first is now the more recently used
    now = 30;
    await open(endpoint);
    expect((await endpoint.handle(listTools(second), 'default')).status).toBe(404);
    expect((await endpoint.handle(listTools(first), 'default')).status).toBe(200);
    now = 5000;
    await open(endpoint);
    expect(endpoint.size).toBe(1);
    await endpoint.closeAll();
  });
});
