/**
 * Listing memories spread over the store (`order: 'spread'`), part of the memories contract:
 * in the order of the random part of their ids (a ULID's last 16 characters, byte by byte, then
 * the whole id), whatever order they were created in, within the filter. Per-store calibration
 * takes its sample as the first memories of this order, so it must be the same on every backend.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT } from '../fixtures/memory.js';
import { ALL, entry } from './fixtures.js';
import { idsOf } from './helpers.js';

/** A ULID-shaped id: `time` as its 10 characters of time, then `tail` as its 16 random ones. */
const ulid = (time: string, tail: string) => time.padEnd(10, '0') + tail.padEnd(16, '0');

/** Runs the spread-listing contract against the store of the current test (see `freshStoreForEachTest`). */
export function memorySpreadContract(current: () => MemoryStore): void {
  let store: MemoryStore;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

  describe('listing spread over the store', () => {
    /** Memories created one a minute, oldest first, with tails in no relation to that order. */
    const created = [
      ulid('01', 'Q'),
      ulid('02', 'C'),
      ulid('03', 'X'),
      ulid('04', '1'),
      ulid('05', 'G'),
      // The same tail as the second: the whole id decides.
      ulid('00', 'C'),
      // An imported id with a lower-case tail: byte order puts it after every upper-case one.
      ulid('06', 'a'),
    ];
    /** The same memories in the order of their tails. */
    const spread = [
      ulid('04', '1'),
      ulid('00', 'C'),
      ulid('02', 'C'),
      ulid('05', 'G'),
      ulid('01', 'Q'),
      ulid('03', 'X'),
      ulid('06', 'a'),
    ];

    async function insertSpread(): Promise<void> {
      await insert(...created.map((id, i) => entry(makeMemory({ id, createdAt: minutesAfterEpoch(i) }))));
    }

    it('lists memories in the order of their ids’ random part, not of their creation', async () => {
      await insertSpread();

      expect(idsOf(await store.listMemories(ALL, { limit: 100, order: 'spread' }))).toEqual(spread);
      expect(idsOf(await store.listMemories(ALL, { limit: 3, order: 'spread' }))).toEqual(spread.slice(0, 3));
      expect(idsOf(await store.listMemories(ALL, { limit: 3, offset: 2, order: 'spread' }))).toEqual(spread.slice(2, 5));
      // The newest first is another order altogether.
      expect(idsOf(await store.listMemories(ALL, { limit: 100 }))).toEqual(created.slice().reverse());
    });

    it('orders ids too short to have a random part by the whole id, before the rest', async () => {
      await insertSpread();
      await insert(entry(makeMemory({ id: 'm2', createdAt: minutesAfterEpoch(-2) })), entry(makeMemory({ id: 'm10' })));

      expect(idsOf(await store.listMemories(ALL, { limit: 4, order: 'spread' }))).toEqual(['m10', 'm2', ...spread.slice(0, 2)]);
    });

    it('keeps to the filter: its tenant, without left-out kinds, archived or superseded memories', async () => {
      await insertSpread();
      await insert(
        entry(makeMemory({ id: ulid('07', '0'), tenant: OTHER_TENANT })),
        entry(makeMemory({ id: ulid('08', '2'), kind: 'working_set' })),
        entry(makeMemory({ id: ulid('09', 'D'), archivedAt: minutesAfterEpoch(20) })),
        entry(makeMemory({ id: ulid('10', 'H'), supersededBy: ulid('05', 'G') })),
        entry(makeMemory({ id: ulid('11', 'R'), kind: 'decision' })),
      );
      const sample = { ...ALL, excludeKinds: ['working_set' as const] };

      expect(idsOf(await store.listMemories(sample, { limit: 100, order: 'spread' }))).toEqual([
        ...spread.slice(0, 5),
        ulid('11', 'R'),
        ...spread.slice(5),
      ]);
      expect(idsOf(await store.listMemories(sample, { limit: 3, order: 'spread' }))).toEqual(spread.slice(0, 3));
      expect(idsOf(await store.listMemories({ tenant: OTHER_TENANT }, { limit: 10, order: 'spread' }))).toEqual([
        ulid('07', '0'),
      ]);
      expect(idsOf(await store.listMemories({ ...ALL, onlyArchived: true }, { limit: 10, order: 'spread' }))).toEqual([
        ulid('09', 'D'),
      ]);
    });

    it('takes a new memory in only where its id falls: the first ones stay unless it comes before them', async () => {
      await insertSpread();
      const firstThree = idsOf(await store.listMemories(ALL, { limit: 3, order: 'spread' }));

      await insert(entry(makeMemory({ id: ulid('20', 'Z'), createdAt: minutesAfterEpoch(30) })));
      expect(idsOf(await store.listMemories(ALL, { limit: 3, order: 'spread' }))).toEqual(firstThree);

      await insert(entry(makeMemory({ id: ulid('21', '5'), createdAt: minutesAfterEpoch(31) })));
      expect(idsOf(await store.listMemories(ALL, { limit: 3, order: 'spread' }))).toEqual([
        spread[0],
        ulid('21', '5'),
        spread[1],
      ]);
    });

    it('pages on after a memory and back before one, in the same order', async () => {
      await insertSpread();

      expect(idsOf(await store.listMemories(ALL, { limit: 3, order: 'spread', after: spread[1] }))).toEqual(spread.slice(2, 5));
      expect(idsOf(await store.listMemories(ALL, { limit: 10, order: 'spread', after: spread[4] }))).toEqual(spread.slice(5));
      expect(idsOf(await store.listMemories(ALL, { limit: 2, order: 'spread', before: spread[4] }))).toEqual(spread.slice(2, 4));
      expect(await store.listMemories(ALL, { limit: 2, order: 'spread', before: spread[0] })).toEqual([]);
    });
  });
}
