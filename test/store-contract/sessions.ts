/**
 * The sessions part of the Store contract: a session's record, saved, replaced and kept apart
 * per tenant.
 */
import { describe, expect, it } from 'vitest';

import type { SessionRecord } from '../../src/model/session.js';
import type { SessionStore } from '../../src/store/store.js';
import { minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';

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
export function sessionStoreContract(current: () => SessionStore): void {
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
  });
}
