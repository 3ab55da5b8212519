/**
 * The relations of the graph contract: added between stored entities without duplicating a live
 * one, listed around entities, ended when the memory that stated them is superseded (and still
 * listed on request), deleted, and kept apart per tenant.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { at, type GraphTestStore, link, person, stored, storeMemories } from './graph-fixtures.js';
import { attempt, idsOf } from './helpers.js';

/** Runs the relations contract against the store of the current test. */
export function graphRelationsContract(current: () => GraphTestStore): void {
  describe('graph relations', () => {
    let store: GraphTestStore;
    beforeEach(async () => {
      store = current();
      await store.upsertEntities(
        TENANT,
        [person('Alice'), person('Bob'), person('Acme', { type: 'organization' }), person('Paris', { type: 'place' })],
        at(),
      );
    });

    it('adds relations between stored entities and returns every field as written', async () => {
      await storeMemories(store, 'm1');
      const sourced = link('r1', 'e-alice', 'works_at', 'e-acme', { memoryId: 'm1', validFrom: '2024-03-01T00:00:00.000Z' });
      const stated = link('r2', 'e-alice', 'knows', 'e-bob');

      const relations = await store.addRelations(TENANT, [sourced, stated], at());

      expect(relations).toEqual([stored(sourced), stored(stated)]);
      expect(await store.listRelations(TENANT, ['e-alice'])).toEqual([stored(stated), stored(sourced)]);
    });

    it('returns the live relation instead of adding an identical one', async () => {
      await store.addRelations(TENANT, [link('r1', 'e-alice', 'knows', 'e-bob')], at());

      const again = await store.addRelations(
        TENANT,
        [
          link('r2', 'e-alice', 'knows', 'e-bob'),
          link('r3', 'e-bob', 'knows', 'e-alice'),
          link('r4', 'e-bob', 'knows', 'e-alice'),
        ],
        at(1),
      );

      expect(idsOf(again)).toEqual(['r1', 'r3', 'r3']);
      expect(idsOf(await store.listRelations(TENANT, ['e-alice']))).toEqual(['r3', 'r1']);
    });

    it('refuses a relation to an unknown entity or memory, or to another tenant’s entity, and writes none of the batch', async () => {
      await store.upsertEntities(OTHER_TENANT, [person('Carol')], at());
      await storeMemories(store, { id: 'theirs', tenant: OTHER_TENANT });

      for (const bad of [
        link('r9', 'e-alice', 'knows', 'e-nobody'),
        link('r9', 'e-alice', 'knows', 'e-carol'),
        link('r9', 'e-alice', 'knows', 'e-bob', { memoryId: 'theirs' }),
      ]) {
        await expect(
          attempt(() => store.addRelations(TENANT, [link('r8', 'e-alice', 'lives_in', 'e-paris'), bad], at())),
        ).rejects.toMatchObject({
          code: 'not_found',
        });
      }
      expect(await store.listRelations(TENANT, ['e-alice'])).toEqual([]);
    });

    it('lists the relations from or to the given entities, newest first, up to a limit', async () => {
      await store.addRelations(
        TENANT,
        [
          link('r1', 'e-alice', 'works_at', 'e-acme'),
          link('r2', 'e-bob', 'knows', 'e-alice'),
          link('r3', 'e-bob', 'lives_in', 'e-paris'),
          link('r4', 'e-acme', 'based_in', 'e-paris'),
        ],
        at(),
      );

      expect(idsOf(await store.listRelations(TENANT, ['e-alice']))).toEqual(['r2', 'r1']);
      expect(idsOf(await store.listRelations(TENANT, ['e-paris', 'e-alice']))).toEqual(['r4', 'r3', 'r2', 'r1']);
      expect(idsOf(await store.listRelations(TENANT, ['e-paris'], { limit: 1 }))).toEqual(['r4']);
      expect(await store.listRelations(TENANT, [])).toEqual([]);
      expect(await store.listRelations(OTHER_TENANT, ['e-alice'])).toEqual([]);
    });

    it('ends the relations a superseded memory stated, keeping them listed on request', async () => {
      await storeMemories(store, 'old', 'other');
      const moved = link('r1', 'e-alice', 'lives_in', 'e-paris', { memoryId: 'old' });
      const works = link('r2', 'e-alice', 'works_at', 'e-acme', { memoryId: 'other' });
      await store.addRelations(TENANT, [moved, works], at());

      expect(await store.invalidateRelations(TENANT, ['old', 'missing'], at(10))).toBe(1);
      expect(await store.invalidateRelations(TENANT, ['old'], at(20))).toBe(0);

      expect(idsOf(await store.listRelations(TENANT, ['e-alice']))).toEqual(['r2']);
      expect(await store.listRelations(TENANT, ['e-alice'], { includeInvalidated: true })).toEqual([
        stored(works),
        stored(moved, { invalidatedAt: at(10) }),
      ]);
      // The fact can hold again later: a new relation, beside the ended one.
      const back = await store.addRelations(TENANT, [link('r3', 'e-alice', 'lives_in', 'e-paris')], at(30));
      expect(idsOf(back)).toEqual(['r3']);
    });

    it('does not end another tenant’s relations', async () => {
      await store.upsertEntities(OTHER_TENANT, [person('Carol'), person('Dave')], at());
      await storeMemories(store, { id: 'theirs', tenant: OTHER_TENANT });
      await store.addRelations(OTHER_TENANT, [link('r1', 'e-carol', 'knows', 'e-dave', { memoryId: 'theirs' })], at());

      expect(await store.invalidateRelations(TENANT, ['theirs'], at(1))).toBe(0);
      expect(idsOf(await store.listRelations(OTHER_TENANT, ['e-carol']))).toEqual(['r1']);
    });

    it('deletes relations by id, in its own tenant only', async () => {
      await store.addRelations(TENANT, [link('r1', 'e-alice', 'knows', 'e-bob'), link('r2', 'e-bob', 'knows', 'e-alice')], at());

      expect(await store.deleteRelations(OTHER_TENANT, ['r1'])).toBe(0);
      expect(await store.deleteRelations(TENANT, ['r1', 'missing'])).toBe(1);

      expect(idsOf(await store.listRelations(TENANT, ['e-alice'], { includeInvalidated: true }))).toEqual(['r2']);
    });
  });
}
