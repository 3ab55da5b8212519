/**
 * The statistics part of the Store contract: one tenant's counts across memories, vectors,
 * cached embeddings and the vector index.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmbeddingCache, MemoryEntry, MemoryStore, StoreStatistics, VectorIndexStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { EAST, NORTH, UP } from '../fixtures/vectors.js';
import { entry } from './fixtures.js';

/** Runs the statistics contract against the store of the current test (see `freshStoreForEachTest`). */
export function storeStatisticsContract(current: () => MemoryStore & VectorIndexStore & EmbeddingCache & StoreStatistics): void {
  let store: MemoryStore & VectorIndexStore & EmbeddingCache & StoreStatistics;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

  describe('statistics', () => {
    it('counts one tenant’s memories by state, kind, tier and scope, and its vectors', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
      await insert(
        entry(makeMemory({ id: 'a', kind: 'fact', tier: 'must', scope: 'user:alice' }), EAST),
        entry(makeMemory({ id: 'b', kind: 'preference', tier: 'nice', scope: 'user:alice' }), NORTH),
        entry(makeMemory({ id: 'c', kind: 'fact', tier: 'unknown', scope: 'project:x' })),
        entry(makeMemory({ id: 'archived', kind: 'note', archivedAt: minutesAfterEpoch(1) }), UP),
        entry(makeMemory({ id: 'superseded', kind: 'note', supersededBy: 'a' })),
        entry(makeMemory({ id: 'theirs-1', tenant: OTHER_TENANT, kind: 'goal' }), EAST),
        entry(makeMemory({ id: 'theirs-2', tenant: OTHER_TENANT, kind: 'goal' }), NORTH),
      );
      await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);

      const stats = await store.stats(TENANT);

      expect(stats).toMatchObject({
        memories: 5,
        live: 3,
        archived: 1,
        superseded: 1,
        byKind: { fact: 2, preference: 1 },
        byTier: { must: 1, nice: 1, unknown: 1 },
        byScope: { 'user:alice': 2, 'project:x': 1 },
        vectors: 3,
        cachedEmbeddings: 1,
        index: { model: 'tiny-4', dimensions: 4 },
      });
      expect(Object.keys(stats.byKind).sort()).toEqual(['fact', 'preference']);
      expect(stats.schemaVersion).toBeGreaterThan(0);
    });

    it('leaves the kinds it is told to out of every count of memories, and keeps the index counts whole', async () => {
      await insert(
        entry(makeMemory({ id: 'fact', kind: 'fact', tier: 'nice', scope: 'user:alice' }), EAST),
        entry(makeMemory({ id: 'set', kind: 'working_set', tier: 'must', scope: 'user:alice' })),
        entry(makeMemory({ id: 'note', kind: 'handoff', tier: 'unknown', scope: 'project:x' }), NORTH),
        entry(makeMemory({ id: 'old-note', kind: 'handoff', supersededBy: 'note' })),
        entry(makeMemory({ id: 'cleared', kind: 'scratchpad', archivedAt: minutesAfterEpoch(1) })),
      );

      const left = await store.stats(TENANT, { excludeKinds: ['working_set', 'handoff', 'scratchpad'] });
      const all = await store.stats(TENANT);

      expect(left).toMatchObject({
        memories: 1,
        live: 1,
        archived: 0,
        superseded: 0,
        byKind: { fact: 1 },
        byTier: { nice: 1 },
        byScope: { 'user:alice': 1 },
        vectors: 2,
      });
      expect(Object.keys(left.byKind)).toEqual(['fact']);
      expect(Object.keys(left.byTier)).toEqual(['nice']);
      expect(all).toMatchObject({
        memories: 5,
        live: 3,
        archived: 1,
        superseded: 1,
        byKind: { fact: 1, working_set: 1, handoff: 1 },
        byTier: { nice: 1, must: 1, unknown: 1 },
        byScope: { 'user:alice': 2, 'project:x': 1 },
        vectors: 2,
      });
      expect(await store.stats(TENANT, { excludeKinds: [] })).toEqual(all);
    });

    it('lists each count’s groups largest first, equal groups by name byte by byte', async () => {
      await insert(
        entry(makeMemory({ id: 'a', kind: 'note', scope: 'user:bob' })),
        entry(makeMemory({ id: 'b', kind: 'fact', scope: 'user:alice' })),
        entry(makeMemory({ id: 'c', kind: 'note', scope: 'user:Bob' })),
        entry(makeMemory({ id: 'd', kind: 'goal', scope: 'user:bob' })),
      );

      const stats = await store.stats(TENANT);

      expect(Object.keys(stats.byScope)).toEqual(['user:bob', 'user:Bob', 'user:alice']);
      expect(Object.keys(stats.byKind)).toEqual(['note', 'fact', 'goal']);
    });

    it('counts live memories by scope in one read: under a scope, the kinds left out, largest first', async () => {
      await insert(
        entry(makeMemory({ id: 'docs', scope: 'docs' })),
        entry(makeMemory({ id: 'py-1', scope: 'docs:python' })),
        entry(makeMemory({ id: 'py-2', scope: 'docs:python' })),
        entry(makeMemory({ id: 'deep', scope: 'docs:python:3.12' })),
        entry(makeMemory({ id: 'sets', scope: 'docsets' })),
        entry(makeMemory({ id: 'semi', scope: 'docs;x' })),
        entry(makeMemory({ id: 'upper', scope: 'Docs:python' })),
        entry(makeMemory({ id: 'set', kind: 'working_set', scope: 'docs:rust' })),
        entry(makeMemory({ id: 'gone', scope: 'docs:go', archivedAt: minutesAfterEpoch(1) })),
        entry(makeMemory({ id: 'old', scope: 'docs:c', supersededBy: 'docs' })),
        entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, scope: 'docs:java' })),
      );

      expect(Object.entries(await store.scopeCounts(TENANT, { under: 'docs', excludeKinds: ['working_set'] }))).toEqual([
        ['docs:python', 2],
        ['docs', 1],
        ['docs:python:3.12', 1],
      ]);
      expect(await store.scopeCounts(TENANT, { under: 'docs:python' })).toEqual({ 'docs:python': 2, 'docs:python:3.12': 1 });
      expect(await store.scopeCounts(TENANT, { under: 'doc' })).toEqual({});
      expect(await store.scopeCounts(TENANT)).toEqual((await store.stats(TENANT)).byScope);
      expect(await store.scopeCounts(TENANT, { excludeKinds: ['working_set'] })).toEqual(
        (await store.stats(TENANT, { excludeKinds: ['working_set'] })).byScope,
      );
    });

    it('counts nothing for an empty store', async () => {
      const { memories, live, archived, superseded, byKind, byTier, byScope, vectors, cachedEmbeddings, index } =
        await store.stats(TENANT);

      expect({ memories, live, archived, superseded, byKind, byTier, byScope, vectors, cachedEmbeddings, index }).toEqual({
        memories: 0,
        live: 0,
        archived: 0,
        superseded: 0,
        byKind: {},
        byTier: {},
        byScope: {},
        vectors: 0,
        cachedEmbeddings: 0,
        index: null,
      });
    });
  });
}
