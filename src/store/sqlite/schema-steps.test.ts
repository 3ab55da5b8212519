/**
 * Each schema step against a real file of the version before it: what the step adds works, and
 * what the file held stays readable (the runner itself: migrations.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import type { SessionRecord } from '../../model/session.js';
import { LATEST_VERSION } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';
import { loadVec } from './vec-extension.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-schema-steps-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** A database path of its own. */
const freshPath = (): string => path.join(directory, `case-${++files}.db`);

describe('migration 3: vectors move from the vec0 table to a plain table with binary codes', () => {
  it('carries every stored vector over, searchable, and drops the old table', async () => {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 2 });
    const db = old.connection;
    loadVec(db); // as schema 2 kept its vectors; opening no longer loads sqlite-vec
    const at = Date.parse('2024-06-01T12:00:00.000Z');
    db.exec(
      `CREATE VIRTUAL TABLE memory_vectors USING vec0(tenant TEXT PARTITION KEY, embedding float[4] distance_metric=cosine)`,
    );
    const insert = db.prepare(
      `INSERT INTO memories (id, tenant, scope, kind, tier, text, source, trust, occurred_at, created_at, updated_at)
       VALUES (?, 'acme', 'global', 'note', 'unknown', ?, 'user', 1, ?, ?, ?)`,
    );
    const vectors: Record<string, number[]> = { north: [0, 1, 0, 0], east: [1, 0, 0, 0] };
    for (const [id, vector] of Object.entries(vectors)) {
      const { lastInsertRowid } = insert.run(id, `the ${id} wing`, at, at, at);
      db.prepare(`INSERT INTO memory_vectors (rowid, tenant, embedding) VALUES (?, 'acme', ?)`).run(
        BigInt(lastInsertRowid),
        Buffer.from(new Float32Array(vector).buffer),
      );
    }
    await old.close();

    const store = new SqliteStore(file);
    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(store.connection.prepare(`SELECT name FROM sqlite_master WHERE name = 'memory_vectors'`).get()).toBeUndefined();
    const hits = await store.searchVector({ tenant: 'acme' }, new Float32Array([0.1, 0.9, 0, 0]), 2);
    expect(hits.map((hit) => hit.id)).toEqual(['north', 'east']);
    expect(hits[0]?.similarity).toBeCloseTo(0.9 / Math.hypot(0.1, 0.9), 5);
    expect((await store.stats('acme')).vectors).toBe(2);
    await store.close();
  });
});

describe('migration 6: the knowledge graph', () => {
  /** A schema-5 file, as the release before the graph wrote it, with a memory, a session and a log line. */
  async function writeVersionFiveFile(): Promise<string> {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 5 });
    await old.commit({
      insert: [
        { memory: makeMemory({ id: 'said', text: 'Alice said she works at Acme' }), vector: Float32Array.from([1, 0, 0, 0]) },
        { memory: makeMemory({ id: 'other', text: 'Bob likes chess' }), vector: null },
      ],
    });
    // As schema 5 stored a session: the record as a JSON body only.
    writeOldSession(old, sessionRecord('s1', '2025-01-15T09:05:00.000Z', 3));
    await old.appendActivity({
      tenant: 'acme',
      at: '2025-01-15T09:01:00.000Z',
      action: 'write_memory',
      key: null,
      memoryId: 'said',
      summary: 'noted',
    });
    await old.close();
    return file;
  }

  it('upgrades a version 5 file with its memories, vectors, sessions and activity intact', async () => {
    const file = await writeVersionFiveFile();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(await store.getMemory('acme', 'said')).toEqual(makeMemory({ id: 'said', text: 'Alice said she works at Acme' }));
    expect((await store.searchLexical({ tenant: 'acme' }, 'chess', 5)).map((hit) => hit.id)).toEqual(['other']);
    expect((await store.getVectors('acme', ['said'])).size).toBe(1);
    expect((await store.getSession('acme', 's1'))?.turn).toBe(3);
    expect(await store.listActivity('acme', { limit: 5 })).toMatchObject([{ memoryId: 'said', summary: 'noted' }]);
    expect(await store.countGraph('acme')).toEqual({
      entities: 0,
      relations: 0,
      invalidatedRelations: 0,
      mentions: 0,
      extractionFailures: 0,
    });
    await store.close();
  });

  it('gives an upgraded file a working graph that follows its old memories when they are purged', async () => {
    const file = await writeVersionFiveFile();
    const store = new SqliteStore(file);
    const at = '2025-02-01T00:00:00.000Z';

    await store.recordExtractions(
      'acme',
      [
        {
          memoryId: 'said',
          entities: [
            { id: 'e-alice', name: 'Alice', type: 'person' },
            { id: 'e-acme', name: 'Acme', type: 'organization' },
          ],
          mentions: [
            { name: 'Alice', role: 'speaker' },
            { name: 'Acme', role: 'mention' },
          ],
          relations: [{ id: 'r1', from: 'Alice', to: 'Acme', type: 'works_at' }],
        },
      ],
      at,
    );
    expect(await store.listMentionsOfEntities({ tenant: 'acme' }, ['e-acme'], { limitPerEntity: 5 })).toMatchObject([
      { memoryId: 'said' },
    ]);

    await store.purgeMemories('acme', ['said']);

    expect(await store.listMentionsInMemories('acme', ['said'])).toEqual([]);
    expect(await store.listRelations('acme', ['e-alice'])).toMatchObject([{ id: 'r1', memoryId: null }]);
    expect(await store.getMemory('acme', 'other')).not.toBeNull();
    await store.close();
  });
});

