/**
 * The activity log part of the Store contract: seed 003's daily log, appended and read by day
 * and tenant.
 */
import { describe, expect, it } from 'vitest';

import type { ActivityLog } from '../../src/store/store.js';
import { minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';

/** Runs the activity log contract against the store of the current test (see `freshStoreForEachTest`). */
export function activityLogContract(current: () => ActivityLog): void {
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
      expect(await store.listActivity(TENANT, { limit: -1 })).toEqual([]);
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
}
