/**
 * `/v1/graph` over a real port: the MCP reference memory server's operations as routes whose
 * bodies are the tools' arguments and whose answers are the tools' answers, paged reads, one
 * clear 4xx for every bad request (with nothing changed), and one graph per tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningHttpServer } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { expectApiError, expectDocumented, send, startInProcess } from './helpers.js';

const TOKENS = { acme: 'acme-token-0123456789abcdef', globex: 'globex-token-0123456789abcdef' } as const;

describe('the knowledge graph over HTTP', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  const post = (path: string, body: unknown, token: string = TOKENS.acme) => send(server.url, 'POST', path, { body, token });
  const get = (path: string, token: string = TOKENS.acme) => send(server.url, 'GET', path, { token });

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

  it('creates, relates, observes, finds, opens and pages, answering as the tools do', async () => {
    const created = await post('/v1/graph/entities', {
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] },
        { name: 'Acme', entityType: 'organization' },
        { name: 'Lyon', entityType: 'place', observations: [] },
      ],
    });
    expect(expectDocumented(created, 'post', '/v1/graph/entities')).toEqual({
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] },
        { name: 'Acme', entityType: 'organization', observations: [] },
        { name: 'Lyon', entityType: 'place', observations: [] },
      ],
    });
    const related = await post('/v1/graph/relations', {
      relations: [
        { from: 'Alice', to: 'Acme', relationType: 'works_at' },
        { from: 'alice', to: 'lyon', relationType: 'lives_in' },
      ],
    });
    expect(expectDocumented(related, 'post', '/v1/graph/relations')).toEqual({
      relations: [
        { from: 'Alice', to: 'Acme', relationType: 'works_at' },
        { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
      ],
    });
    const observed = await post('/v1/graph/observations', { observations: [{ entityName: 'Acme', contents: ['Makes anvils'] }] });
    expect(expectDocumented(observed, 'post', '/v1/graph/observations')).toEqual({
      results: [{ entityName: 'Acme', addedObservations: ['Makes anvils'] }],
    });

    const found = expectDocumented<{ entities: { name: string }[] }>(
      await post('/v1/graph/search', { query: 'anvils' }),
      'post',
      '/v1/graph/search',
    );
    expect(found.entities.map((entity) => entity.name)).toEqual(['Acme']);
    const opened = expectDocumented(await post('/v1/graph/open', { names: ['Alice', 'Acme'] }), 'post', '/v1/graph/open');
    // Every relation touching the nodes, as the reference server answers: Alice's move to Lyon too.
    expect(opened.relations).toEqual(
      expect.arrayContaining([
        { from: 'Alice', to: 'Acme', relationType: 'works_at' },
        { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
      ]),
    );
    expect(opened.relations).toHaveLength(2);

    const first = expectDocumented(await get('/v1/graph?limit=2'), 'get', '/v1/graph');
    expect(first).toMatchObject({ totalEntities: 3, nextOffset: 2, entities: [{ name: 'Alice' }, { name: 'Acme' }] });
    const last = expectDocumented(await get('/v1/graph?offset=2&limit=2'), 'get', '/v1/graph');
    expect(last).toMatchObject({ entities: [{ name: 'Lyon' }], nextOffset: null });
  });

  it('refuses bad requests with a 4xx that says what to fix, and changes nothing', async () => {
    const before = (await get('/v1/graph?limit=1000')).body;
    expectApiError(
      await post('/v1/graph/relations', { relations: [{ from: 'Alice', to: 'Globex', relationType: 'knows' }] }),
      404,
      'not_found',
      /no entity named Globex: create it first/,
    );
    expectApiError(
      await post('/v1/graph/observations', {
        observations: [
          { entityName: 'Alice', contents: ['Likes tea'] },
          { entityName: 'Bob', contents: ['x'] },
        ],
      }),
      404,
      'not_found',
      /no entity named Bob/,
    );
    expectApiError(
      await post('/v1/graph/entities', { entities: [{ name: 'Bob' }] }),
      400,
      'invalid_input',
      /body\.entities\.0\.entityType: entityType is required/,
    );
    expectApiError(await post('/v1/graph/entities', { entities: [], extra: 1 }), 400, 'invalid_input', /unknown field extra/);
    expectApiError(await post('/v1/graph/open', { names: 'Alice' }), 400, 'invalid_input', /body\.names: names must be a list/);
    expectApiError(await post('/v1/graph/search', {}), 400, 'invalid_input', /body\.query: query is required/);
    expectApiError(await get('/v1/graph?limit=0'), 400, 'invalid_input', /query\.limit/);
    expectApiError(await get('/v1/graph?limit=5000'), 400, 'invalid_input', /query\.limit: must be at most 1000/);
    expectApiError(await get('/v1/graph?offset=-1'), 400, 'invalid_input', /query\.offset/);
    expectApiError(await get('/v1/graph?page=2'), 400, 'invalid_input', /unknown query parameter page/);
    expect((await get('/v1/graph?limit=1000')).body).toEqual(before);
  });

  it('deletes observations, relations and entities; what is not there is ignored', async () => {
    await post('/v1/graph/entities', { entities: [{ name: 'Dora', entityType: 'person', observations: ['Plays cello'] }] });
    await post('/v1/graph/relations', { relations: [{ from: 'Dora', to: 'Lyon', relationType: 'lives_in' }] });
    for (const [path, body] of [
      ['/v1/graph/observations/delete', { deletions: [{ entityName: 'Dora', observations: ['Plays cello', 'never said'] }] }],
      ['/v1/graph/relations/delete', { relations: [{ from: 'Dora', to: 'Lyon', relationType: 'lives_in' }] }],
      ['/v1/graph/entities/delete', { entityNames: ['Nobody'] }],
    ] as const) {
      expect(expectDocumented(await post(path, body), 'post', path)).toMatchObject({ success: true });
    }
    expect((await post('/v1/graph/open', { names: ['Dora'] })).body).toEqual({
      entities: [{ name: 'Dora', entityType: 'person', observations: [] }],
      relations: [],
    });
    const deleted = await post('/v1/graph/entities/delete', { entityNames: ['dora'] });
    expect(expectDocumented(deleted, 'post', '/v1/graph/entities/delete')).toEqual({
      success: true,
      message: 'Removed Dora and its relations from the graph.',
      deleted: ['Dora'],
      notFound: [],
    });
    expect((await post('/v1/graph/open', { names: ['Dora'] })).body).toEqual({ entities: [], relations: [] });
    // Deleting it again deletes nothing, and says so.
    expect((await post('/v1/graph/entities/delete', { entityNames: ['Dora'] })).body).toEqual({
      success: true,
      message: 'No entity named Dora in the graph: nothing was removed (search_nodes or read_graph lists the entities).',
      deleted: [],
      notFound: ['Dora'],
    });
  });

  it('lets search follow the relations the tools stated, and says the path on each hit', async () => {
    await post('/v1/graph/entities', {
      entities: [
        { name: 'Bruno', entityType: 'person' },
        { name: 'Globex Labs', entityType: 'organization' },
      ],
    });
    await post('/v1/graph/relations', { relations: [{ from: 'Bruno', to: 'Globex Labs', relationType: 'works_at' }] });
    await post('/v1/memories', { text: 'Globex Labs moved its office to Lyon in March.' });

    const found = await post('/v1/search', { query: 'Where is the office of Bruno?' });
    const hits = expectDocumented(found, 'post', '/v1/search') as {
      hits: { memory: { text: string }; via: string | null; signals: { graph: number | null } }[];
    };
    expect(hits.hits[0]).toMatchObject({
      memory: { text: 'Globex Labs moved its office to Lyon in March.' },
      via: 'Bruno → Globex Labs',
    });
    expect(hits.hits[0]?.signals.graph).toBeGreaterThan(0);
    const plain = (await post('/v1/search', { query: 'Where is the office of Bruno?', graph: false })).body as typeof hits;
    expect(plain.hits[0]).toMatchObject({ via: null, signals: { graph: null } });
    expectApiError(
      await post('/v1/search', { query: 'Bruno', graph: 'yes' }),
      400,
      'invalid_input',
      /body\.graph: graph must be true or false/,
    );
  });

  it('keeps each tenant’s graph to its own token', async () => {
    expectApiError(await send(server.url, 'GET', '/v1/graph'), 401, 'unauthorized');
    expect((await get('/v1/graph', TOKENS.globex)).body).toEqual({
      entities: [],
      relations: [],
      totalEntities: 0,
      nextOffset: null,
    });
    expect((await post('/v1/graph/open', { names: ['Alice'] }, TOKENS.globex)).body).toEqual({ entities: [], relations: [] });
    expectApiError(
      await post('/v1/graph/observations', { observations: [{ entityName: 'Alice', contents: ['x'] }] }, TOKENS.globex),
      404,
      'not_found',
    );
    await post('/v1/graph/entities', { entities: [{ name: 'Alice', entityType: 'robot' }] }, TOKENS.globex);
    await post('/v1/graph/entities/delete', { entityNames: ['Alice'] }, TOKENS.globex);
    expect((await post('/v1/graph/open', { names: ['Alice'] })).body).toMatchObject({ entities: [{ entityType: 'person' }] });
  });
});
