/**
 * Every route of the JSON API over a real port, each success checked against the route's
 * documented response schema. The server runs in this process, lexical only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { calibrate } from '../../src/retrieval/calibration.js';
import type { RunningHttpServer } from '../../src/surfaces/http/index.js';
import { API_ROUTES } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { expectApiError, expectDocumented, send, startInProcess } from './helpers.js';

interface MemoryBody {
  memory: { id: string; text: string; kind: string; tier: string; scope: string; archivedAt: string | null; tags: string[] };
}

describe('the HTTP API', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  const covered = new Set<string>();
  const call = async (method: string, route: string, path: string, options: Parameters<typeof send>[3] = {}) => {
    covered.add(`${method.toLowerCase()} ${route}`);
    return send(server.url, method, path, options);
  };

  beforeAll(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir);
  });
  afterAll(async () => {
    await server.close();
    temp.remove();
  });

  it('answers GET /health', async () => {
    const reply = await send(server.url, 'GET', '/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('creates, reads, lists, changes and forgets memories', async () => {
    const created = expectDocumented<MemoryBody>(
      await call('POST', '/v1/memories', '/v1/memories', {
        body: { text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must_remember', tags: ['db'] },
      }),
      'post',
      '/v1/memories',
    );
    expect(created.memory).toMatchObject({ kind: 'decision', tier: 'must', tags: ['db'], scope: 'global' });
    const id = created.memory.id;
    await call('POST', '/v1/memories', '/v1/memories', { body: { text: 'Alice prefers short answers', scope: 'user:alice' } });

    const read = expectDocumented<MemoryBody>(
      await call('GET', '/v1/memories/:id', `/v1/memories/${id}`),
      'get',
      '/v1/memories/:id',
    );
    expect(read.memory.text).toBe('We chose PostgreSQL for billing');

    const listed = expectDocumented<{ memories: { id: string }[] }>(
      await call('GET', '/v1/memories', '/v1/memories?kind=decision&tier=must&limit=5'),
      'get',
      '/v1/memories',
    );
    expect(listed.memories.map((memory) => memory.id)).toEqual([id]);
    const byScope = await send<{ memories: { scope: string }[] }>(
      server.url,
      'GET',
      '/v1/memories?scope=user:alice&scope=project:none',
    );
    expect(byScope.body.memories.map((memory) => memory.scope)).toEqual(['user:alice']);

    const patched = expectDocumented<MemoryBody>(
      await call('PATCH', '/v1/memories/:id', `/v1/memories/${id}`, {
        body: { text: 'We chose CockroachDB for billing', tier: 'nice' },
      }),
      'patch',
      '/v1/memories/:id',
    );
    expect(patched.memory).toMatchObject({ id, text: 'We chose CockroachDB for billing', tier: 'nice' });

    const archived = expectDocumented(
      await call('DELETE', '/v1/memories/:id', `/v1/memories/${id}`),
      'delete',
      '/v1/memories/:id',
    );
    expect(archived).toEqual({ id, outcome: 'archived' });
    // Forgetting it again changes nothing, and says so.
    expect((await send(server.url, 'DELETE', `/v1/memories/${id}`)).body).toEqual({ id, outcome: 'already_archived' });
    const afterArchive = await send<MemoryBody>(server.url, 'GET', `/v1/memories/${id}`);
    expect(afterArchive.body.memory.archivedAt).not.toBeNull();
    const hidden = await send<{ memories: { id: string }[] }>(server.url, 'GET', '/v1/memories');
    expect(hidden.body.memories.map((memory) => memory.id)).not.toContain(id);
    const withAll = await send<{ memories: { id: string }[] }>(server.url, 'GET', '/v1/memories?all=true');
    expect(withAll.body.memories.map((memory) => memory.id)).toContain(id);
    const onlyArchived = await send<{ memories: { id: string }[] }>(server.url, 'GET', '/v1/memories?status=archived');
    expect(onlyArchived.body.memories.map((memory) => memory.id)).toEqual([id]);

    const restored = expectDocumented<{ outcome: string; memory: MemoryBody['memory'] & { updatedAt: string } }>(
      await call('POST', '/v1/memories/:id/restore', `/v1/memories/${id}/restore`),
      'post',
      '/v1/memories/:id/restore',
    );
    expect(restored).toMatchObject({
      outcome: 'restored',
      memory: { id, text: 'We chose CockroachDB for billing', archivedAt: null },
    });
    // Restoring a live memory changes nothing, and says so.
    const again = await send<{ outcome: string; memory: { updatedAt: string } }>(
      server.url,
      'POST',
      `/v1/memories/${id}/restore`,
    );
    expect(again.body).toMatchObject({ outcome: 'not_archived', memory: { updatedAt: restored.memory.updatedAt } });
    const pages = await send<{ memories: { id: string }[] }>(server.url, 'GET', `/v1/memories?after=${id}&limit=5`);
    expect(pages.body.memories.map((memory) => memory.id)).not.toContain(id);
    expect((await send(server.url, 'GET', `/v1/memories?after=${id}&offset=3`)).status).toBe(400);

    expect((await send(server.url, 'DELETE', `/v1/memories/${id}?hard=true`)).body).toEqual({ id, outcome: 'deleted' });
    expectApiError(await send(server.url, 'GET', `/v1/memories/${id}`), 404, 'not_found');

    // Every one of those writes is in the activity log, in order.
    const { activity } = expectDocumented<{
      activity: { at: string; action: string; summary: string; memoryId: string | null }[];
    }>(await call('GET', '/v1/activity', '/v1/activity'), 'get', '/v1/activity');
    expect(activity.map((line) => [line.action, line.summary])).toEqual([
      ['remember', 'decision: We chose PostgreSQL for billing'],
      ['remember', 'note: Alice prefers short answers'],
      ['update', 'changed text, tier must → nice: We chose CockroachDB for billing'],
      ['forget', 'archived: We chose CockroachDB for billing'],
      ['restore', 'restored: We chose CockroachDB for billing'],
      ['forget', `deleted ${id} for good: We chose CockroachDB for billing`],
    ]);
    expect(activity[0]?.memoryId).toBe(id);
    const day = activity[0]?.at.slice(0, 10);
    const latest = await send<{ activity: { action: string }[] }>(server.url, 'GET', `/v1/activity?day=${day}&limit=2`);
    expect(latest.body.activity.map((line) => line.action)).toEqual(['restore', 'forget']);
    expectApiError(await send(server.url, 'GET', '/v1/activity?day=yesterday'), 400, 'invalid_input', /day.*2026-01-31/);
  });

  it("keeps the old memory's tier, kind and scope in a new version posted with supersedes", async () => {
    const old = await send<MemoryBody>(server.url, 'POST', '/v1/memories', {
      body: { text: 'Deploys go out on Tuesdays', kind: 'constraint', tier: 'must', scope: 'project:ops', tags: ['deploy'] },
    });
    const next = await send<MemoryBody>(server.url, 'POST', '/v1/memories', {
      body: { text: 'Deploys go out on Wednesdays', supersedes: old.body.memory.id },
    });
    expect(next.status).toBe(201);
    expect(next.body.memory).toMatchObject({ kind: 'constraint', tier: 'must', scope: 'project:ops', tags: ['deploy'] });
  });

  it('searches by words', async () => {
    await send(server.url, 'POST', '/v1/memories', {
      body: { text: 'Never deploy on Fridays', kind: 'constraint', tier: 'must' },
    });
    const reply = expectDocumented<{ hits: { memory: { text: string }; relevance: number; raw: number; storeShift: number }[] }>(
      await call('POST', '/v1/search', '/v1/search', { body: { query: 'deploy fridays', limit: 3, kinds: ['constraint'] } }),
      'post',
      '/v1/search',
    );
    expect(reply.hits[0]?.memory.text).toBe('Never deploy on Fridays');
    expect(reply.hits[0]?.relevance).toBeGreaterThan(0);
    // The score before calibration travels beside relevance, which is the curve read at it.
    expect(reply.hits[0]?.raw).toBeGreaterThan(0);
    expect(reply.hits[0]?.relevance).toBeCloseTo(calibrate(reply.hits[0]?.raw ?? -1), 10);
    // A young store without vectors: the store's own calibration takes nothing off.
    expect(reply.hits[0]?.storeShift).toBe(0);
  });

  it('runs the turn loop of a session: start, before-turn, after-step, context, end', async () => {
    const scope = { scope: 'project:x' };
    await send(server.url, 'POST', '/v1/memories', {
      body: { text: 'Next: ship the invoice export', kind: 'handoff', key: 'session-handoff', scope: 'project:x' },
    });
    const start = expectDocumented<{ resumed: boolean; text: string; sessionId: string }>(
      await call('POST', '/v1/sessions/:id/start', '/v1/sessions/chat-1/start', { body: scope }),
      'post',
      '/v1/sessions/:id/start',
    );
    expect(start).toMatchObject({ resumed: false, sessionId: 'chat-1' });
    expect(start.text).toContain('ship the invoice export');
    // The body is optional.
    const resumed = await send<{ resumed: boolean }>(server.url, 'POST', '/v1/sessions/chat-1/start');
    expect(resumed.body.resumed).toBe(true);

    const turn = expectDocumented<{ turn: number; message: unknown }>(
      await call('POST', '/v1/sessions/:id/before-turn', '/v1/sessions/chat-1/before-turn', {
        body: { ...scope, message: 'what is next?' },
      }),
      'post',
      '/v1/sessions/:id/before-turn',
    );
    expect(turn.turn).toBe(1);

    let step: { toolOnlyTurns: number; nudge: unknown } | undefined;
    for (let i = 0; i < 5; i++) {
      step = expectDocumented(
        await call('POST', '/v1/sessions/:id/after-step', '/v1/sessions/chat-1/after-step', {
          body: { ...scope, assistantText: null, toolCalls: [{ name: 'grep' }] },
        }),
        'post',
        '/v1/sessions/:id/after-step',
      );
    }
    // seed 001: the fifth tool-only step brings the reflection nudge.
    expect(step?.nudge).not.toBeNull();

    const context = expectDocumented<{ turn: number; sections: { name: string }[] }>(
      await call('GET', '/v1/sessions/:id/context', '/v1/sessions/chat-1/context', { token: undefined }),
      'get',
      '/v1/sessions/:id/context',
    );
    expect(context.turn).toBe(1);
    const scoped = await send<{ text: string }>(server.url, 'GET', '/v1/sessions/chat-1/context?scope=project:x');
    expect(scoped.body.text).toContain('ship the invoice export');

    const ended = expectDocumented(
      await call('POST', '/v1/sessions/:id/end', '/v1/sessions/chat-1/end'),
      'post',
      '/v1/sessions/:id/end',
    );
    expect(ended).toEqual({ sessionId: 'chat-1', ended: true });
  });

  it('records solutions and recalls them with the RECALL block', async () => {
    const stored = expectDocumented<{ solution: { id: string; status: string } }>(
      await call('POST', '/v1/solutions', '/v1/solutions', {
        body: { goal: 'Write a CSV parser', approach: 'Split lines, then commas', outcome: 'Working script', confidence: 90 },
      }),
      'post',
      '/v1/solutions',
    );
    expect(stored.solution.status).toBe('succeeded');
    const recalled = expectDocumented<{ matches: { solution: { id: string } }[]; block: string | null }>(
      await call('POST', '/v1/solutions/recall', '/v1/solutions/recall', {
        body: { goal: 'Write a CSV parser', similarity: 'keyword' },
      }),
      'post',
      '/v1/solutions/recall',
    );
    expect(recalled.matches[0]?.solution.id).toBe(stored.solution.id);
    expect(recalled.block).toMatch(/^### RECALL[\s\S]*### END RECALL$/);
    const none = await send<{ matches: unknown[]; block: null }>(server.url, 'POST', '/v1/solutions/recall', {
      body: { goal: 'Paint the fence', similarity: 'keyword' },
    });
    expect(none.body).toEqual({ matches: [], block: null });
  });

  it('lists receipts and stats', async () => {
    const receipts = expectDocumented<{ receipts: unknown[] }>(
      await call('GET', '/v1/receipts', '/v1/receipts?session=chat-1&limit=5'),
      'get',
      '/v1/receipts',
    );
    expect(Array.isArray(receipts.receipts)).toBe(true);
    const stats = expectDocumented<{ live: number; embedder: string; graph: { extractionFailures: number } }>(
      await call('GET', '/v1/stats', '/v1/stats'),
      'get',
      '/v1/stats',
    );
    expect(stats.embedder).toBe('none');
    expect(stats.live).toBeGreaterThan(0);
    expect(stats.graph.extractionFailures).toBe(0);
    expect(stats).not.toHaveProperty('path');
  });

  it('keeps a knowledge graph: entities, relations, observations, search, open, pages, deletions', async () => {
    const graph = (method: string, path: string, body?: unknown) =>
      call(method, path.split('?')[0] as string, path, body === undefined ? {} : { body });
    const ok = async (method: string, path: string, body?: unknown) =>
      expectDocumented(await graph(method, path, body), method.toLowerCase(), path.split('?')[0] as string);
    await ok('POST', '/v1/graph/entities', {
      entities: [
        { name: 'Zora Quill', entityType: 'person' },
        { name: 'Quillworks', entityType: 'organization' },
      ],
    });
    await ok('POST', '/v1/graph/relations', { relations: [{ from: 'Zora Quill', to: 'Quillworks', relationType: 'works_at' }] });
    await ok('POST', '/v1/graph/observations', { observations: [{ entityName: 'Zora Quill', contents: ['Speaks Spanish'] }] });
    expect(await ok('POST', '/v1/graph/search', { query: 'spanish zora' })).toMatchObject({ entities: [{ name: 'Zora Quill' }] });
    expect(await ok('POST', '/v1/graph/open', { names: ['Zora Quill', 'Quillworks'] })).toMatchObject({
      relations: [{ relationType: 'works_at' }],
    });
    expect(await ok('GET', '/v1/graph?limit=1')).toMatchObject({ entities: [expect.anything()], nextOffset: 1 });
    await ok('POST', '/v1/graph/observations/delete', {
      deletions: [{ entityName: 'Zora Quill', observations: ['Speaks Spanish'] }],
    });
    await ok('POST', '/v1/graph/relations/delete', {
      relations: [{ from: 'Zora Quill', to: 'Quillworks', relationType: 'works_at' }],
    });
    await ok('POST', '/v1/graph/entities/delete', { entityNames: ['Quillworks'] });
    expect(await ok('POST', '/v1/graph/open', { names: ['Zora Quill', 'Quillworks'] })).toEqual({
      entities: [{ name: 'Zora Quill', entityType: 'person', observations: [] }],
      relations: [],
    });
    expect(await ok('GET', '/v1/graph')).toMatchObject({ totalEntities: expect.any(Number) });
  });

  it('has exercised every route of the route table', () => {
    expect([...covered].sort()).toEqual(API_ROUTES.map((route) => `${route.method} ${route.path}`).sort());
  });
});
