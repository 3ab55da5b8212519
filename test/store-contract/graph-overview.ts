/**
 * The whole graph in the graph contract: paged (each relation once, beside its from entity) and
 * counted per tenant.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { aliceAtAcme, at, type GraphTestStore, person, storeMemories } from './graph-fixtures.js';
import { idsOf } from './helpers.js';

/** Runs the whole-graph contract against the store of the current test. */
export function graphOverviewContract(current: () => GraphTestStore): void {
  describe('the whole graph', () => {
    let store: GraphTestStore;
    beforeEach(() => {
      store = current();
    });

    it('pages through the whole graph: entities in creation order, each relation once, beside its from entity', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.upsertEntities(TENANT, [person('Bob'), person('Carol')], at());
      await store.recordExtractions(TENANT, [aliceAtAcme('m1')], at());
      await store.addRelations(TENANT, [{ id: 'r-bc', from: 'e-bob', to: 'e-carol', type: 'knows', memoryId: 'm2' }], at());
      await store.invalidateRelations(TENANT, ['m2'], at(1));
      await store.upsertEntities(OTHER_TENANT, [person('Zed', { id: 'e-zed' })], at());

      const first = await store.readGraph(TENANT, { limit: 3 });
      const second = await store.readGraph(TENANT, { offset: 3, limit: 3 });

      expect(idsOf(first.entities)).toEqual(['e-bob', 'e-carol', 'e-alice']);
      expect(idsOf(first.relations)).toEqual(['r-m1']);
      expect(first.totalEntities).toBe(4);
      expect(idsOf(second.entities)).toEqual(['e-acme']);
      expect(second.relations).toEqual([]);
      const withEnded = await store.readGraph(TENANT, { limit: 10, includeInvalidated: true });
      expect(idsOf(withEnded.relations)).toEqual(['r-m1', 'r-bc']);
      expect(await store.readGraph(OTHER_TENANT, { offset: 1, limit: 10 })).toEqual({
        entities: [],
        relations: [],
        totalEntities: 1,
      });
    });

    it('counts one tenant’s entities, relations (live and ended) and mentions', async () => {
      await storeMemories(store, 'm1', 'm2', { id: 'theirs', tenant: OTHER_TENANT });
      await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2', 'r-m2')], at());
      await store.addRelations(TENANT, [{ id: 'r-x', from: 'e-acme', to: 'e-alice', type: 'employs', memoryId: 'm2' }], at());
      await store.invalidateRelations(TENANT, ['m2'], at(1));
      await store.recordExtractions(
        OTHER_TENANT,
        [
          {
            ...aliceAtAcme('theirs'),
            entities: [person('Alice', { id: 'e-a2' })],
            mentions: [{ name: 'Alice', role: 'speaker' }],
            relations: [],
          },
        ],
        at(),
      );

      expect(await store.countGraph(TENANT)).toEqual({
        entities: 2,
        relations: 1,
        invalidatedRelations: 1,
        mentions: 4,
        extractionFailures: 0,
      });
      expect(await store.countGraph(OTHER_TENANT)).toEqual({
        entities: 1,
        relations: 0,
        invalidatedRelations: 0,
        mentions: 1,
        extractionFailures: 0,
      });
      expect(await store.countGraph('nobody')).toEqual({
        entities: 0,
        relations: 0,
        invalidatedRelations: 0,
        mentions: 0,
        extractionFailures: 0,
      });
    });
  });
}
