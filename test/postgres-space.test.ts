/**
 * What `bench footprint` reads of a PostgreSQL store, on a real server the test starts itself:
 * each index and each table's TOAST apart, a table's columns by the bytes their values take, the
 * server's checkpointer process, and the settling (VACUUM ANALYZE) of the store's own schema only.
 */
import { readFileSync } from 'node:fs';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { checkpointerProcessId } from '../src/store/postgres/server-processes.js';
import { settleTables } from '../src/store/postgres/settle-tables.js';
import { columnSizes, indexSizes, relationSizes } from '../src/store/postgres/space-by-table.js';
import { makeMemory } from './fixtures/memory.js';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';

let server: PostgresServer;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase('space');
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** A vector of `dimensions` values, none of them alike (so no compression shrinks it). */
function vectorOf(seed: number, dimensions: number): Float32Array {
  return Float32Array.from({ length: dimensions }, (_, i) => Math.sin(seed * 7919 + i * 104729));
}

describe("a PostgreSQL store's space", () => {
  it("gives each index, each table's TOAST and one table's columns apart", async () => {
    const schema = await createScratchSchema(url, 'space_by_part');
    const store = new PostgresStore(schema.url);
    try {
      await store.commit({
        insert: Array.from({ length: 40 }, (_, i) => ({ memory: makeMemory({ id: `m${i}` }), vector: vectorOf(i, 512) })),
      });
    } finally {
      await store.close();
    }
    const indexes = await indexSizes(schema.url);
    expect(indexes.find((index) => index.name === 'memories_search')).toMatchObject({ table: 'memories', method: 'gin' });
    expect(indexes.find((index) => index.name === 'memory_embeddings_pkey')).toMatchObject({
      table: 'memory_embeddings',
      method: 'btree',
    });
    const embeddings = (await relationSizes(schema.url)).find((relation) => relation.name === 'memory_embeddings');
    // 2 KiB vectors lie out of line: most of the table is its TOAST.
    expect(embeddings?.toastBytes).toBeGreaterThan(40 * 2048);
    expect(embeddings?.tableBytes).toBeGreaterThan(embeddings?.toastBytes ?? Infinity);
    const indexBytes = indexes
      .filter((index) => index.table === 'memory_embeddings')
      .reduce((sum, index) => sum + index.bytes, 0);
    expect(embeddings?.indexBytes).toBe(indexBytes);
    // A vacuumed table's indexes gain free space maps: each index's size counts them too.
    await settleTables(schema.url);
    const settled = (await relationSizes(schema.url)).find((relation) => relation.name === 'memories');
    const memoriesIndexes = (await indexSizes(schema.url)).filter((index) => index.table === 'memories');
    expect(memoriesIndexes.reduce((sum, index) => sum + index.bytes, 0)).toBe(settled?.indexBytes);

    const columns = await columnSizes(schema.url, 'memory_embeddings');
    expect(columns.map((column) => column.name)).toEqual(['rowid', 'tenant', 'vector', 'code', 'input_key']);
    expect(columns.find((column) => column.name === 'vector')).toEqual({
      name: 'vector',
      type: 'bytea',
      bytes: 40 * 2048,
      values: 40,
    });
    expect(await columnSizes(schema.url, 'no_such_table')).toEqual([]);
    await schema.drop();
  });

  it("names the server's checkpointer, a child of the postmaster that runs as long as the server", async () => {
    const pid = await checkpointerProcessId(url);
    expect(pid).toEqual(expect.any(Number));
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('checkpointer');
  });

  it("vacuums and analyzes the tables of the store's own schema, and leaves another schema's alone", async () => {
    const mine = await createScratchSchema(url, 'space_settled');
    const theirs = await createScratchSchema(url, 'space_untouched');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // reltuples is -1 until a VACUUM or ANALYZE has counted a table's rows.
    const counted = async (schema: string) =>
      (
        await client.query(
          `SELECT c.reltuples::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
           WHERE s.nspname = $1 AND c.relname = 'memories'`,
          [schema],
        )
      ).rows[0] as { n: number };
    try {
      for (const schema of [mine, theirs]) {
        const store = new PostgresStore(schema.url);
        await store.commit({ insert: [1, 2, 3].map((i) => ({ memory: makeMemory({ id: `m${i}` }), vector: null })) });
        await store.close();
      }
      expect(await counted('space_settled')).toEqual({ n: -1 });
      await settleTables(mine.url);
      expect(await counted('space_settled')).toEqual({ n: 3 });
      expect(await counted('space_untouched')).toEqual({ n: -1 });
    } finally {
      await client.end();
      await mine.drop();
      await theirs.drop();
    }
  });
});
