/**
 * What the graph keeps, in the graph contract: an entity extraction made is removed, with its
 * ended relations, by the write that leaves nothing holding it (no mention, no observation, no
 * live relation); a user's entity stays, and so does an extracted one the user created by name
 * or observed. Memories whose extraction failed are recorded, counted, and cleared when an
 * extraction of them is recorded, when they are forgotten or purged.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MentionRole } from '../../src/model/graph.js';
import type { GraphExtraction } from '../../src/store/store.js';
import { OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { at, type GraphTestStore, link, person, storeMemories } from './graph-fixtures.js';
import { idsOf } from './helpers.js';

/** `speaker` said memory `memoryId`, naming `named` (places); the speaker talks about each. */
function turn(memoryId: string, speaker: string, ...named: string[]): GraphExtraction {
  return {
    memoryId,
    entities: [person(speaker), ...named.map((name) => person(name, { type: 'place' }))],
    mentions: [
      { name: speaker, role: 'speaker' as MentionRole },
      ...named.map((name) => ({ name, role: 'mention' as MentionRole })),
    ],
    relations: named.map((name) => ({ id: `r-${memoryId}-${name}`, from: speaker, to: name, type: 'talks_about' })),
  };
}

/** Forgets memories as the engine does: ends the relations they stated, then removes their mentions. */
async function forget(store: GraphTestStore, ...ids: string[]): Promise<void> {
  await store.invalidateRelations(TENANT, ids, at(10));
  await store.removeMentions(TENANT, ids);
}

const names = async (store: GraphTestStore, ...asked: string[]) =>
  (await store.findEntities(TENANT, asked)).map((entity) => `${entity.name}:${entity.origin}`);

/** Runs the lifetime contract against the store of the current test. */
export function graphLifetimesContract(current: () => GraphTestStore): void {
  describe('graph lifetimes', () => {
    let store: GraphTestStore;
    beforeEach(() => {
      store = current();
    });

    it('records entities extraction makes as extracted, and entities written directly as the user’s', async () => {
      await storeMemories(store, 'm1');
      await store.upsertEntities(TENANT, [person('Theo')], at());
      await store.recordExtractions(TENANT, [turn('m1', 'Nina', 'Theo', 'Dublin')], at());

      expect(await names(store, 'Nina', 'Theo', 'Dublin')).toEqual(['Nina:extracted', 'Theo:user', 'Dublin:extracted']);
    });

    it('removes an extracted entity with its ended relations when its last memory is forgotten, keeping what another names', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.recordExtractions(TENANT, [turn('m1', 'Nina', 'Dublin', 'Paris'), turn('m2', 'Nina', 'Paris')], at());

      await forget(store, 'm1');

      expect(await names(store, 'Nina', 'Dublin', 'Paris')).toEqual(['Nina:extracted', 'Paris:extracted']);
      // Dublin's ended relation went with it; Paris's stays, ended (m2 stated the same one, which m1 had made).
      expect(idsOf(await store.listRelations(TENANT, ['e-nina'], { includeInvalidated: true }))).toEqual(['r-m1-Paris']);
      await forget(store, 'm2');
      expect(await store.findEntities(TENANT, ['Nina', 'Paris'])).toEqual([]);
      expect(await store.countGraph(TENANT)).toMatchObject({ entities: 0, relations: 0, invalidatedRelations: 0, mentions: 0 });
    });

    it('removes an extracted entity when the memory naming it is purged, unless a live relation holds it', async () => {
      await storeMemories(store, 'm1', 'm2');
      await store.recordExtractions(TENANT, [turn('m1', 'Nina', 'Dublin')], at());
      await store.recordExtractions(
        TENANT,
        [
          {
            memoryId: 'm2',
            entities: [person('Oslo', { type: 'place' })],
            mentions: [{ name: 'Oslo', role: 'mention' }],
            relations: [],
          },
        ],
        at(),
      );

      await store.purgeMemories(TENANT, ['m1', 'm2']);

      // m1's relation outlives its source (its memory is cleared) and holds both its ends.
      expect(await names(store, 'Nina', 'Dublin', 'Oslo')).toEqual(['Nina:extracted', 'Dublin:extracted']);
      expect(await store.listRelations(TENANT, ['e-nina'])).toMatchObject([{ id: 'r-m1-Dublin', memoryId: null }]);
      await store.deleteRelations(TENANT, ['r-m1-Dublin']);
      expect(await store.findEntities(TENANT, ['Nina', 'Dublin'])).toEqual([]);
    });

    it('keeps a user’s entity nothing names, and an extracted one the user created by name or observed', async () => {
      await storeMemories(store, 'm1');
      await store.upsertEntities(TENANT, [person('Theo')], at());
      await store.recordExtractions(TENANT, [turn('m1', 'Nina', 'Theo', 'Ada', 'Bob')], at());
      await store.upsertEntities(TENANT, [person('ada')], at(1));
      const [bob] = await store.findEntities(TENANT, ['Bob']);
      await store.addObservations(TENANT, [{ entityId: bob?.id as string, observations: ['plays chess'] }], at(2));

      await forget(store, 'm1');

      expect(await names(store, 'Nina', 'Theo', 'Ada', 'Bob')).toEqual(['Theo:user', 'Ada:user', 'Bob:user']);
      await store.removeObservations(TENANT, [{ entityId: bob?.id as string, observations: ['plays chess'] }], at(3));
      expect(await names(store, 'Bob')).toEqual(['Bob:user']);
    });

    it('keeps an extracted entity a user’s live relation holds, and removes it when that relation is deleted', async () => {
      await storeMemories(store, 'm1');
      await store.upsertEntities(TENANT, [person('Theo')], at());
      await store.recordExtractions(TENANT, [turn('m1', 'Nina', 'Dublin')], at());
      const [dublin] = await store.findEntities(TENANT, ['Dublin']);
      await store.addRelations(TENANT, [link('r-lives', 'e-theo', 'lives_in', dublin?.id as string)], at(1));

      await forget(store, 'm1');
      expect(await names(store, 'Nina', 'Dublin', 'Theo')).toEqual(['Dublin:extracted', 'Theo:user']);

      await store.deleteRelations(TENANT, ['r-lives']);
      expect(await names(store, 'Dublin', 'Theo')).toEqual(['Theo:user']);
    });

    it('records, replaces, counts and clears the memories whose extraction failed', async () => {
      await storeMemories(store, 'm1', 'm2', 'm3', { id: 'theirs', tenant: OTHER_TENANT });
      const failed = (memoryId: string, error = 'Invalid time value') => ({ memoryId, error });

      expect(
        await store.recordExtractionFailures(
          TENANT,
          [failed('m1'), failed('m2'), failed('m3'), failed('gone'), failed('theirs')],
          at(),
        ),
      ).toBe(3);
      expect(await store.recordExtractionFailures(TENANT, [failed('m1', 'again')], at(1))).toBe(1);
      expect(await store.countGraph(TENANT)).toMatchObject({ extractionFailures: 3 });
      expect(await store.countGraph(OTHER_TENANT)).toMatchObject({ extractionFailures: 0 });

      await store.recordExtractions(TENANT, [turn('m1', 'Nina')], at(2));
      await store.removeMentions(TENANT, ['m2']);
      expect(await store.countGraph(TENANT)).toMatchObject({ extractionFailures: 1 });
      await store.purgeMemories(TENANT, ['m3']);
      expect(await store.countGraph(TENANT)).toMatchObject({ extractionFailures: 0 });
    });
  });
}
