/**
 * PostgresStore against the shared Store contract on a real PostgreSQL server the test starts
 * itself (test/fixtures/postgres-server.ts), one fresh database per store, plus what only the
 * PostgreSQL store promises: migrations recorded and run once, lexical scores that match the
 * SQLite store's BM25, vectors searched through the in-memory index past the exact-scan size,
 * another process's writes seen, and one-line errors for a bad URL, an unreachable server and
 * refused credentials.
 */
import { execFileSync } from 'node:child_process';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { redactUrl as redact } from '../src/config/redact-url.js';
import { EngramError } from '../src/errors.js';
import type { Memory } from '../src/model/memory.js';
import type { SessionRecord } from '../src/model/session.js';
import { connectionError } from '../src/store/postgres/connection.js';
import { POSTGRES_LATEST_VERSION, POSTGRES_MIGRATIONS } from '../src/store/postgres/migrations.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { makeMemory, minutesAfterEpoch, TENANT } from './fixtures/memory.js';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';
import { gaussian, seededRandom } from './fixtures/random.js';
import { viewPerRead } from './fixtures/view-per-read.js';
import { aliceAtAcme, at, person, storeMemories } from './store-contract/graph-fixtures.js';
import { readLayerContract, storeContract } from './store-contract/index.js';

let server: PostgresServer;
let databases = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** A session record of the test tenant, started at the fixtures' epoch. */
function session(id: string, updatedAt: string): SessionRecord {
  return {
    tenant: TENANT,
    id,
    scope: 'user:alice',
    turn: 0,
    toolOnlyTurns: 0,
    recentAssistantMessages: [],
    lastRecall: null,
    startedAt: minutesAfterEpoch(0),
    updatedAt,
    endedAt: null,
  };
}

let template: Promise<string> | undefined;
/**
 * A database holding Engram's schema and nothing else, migrated once, for each fresh store to
 * copy: a copy costs about a quarter of creating a database and running every migration in it
 * again (which the migration tests below still do).
 */
function migratedTemplate(): Promise<string> {
  template ??= server.createDatabase('engram_template').then(async (url) => {
    await (await new PostgresStore(url).open()).close();
    return 'engram_template';
  });
  return template;
}

/** A database nothing has used yet: Engram's schema, no rows. */
async function freshDatabase(): Promise<{ name: string; url: string }> {
  databases += 1;
  const name = `store_${databases}`;
  return { name, url: await server.createDatabase(name, await migratedTemplate()) };
}

/** A store on a database nothing has used yet. */
async function freshStore(): Promise<PostgresStore> {
  return new PostgresStore((await freshDatabase()).url);
}

/**
 * A fresh store for one contract test, whose database is dropped when the store closes: the
 * server does not keep a database (~8 MB of files) for each of the contract's tests.
 */
async function contractStore(): Promise<PostgresStore> {
  const { name, url } = await freshDatabase();
  const store = new PostgresStore(url);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await server.dropDatabase(name);
  };
  return store;
}

let layerDatabase: Promise<string> | undefined;
let schemas = 0;
/**
 * A store in a schema of its own of one shared database, dropped when the store closes: the read
 * layer's contract runs on these, so the server is not left holding a database for every test.
 */
async function freshSchemaStore(): Promise<PostgresStore> {
  layerDatabase ??= server.createDatabase('read_layer');
  schemas += 1;
  const schema = await createScratchSchema(await layerDatabase, `layer_${schemas}`);
  const store = new PostgresStore(schema.url);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await schema.drop();
  };
  return store;
}

storeContract('PostgresStore', contractStore);
readLayerContract('PostgresStore', freshSchemaStore);