describe('migration 7: memories in session order', () => {
  it('upgrades a version 6 file so recall can reach the turns beside a memory it stored before', async () => {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 6 });
    await old.commit({
      insert: ['t0', 't1', 't2'].map((id, i) => ({
        memory: makeMemory({ id, sessionId: 'chat', text: `turn ${i}`, createdAt: `2025-01-15T09:0${i}:00.000Z` }),
        vector: null,
      })),
    });
    await old.close();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(store.connection.prepare(`SELECT name FROM sqlite_master WHERE name = 'memories_by_session'`).get()).toBeDefined();
    expect((await store.listSessionNeighbours({ tenant: 'acme' }, ['t1'], 1)).map((n) => n.memoryId)).toEqual(['t0', 't2']);
    await store.close();
  });
});

/** A session record of tenant `acme`, last updated at `updatedAt`. */
function sessionRecord(id: string, updatedAt: string, turn = 1): SessionRecord {
  return {
    tenant: 'acme',
    id,
    scope: 'user:alice',
    turn,
    toolOnlyTurns: 1,
    recentAssistantMessages: ['done'],
    lastRecall: null,
    startedAt: '2025-01-15T09:00:00.000Z',
    updatedAt,
    endedAt: null,
  };
}

/** Writes a session as schemas 5 to 7 did, before the sessions table had its own `updated_at`. */
function writeOldSession(store: SqliteStore, record: SessionRecord): void {
  store.connection
    .prepare(`INSERT INTO sessions (tenant, id, body) VALUES (?, ?, ?)`)
    .run(record.tenant, record.id, JSON.stringify(record));
}

describe('migration 8: the inspector’s lists', () => {
  it('lists the sessions of a version 7 file most recently updated first, by the time in their records', async () => {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 7 });
    writeOldSession(old, sessionRecord('early', '2025-01-15T09:05:00.000Z'));
    writeOldSession(old, sessionRecord('late', '2025-03-01T18:30:00.250Z'));
    writeOldSession(old, sessionRecord('middle', '2025-02-01T00:00:00.000Z'));
    await old.close();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect((await store.listSessions('acme', { limit: 10 })).map((session) => session.id)).toEqual(['late', 'middle', 'early']);
    expect((await store.listSessions('acme', { limit: 10, after: 'late' })).map((session) => session.id)).toEqual([
      'middle',
      'early',
    ]);
    expect(store.connection.prepare(`SELECT updated_at FROM sessions WHERE id = 'late'`).pluck().get()).toBe(
      Date.parse('2025-03-01T18:30:00.250Z'),
    );
    await store.close();
  });
});

describe('migration 9: memories spread over the store', () => {
  it('lists a version 8 file’s memories spread over the store, reading an index in that order', async () => {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 8 });
    // Enough memories that the planner, with the statistics the file was closed with, weighs a
    // sort of them against reading the new index.
    const ids = Array.from(
      { length: 2_000 },
      (_, i) => `01J${String(i).padStart(7, '0')}${String((i * 7919) % 2_000).padStart(16, '0')}`,
    );
    await old.commit({ insert: ids.map((id) => ({ memory: makeMemory({ id, tenant: 'acme' }), vector: null })) });
    await old.close();
    const spread = [...ids].sort((a, b) => (a.slice(10) < b.slice(10) ? -1 : 1));

    const store = new SqliteStore(file);
    const statements: string[] = [];
    const prepare = store.connection.prepare.bind(store.connection);
    store.connection.prepare = ((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof store.connection.prepare;
    const listed = await store.listMemories({ tenant: 'acme', excludeKinds: ['working_set'] }, { limit: 2, order: 'spread' });

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(listed.map((memory) => memory.id)).toEqual(spread.slice(0, 2));
    const [listing] = statements.filter((sql) => sql.includes('FROM memories'));
    const plan = prepare(`EXPLAIN QUERY PLAN ${listing}`)
      .all('acme', 'working_set', 2, 0)
      .map((step) => (step as { detail: string }).detail);
    // The first page is read off the index in order: no scan of the table, no sort.
    expect(plan).toEqual(['SEARCH m USING INDEX memories_spread (tenant=?)']);
    await store.close();
  });
});

