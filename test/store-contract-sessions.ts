/**
 * The Store contract, part two: session records, activation records (receipts, injections,
 * retrieval stamps), the activity log, stored vectors and the filters activation relies on.
 * Called from `storeContract` with the store of the current test.
 */
import { describe, expect, it } from 'vitest';

import type { Receipt } from '../src/model/receipt.js';
import type { SessionRecord } from '../src/model/session.js';
import type { Store } from '../src/store/store.js';
import { EAST, entry, makeMemory, minutesAfterEpoch, NORTH, OTHER_TENANT, TENANT } from './store-fixtures.js';

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

function makeReceipt(fields: Partial<Receipt> & Pick<Receipt, 'id' | 'turn'>): Receipt {
  return {
    tenant: TENANT,
    sessionId: 's1',
    path: 'active',
    createdAt: minutesAfterEpoch(fields.turn),
    query: 'what do we deploy with',
    selectionMode: 'tier_quota_v1',
    budget: { maxItems: 6, hotLane: 5, threshold: 0.6 },
    quota: { mustMax: 2, niceMin: 2, unknownMax: 1, wildcardUsed: 0, selected: { must: 0, nice: 0, unknown: 0 }, spilled: 0 },
    workingSet: { enabled: true, memoryId: null, itemIds: [] },
    chosen: [],
    leftOut: [],
    suppressedByRepeat: [],
    pinnedByWorkingSet: [],
    excludedAsBackboneDuplicate: [],
    cooledDown: [],
    nearDuplicates: [],
    belowThreshold: 0,
    candidates: 0,
    whySummary: '',
    whyTheseIds: {},
    latencyMs: { embed: 1, search: 1, total: 2 },
    ...fields,
  };
}

