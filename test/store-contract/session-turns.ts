/**
 * A session's turns in the memories contract: `listSessionTurns` lists the ids of one session's
 * memories a filter admits, in the order `listSessionNeighbours` walks them (when they occurred,
 * then storing order, whatever the ids), up to a limit, within the tenant.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT } from '../fixtures/memory.js';
import { ALL, entry } from './fixtures.js';

/** Runs the session-turns contract against the store of the current test. */
export function sessionTurnsContract(current: () => MemoryStore): void {
  describe('session turns', () => {
    let store: MemoryStore;
    beforeEach(() => {
      store = current();
    });
    const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });
    /** Turns t0…t5 of session s1, stored in order; t2 and t3 share a timestamp, as turns often do. */
    const conversation = () =>
      insert(
        ...[0, 1, 2, 2, 3, 4].map((minute, i) =>
          entry(
            makeMemory({ id: `t${i}`, sessionId: 's1', occurredAt: minutesAfterEpoch(minute), createdAt: minutesAfterEpoch(i) }),
          ),
        ),
      );

    it('lists a session’s turns by when they occurred, then by storing order, whatever the ids', async () => {
      await conversation();
      // Stored last: one that occurred with t1 comes right after it, and ids that sort backwards keep storing order.
      await insert(
        entry(makeMemory({ id: 'z-first', sessionId: 's2', occurredAt: minutesAfterEpoch(1) })),
        entry(makeMemory({ id: 'a-second', sessionId: 's2', occurredAt: minutesAfterEpoch(1) })),
        entry(makeMemory({ id: 'm-earlier', sessionId: 's2', occurredAt: minutesAfterEpoch(0) })),
        entry(makeMemory({ id: 'also-at-1', sessionId: 's1', occurredAt: minutesAfterEpoch(1) })),
      );

      expect(await store.listSessionTurns(ALL, 's1', 100)).toEqual(['t0', 't1', 'also-at-1', 't2', 't3', 't4', 't5']);
      expect(await store.listSessionTurns(ALL, 's2', 100)).toEqual(['m-earlier', 'z-first', 'a-second']);
    });

    it('lists only the turns the filter admits', async () => {
      await conversation();
      await store.commit({
        update: [
          {
            memory: makeMemory({ id: 't3', sessionId: 's1', occurredAt: minutesAfterEpoch(2), archivedAt: minutesAfterEpoch(9) }),
          },
          { memory: makeMemory({ id: 't4', sessionId: 's1', occurredAt: minutesAfterEpoch(3), scope: 'project:x' }) },
        ],
      });

      expect(await store.listSessionTurns(ALL, 's1', 100)).toEqual(['t0', 't1', 't2', 't4', 't5']);
      expect(await store.listSessionTurns({ ...ALL, scopes: ['user:alice'] }, 's1', 100)).toEqual(['t0', 't1', 't2', 't5']);
      expect(await store.listSessionTurns({ ...ALL, includeArchived: true }, 's1', 100)).toEqual([
        't0',
        't1',
        't2',
        't3',
        't4',
        't5',
      ]);
      expect(await store.listSessionTurns({ ...ALL, scopes: ['project:x'] }, 's1', 100)).toEqual(['t4']);
      // A filter naming another session admits none of this one's turns.
      expect(await store.listSessionTurns({ ...ALL, sessionId: 's2' }, 's1', 100)).toEqual([]);
    });

    it('lists at most the limit, the first turns of the session', async () => {
      await conversation();

      expect(await store.listSessionTurns(ALL, 's1', 2)).toEqual(['t0', 't1']);
      expect(await store.listSessionTurns(ALL, 's1', 6)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
      expect(await store.listSessionTurns(ALL, 's1', 0)).toEqual([]);
      expect(await store.listSessionTurns(ALL, 's1', Infinity)).toHaveLength(6);
    });

    it('stays within the tenant, and lists nothing for an unknown session', async () => {
      await conversation();
      await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, sessionId: 's1', occurredAt: minutesAfterEpoch(2) })));

      expect(await store.listSessionTurns(ALL, 's1', 100)).not.toContain('theirs');
      expect(await store.listSessionTurns({ tenant: OTHER_TENANT }, 's1', 100)).toEqual(['theirs']);
      expect(await store.listSessionTurns(ALL, 'no-such-session', 100)).toEqual([]);
      expect(await store.listSessionTurns({ tenant: 'nobody' }, 's1', 100)).toEqual([]);
    });
  });
}
