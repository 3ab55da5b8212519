/**
 * The change mark in the graph contract: every write of entities, their aliases and observations,
 * or relations moves `memoryChangeMark`, as a write of mentions does (graph-mentions.ts), so what
 * a reader keeps of the graph under one mark is let go when the graph changes. The world holds no
 * mentions, so each write moves the mark by what it writes to the graph itself.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { TENANT } from '../fixtures/memory.js';
import { at, type GraphTestStore, link, person, storeMemories } from './graph-fixtures.js';

/** Each graph write of the Store, as a test does it to the world below, by name. */
const WRITES: readonly [string, (store: GraphTestStore) => Promise<unknown>][] = [
  ['upsertEntities', (store) => store.upsertEntities(TENANT, [person('Carol', { aliases: ['Caz'] })], at(1))],
  ['addObservations', (store) => store.addObservations(TENANT, [{ entityId: 'e-alice', observations: ['plays chess'] }], at(1))],
  [
    'removeObservations',
    (store) => store.removeObservations(TENANT, [{ entityId: 'e-alice', observations: ['likes tea'] }], at(1)),
  ],
  ['addRelations', (store) => store.addRelations(TENANT, [link('r3', 'e-bob', 'knows', 'e-alice')], at(1))],
  ['deleteRelations', (store) => store.deleteRelations(TENANT, ['r2'])],
  ['invalidateRelations', (store) => store.invalidateRelations(TENANT, ['m1'], at(1))],
  ['deleteEntities', (store) => store.deleteEntities(TENANT, ['e-bob'])],
];

/** Runs the graph's change-mark contract against the store of the current test. */
export function graphChangeMarkContract(current: () => GraphTestStore): void {
  describe('graph change mark', () => {
    let store: GraphTestStore;
    beforeEach(async () => {
      store = current();
      await storeMemories(store, 'm1');
      // The user's entities: no write below leaves one to be removed as unheld (which would move the mark by its mentions).
      await store.upsertEntities(
        TENANT,
        [person('Alice', { aliases: ['Al'], observations: ['likes tea'] }), person('Bob')],
        at(),
      );
      await store.addRelations(
        TENANT,
        [link('r1', 'e-alice', 'works_with', 'e-bob', { memoryId: 'm1' }), link('r2', 'e-alice', 'knows', 'e-bob')],
        at(),
      );
    });

    for (const [name, write] of WRITES) {
      it(`moves when ${name} writes the graph`, async () => {
        const before = await store.memoryChangeMark(TENANT);
        expect(await store.memoryChangeMark(TENANT)).toBe(before);

        await write(store);

        expect(await store.memoryChangeMark(TENANT)).not.toBe(before);
      });
    }

    it('each write changed the graph it was asked to', async () => {
      const counts = [];
      for (const [, write] of WRITES) {
        await write(store);
        counts.push(await store.countGraph(TENANT));
      }
      // Carol added; Bob's relations ended or gone with him; Alice's observations changed in place.
      expect(counts.map((c) => [c.entities, c.relations, c.invalidatedRelations])).toEqual([
        [3, 2, 0],
        [3, 2, 0],
        [3, 2, 0],
        [3, 3, 0],
        [3, 2, 0],
        [3, 1, 1],
        [2, 0, 0],
      ]);
      expect((await store.getEntities(TENANT, ['e-alice']))[0]?.observations).toEqual(['plays chess']);
    });
  });
}
