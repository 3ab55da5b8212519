/**
 * `bench footprint` on PostgreSQL, on a small store: where the bytes go (the rows, TOAST and each
 * index apart, pgvector's column and HNSW index among them) and what the server spends, read
 * from a PGlite server with pgvector in a process of its own and from a real PostgreSQL server
 * of the tests' own (Debian's, without pgvector), whose tables are seen vacuumed and analyzed
 * after the build.
 */
import { openEngram } from 'engram';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findPostgresBinaries, type PostgresServer, startPostgres } from '../test/fixtures/postgres-server.js';
import { createBenchStore } from './bench-store.js';
import { type FootprintResult, measure } from './footprint.js';
import { buildAndSearch, SEARCHES } from './footprint-postgres.js';
import { findServer } from './server-cost.js';
import { createSyntheticEmbedder } from './synthetic-embedder.js';
import { inSessions, syntheticMemories, topicOf } from './synthetic-memories.js';

const SIZE = 300;

async function measureSmall(store: string): Promise<FootprintResult> {
  const memories = inSessions(syntheticMemories(SIZE, SIZE));
  return measure(
    `synthetic ${SIZE}`,
    `footprint_test_${SIZE}`,
    memories,
    { count: SIZE, log: () => undefined, store },
    'synthetic',
  );
}

function shareNamed(result: FootprintResult, name: string) {
  return result.postgres?.shares.find((share) => share.name === name);
}

function columnsOf(result: FootprintResult, table: string) {
  return new Map((result.postgres?.columns[table] ?? []).map((column) => [column.name, column]));
}

