/**
 * Mentions in the graph contract: read both ways (live memories the filter admits, by default),
 * bounded per entity, removed when memories are forgotten or purged, and kept apart per tenant.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { aliceAtAcme, at, type GraphTestStore, mention, person, storeMemories } from './graph-fixtures.js';
import { idsOf } from './helpers.js';

/** Runs the mentions contract against the store of the current test. */
export function graphMentionsContract(current: () => GraphTestStore): void {
  describe('graph mentions', () => {
    let store: GraphTestStore;
    beforeEach(() => {
      store = current();
    });

    it('moves the change mark when mentions are recorded or removed', async () => {
      await storeMemories(store, 'm1');
      const before = await store.memoryChangeMark(TENANT);
      await store.recordExtractions(TENANT, [aliceAtAcme('m1')], at());
      const recorded = await store.memoryChangeMark(TENANT);
      expect(recorded).not.toBe(before);
      await store.removeMentions(TENANT, ['m1']);
      expect(await store.memoryChangeMark(TENANT)).not.toBe(recorded);
    });

    it('lists the newest memories mentioning each entity, live ones the filter admits, up to a limit per entity', async () => {
      await storeMemories(
        store,
        'm1',
        'm2',
        { id: 'm3', scope: 'project:x' },
        { id: 'archived', archivedAt: minutesAfterEpoch(1) },
        { id: 'superseded', supersededBy: 'm1' },
        'm4',
      );
      const memories = ['m1', 'm2', 'm3', 'archived', 'superseded'];
      await store.recordExtractions(
        TENANT,
        memories.map((id) => aliceAtAcme(id)),
        at(),
      );
      await store.recordExtractions(
        TENANT,
        [{ memoryId: 'm4', entities: [person('Bob')], mentions: [{ name: 'Bob', role: 'subject' }], relations: [] }],
        at(),
      );

      expect(
        await store.listMentionsOfEntities({ tenant: TENANT }, ['e-bob', 'e-alice', 'e-missing'], { limitPerEntity: 2 }),
      ).toEqual([mention('m4', 'e-bob', 'subject'), mention('m3', 'e-alice', 'speaker'), mention('m2', 'e-alice', 'speaker')]);
      expect(
        await store.listMentionsOfEntities({ tenant: TENANT, scopes: ['user:alice'] }, ['e-acme'], { limitPerEntity: 5 }),
      ).toEqual([mention('m2', 'e-acme', 'mention'), mention('m1', 'e-acme', 'mention')]);
      const everything = await store.listMentionsOfEntities(
        { tenant: TENANT, includeArchived: true, includeSuperseded: true },
        ['e-alice'],
        { limitPerEntity: 10 },
      );
      expect(everything.map((m) => m.memoryId).sort()).toEqual([...memories].sort());
      // Bounded: only Acme's newest three mentions (superseded, archived, m3) are looked at; the filter admits one.
      expect(await store.listMentionsOfEntities({ tenant: TENANT }, ['e-acme'], { limitPerEntity: 5, scanPerEntity: 3 })).toEqual(
        [mention('m3', 'e-acme', 'mention')],
      );
      expect(await store.listMentionsOfEntities({ tenant: OTHER_TENANT }, ['e-alice'], { limitPerEntity: 10 })).toEqual([]);
    });

    it('lists the mentions in memories, memory by memory, and none of another tenant', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2')], at());

      expect(await store.listMentionsInMemories(TENANT, ['m2', 'missing', 'm1'])).toEqual([
        mention('m2', 'e-alice', 'speaker'),
        mention('m2', 'e-acme', 'mention'),
        mention('m1', 'e-alice', 'speaker'),
        mention('m1', 'e-acme', 'mention'),
      ]);
      expect(await store.listMentionsInMemories(OTHER_TENANT, ['m1'])).toEqual([]);
    });

    it('removes the mentions of forgotten memories, leaving entities and relations', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2')], at());

      expect(await store.removeMentions(OTHER_TENANT, ['m1'])).toBe(0);
      expect(await store.removeMentions(TENANT, ['m1', 'missing'])).toBe(2);

      expect(await store.listMentionsOfEntities({ tenant: TENANT }, ['e-alice'], { limitPerEntity: 10 })).toEqual([
        mention('m2', 'e-alice', 'speaker'),
      ]);
      expect(idsOf(await store.listRelations(TENANT, ['e-alice']))).toEqual(['r-m1']);
    });

    it('purging a memory removes its mentions and clears the source of the relations it stated', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2')], at());

      await store.purgeMemories(TENANT, ['m1']);

      expect(
        await store.listMentionsOfEntities({ tenant: TENANT, includeArchived: true }, ['e-alice'], { limitPerEntity: 10 }),
      ).toEqual([mention('m2', 'e-alice', 'speaker')]);
      expect(await store.listRelations(TENANT, ['e-alice'])).toMatchObject([{ id: 'r-m1', memoryId: null }]);
      expect(await store.countGraph(TENANT)).toEqual({
        entities: 2,
        relations: 1,
        invalidatedRelations: 0,
        mentions: 2,
        extractionFailures: 0,
      });
    });
  });
}