/** Memories with words in every field, for comparing lexical scores with the SQLite store. */
const CORPUS = [
  { text: 'Alice prefers green tea over coffee in the morning', abstract: 'Alice likes tea.', tags: ['drinks'] },
  { text: 'The deploy pipeline runs the integration tests before release', tags: ['ci', 'release'] },
  { text: 'Bob is allergic to peanuts and tree nuts', abstract: 'Bob has a nut allergy.' },
  { text: 'The staging database is restored from last night’s backup', context: 'ops channel, database migration' },
  { text: 'Release notes are written by the person who merged the last pull request', tags: ['release'] },
  { text: 'Tea and biscuits are served at the Friday meeting', abstract: 'Friday tea.' },
  { text: 'Integration tests need the database container running', context: 'testing the deploy' },
  { text: 'Coffee machine on the second floor is broken again', tags: ['office'] },
  { text: 'Alice runs the release meeting every other Friday', abstract: 'Alice leads releases.' },
  { text: 'Backups are kept for thirty days in cold storage', tags: ['ops', 'backup'] },
  { text: 'The meeting notes mention green tea twice and coffee once, tea tea tea' },
  { text: 'Peanut butter is banned from the shared kitchen because of allergies' },
  // Words the Porter stemmer (FTS5's) and Snowball's English stemmer cut differently.
  { text: 'Yesterday the team was always playing the key journey games', tags: ['saturday'] },
  { text: 'The general manager is generous with the journal budget' },
];
const QUERIES = [
  'tea',
  'green tea coffee',
  'release meeting',
  '"integration tests"',
  'back*',
  'database backup restored',
  'allergic peanuts',
  'Friday',
  'running tests',
  'yesterday always playing journey',
  'saturday keys',
  'generously',
];

/** Stores `corpus` in a fresh PostgreSQL store and in SQLite; each query ranks and scores the same in both. */
async function expectSameLexicalScores(
  corpus: readonly Partial<Parameters<typeof makeMemory>[0]>[],
  queries: readonly string[],
  check: (sqlite: SqliteStore) => Promise<void> = async () => undefined,
): Promise<void> {
  const postgres = await freshStore();
  const sqlite = new SqliteStore(':memory:');
  try {
    const entries = corpus.map((fields, i) => ({ memory: makeMemory({ id: `m${i}`, ...fields }), vector: null }));
    await postgres.commit({ insert: entries });
    await sqlite.commit({ insert: entries });
    for (const query of queries) {
      const expected = await sqlite.searchLexical({ tenant: 'acme' }, query, 20);
      const actual = await postgres.searchLexical({ tenant: 'acme' }, query, 20);
      expect(
        actual.map((hit) => hit.id),
        query,
      ).toEqual(expected.map((hit) => hit.id));
      actual.forEach((hit, i) => expect(hit.score, `${query}: ${hit.id}`).toBeCloseTo(expected[i]?.score ?? NaN, 9));
    }
    await check(sqlite);
  } finally {
    await postgres.close();
    await sqlite.close();
  }
}

describe('PostgresStore lexical scores', () => {
  it('ranks and scores like the SQLite store’s FTS5 BM25, to nine decimal places', async () => {
    await expectSameLexicalScores(CORPUS, QUERIES);
  });
});

/**
 * Memories with CJK characters and emoji in every field, beside English ones, for the same
 * comparison. No emoji newer than FTS5's Unicode tables (🦄, a skin tone): its unicode61 tokenizer
 * reads those as letters of the text column too, which PostgreSQL's words leave out.
 */
const SEGMENTED_CORPUS = [
  { text: 'ユーザーは日本語での回答を好みます', abstract: '日本語の回答', tags: ['言語'] },
  { text: 'Emoji test 🚀🔥 launch day', tags: ['🚀'] },
  { text: '我们下周去北京开会，北京很冷', context: '日程 📅' },
  { text: '사용자는 한국어로 답변을 선호합니다', abstract: '한국어' },
  { text: 'The launch is on Monday 🚀 at the 日本 office' },
  { text: 'Plain English text about the launch schedule' },
  { text: '🇯🇵 flag and 👍 thumbs, 日本語 again and again 日本語' },
];
const SEGMENTED_QUERIES = ['日本語', '🚀', '北京', '한국어', 'launch 🚀', '"日本語の"', '🇯🇵', '日本', '📅 日程', '東京'];

describe('PostgresStore lexical scores of CJK words and emoji', () => {
  it('ranks and scores them like the SQLite store, to nine decimal places', async () => {
    await expectSameLexicalScores(SEGMENTED_CORPUS, SEGMENTED_QUERIES, async (sqlite) => {
      expect((await sqlite.searchLexical({ tenant: 'acme' }, '日本語', 20)).length).toBeGreaterThan(0);
    });
  });
});

