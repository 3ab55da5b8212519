/**
 * The vector search part of the Store contract: nearest neighbours with their cosine
 * similarity, filters and tenants, and reading the stored vectors back. It writes its memories
 * through the memories part and names the embedder through the vector index part.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryFilter, MemoryStore, VectorIndexStore, VectorSearch } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { cosine, EAST, MOSTLY_EAST, NORTH, NORTH_EAST, unitVector, UP } from '../fixtures/vectors.js';
import { ALL, entry } from './fixtures.js';
import { idsOf } from './helpers.js';

/** Runs the vector search contract against the store of the current test (see `freshStoreForEachTest`). */
export function vectorSearchContract(current: () => MemoryStore & VectorSearch & VectorIndexStore): void {
  let store: MemoryStore & VectorSearch & VectorIndexStore;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

  describe('vector search', () => {
    it('finds nothing before any vector is stored', async () => {
      await insert(entry(makeMemory({ id: 'no-vector' })));

      expect(await store.searchVector(ALL, EAST, 10)).toEqual([]);
    });

    it('ranks the nearest vector first with its cosine similarity', async () => {
      await insert(
        entry(makeMemory({ id: 'north' }), NORTH),
        entry(makeMemory({ id: 'east' }), EAST),
        entry(makeMemory({ id: 'north-east' }), NORTH_EAST),
      );

      const hits = await store.searchVector(ALL, MOSTLY_EAST, 10);

      expect(idsOf(hits)).toEqual(['east', 'north-east', 'north']);
      expect(hits[0]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, EAST), 5);
      expect(hits[1]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, NORTH_EAST), 5);
      expect(hits[2]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, NORTH), 5);
      expect(idsOf(await store.searchVector(ALL, MOSTLY_EAST, 2))).toEqual(['east', 'north-east']);
    });

    it('reports similarity -1 for an opposite vector', async () => {
      await insert(entry(makeMemory({ id: 'west' }), unitVector(-1, 0, 0, 0)));

      const [hit] = await store.searchVector(ALL, EAST, 1);

      expect(hit?.similarity).toBeCloseTo(-1, 5);
    });

    it('keeps one tenant’s memories out of another tenant’s vector search', async () => {
      await insert(entry(makeMemory({ id: 'ours' }), NORTH), entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), EAST));

      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['ours']);
      expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, EAST, 10))).toEqual(['theirs']);
      expect(await store.searchVector({ tenant: 'nobody' }, EAST, 10)).toEqual([]);
    });

    it('applies scope, kind, tier, session and state filters to vector search', async () => {
      await insert(
        entry(makeMemory({ id: 'fact', kind: 'fact', scope: 'user:alice', tier: 'must' }), EAST),
        entry(makeMemory({ id: 'note', kind: 'note', scope: 'project:x', sessionId: 's1' }), MOSTLY_EAST),
        entry(makeMemory({ id: 'archived', archivedAt: minutesAfterEpoch(1) }), EAST),
        entry(makeMemory({ id: 'superseded', supersededBy: 'fact' }), EAST),
      );
      const search = async (filter: MemoryFilter) => idsOf(await store.searchVector(filter, EAST, 10)).sort();

      expect(await search(ALL)).toEqual(['fact', 'note']);
      expect(await search({ ...ALL, scopes: ['project:x'] })).toEqual(['note']);
      expect(await search({ ...ALL, kinds: ['fact'] })).toEqual(['fact']);
      expect(await search({ ...ALL, tiers: ['must'] })).toEqual(['fact']);
      expect(await search({ ...ALL, sessionId: 's1' })).toEqual(['note']);
      expect(await search({ ...ALL, scopes: [] })).toEqual([]);
      expect(await search({ ...ALL, includeArchived: true, includeSuperseded: true })).toEqual([
        'archived',
        'fact',
        'note',
        'superseded',
      ]);
    });

    it('finds the nearest memory in a scope even when a hundred nearer ones sit in another scope', async () => {
      const crowd = Array.from({ length: 100 }, (_, i) =>
        entry(makeMemory({ id: `crowd-${i}`, scope: 'user:alice' }), unitVector(1, i / 1000, 0, 0)),
      );
      await insert(...crowd, entry(makeMemory({ id: 'target', scope: 'session:s1' }), UP));

      expect(idsOf(await store.searchVector({ ...ALL, scopes: ['session:s1'] }, EAST, 3))).toEqual(['target']);
    });
  });

  describe('stored vectors', () => {
    it('returns the stored vectors of memories that have one, within the tenant', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
      await store.commit({
        insert: [
          entry(makeMemory({ id: 'a' }), EAST),
          entry(makeMemory({ id: 'b' })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), NORTH),
        ],
      });

      const vectors = await store.getVectors(TENANT, ['a', 'b', 'theirs', 'missing']);

      expect([...vectors.keys()]).toEqual(['a']);
      expect([...(vectors.get('a') as Float32Array)]).toEqual([...EAST]);
    });

    it('gives the cosine similarity of each listed memory that has a vector, within the tenant', async () => {
      await store.commit({
        insert: [
          entry(makeMemory({ id: 'east' }), EAST),
          entry(makeMemory({ id: 'diagonal' }), NORTH_EAST),
          entry(makeMemory({ id: 'bare' })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), EAST),
        ],
      });

      const similarities = await store.vectorSimilarities(TENANT, ['east', 'diagonal', 'bare', 'theirs', 'missing'], EAST);

      expect([...similarities.keys()].sort()).toEqual(['diagonal', 'east']);
      expect(similarities.get('east')).toBeCloseTo(1, 5);
      expect(similarities.get('diagonal')).toBeCloseTo(cosine(EAST, NORTH_EAST), 5);
    });
  });
}
