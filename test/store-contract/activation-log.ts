/**
 * The activation log part of the Store contract: receipts read back newest first and exactly as
 * written, injections per session and turn, and the retrieval stamps an activation leaves on the
 * memories it retrieved (read through the memories part).
 */
import { describe, expect, it } from 'vitest';

import type { Receipt } from '../../src/model/receipt.js';
import type { ActivationLog, MemoryStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { entry } from './fixtures.js';

/** A receipt of session `s1` with plain defaults, stamped `turn` minutes after the epoch. */
export function makeReceipt(fields: Partial<Receipt> & Pick<Receipt, 'id' | 'turn'>): Receipt {
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

/** Runs the activation log contract against the store of the current test (see `freshStoreForEachTest`). */
export function activationLogContract(current: () => ActivationLog & MemoryStore): void {
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

    it("keeps the memories' change mark through a decision and its stamps", async () => {
      const store = current();
      await store.commit({ insert: [{ memory: makeMemory({ id: 'a' }), vector: null }] });
      const mark = await store.memoryChangeMark(TENANT);
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r1', turn: 1 }),
        injected: [{ memoryId: 'a', turn: 1, lane: 'hot' }],
        retrieved: ['a'],
      });

      expect(await store.memoryChangeMark(TENANT)).toBe(mark);
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

    it('lists the turns that injected one memory, the latest first, paged, within the tenant', async () => {
      const store = current();
      for (const [id, sessionId, turn] of [
        ['r1', 's1', 1],
        ['r2', 's2', 1],
        ['r3', 's1', 2],
      ] as const) {
        await store.recordActivation({
          receipt: makeReceipt({ id, sessionId, turn }),
          injected: [
            { memoryId: 'a', turn, lane: id === 'r2' ? 'working_set' : 'hot' },
            { memoryId: 'b', turn, lane: 'hot' },
          ],
          retrieved: [],
        });
      }
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r4', turn: 3, tenant: OTHER_TENANT }),
        injected: [{ memoryId: 'a', turn: 3, lane: 'hot' }],
        retrieved: [],
      });

      expect(await store.listMemoryInjections(TENANT, 'a', { limit: 10 })).toEqual([
        { sessionId: 's1', turn: 2, lane: 'hot', receiptId: 'r3', at: minutesAfterEpoch(2) },
        { sessionId: 's2', turn: 1, lane: 'working_set', receiptId: 'r2', at: minutesAfterEpoch(1) },
        { sessionId: 's1', turn: 1, lane: 'hot', receiptId: 'r1', at: minutesAfterEpoch(1) },
      ]);
      expect((await store.listMemoryInjections(TENANT, 'a', { limit: 2, offset: 1 })).map((i) => i.receiptId)).toEqual([
        'r2',
        'r1',
      ]);
      expect(await store.listMemoryInjections(TENANT, 'a', { limit: 10, offset: 3 })).toEqual([]);
      expect(await store.listMemoryInjections(TENANT, 'nothing', { limit: 10 })).toEqual([]);
      expect((await store.listMemoryInjections(OTHER_TENANT, 'a', { limit: 10 })).map((i) => i.receiptId)).toEqual(['r4']);
    });

    it('forgets the injections of a purged memory and keeps the receipt', async () => {
      const store = current();
      await store.commit({ insert: [entry(makeMemory({ id: 'a' })), entry(makeMemory({ id: 'b' }))] });
      await store.recordActivation({
        receipt: makeReceipt({ id: 'r1', turn: 1 }),
        injected: [
          { memoryId: 'a', turn: 1, lane: 'hot' },
          { memoryId: 'b', turn: 1, lane: 'hot' },
        ],
        retrieved: [],
      });

      await store.purgeMemories(TENANT, ['a']);

      expect(await store.listInjections(TENANT, 's1', 0)).toEqual([{ memoryId: 'b', turn: 1, lane: 'hot' }]);
      expect(await store.listMemoryInjections(TENANT, 'a', { limit: 10 })).toEqual([]);
      expect((await store.listReceipts(TENANT, { limit: 10 })).map((r) => r.id)).toEqual(['r1']);
    });
  });
}