describe('PostgresStore word statistics', () => {
  /** The statistics row beside what it stands for, counted from the memories themselves. */
  async function statistics(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const kept = await client.query(`SELECT memories::integer, words::integer, change::integer FROM search_statistics`);
      const counted = await client.query(
        `SELECT count(*)::integer AS memories, coalesce(sum(search_length), 0)::integer AS words FROM memories`,
      );
      return { kept: kept.rows[0] as { memories: number; words: number; change: number }, counted: counted.rows[0] };
    } finally {
      await client.end();
    }
  }

  it('keeps the count of memories and words exact through inserts, updates and purges; other updates move nothing', async () => {
    const store = await freshStore();
    try {
      await store.commit({
        insert: CORPUS.map((fields, i) => ({ memory: makeMemory({ id: `m${i}`, ...fields }), vector: null })),
      });
      let now = await statistics(store.url);
      expect(now.kept).toMatchObject({ memories: CORPUS.length, words: now.counted.words });
      const [first] = await store.getMemories(TENANT, ['m0']);
      const before = now.kept.change;
      await store.commit({ update: [{ memory: { ...(first as Memory), retrievalCount: 5 } }] });
      expect((await statistics(store.url)).kept.change).toBe(before);
      await store.commit({
        update: [{ memory: { ...(first as Memory), text: 'Alice now drinks coffee, black, three cups a day' } }],
      });
      now = await statistics(store.url);
      expect(now.kept.change).toBeGreaterThan(before);
      expect(now.kept).toMatchObject(now.counted);
      await store.purgeMemories(TENANT, ['m1', 'm2']);
      now = await statistics(store.url);
      expect(now.kept).toMatchObject({ ...now.counted, memories: CORPUS.length - 2 });
    } finally {
      await store.close();
    }
  });

  it('scores like a fresh store after another process changes the words, and after an upgrade from schema 3', async () => {
    const first = await freshStore();
    const second = new PostgresStore(first.url);
    const sqlite = new SqliteStore(':memory:');
    const expectSameScores = async (store: PostgresStore) => {
      for (const query of QUERIES) {
        const expected = await sqlite.searchLexical({ tenant: 'acme' }, query, 20);
        const actual = await store.searchLexical({ tenant: 'acme' }, query, 20);
        expect(
          actual.map((hit) => ({ id: hit.id, score: hit.score.toFixed(9) })),
          query,
        ).toEqual(expected.map((hit) => ({ id: hit.id, score: hit.score.toFixed(9) })));
      }
    };
    try {
      const entries = CORPUS.map((fields, i) => ({ memory: makeMemory({ id: `m${i}`, ...fields }), vector: null }));
      await first.commit({ insert: entries.slice(0, 8) });
      await sqlite.commit({ insert: entries.slice(0, 8) });
      await expectSameScores(first);
      // Another process adds memories holding the searched words: the counts kept are stale.
      await second.commit({ insert: entries.slice(8) });
      await sqlite.commit({ insert: entries.slice(8) });
      await expectSameScores(first);
      await second.purgeMemories(TENANT, ['m5', 'm10']);
      await sqlite.purgeMemories(TENANT, ['m5', 'm10']);
      await expectSameScores(first);

      // A database left at schema 3, its memories stored: the upgrade counts them.
      await first.close();
      await second.close();
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query(`DROP INDEX memories_spread; DROP TABLE search_statistics; DROP FUNCTION engram_search_statistics_added,
        engram_search_statistics_removed, engram_search_statistics_changed, engram_memory_changed CASCADE;
        DROP TABLE memory_change_count; DROP TABLE extraction_failures; ALTER TABLE entities DROP COLUMN origin;
        DELETE FROM engram_schema WHERE version >= 4`);
      await client.end();
      const upgraded = new PostgresStore(first.url);
      try {
        expect((await upgraded.stats(TENANT)).schemaVersion).toBe(POSTGRES_LATEST_VERSION);
        const now = await statistics(first.url);
        expect(now.kept).toMatchObject({ ...now.counted, memories: CORPUS.length - 2 });
        await expectSameScores(upgraded);
      } finally {
        await upgraded.close();
      }
    } finally {
      await first.close();
      await second.close();
      await sqlite.close();
    }
  });
});

/** `count` random unit-free vectors of `dimensions`, the same every run. */
function randomVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: dimensions }, () => gaussian(random)));
}

