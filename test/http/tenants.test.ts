/**
 * Tokens and tenants: without a valid bearer token nothing but /health and /openapi.json
 * answers, and a token bound to one tenant never reads or writes another tenant's memories —
 * checked by many random operations across two tokens against a model of what each holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningHttpServer } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { expectApiError, send, startInProcess } from './helpers.js';

const TOKENS = { acme: 'acme-token-0123456789abcdef', globex: 'globex-token-0123456789abcdef' } as const;
type Tenant = keyof typeof TOKENS;
const TENANTS: readonly Tenant[] = ['acme', 'globex'];

/** mulberry32: the same operations on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ModelMemory {
  text: string;
  marker: string;
}
interface MemoryReply {
  memory: { id: string; tenant: string; text: string };
}

describe('tokens bound to tenants', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;

  beforeAll(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir, [
      { token: TOKENS.acme, tenant: 'acme' },
      { token: TOKENS.globex, tenant: 'globex' },
    ]);
  });
  afterAll(async () => {
    await server.close();
    temp.remove();
  });

  it('refuses requests without a known bearer token, except health and the document', async () => {
    expectApiError(await send(server.url, 'GET', '/v1/stats'), 401, 'unauthorized', /Authorization: Bearer/);
    expectApiError(
      await send(server.url, 'GET', '/v1/stats', { token: 'not-a-token-of-this-server' }),
      401,
      'unauthorized',
      /not valid/,
    );
    expectApiError(await send(server.url, 'GET', '/v1/stats', { headers: { authorization: TOKENS.acme } }), 401, 'unauthorized');
    expectApiError(await send(server.url, 'POST', '/v1/memories', { body: { text: 'sneaky' } }), 401, 'unauthorized');
    expectApiError(await send(server.url, 'POST', '/mcp', { body: {} }), 401, 'unauthorized');
    expect((await send(server.url, 'GET', '/health')).status).toBe(200);
    expect((await send(server.url, 'GET', '/openapi.json')).status).toBe(200);
    expect((await send(server.url, 'GET', '/v1/stats', { token: TOKENS.acme })).status).toBe(200);
  });

  it('never lets one tenant read or write another’s memories, over many random operations', async () => {
    const random = seeded(20260601);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const model: Record<Tenant, Map<string, ModelMemory>> = { acme: new Map(), globex: new Map() };
    const turns: Record<Tenant, number> = { acme: 0, globex: 0 };
    const as = (tenant: Tenant) => ({ token: TOKENS[tenant] });
    const other = (tenant: Tenant): Tenant => (tenant === 'acme' ? 'globex' : 'acme');
    const someId = (tenant: Tenant) => pick([...model[tenant].keys()]);
    let counter = 0;

    for (let step = 0; step < 400; step++) {
      const tenant = pick(TENANTS);
      const theirs = other(tenant);
      const op = model[tenant].size === 0 ? 0 : Math.floor(random() * 12);
      if (op <= 2) {
        const marker = `marker${tenant}${++counter}`;
        const text = `${tenant} note ${counter} about ${marker} and the shared topic billing`;
        const reply = await send<MemoryReply>(server.url, 'POST', '/v1/memories', {
          ...as(tenant),
          body: { text, scope: pick(['global', 'project:x', 'user:alice']) },
        });
        expect(reply.status).toBe(201);
        expect(reply.body.memory.tenant).toBe(tenant);
        model[tenant].set(reply.body.memory.id, { text, marker });
      } else if (op === 3 && model[theirs].size > 0) {
        const id = someId(theirs);
        expectApiError(await send(server.url, 'GET', `/v1/memories/${id}`, as(tenant)), 404, 'not_found');
      } else if (op === 4 && model[theirs].size > 0) {
        const id = someId(theirs);
        const body = { text: `overwritten by ${tenant}` };
        expectApiError(await send(server.url, 'PATCH', `/v1/memories/${id}`, { ...as(tenant), body }), 404, 'not_found');
      } else if (op === 5 && model[theirs].size > 0) {
        const id = someId(theirs);
        const hard = random() < 0.5 ? '?hard=true' : '';
        expectApiError(await send(server.url, 'DELETE', `/v1/memories/${id}${hard}`, as(tenant)), 404, 'not_found');
      } else if (op === 6 && model[theirs].size > 0) {
        const body = { text: `replacing another tenant's memory`, supersedes: someId(theirs) };
        expectApiError(await send(server.url, 'POST', '/v1/memories', { ...as(tenant), body }), 404, 'not_found');
      } else if (op === 7) {
        const id = someId(tenant);
        const text = `${tenant} edited ${id} about ${model[tenant].get(id)?.marker}`;
        const reply = await send<MemoryReply>(server.url, 'PATCH', `/v1/memories/${id}`, { ...as(tenant), body: { text } });
        expect(reply.status).toBe(200);
        model[tenant].set(id, { ...(model[tenant].get(id) as ModelMemory), text });
      } else if (op === 8) {
        const id = someId(tenant);
        expect((await send(server.url, 'DELETE', `/v1/memories/${id}?hard=true`, as(tenant))).status).toBe(200);
        model[tenant].delete(id);
      } else if (op === 9) {
        // Search for a marker only the other tenant wrote, and for the shared topic.
        const query = model[theirs].size > 0 ? (model[theirs].get(someId(theirs)) as ModelMemory).marker : 'billing';
        for (const q of [query, 'shared topic billing']) {
          const reply = await send<{ hits: { memory: { id: string } }[] }>(server.url, 'POST', '/v1/search', {
            ...as(tenant),
            body: { query: q, limit: 50 },
          });
          expect(reply.status).toBe(200);
          for (const hit of reply.body.hits) expect(model[tenant].has(hit.memory.id), q).toBe(true);
        }
      } else if (op === 10) {
        // The same session id in both tenants is two sessions.
        const reply = await send<{ turn: number }>(server.url, 'POST', '/v1/sessions/shared/before-turn', {
          ...as(tenant),
          body: { message: 'what about billing?' },
        });
        expect(reply.body.turn).toBe(++turns[tenant]);
      } else {
        const stats = await send<{ live: number }>(server.url, 'GET', '/v1/stats', as(tenant));
        expect(stats.body.live).toBe(model[tenant].size);
      }
    }

    // In the end each tenant holds exactly what it wrote, unchanged by the other.
    for (const tenant of TENANTS) {
      const reply = await send<{ memories: { id: string; text: string; tenant: string }[] }>(
        server.url,
        'GET',
        '/v1/memories?all=true&limit=1000',
        as(tenant),
      );
      const held = new Map(reply.body.memories.map((memory) => [memory.id, memory.text]));
      expect(held).toEqual(new Map([...model[tenant]].map(([id, memory]) => [id, memory.text])));
      expect(new Set(reply.body.memories.map((memory) => memory.tenant))).toEqual(
        new Set(model[tenant].size > 0 ? [tenant] : []),
      );
    }
    expect(model.acme.size + model.globex.size).toBeGreaterThan(20);
  });

  it('keeps solutions and receipts apart too', async () => {
    const body = { goal: 'Rotate the signing keys', approach: 'Use the vault CLI', outcome: 'Done', confidence: 80 };
    const stored = await send<{ solution: { id: string } }>(server.url, 'POST', '/v1/solutions', { token: TOKENS.acme, body });
    expect(stored.status).toBe(201);
    const mine = await send<{ matches: unknown[] }>(server.url, 'POST', '/v1/solutions/recall', {
      token: TOKENS.acme,
      body: { goal: 'Rotate the signing keys', similarity: 'keyword' },
    });
    expect(mine.body.matches).toHaveLength(1);
    const theirs = await send<{ matches: unknown[]; block: null }>(server.url, 'POST', '/v1/solutions/recall', {
      token: TOKENS.globex,
      body: { goal: 'Rotate the signing keys', similarity: 'keyword' },
    });
    expect(theirs.body).toEqual({ matches: [], block: null });
    const receipts = await send<{ receipts: { tenant: string }[] }>(server.url, 'GET', '/v1/receipts?limit=1000', {
      token: TOKENS.globex,
    });
    for (const receipt of receipts.body.receipts) expect(receipt.tenant).toBe('globex');
  });
});