describe('bench footprint on PGlite with pgvector', () => {
  let result: FootprintResult;
  beforeAll(async () => {
    result = await measureSmall('pglite+pgvector');
  }, 300_000);

  it('breaks out the HNSW index and the vector column, and counts them with the vectors', () => {
    const hnsw = shareNamed(result, 'memory_embeddings_hnsw_512');
    expect(hnsw).toMatchObject({ part: 'vectors', method: 'hnsw' });
    expect(hnsw?.bytesPerMemory).toBeGreaterThan(2048); // each node keeps its vector, then its neighbours
    const embedding = columnsOf(result, 'memory_embeddings').get('embedding');
    expect(embedding).toMatchObject({ type: 'vector', values: SIZE });
    expect(embedding?.bytesPerMemory).toBeGreaterThanOrEqual(2048);
    // The float32 bytes stay beside it: exact scores read them.
    expect(columnsOf(result, 'memory_embeddings').get('vector')).toMatchObject({
      type: 'bytea',
      values: SIZE,
      bytesPerMemory: 2048,
    });
  });

  it('adds every table and index up to the whole, by part', () => {
    const shares = result.postgres?.shares ?? [];
    const sum = shares.reduce((total, share) => total + share.bytesPerMemory, 0);
    expect(sum * SIZE).toBeCloseTo(result.bytes, 0);
    const parts = Object.values(result.byPart).reduce((total, bytes) => total + bytes, 0);
    expect(parts).toBeCloseTo(result.bytesPerMemory, 6);
    expect(shareNamed(result, 'memories_search')).toMatchObject({ part: 'full text', method: 'gin' });
    expect(shareNamed(result, 'memory_embeddings')?.toastPerMemory).toBeGreaterThan(2048); // both vectors lie out of line
  });

  it("measures the server's process apart from the client's, through the build and the searches", () => {
    const cost = result.serverCost;
    expect(cost?.watched).toBe(true);
    expect(cost?.server).toBe("PGlite with pgvector's process");
    expect(cost?.searches.count).toBe(SEARCHES);
    for (const phase of [cost?.build, cost?.settle, cost?.firstSearch, cost?.searches]) {
      expect(phase?.serverCpuSeconds).toBeGreaterThanOrEqual(0);
      expect(phase?.clientCpuSeconds).toBeGreaterThanOrEqual(0);
    }
    // The server parsed, planned and wrote every statement of the build: it cannot have been idle.
    expect(cost?.build.serverCpuSeconds).toBeGreaterThan(0);
    for (const held of [cost?.memory.opened, cost?.memory.built, cost?.memory.searched]) {
      expect(held?.server?.processes).toBeGreaterThanOrEqual(1); // PGlite's process, and at times a short-lived child of it
      expect(held?.server?.pssMiB).toBeGreaterThan(0);
      expect(held?.client.rssMiB).toBeGreaterThan(0);
    }
  });

  it('stops its PGlite server when the store is removed', async () => {
    const database = await createBenchStore('footprint_gone', 'pglite');
    const pid = database.serverPid as number;
    await database.remove();
    expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});

describe.skipIf(findPostgresBinaries() === null)(
  'bench footprint on a PostgreSQL server (skipped: PostgreSQL is not installed)',
  () => {
    let server: PostgresServer;
    let url: string;
    let result: FootprintResult;
    beforeAll(async () => {
      server = await startPostgres();
      url = await server.createDatabase('footprint');
      result = await measureSmall(url);
    }, 300_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('has no vector column or HNSW index without pgvector, and the same tables otherwise', () => {
      expect(result.postgres?.shares.filter((share) => share.method === 'hnsw')).toEqual([]);
      expect(columnsOf(result, 'memory_embeddings').has('embedding')).toBe(false);
      expect(columnsOf(result, 'memory_embeddings').get('vector')).toMatchObject({ values: SIZE, bytesPerMemory: 2048 });
      expect(shareNamed(result, 'memories_search')).toMatchObject({ part: 'full text', method: 'gin' });
    });

    it('finds the postmaster by its checkpointer and sums it with all its children', () => {
      const cost = result.serverCost;
      expect(cost?.watched).toBe(true);
      expect(cost?.server).toMatch(/^the PostgreSQL server \(postmaster \d+ and its children\)$/);
      // The postmaster, its checkpointer, background writer, WAL writer and launchers at least.
      expect(cost?.memory.opened.server?.processes).toBeGreaterThanOrEqual(5);
      expect(cost?.memory.searched.server?.pssMiB).toBeGreaterThan(0);
      expect(cost?.build.serverCpuSeconds).toBeGreaterThan(0);
    });

    it('vacuums and analyzes the built tables before it searches, as autovacuum would', async () => {
      const database = await createBenchStore('footprint_settled', url);
      const client = new pg.Client({ connectionString: database.location });
      try {
        const engram = await openEngram({ store: database.open(), embedder: createSyntheticEmbedder(topicOf) });
        const memories = inSessions(syntheticMemories(SIZE, SIZE));
        await buildAndSearch(engram, () => engram.rememberMany(memories).then(() => undefined), database, {
          label: 'settled',
          log: () => undefined,
        });
        await engram.close();
        await client.connect();
        // reltuples stays -1 until a VACUUM or ANALYZE counts the rows; only VACUUM marks pages all-visible.
        const { rows } = await client.query(
          // eslint-disable-next-line no-restricted-syntax -- the test reads the server's catalogue to see what the bench left: no store's concern
          `SELECT c.relname AS name, c.reltuples::int AS rows, c.relallvisible > 0 AS vacuumed
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND c.relname IN ('memories', 'memory_embeddings') ORDER BY 1`,
        );
        expect(rows).toEqual([
          { name: 'memories', rows: SIZE, vacuumed: true },
          { name: 'memory_embeddings', rows: SIZE, vacuumed: true },
        ]);
      } finally {
        await client.end();
        await database.remove();
      }
    }, 120_000);

    it('says why a server on another machine is not measured, without reaching for it', async () => {
      const remote = {
        backend: 'PostgreSQL' as const,
        engine: 'PostgreSQL',
        location: 'postgres://engram@db.example:5432/engram',
      };
      expect(
        await findServer({
          ...remote,
          open: () => null as never,
          serveArgs: [],
          bytes: () => null,
          remove: async () => undefined,
        }),
      ).toEqual({
        reason: 'the server (db.example) is not on this machine: its processes cannot be read',
      });
    });
  },
);