let pastExactScan: Promise<string> | undefined;
/**
 * A store on a copy of a database holding 4,100 memories with vectors, past the exact-scan size:
 * written once through a store, then copied for each test that needs them there and did not write
 * them itself (a copy costs a fraction of writing them again).
 */
async function storePastExactScan(): Promise<PostgresStore> {
  pastExactScan ??= freshDatabase().then(async ({ name, url }) => {
    const store = new PostgresStore(url);
    try {
      const vectors = randomVectors(4_100, 16, 3);
      await store.commit({ insert: vectors.map((vector, i) => ({ memory: makeMemory({ id: `v${i}` }), vector })) });
    } finally {
      await store.close();
    }
    return name;
  });
  const template = await pastExactScan;
  databases += 1;
  return new PostgresStore(await server.createDatabase(`store_${databases}`, template));
}

describe('PostgresStore vectors', () => {
  it('searches past the exact-scan size through the in-memory index and finds what an exact search finds', async () => {
    const store = await freshStore();
    try {
      const vectors = randomVectors(4_500, 64, 7);
      await store.commit({
        insert: vectors.map((vector, i) => ({
          memory: makeMemory({ id: `v${i}`, scope: i % 3 === 0 ? 'project:x' : 'user:alice' }),
          vector,
        })),
      });
      let agreed = 0;
      // Queries near stored vectors, as a query near what was remembered is.
      const noise = randomVectors(20, 64, 11);
      const queries = noise.map((n, q) => (vectors[q * 200] as Float32Array).map((x, d) => x + 0.3 * (n[d] as number)));
      for (const query of queries) {
        const exact = await store.searchVector({ tenant: TENANT }, query, 10, { exact: true });
        const approximate = await store.searchVector({ tenant: TENANT }, query, 10);
        expect(approximate).toHaveLength(10);
        expect(approximate[0]).toEqual(exact[0]);
        const truth = new Set(exact.map((hit) => hit.id));
        agreed += approximate.filter((hit) => truth.has(hit.id)).length;
      }
      // Past the nearest, unclustered random vectors are all about as far: the index's own
      // tests measure its recall; here it only has to be the index answering, and sensibly.
      expect(agreed / 200).toBeGreaterThan(0.7);
      // A filter narrower than the index's candidates still answers with as many as asked for.
      const scoped = await store.searchVector({ tenant: TENANT, scopes: ['project:x'] }, vectors[3] as Float32Array, 5);
      expect(scoped[0]).toMatchObject({ id: 'v3' });
      expect(scoped).toHaveLength(5);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('sees vectors another process wrote after this one built its index', async () => {
    const first = await storePastExactScan();
    const second = new PostgresStore(first.url);
    try {
      const target = randomVectors(1, 16, 99)[0] as Float32Array;
      expect((await first.searchVector({ tenant: TENANT }, target, 1))[0]?.id).not.toBe('late');

      await second.commit({ insert: [{ memory: makeMemory({ id: 'late' }), vector: target }] });

      expect((await first.searchVector({ tenant: TENANT }, target, 1))[0]).toMatchObject({ id: 'late' });
      await second.purgeMemories(TENANT, ['late']);
      expect((await first.searchVector({ tenant: TENANT }, target, 1))[0]?.id).not.toBe('late');
    } finally {
      await first.close();
      await second.close();
    }
  }, 120_000);

  it('lets other processes see a committed change even when the database is gone right after COMMIT', async () => {
    const first = await storePastExactScan();
    const second = new PostgresStore(first.url);
    try {
      const target = randomVectors(1, 16, 77)[0] as Float32Array;
      expect((await first.searchVector({ tenant: TENANT }, target, 1))[0]?.id).not.toBe('late');
      await second.open();
      // From here on every query outside a transaction fails, as if the process lost the server after COMMIT.
      const pool = (second as unknown as { pool: { query: () => Promise<never> } }).pool;
      pool.query = () => Promise.reject(new Error('Connection terminated unexpectedly'));

      await second.commit({ insert: [{ memory: makeMemory({ id: 'late' }), vector: target }] });

      expect((await first.searchVector({ tenant: TENANT }, target, 1))[0]).toMatchObject({ id: 'late' });
    } finally {
      await first.close();
      await second.close();
    }
  }, 120_000);
});

describe('PostgresStore change mark', () => {
  it("moves with another process's writes of memories and mentions, never with its retrieval stamps", async () => {
    const first = await freshStore();
    const second = new PostgresStore(first.url);
    try {
      await first.commit({ insert: [{ memory: makeMemory({ id: 'a' }), vector: null }] });
      const marks = [await first.memoryChangeMark(TENANT)];
      const moved = async () => {
        const mark = await first.memoryChangeMark(TENANT);
        expect(marks).not.toContain(mark);
        marks.push(mark);
      };

      await second.recordRetrieval(TENANT, ['a'], minutesAfterEpoch(5));
      expect(await first.memoryChangeMark(TENANT)).toBe(marks[0]);
      await second.commit({ update: [{ memory: makeMemory({ id: 'a', archivedAt: minutesAfterEpoch(6) }) }] });
      await moved();
      await second.recordExtractions(
        TENANT,
        [
          {
            memoryId: 'a',
            entities: [{ id: 'e-alice', name: 'Alice', type: 'person' }],
            mentions: [{ name: 'Alice', role: 'speaker' }],
            relations: [],
          },
        ],
        minutesAfterEpoch(7),
      );
      await moved();
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});

describe('PostgresStore under the read layer', () => {
  it("keeps the graph's lookups and mentions across decisions, and reads what another process wrote since", async () => {
    const first = await freshStore();
    const second = new PostgresStore(first.url);
    const reads = viewPerRead(first);
    const client = new pg.Client({ connectionString: first.url });
    try {
      await storeMemories(first, 'm1');
      await first.recordExtractions(TENANT, [aliceAtAcme('m1')], at());
      const entities = async () => (await reads.findEntities(TENANT, ['Bob'])).map((entity) => entity.name);
      const mentioned = async () => (await reads.listMentionsInMemories(TENANT, ['m1'])).map((m) => m.entityId);

      expect(await mentioned()).toEqual(['e-alice', 'e-acme']);
      // Rows removed behind the mark's back (its trigger off): only a kept copy still shows them.
      await client.connect();
      await client.query('ALTER TABLE mentions DISABLE TRIGGER mentions_change_counted');
      await client.query('DELETE FROM mentions');
      expect(await mentioned()).toEqual(['e-alice', 'e-acme']);

      expect(await entities()).toEqual([]);
      await second.upsertEntities(TENANT, [person('Bob')], at(1));
      expect(await entities()).toEqual(['Bob']);
      expect(await mentioned()).toEqual([]); // the mark moved: everything is read again

      // Another process's retrieval stamps do not move PostgreSQL's mark: memories are kept per decision only.
      expect((await reads.getMemories(TENANT, ['m1']))[0]?.retrievalCount).toBe(0);
      await second.recordRetrieval(TENANT, ['m1'], minutesAfterEpoch(2));
      expect((await reads.getMemories(TENANT, ['m1']))[0]?.retrievalCount).toBe(1);
    } finally {
      await client.end();
      await first.close();
      await second.close();
    }
  }, 60_000);
});

describe('PostgresStore migrations', () => {
  it('records each schema version once, even when several stores open a new database together', async () => {
    const url = await server.createDatabase(`migrate_${++databases}`);
    const stores = Array.from({ length: 4 }, () => new PostgresStore(url));
    try {
      await Promise.all(stores.map((store) => store.open()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const versions = await client.query(`SELECT version FROM engram_schema ORDER BY version`);
      await client.end();
      expect(versions.rows).toEqual(POSTGRES_MIGRATIONS.map(({ version }) => ({ version })));
      expect((await (stores[0] as PostgresStore).stats(TENANT)).schemaVersion).toBe(POSTGRES_LATEST_VERSION);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('upgrades a schema-1 database: each session’s update time taken from its record, the list in that order', async () => {
    const url = await server.createDatabase(`upgrade_${++databases}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const first = POSTGRES_MIGRATIONS[0] as (typeof POSTGRES_MIGRATIONS)[number];
    await client.query(first.sql);
    await client.query(`CREATE TABLE engram_schema (
      version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`INSERT INTO engram_schema (version, description) VALUES (1, $1)`, [first.description]);
    const body = (id: string, updatedAt: unknown) => JSON.stringify({ ...session(id, minutesAfterEpoch(0)), updatedAt });
    for (const [id, updatedAt] of [
      ['early', minutesAfterEpoch(3)],
      ['late', '2025-01-15T10:20:00.250+01:00'],
      ['middle', minutesAfterEpoch(10)],
      ['unreadable', 'last tuesday'],
    ] as const) {
      await client.query(`INSERT INTO sessions (tenant, id, body) VALUES ($1, $2, $3)`, [TENANT, id, body(id, updatedAt)]);
    }
    await client.end();

    const store = new PostgresStore(url);
    try {
      expect((await store.stats(TENANT)).schemaVersion).toBe(POSTGRES_LATEST_VERSION);
      const listed = await store.listSessions(TENANT, { limit: 10 });
      expect(listed.map((s) => s.id)).toEqual(['late', 'middle', 'early', 'unreadable']);
      // A session saved after the upgrade takes its place by its own time.
      await store.saveSession(session('saved', minutesAfterEpoch(5)));
      expect((await store.listSessions(TENANT, { limit: 10, after: 'middle' })).map((s) => s.id)).toEqual([
        'saved',
        'early',
        'unreadable',
      ]);
    } finally {
      await store.close();
    }
  });

  /** A store in a new database whose collation is ICU's English one, not bytes. */
  async function storeWithEnglishCollation(): Promise<PostgresStore> {
    const url = await server.createDatabase(`collation_${++databases}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const name = `icu_${databases}`;
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`);
    await client.end();
    return new PostgresStore(url.replace(/\/[^/]*$/, `/${name}`));
  }

  it('orders sessions updated together by id byte by byte, as SQLite does, whatever the database’s collation', async () => {
    const store = await storeWithEnglishCollation();
    try {
      for (const id of ['B', 'a', 'b', 'A']) await store.saveSession(session(id, minutesAfterEpoch(1)));
      // In bytes 'b' > 'a' > 'B' > 'A'; the database's own (English) order would put 'B' first.
      expect((await store.listSessions(TENANT, { limit: 10 })).map((s) => s.id)).toEqual(['b', 'a', 'B', 'A']);
      expect((await store.listSessions(TENANT, { limit: 10, after: 'a' })).map((s) => s.id)).toEqual(['B', 'A']);
    } finally {
      await store.close();
    }
  });

  it('spreads memories by their ids byte by byte, as SQLite does, whatever the database’s collation', async () => {
    const store = await storeWithEnglishCollation();
    const sqlite = new SqliteStore(':memory:');
    // Imported ids with mixed-case tails: in bytes '1' < 'B' < 'a' < 'b'; English puts 'a' before 'B'.
    const ids = ['b', 'B', 'a', '1'].map((tail) => `0000000000${tail.repeat(16)}`);
    const insert = { insert: ids.map((id) => ({ memory: makeMemory({ id }), vector: null })) };
    try {
      await store.commit(insert);
      await sqlite.commit(insert);
      const spread = (on: PostgresStore | SqliteStore) => on.listMemories({ tenant: TENANT }, { limit: 10, order: 'spread' });
      expect((await spread(store)).map((m) => m.id)).toEqual([ids[3], ids[1], ids[2], ids[0]]);
      expect((await spread(store)).map((m) => m.id)).toEqual((await spread(sqlite)).map((m) => m.id));
    } finally {
      await store.close();
      await sqlite.close();
    }
  });

  it('lists equal statistics groups by name byte by byte, as SQLite does, whatever the database’s collation', async () => {
    const store = await storeWithEnglishCollation();
    const sqlite = new SqliteStore(':memory:');
    // One memory in each scope: in bytes 'user:Bob' < 'user:alice' < 'user:bob'; English puts 'alice' first.
    const scopes = ['user:bob', 'user:alice', 'user:Bob'];
    const insert = { insert: scopes.map((scope, i) => ({ memory: makeMemory({ id: `m${i}`, scope }), vector: null })) };
    try {
      await store.commit(insert);
      await sqlite.commit(insert);
      expect(Object.keys((await store.stats(TENANT)).byScope)).toEqual(['user:Bob', 'user:alice', 'user:bob']);
      expect(Object.keys((await store.stats(TENANT)).byScope)).toEqual(Object.keys((await sqlite.stats(TENANT)).byScope));
    } finally {
      await store.close();
      await sqlite.close();
    }
  });

  it('keeps its tables in the schema the URL’s search_path names, apart from another schema’s', async () => {
    const url = await server.createDatabase(`schemas_${++databases}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE SCHEMA team_a; CREATE SCHEMA team_b`);
    const inSchema = (schema: string) => `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const a = new PostgresStore(inSchema('team_a'));
    const b = new PostgresStore(inSchema('team_b'));
    try {
      await a.commit({ insert: [{ memory: makeMemory({ id: 'a1', text: 'team a plans the launch' }), vector: null }] });
      await b.open();

      expect((await a.searchLexical({ tenant: TENANT }, 'launch', 5)).map((hit) => hit.id)).toEqual(['a1']);
      expect(await b.searchLexical({ tenant: TENANT }, 'launch', 5)).toEqual([]);
      const tables = await client.query(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'memories'`);
      expect(tables.rows.map((row: { table_schema: string }) => row.table_schema).sort()).toEqual(['team_a', 'team_b']);
    } finally {
      await client.end();
      await a.close();
      await b.close();
    }
  });

  it('gives a benchmark a scratch schema of its own that holds its tables and is dropped with them', async () => {
    const url = await server.createDatabase(`scratch_${++databases}`);
    const schema = await createScratchSchema(url, 'engram_bench_scale_1');
    const store = new PostgresStore(schema.url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const schemasHolding = async () =>
      (await client.query(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'memories'`)).rows.map(
        (row: { table_schema: string }) => row.table_schema,
      );
    try {
      await store.commit({ insert: [{ memory: makeMemory({ id: 'm1' }), vector: null }] });
      expect(await schemasHolding()).toEqual(['engram_bench_scale_1']);
      await store.close();
      await schema.drop();
      expect(await schemasHolding()).toEqual([]);
      await expect(createScratchSchema(url, 'Bad-Name')).rejects.toThrow(/lower-case letters, digits and _/);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it('refuses a database written by a newer Engram, saying so', async () => {
    const url = await server.createDatabase(`newer_${++databases}`);
    await new PostgresStore(url).open().then((store) => store.close());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`INSERT INTO engram_schema (version, description) VALUES (99, 'from the future')`);
    await client.end();

    const store = new PostgresStore(url);
    await expect(store.open()).rejects.toMatchObject({
      code: 'schema_too_new',
      message: expect.stringContaining('Upgrade Engram'),
    });
    await store.close();
  });
});

describe('PostgresStore losing its connection mid-transaction', () => {
  it('rejects with a one-line error when the server ends the backend, survives, and works on the next call', async () => {
    const store = await freshStore();
    const admin = new pg.Client({ connectionString: store.url });
    await admin.connect();
    try {
      await store.commit({ insert: [{ memory: makeMemory({ id: 'before' }), vector: null }] });
      // Hold a lock the commit waits on, then end the waiting backend from here.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE memories IN ACCESS EXCLUSIVE MODE');
      const committing = store.commit({ insert: [{ memory: makeMemory({ id: 'during' }), vector: null }] });
      const outcome = committing.then(
        () => null,
        (error: unknown) => error,
      );
      let pid: number | undefined;
      for (let attempt = 0; attempt < 200 && pid === undefined; attempt++) {
        const waiting = await admin.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        pid = (waiting.rows[0] as { pid: number } | undefined)?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(pid).toBeDefined();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.query('ROLLBACK');
      const error = (await outcome) as EngramError;
      expect(error).toBeInstanceOf(EngramError);
      expect(error.code).toBe('database_unavailable');
      expect(error.message).not.toContain('\n');
      // Let the dropped socket's events arrive: an unheard 'error' would fail the run here.
      await new Promise((resolve) => setTimeout(resolve, 200));

      await store.commit({ insert: [{ memory: makeMemory({ id: 'after' }), vector: null }] });
      expect((await store.getMemories(TENANT, ['before', 'during', 'after'])).map((m) => m.id)).toEqual(['before', 'after']);
    } finally {
      await admin.end();
      await store.close();
    }
  }, 60_000);
});

describe('PostgresStore connection errors', () => {
  /** The error opening a store on `url` rejects with. */
  async function openingError(url: string): Promise<EngramError> {
    const store = new PostgresStore(url);
    try {
      await store.open();
    } catch (error) {
      return error as EngramError;
    } finally {
      await store.close();
    }
    throw new Error('expected opening to fail');
  }

  it('says nothing listens when the server is unreachable', async () => {
    const error = await openingError('postgres://engram@127.0.0.1:1/engram');
    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toMatch(/^PostgreSQL at postgres:\/\/engram@127\.0\.0\.1:1\/engram: nothing accepts connections there/);
    expect(error.message).not.toContain('\n');
  });

  it('says the password was refused, without repeating it', async () => {
    const error = await openingError(server.url().replace(server.password, 'wrong-password'));
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toContain('the password was refused');
    expect(error.message).not.toContain('wrong-password');
  });

  it('says the database does not exist', async () => {
    const error = await openingError(server.url('no_such_database'));
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toContain('the database does not exist');
  });

  it('refuses a URL that is not a PostgreSQL one before connecting', () => {
    expect(() => new PostgresStore('mysql://localhost/engram')).toThrow(/is not a PostgreSQL URL/);
    expect(() => new PostgresStore('postgres://[broken')).toThrow(/is not a valid PostgreSQL URL/);
  });

  it('reports a lost connection, a server going away, a cancelled statement and a closed pool as one line', () => {
    const url = 'postgres://engram:secret@db.example:5432/engram';
    const failure = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });
    const cases: [Error, RegExp][] = [
      [failure('08006', 'connection failure'), /the connection failed \(08006\)/],
      [failure('08P01', 'protocol violation'), /the connection failed \(08P01\)/],
      [failure('57P01', 'terminating connection due to administrator command'), /the server ended the connection/],
      [failure('57P02', 'terminating connection due to crash of another server process'), /the server ended the connection/],
      [failure('57P03', 'the database system is starting up'), /starting up or shutting down/],
      [failure('57014', 'canceling statement due to statement timeout'), /the statement was cancelled \(statement_timeout/],
      [failure(undefined, 'Connection terminated unexpectedly'), /the server closed the connection/],
      [failure(undefined, 'Cannot use a pool after calling end on the pool'), /connections are closed/],
    ];
    for (const [error, message] of cases) {
      const reported = connectionError(error, url) as EngramError;
      expect(reported).toBeInstanceOf(EngramError);
      expect(reported.code).toBe('database_unavailable');
      expect(reported.message).toMatch(message);
      expect(reported.message).toMatch(/^PostgreSQL at postgres:\/\/engram:\*\*\*@db\.example:5432\/engram: /);
      expect(reported.message).not.toContain('\n');
    }
    const ownFailure = failure('23505', 'duplicate key value violates unique constraint');
    expect(connectionError(ownFailure, url)).toBe(ownFailure);
  });

  it('hides the whole password in messages, even one holding @ or unparseable', () => {
    expect(redact('postgres://u:p@ss@127.0.0.1:5432/db')).toBe('postgres://u:***@127.0.0.1:5432/db');
    expect(redact('postgres://u:p%40ss@host/db?sslmode=require')).toBe('postgres://u:***@host/db?sslmode=require');
    expect(redact('postgres://u@host/db')).toBe('postgres://u@host/db');
    expect(redact('postgres://u:s3cr@t@[broken/db')).toBe('postgres://***@[broken/db');
    expect(() => new PostgresStore('postgres://u:p@ss@[broken/db')).toThrow(/^postgres:\/\/\*\*\*@\[broken\/db is not a valid/);
  });

  it('keeps a password holding @ out of a connection failure', async () => {
    const error = await openingError('postgres://engram:p@ss@127.0.0.1:1/engram');
    expect(error.code).toBe('database_unavailable');
    expect(error.message).not.toContain('ss@');
    expect(error.message).toContain('postgres://engram:***@127.0.0.1:1/engram');
  });
});

describe('the PostgreSQL test server', () => {
  it('is stopped when the process that started it exits without stopping it', async () => {
    const script = `
      import { startPostgres } from './test/fixtures/postgres-server.ts';
      const server = await startPostgres();
      console.log(JSON.stringify({ url: server.url() }));
      process.exit(0);
    `;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const { url } = JSON.parse(output.trim().split('\n').pop() as string) as { url: string };
    const client = new pg.Client({ connectionString: url });
    await expect(client.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);
});
