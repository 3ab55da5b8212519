/**
 * Extraction in the graph contract: what extraction found in a memory recorded by name (entities,
 * mentions with their strongest role, relations), replaced when the memory is extracted again,
 * skipped for memories not stored, and refused whole when it names an unknown entity.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { GraphExtraction } from '../../src/store/store.js';
import { OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { aliceAtAcme, at, type GraphTestStore, mention, person, storeMemories } from './graph-fixtures.js';
import { attempt, idsOf } from './helpers.js';

/** Runs the extraction contract against the store of the current test. */
export function graphExtractionContract(current: () => GraphTestStore): void {
  describe('graph extraction', () => {
    let store: GraphTestStore;
    beforeEach(() => {
      store = current();
    });

    it('records what extraction found: entities, mentions and relations named by name', async () => {
      await storeMemories(store, 'm1');

      expect(await store.recordExtractions(TENANT, [aliceAtAcme('m1')], at())).toBe(1);

      expect(idsOf(await store.findEntities(TENANT, ['alice', 'acme']))).toEqual(['e-alice', 'e-acme']);
      expect(await store.listMentionsInMemories(TENANT, ['m1'])).toEqual([
        mention('m1', 'e-alice', 'speaker'),
        mention('m1', 'e-acme', 'mention'),
      ]);
      expect(await store.listRelations(TENANT, ['e-alice'])).toMatchObject([
        { id: 'r-m1', from: 'e-alice', to: 'e-acme', type: 'works_at', memoryId: 'm1' },
      ]);
    });

    it('replaces a memory’s mentions and relations when it is extracted again, keeping an unchanged relation', async () => {
      await storeMemories(store, 'm1');
      await store.recordExtractions(TENANT, [aliceAtAcme('m1')], at());
      const again: GraphExtraction = {
        memoryId: 'm1',
        entities: [person('Paris', { type: 'place' })],
        mentions: [{ name: 'Paris', role: 'mention' }],
        relations: [
          { id: 'r-new-1', from: 'Alice', to: 'Acme', type: 'works_at' },
          { id: 'r-new-2', from: 'Alice', to: 'Paris', type: 'lives_in' },
        ],
      };

      await store.recordExtractions(TENANT, [again], at(5));

      expect(await store.listMentionsInMemories(TENANT, ['m1'])).toEqual([mention('m1', 'e-paris', 'mention')]);
      expect(idsOf(await store.listRelations(TENANT, ['e-alice'], { includeInvalidated: true })).sort()).toEqual([
        'r-m1',
        'r-new-2',
      ]);
      await store.recordExtractions(TENANT, [{ memoryId: 'm1', entities: [], mentions: [], relations: [] }], at(6));
      expect(await store.listRelations(TENANT, ['e-alice'], { includeInvalidated: true })).toEqual([]);
      // Extraction made them and nothing holds them any more.
      expect(await store.findEntities(TENANT, ['Alice', 'Acme', 'Paris'])).toEqual([]);
    });

    it('keeps the strongest role when a memory names an entity twice, and resolves aliases', async () => {
      await storeMemories(store, 'm1');
      await store.upsertEntities(TENANT, [person('Robert', { aliases: ['Bob'] })], at());

      await store.recordExtractions(
        TENANT,
        [
          {
            memoryId: 'm1',
            entities: [],
            mentions: [
              { name: 'bob', role: 'mention' },
              { name: 'Robert', role: 'speaker' },
              { name: 'BOB', role: 'subject' },
            ],
            relations: [],
          },
        ],
        at(),
      );

      expect(await store.listMentionsInMemories(TENANT, ['m1'])).toEqual([mention('m1', 'e-robert', 'speaker')]);
    });

    it('skips memories that are not stored and counts the ones recorded', async () => {
      await storeMemories(store, 'm1', { id: 'theirs', tenant: OTHER_TENANT });

      expect(await store.recordExtractions(TENANT, [aliceAtAcme('gone'), aliceAtAcme('theirs'), aliceAtAcme('m1')], at())).toBe(
        1,
      );
      expect(await store.listMentionsInMemories(OTHER_TENANT, ['theirs'])).toEqual([]);
    });

    it('refuses an extraction naming an unknown entity and records nothing of the batch', async () => {
      await storeMemories(store, 'm1', 'm2');
      const broken: GraphExtraction = { ...aliceAtAcme('m2'), mentions: [{ name: 'Nobody', role: 'mention' }] };

      await expect(attempt(() => store.recordExtractions(TENANT, [aliceAtAcme('m1'), broken], at()))).rejects.toMatchObject({
        code: 'invalid_input',
      });
      expect(await store.findEntities(TENANT, ['Alice'])).toEqual([]);
      expect(await store.listMentionsInMemories(TENANT, ['m1'])).toEqual([]);
    });
  });
}
