/**
 * The sessions part of the Store contract: a session's record, saved, replaced and kept apart
 * per tenant, and the sessions listed most recently updated first with what their turns recorded
 * (written through the activation log part).
 */
import { describe, expect, it } from 'vitest';

import type { SessionRecord } from '../../src/model/session.js';
import type { ActivationLog, SessionStore } from '../../src/store/store.js';
import { minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { makeReceipt } from './activation-log.js';

/** A session record with plain defaults, at the fixtures' epoch. */
function makeSession(fields: Partial<SessionRecord> = {}): SessionRecord {
  return {
    tenant: TENANT,
    id: 's1',
    scope: 'user:alice',
    turn: 0,
    toolOnlyTurns: 0,
    recentAssistantMessages: [],
    lastRecall: null,
    startedAt: minutesAfterEpoch(0),
    updatedAt: minutesAfterEpoch(0),
    endedAt: null,
    ...fields,
  };
}

/** Runs the sessions contract against the store of the current test (see `freshStoreForEachTest`). */
export function sessionStoreContract(current: () => SessionStore & ActivationLog): void {
  describe('sessions', () => {
    it('has no record for a session never saved', async () => {
      expect(await current().getSession(TENANT, 's1')).toBeNull();
    });

    it('saves a session record and replaces it on the next save', async () => {
      const store = current();
      await store.saveSession(makeSession({ turn: 1 }));
      await store.saveSession(makeSession({ turn: 2, toolOnlyTurns: 3, recentAssistantMessages: ['ran the tests'] }));

      expect(await store.getSession(TENANT, 's1')).toEqual(
        makeSession({ turn: 2, toolOnlyTurns: 3, recentAssistantMessages: ['ran the tests'] }),
      );
    });

    it('keeps sessions of different tenants apart', async () => {
      const store = current();
      await store.saveSession(makeSession({ tenant: OTHER_TENANT, turn: 7 }));

      expect(await store.getSession(TENANT, 's1')).toBeNull();
      expect((await store.getSession(OTHER_TENANT, 's1'))?.turn).toBe(7);
    });

    it('lists sessions most recently updated first, with their receipts and injections counted, recalled apart from pinned', async () => {
      const store = current();
      await store.saveSession(makeSession({ id: 'quiet', startedAt: minutesAfterEpoch(0), updatedAt: minutesAfterEpoch(1) }));
      await store.saveSession(makeSession({ id: 's1', turn: 2, updatedAt: minutesAfterEpoch(12) }));
      await store.saveSession(makeSession({ id: 's2', turn: 1, updatedAt: minutesAfterEpoch(7), endedAt: minutesAfterEpoch(8) }));
      await store.saveSession(makeSession({ tenant: OTHER_TENANT, id: 'theirs', updatedAt: minutesAfterEpoch(30) }));
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r1', sessionId: 's1', turn: 1, createdAt: minutesAfterEpoch(5) }),
        injected: [
          { memoryId: 'a', turn: 1, lane: 'hot' },
          { memoryId: 'b', turn: 1, lane: 'hot' },
        ],
        retrieved: [],
      });
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r2', sessionId: 's1', turn: 2, createdAt: minutesAfterEpoch(11) }),
        injected: [{ memoryId: 'a', turn: 2, lane: 'working_set' }],
        retrieved: [],
      });
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r3', sessionId: 's2', turn: 1, createdAt: minutesAfterEpoch(6) }),
        injected: [],
        retrieved: [],
      });

      expect(await store.listSessions(TENANT, { limit: 10 })).toEqual([
        {
          id: 's1',
          scope: 'user:alice',
          turns: 2,
          startedAt: minutesAfterEpoch(0),
          updatedAt: minutesAfterEpoch(12),
          endedAt: null,
          receipts: 2,
          injected: 3,
          recalled: 2,
          firstTurnAt: minutesAfterEpoch(5),
          lastTurnAt: minutesAfterEpoch(11),
        },
        {
          id: 's2',
          scope: 'user:alice',
          turns: 1,
          startedAt: minutesAfterEpoch(0),
          updatedAt: minutesAfterEpoch(7),
          endedAt: minutesAfterEpoch(8),
          receipts: 1,
          injected: 0,
          recalled: 0,
          firstTurnAt: minutesAfterEpoch(6),
          lastTurnAt: minutesAfterEpoch(6),
        },
        {
          id: 'quiet',
          scope: 'user:alice',
          turns: 0,
          startedAt: minutesAfterEpoch(0),
          updatedAt: minutesAfterEpoch(1),
          endedAt: null,
          receipts: 0,
          injected: 0,
          recalled: 0,
          firstTurnAt: null,
          lastTurnAt: null,
        },
      ]);
      expect((await store.listSessions(OTHER_TENANT, { limit: 10 })).map((s) => s.id)).toEqual(['theirs']);
    });

    it('pages the sessions list from the last session of the previous page, and moves a saved session to the top', async () => {
      const store = current();
      for (let i = 0; i < 5; i++) await store.saveSession(makeSession({ id: `s${i}`, updatedAt: minutesAfterEpoch(i) }));
      // Two sessions updated at the same moment are ordered by id, descending.
      await store.saveSession(makeSession({ id: 's2b', updatedAt: minutesAfterEpoch(2) }));
      const ids = async (query: { limit: number; after?: string }) => (await store.listSessions(TENANT, query)).map((s) => s.id);

      expect(await ids({ limit: 2 })).toEqual(['s4', 's3']);
      expect(await ids({ limit: 2, after: 's3' })).toEqual(['s2b', 's2']);
      expect(await ids({ limit: 2, after: 's2' })).toEqual(['s1', 's0']);
      expect(await ids({ limit: 2, after: 's0' })).toEqual([]);

      await store.saveSession(makeSession({ id: 's0', turn: 1, updatedAt: minutesAfterEpoch(9) }));
      expect(await ids({ limit: 2 })).toEqual(['s0', 's4']);
    });

    it('reads nothing for a limit below zero: no sessions, receipts, injections or activity lines', async () => {
      const store = current();
      await store.saveSession(makeSession({ id: 's1', updatedAt: minutesAfterEpoch(1) }));
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r1', sessionId: 's1', turn: 1, createdAt: minutesAfterEpoch(2) }),
        injected: [{ memoryId: 'a', turn: 1, lane: 'hot' }],
        retrieved: [],
      });

      expect(await store.listSessions(TENANT, { limit: -1 })).toEqual([]);
      expect(await store.listReceipts(TENANT, { limit: -1 })).toEqual([]);
      expect(await store.listMemoryInjections(TENANT, 'a', { limit: -1, offset: -3 })).toEqual([]);
      expect(await store.listMemoryInjections(TENANT, 'a', { limit: 5, offset: -3 })).toHaveLength(1);
    });

    it('refuses to page from a session it does not have', async () => {
      const store = current();
      await store.saveSession(makeSession({ tenant: OTHER_TENANT, id: 'theirs' }));

      await expect(store.listSessions(TENANT, { limit: 2, after: 'theirs' })).rejects.toMatchObject({ code: 'invalid_input' });
    });
  });
}
