/**
 * The PostgreSQL store with the pgvector extension: PGlite (PostgreSQL compiled to WebAssembly,
 * which ships pgvector) served over the wire protocol by pglite-socket, so the store's own `pg`
 * driver code runs against it. With the extension, vectors also go into a `vector` column and
 * approximate search is an HNSW index inside the database; a database that gains the extension
 * after storing vectors has them copied over on the next open. (Without the extension, the
 * Debian server of test/postgres-store.test.ts covers the store's own in-memory index.)
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PostgresDoctor } from '../src/store/postgres/doctor.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { makeMemory, TENANT } from './fixtures/memory.js';
import { gaussian, seededRandom } from './fixtures/random.js';

interface Served {
  db: PGlite;
  url: string;
  /** Connections the socket server holds open. */
  connections(): number;
  stop(): Promise<void>;
}

let served: Served | null = null;

afterEach(async () => {
  await served?.stop();
  served = null;
});

let newCluster: Promise<File | Blob> | undefined;
/**
 * The files of a PGlite cluster just made, made once: each test's database starts from a copy of
 * them, as new as one made for it (making one costs ~3 s of CPU, loading the copy ~0.7 s).
 */
function newClusterFiles(): Promise<File | Blob> {
  newCluster ??= PGlite.create({ extensions: { vector } }).then(async (db) => {
    const files = await db.dumpDataDir('none');
    await db.close();
    return files;
  });
  return newCluster;
}

/** A fresh PGlite database with pgvector loaded (created in the database only when `extension`). */
async function servePglite(extension: boolean): Promise<Served> {
  const db = await PGlite.create({ extensions: { vector }, loadDataDir: await newClusterFiles() });
  if (extension) await db.exec('CREATE EXTENSION vector');
  // PGlite is one session: queries of several connections would share its transactions, so one at a time.
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 1 });
  await server.start();
  return {
    db,
    url: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    connections: () => server.getStats().activeConnections,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

function openStore(url: string): PostgresStore {
  return new PostgresStore(url, { max: 1 });
}

function randomVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: dimensions }, () => gaussian(random)));
}

describe('PostgresStore with pgvector (PGlite over the wire protocol)', () => {
  it('searches through an HNSW index on the vector column, agreeing with exact search', async () => {
    served = await servePglite(true);
    const store = openStore(served.url);
    try {
      const vectors = randomVectors(300, 32, 3);
      await store.commit({
        insert: vectors.map((v, i) => ({
          memory: makeMemory({ id: `v${i}`, scope: i % 2 ? 'project:x' : 'user:alice' }),
          vector: v,
        })),
      });
      for (const q of [0, 50, 120]) {
        const query = vectors[q] as Float32Array;
        const approximate = await store.searchVector({ tenant: TENANT }, query, 5);
        const exact = await store.searchVector({ tenant: TENANT }, query, 5, { exact: true });
        expect(approximate[0]?.id).toBe(`v${q}`);
        expect(approximate[0]?.similarity).toBeCloseTo(1, 5);
        expect(approximate.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
      }
      const scoped = await store.searchVector({ tenant: TENANT, scopes: ['project:x'] }, vectors[7] as Float32Array, 3);
      expect(scoped[0]?.id).toBe('v7');
      expect(scoped).toHaveLength(3);

      const indexes = await served.db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'memory_embeddings'`,
      );
      expect(indexes.rows.map((row) => row.indexname)).toContain('memory_embeddings_hnsw_32');
      // The approximate answer comes from the vector column: move one memory's copy there next
      // to a query, and the approximate search finds it where the exact one (the bytes) does not.
      const far = vectors[299] as Float32Array;
      const target = Float32Array.from(far, (x) => -x);
      await served.db.query(
        `UPDATE memory_embeddings SET embedding = $1::vector WHERE rowid = (SELECT rowid FROM memories WHERE id = 'v42')`,
        [`[${Array.from(target).join(',')}]`],
      );
      expect((await store.searchVector({ tenant: TENANT }, target, 1))[0]?.id).toBe('v42');
      expect((await store.searchVector({ tenant: TENANT }, target, 1, { exact: true }))[0]?.id).not.toBe('v42');
      // More than pgvector's default breadth (40): still the index's answer, not a scan of every vector.
      const wide = await store.searchVector({ tenant: TENANT }, target, 50);
      expect(wide).toHaveLength(50);
      expect(wide[0]?.id).toBe('v42');
    } finally {
      await store.close();
    }
  }, 120_000);

  it('copies the stored vectors into the vector column when the database gains the extension', async () => {
    served = await servePglite(false);
    const before = openStore(served.url);
    const vectors = randomVectors(40, 16, 9);
    try {
      await before.commit({ insert: vectors.map((v, i) => ({ memory: makeMemory({ id: `v${i}` }), vector: v })) });
      const columns = await served.db.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'memory_embeddings'`,
      );
      expect(columns.rows).not.toContainEqual({ column_name: 'embedding' });
    } finally {
      await before.close();
    }
    await served.db.exec('CREATE EXTENSION vector');
    // The server takes one connection at a time: the closed store's must be gone first.
    const server = served;
    await vi.waitFor(() => expect(server.connections()).toBe(0), { timeout: 10_000, interval: 20 });

    const after = openStore(served.url);
    try {
      expect((await after.searchVector({ tenant: TENANT }, vectors[11] as Float32Array, 2))[0]?.id).toBe('v11');
      const filled = await served.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memory_embeddings WHERE embedding IS NOT NULL`,
      );
      expect(filled.rows[0]?.n).toBe(40);
    } finally {
      await after.close();
    }
  }, 120_000);

  it("fills the vector column of vectors the doctor's repair writes", async () => {
    served = await servePglite(true);
    const store = openStore(served.url);
    const vectors = randomVectors(30, 16, 5);
    try {
      await store.commit({ insert: vectors.map((v, i) => ({ memory: makeMemory({ id: `v${i}` }), vector: v })) });
      await served.db.query(`DELETE FROM memory_embeddings WHERE rowid = (SELECT rowid FROM memories WHERE id = 'v7')`);
    } finally {
      await store.close();
    }
    const server = served;
    await vi.waitFor(() => expect(server.connections()).toBe(0), { timeout: 10_000, interval: 20 });
    const doctor = await PostgresDoctor.open(served.url);
    try {
      expect(await doctor.writeVectors([{ id: 'v7', vector: vectors[7] as Float32Array }])).toBe(1);
    } finally {
      await doctor.close();
    }
    await vi.waitFor(() => expect(server.connections()).toBe(0), { timeout: 10_000, interval: 20 });
    const after = openStore(served.url);
    try {
      const filled = await served.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memory_embeddings WHERE embedding IS NOT NULL`,
      );
      expect(filled.rows[0]?.n).toBe(30);
      expect((await after.searchVector({ tenant: TENANT }, vectors[7] as Float32Array, 1))[0]?.id).toBe('v7');
    } finally {
      await after.close();
    }
  }, 120_000);
});
