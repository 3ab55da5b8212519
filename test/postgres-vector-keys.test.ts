/**
 * PostgreSQL's migration 10 on a real server: a database of schema 9, whose embedding cache held
 * every memory's vector again, keeps every vector, gives each the key of its text (computed by
 * the server as the library computes it), and answers the cache from the memories' own vectors.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { contentHash, memoryVectorHash } from '../src/store/embedding-cache.js';
import { POSTGRES_LATEST_VERSION } from '../src/store/postgres/migrations.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { makeMemory, TENANT } from './fixtures/memory.js';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';
import { EAST, NORTH, NORTH_EAST } from './fixtures/vectors.js';

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('PostgreSQL migration 10: vectors keep the key of their text', () => {
  it('upgrades a schema 9 database so its cache answers from the memories’ own vectors, and keeps no copy', async () => {
    const url = await server.createDatabase('vector_keys');
    const plain = makeMemory({ id: 'plain', text: 'the billing service moved to Go ✓' });
    const withContext = makeMemory({ id: 'turn', text: 'it did', context: 'did the deploy pass? 🚀' });
    const old = new PostgresStore(url);
    await old.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
    await old.commit({
      insert: [
        { memory: plain, vector: NORTH_EAST },
        { memory: withContext, vector: EAST },
      ],
    });
    // As schema 9 kept them: the cache held the memory's vector again, and with context the two texts' vectors.
    await old.putCachedEmbeddings('tiny-4', [
      { hash: contentHash(plain.text), vector: NORTH_EAST },
      { hash: contentHash(withContext.text), vector: NORTH },
    ]);
    await old.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP INDEX memory_embeddings_by_input; ALTER TABLE memory_embeddings DROP COLUMN input_key;
      DELETE FROM engram_schema WHERE version >= 10`);
    await client.end();

    const store = new PostgresStore(url);
    try {
      expect((await store.stats(TENANT)).schemaVersion).toBe(POSTGRES_LATEST_VERSION);
      expect((await store.stats(TENANT)).vectors).toBe(2);
      expect((await store.stats(TENANT)).cachedEmbeddings).toBe(0);
      const found = await store.getCachedEmbeddings('tiny-4', [
        memoryVectorHash(plain),
        memoryVectorHash(withContext),
        contentHash(withContext.text),
      ]);
      expect([...found.keys()].sort()).toEqual([memoryVectorHash(plain), memoryVectorHash(withContext)].sort());
      expect(Array.from(found.get(memoryVectorHash(plain)) ?? [])).toEqual(Array.from(NORTH_EAST));
      expect(Array.from(found.get(memoryVectorHash(withContext)) ?? [])).toEqual(Array.from(EAST));
    } finally {
      await store.close();
    }
  });
});