describe('migration 10: CJK bigrams and emoji in the full-text index', () => {
  const english = [
    'Alice prefers green tea over coffee in the morning',
    'The deploy pipeline runs the integration tests before release',
    'Release notes are written by whoever merged the last pull request',
    'Tea and biscuits are served at the Friday release meeting',
  ];
  const queries = ['tea', 'release meeting', '"integration tests"', 'rele*', 'coffee tea friday'];

  /** A schema-9 file as the release before this step wrote it: English memories and, unless `englishOnly`, a Japanese one and an emoji one. */
  async function writeVersionNineFile(englishOnly = false): Promise<string> {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 9 });
    const memories = [
      ...english.map((text, i) => makeMemory({ id: `en-${i}`, text })),
      ...(englishOnly
        ? []
        : [
            makeMemory({ id: 'ja', text: 'ユーザーは日本語での回答を好みます' }),
            makeMemory({ id: 'emoji', text: 'Emoji test 🚀🔥 launch day', tags: ['🎉'] }),
          ]),
    ];
    await old.commit({ insert: memories.map((memory) => ({ memory, vector: null })) });
    await old.close();
    return file;
  }

  /** BM25 of every row a query matches, read straight from the file's full-text index. */
  function indexScores(file: string, weights: string): Record<string, [string, number][]> {
    const db = new Database(file, { readonly: true });
    try {
      const rank = db.prepare(
        `SELECT m.id, -bm25(memories_fts, ${weights}) AS score FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH ? ORDER BY score DESC, m.id`,
      );
      return Object.fromEntries(
        ['"tea"', '"release" OR "meeting"', '"integration tests"', '"rele"*', '"coffee" OR "tea" OR "friday"'].map((match) => [
          match,
          (rank.all(match) as { id: string; score: number }[]).map((row) => [row.id, row.score]),
        ]),
      );
    } finally {
      db.close();
    }
  }

  it('makes a version 9 file’s Japanese and emoji memories findable by their characters', async () => {
    const file = await writeVersionNineFile();
    const before = new SqliteStore(file, { migrateTo: 9 });
    expect(await before.searchLexical({ tenant: 'acme' }, '🚀', 5)).toEqual([]);
    await before.close();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect((await store.searchLexical({ tenant: 'acme' }, '🚀', 5)).map((hit) => hit.id)).toEqual(['emoji']);
    expect((await store.searchLexical({ tenant: 'acme' }, '🎉', 5)).map((hit) => hit.id)).toEqual(['emoji']);
    expect((await store.searchLexical({ tenant: 'acme' }, '日本語', 5)).map((hit) => hit.id)).toEqual(['ja']);
    expect(store.connection.prepare(`SELECT id FROM memories WHERE segment_terms IS NOT NULL ORDER BY id`).pluck().all()).toEqual(
      ['emoji', 'ja'],
    );
    await store.close();
  });

  it('leaves an English store’s full-text index and scores exactly as they were', async () => {
    const file = await writeVersionNineFile(true);
    const before = indexScores(file, '1.0, 0.5, 0.5, 0.5');
    const old = new SqliteStore(file, { migrateTo: 9 });
    const searchedBefore = await Promise.all(queries.map((query) => old.searchLexical({ tenant: 'acme' }, query, 10)));
    await old.close();

    await new SqliteStore(file).close();

    expect(indexScores(file, '1.0, 0.5, 0.5, 0.5, 1.0')).toEqual(before);
    const store = new SqliteStore(file);
    expect(store.connection.prepare(`SELECT count(*) FROM memories WHERE segment_terms IS NOT NULL`).pluck().get()).toBe(0);
    expect(await Promise.all(queries.map((query) => store.searchLexical({ tenant: 'acme' }, query, 10)))).toEqual(searchedBefore);
    await store.close();
  });
});

describe('migration 11: who made each entity, and failed extractions', () => {
  it('marks the entities of a version 9 file a memory names without observations as extracted, and keeps the rest', async () => {
    const file = freshPath();
    const old = new SqliteStore(file, { migrateTo: 9 });
    await old.commit({ insert: [{ memory: makeMemory({ id: 'm1', tenant: 'acme' }), vector: null }] });
    const insert = old.connection.prepare(
      `INSERT INTO entities (tenant, id, name, name_key, type, aliases, observations, search_text, created_at, updated_at)
       VALUES ('acme', ?, ?, lower(?), 'person', '[]', ?, lower(?), 0, 0)`,
    );
    for (const [name, observations] of [
      ['Nina', '[]'],
      ['Theo', '["plays chess"]'],
      ['Globex', '[]'],
    ] as const) {
      insert.run(`e-${name}`, name, name, observations, name);
    }
    old.connection.exec(`INSERT INTO mentions (entity_rowid, memory_rowid, role)
      SELECT e.rowid, m.rowid, 'mention' FROM entities e, memories m WHERE e.name IN ('Nina', 'Theo') AND m.id = 'm1'`);
    await old.close();

    const store = new SqliteStore(file);
    const origins = async () =>
      (await store.findEntities('acme', ['Nina', 'Theo', 'Globex'])).map((e) => `${e.name}:${e.origin}`);
    expect(await origins()).toEqual(['Nina:extracted', 'Theo:user', 'Globex:user']);
    expect(await store.countGraph('acme')).toMatchObject({ extractionFailures: 0 });

    await store.removeMentions('acme', ['m1']);
    expect(await origins()).toEqual(['Theo:user', 'Globex:user']);
    await store.close();
  });
});
