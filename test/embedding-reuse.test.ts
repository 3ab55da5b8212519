/**
 * The engine embeds a memory's text once: the same text (and context) stored again takes the
 * stored memory's own vector from the store, and the database keeps no second copy of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { type Embedder, openEngram } from '../src/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-embedding-reuse-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A deterministic embedder that counts the texts it was asked to embed. */
function countingEmbedder(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: 'test:counting-8',
    dimensions: 8,
    texts,
    async embed(batch) {
      texts.push(...batch);
      return batch.map((text) => Float32Array.from({ length: 8 }, (_, i) => Math.cos(text.length * (i + 1)) + 0.1 * i));
    },
  };
}

describe('embedding a memory once', () => {
  it('takes the vector of a stored memory with the same text and context, and caches no copy of it', async () => {
    const file = path.join(directory, 'reuse.db');
    const embedder = countingEmbedder();
    const engram = await openEngram({ path: file, embedder, config: { graph: { extract: false } } });
    let ids: string[] = [];
    try {
      const first = await engram.rememberMany([
        { text: 'the nightly backup runs at 3' },
        { text: 'it did', context: 'did the deploy pass?' },
      ]);
      expect(embedder.texts).toEqual(['the nightly backup runs at 3', 'it did', 'did the deploy pass? it did']);

      const again = await engram.rememberMany([
        { text: 'the nightly backup runs at 3' },
        { text: 'it did', context: 'did the deploy pass?' },
        { text: 'it did', context: 'was the invoice sent?' },
      ]);
      ids = [...first, ...again].map((memory) => memory.id);
      // Only the memory whose context is new was embedded again.
      expect(embedder.texts.slice(3)).toEqual(['it did', 'was the invoice sent? it did']);
      const stats = await engram.stats();
      expect(stats.vectors).toBe(5);
      expect(stats.cachedEmbeddings).toBe(0);
    } finally {
      await engram.close();
    }
    const store = new SqliteStore(file);
    expect(store.connection.prepare(`SELECT count(*) FROM embedding_cache`).pluck().get()).toBe(0);
    const vectors = await store.getVectors('default', ids);
    expect(vectors.get(ids[2] as string)).toEqual(vectors.get(ids[0] as string));
    expect(vectors.get(ids[3] as string)).toEqual(vectors.get(ids[1] as string));
    expect(vectors.get(ids[4] as string)).not.toEqual(vectors.get(ids[1] as string));
    await store.close();
  });
});
