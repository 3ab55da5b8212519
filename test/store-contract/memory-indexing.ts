/**
 * What writes to the memories part do to the search parts: a change that fails leaves no index
 * entry behind, updates move a memory in both indexes, and a purge removes its entries. It needs a
 * `MemoryStore` with both searches (and statistics, to count the vectors left).
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { LexicalSearch, MemoryEntry, MemoryStore, StoreStatistics, VectorSearch } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { EAST, MOSTLY_EAST, NORTH, NORTH_EAST, UP } from '../fixtures/vectors.js';
import { ALL, entry } from './fixtures.js';
import { attempt, idsOf } from './helpers.js';

/** Runs the memory indexing contract against the store of the current test (see `freshStoreForEachTest`). */
export function memoryIndexingContract(current: () => MemoryStore & LexicalSearch & VectorSearch & StoreStatistics): void {
  let store: MemoryStore & LexicalSearch & VectorSearch & StoreStatistics;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

  describe('writing and reading memories', () => {
    it('applies a change atomically: a duplicate id in the second insert leaves nothing of the first', async () => {
      await insert(entry(makeMemory({ id: 'existing', text: 'already here' }), NORTH));

      await expect(
        attempt(() =>
          insert(
            entry(makeMemory({ id: 'fresh', text: 'zanzibar harbour' }), EAST),
            entry(makeMemory({ id: 'existing', text: 'duplicate' })),
          ),
        ),
      ).rejects.toThrow();

      expect(await store.getMemory(TENANT, 'fresh')).toBeNull();
      expect((await store.getMemory(TENANT, 'existing'))?.text).toBe('already here');
      expect(await store.countMemories(ALL)).toBe(1);
      expect(await store.searchLexical(ALL, 'zanzibar', 10)).toEqual([]);
      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['existing']);
    });

    it('keeps working after a failed change that carried the very first vector', async () => {
      await insert(entry(makeMemory({ id: 'existing' })));
      await expect(
        attempt(() => insert(entry(makeMemory({ id: 'fresh' }), EAST), entry(makeMemory({ id: 'existing' })))),
      ).rejects.toThrow();

      await insert(entry(makeMemory({ id: 'later' }), EAST));

      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['later']);
    });
  });

  describe('updating memories', () => {
    it('keeps the old vector when an update leaves the vector out', async () => {
      const memory = makeMemory({ id: 'a', text: 'old words' });
      await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH));

      await store.commit({ update: [{ memory: { ...memory, text: 'new words', updatedAt: minutesAfterEpoch(1) } }] });

      const [first] = await store.searchVector(ALL, EAST, 1);
      expect(first?.id).toBe('a');
      expect(first?.similarity).toBeCloseTo(1, 5);
      expect((await store.getMemory(TENANT, 'a'))?.text).toBe('new words');
    });

    it('moves a memory in vector search when an update gives it a new vector', async () => {
      const memory = makeMemory({ id: 'a' });
      await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH_EAST));

      await store.commit({ update: [{ memory, vector: UP }] });

      expect(idsOf(await store.searchVector(ALL, EAST, 2))).toEqual(['b', 'a']);
      expect(idsOf(await store.searchVector(ALL, UP, 1))).toEqual(['a']);
    });

    it('removes a memory from vector search when an update sets its vector to null', async () => {
      const memory = makeMemory({ id: 'a' });
      await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH));

      await store.commit({ update: [{ memory, vector: null }] });

      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['b']);
      expect(await store.getMemory(TENANT, 'a')).toEqual(memory);
    });

    it('indexes the new text of an updated memory for lexical search and forgets the old text', async () => {
      const memory = makeMemory({ id: 'a', text: 'the walrus sleeps' });
      await insert(entry(memory));

      await store.commit({ update: [{ memory: { ...memory, text: 'the pelican flies', tags: ['birds'] } }] });

      expect(await store.searchLexical(ALL, 'walrus', 10)).toEqual([]);
      expect(idsOf(await store.searchLexical(ALL, 'pelican', 10))).toEqual(['a']);
      expect(idsOf(await store.searchLexical(ALL, 'birds', 10))).toEqual(['a']);
    });
  });

  describe('purging memories', () => {
    it('deletes memories for good with their lexical and vector entries, and says how many', async () => {
      await insert(
        entry(makeMemory({ id: 'doomed', text: 'the zebra crossing' }), EAST),
        entry(makeMemory({ id: 'kept', text: 'the zebra finch' }), MOSTLY_EAST),
      );

      expect(await store.purgeMemories(TENANT, ['doomed', 'missing'])).toBe(1);

      expect(await store.getMemory(TENANT, 'doomed')).toBeNull();
      expect(await store.countMemories({ ...ALL, includeArchived: true, includeSuperseded: true })).toBe(1);
      expect(idsOf(await store.searchLexical(ALL, 'zebra', 10))).toEqual(['kept']);
      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['kept']);
      expect((await store.stats(TENANT)).vectors).toBe(1);
    });

    it('purges nothing of another tenant', async () => {
      await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, text: 'zebra' }), EAST));

      expect(await store.purgeMemories(TENANT, ['theirs'])).toBe(0);

      expect(await store.getMemory(OTHER_TENANT, 'theirs')).not.toBeNull();
      expect(idsOf(await store.searchLexical({ tenant: OTHER_TENANT }, 'zebra', 10))).toEqual(['theirs']);
      expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, EAST, 10))).toEqual(['theirs']);
    });
  });
}