export function sessionStoreContract(current: () => Store): void {
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

  describe('activation records', () => {
    it('stores receipts and reads them newest first, by session and turn', async () => {
      const store = current();
      await store.recordActivation({ receipt: makeReceipt({ id: 'r1', turn: 1 }), injected: [], retrieved: [] });
      await store.recordActivation({ receipt: makeReceipt({ id: 'r2', turn: 2 }), injected: [], retrieved: [] });
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r3', turn: 1, sessionId: 's2' }),
        injected: [],
        retrieved: [],
      });

      expect((await store.listReceipts(TENANT, { limit: 10 })).map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
      expect((await store.listReceipts(TENANT, { sessionId: 's1', limit: 10 })).map((r) => r.id)).toEqual(['r2', 'r1']);
      expect((await store.listReceipts(TENANT, { sessionId: 's1', turn: 1, limit: 10 })).map((r) => r.id)).toEqual(['r1']);
      expect((await store.listReceipts(TENANT, { limit: 1 })).map((r) => r.id)).toEqual(['r3']);
      expect(await store.listReceipts(OTHER_TENANT, { limit: 10 })).toEqual([]);
    });

    it('returns a stored receipt exactly as written', async () => {
      const store = current();
      const receipt = makeReceipt({ id: 'r1', turn: 4, whyTheseIds: { a: 'quota: must 1 of 2' }, belowThreshold: 3 });
      await store.recordActivation({ receipt, injected: [], retrieved: [] });

      expect(await store.listReceipts(TENANT, { limit: 1 })).toEqual([receipt]);
    });

    it('records injections per session and lists them from a turn on', async () => {
      const store = current();
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r1', turn: 1 }),
        injected: [
          { memoryId: 'a', turn: 1, lane: 'hot' },
          { memoryId: 'ws', turn: 1, lane: 'working_set' },
        ],
        retrieved: [],
      });
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r2', turn: 3 }),
        injected: [{ memoryId: 'b', turn: 3, lane: 'hot' }],
        retrieved: [],
      });

      expect(await store.listInjections(TENANT, 's1', 1)).toEqual([
        { memoryId: 'a', turn: 1, lane: 'hot' },
        { memoryId: 'ws', turn: 1, lane: 'working_set' },
        { memoryId: 'b', turn: 3, lane: 'hot' },
      ]);
      expect(await store.listInjections(TENANT, 's1', 2)).toEqual([{ memoryId: 'b', turn: 3, lane: 'hot' }]);
      expect(await store.listInjections(TENANT, 's2', 0)).toEqual([]);
      expect(await store.listInjections(OTHER_TENANT, 's1', 0)).toEqual([]);
    });

    it('stamps the retrieval time of the retrieved memories with the receipt', async () => {
      const store = current();
      await store.commit({ insert: [entry(makeMemory({ id: 'a' })), entry(makeMemory({ id: 'b' }))] });

      await store.recordActivation({ receipt: makeReceipt({ id: 'r1', turn: 5 }), injected: [], retrieved: ['a'] });

      expect(await store.getMemory(TENANT, 'a')).toMatchObject({ lastRetrievedAt: minutesAfterEpoch(5), retrievalCount: 1 });
      expect(await store.getMemory(TENANT, 'b')).toMatchObject({ lastRetrievedAt: null, retrievalCount: 0 });
    });
  });

  describe('the activity log', () => {
    const line = (at: number, summary: string, tenant = TENANT) => ({
      tenant,
      at: minutesAfterEpoch(at),
      action: 'write_memory',
      key: 'deploy',
      memoryId: 'm1',
      summary,
    });

    it('appends lines and reads them oldest first, the latest `limit` of them', async () => {
      const store = current();
      for (const [at, summary] of [
        [0, 'first'],
        [1, 'second'],
        [2, 'third'],
      ] as const) {
        await store.appendActivity(line(at, summary));
      }

      expect((await store.listActivity(TENANT, { limit: 10 })).map((l) => l.summary)).toEqual(['first', 'second', 'third']);
      expect((await store.listActivity(TENANT, { limit: 2 })).map((l) => l.summary)).toEqual(['second', 'third']);
      expect(await store.listActivity(TENANT, { limit: 1 })).toEqual([line(2, 'third')]);
    });

    it('reads one UTC day and one tenant', async () => {
      const store = current();
      await store.appendActivity(line(0, 'on the 15th'));
      await store.appendActivity(line(24 * 60, 'on the 16th'));
      await store.appendActivity(line(1, 'theirs', OTHER_TENANT));

      expect((await store.listActivity(TENANT, { day: '2025-01-15', limit: 10 })).map((l) => l.summary)).toEqual(['on the 15th']);
      expect((await store.listActivity(TENANT, { day: '2025-01-16', limit: 10 })).map((l) => l.summary)).toEqual(['on the 16th']);
      expect(await store.listActivity(TENANT, { day: '2025-01-17', limit: 10 })).toEqual([]);
    });
  });

  describe('stored vectors and activation filters', () => {
    it('returns the stored vectors of memories that have one, within the tenant', async () => {
      const store = current();
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

    it('filters pinned or hard-rule memories and leaves out excluded kinds', async () => {
      const store = current();
      await store.commit({
        insert: [
          entry(makeMemory({ id: 'pinned', pinned: true })),
          entry(makeMemory({ id: 'rule', hardRule: true, kind: 'constraint' })),
          entry(makeMemory({ id: 'plain' })),
          entry(makeMemory({ id: 'ws', kind: 'working_set' })),
        ],
      });

      const pinned = await store.listMemories({ tenant: TENANT, pinnedOrHardRule: true }, { limit: 10, order: 'oldest' });
      const notWorkingSet = await store.listMemories(
        { tenant: TENANT, excludeKinds: ['working_set', 'constraint'] },
        { limit: 10, order: 'oldest' },
      );

      expect(pinned.map((m) => m.id)).toEqual(['pinned', 'rule']);
      expect(notWorkingSet.map((m) => m.id)).toEqual(['pinned', 'plain']);
    });
  });
}
