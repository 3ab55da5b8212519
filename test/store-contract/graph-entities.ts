/**
 * The entities of the graph contract: created and merged by name (case-insensitively, keeping
 * the first spelling), read by id, name or alias, searched by words, deleted without touching
 * memories, their observations changed, and kept apart per tenant.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { Entity } from '../../src/model/graph.js';
import { OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { at, type GraphTestStore, person, storeMemories } from './graph-fixtures.js';
import { attempt, idsOf } from './helpers.js';

/** Runs the entities contract against the store of the current test. */
export function graphEntitiesContract(current: () => GraphTestStore): void {
  let store: GraphTestStore;
  beforeEach(() => {
    store = current();
  });

  describe('graph entities', () => {
    it('creates an entity and returns every field as written', async () => {
      const [alice] = await store.upsertEntities(
        TENANT,
        [person('Alice Smith', { aliases: ['Ali'], observations: ['likes green tea'] })],
        at(),
      );

      const expected: Entity = {
        tenant: TENANT,
        id: 'e-alice-smith',
        name: 'Alice Smith',
        type: 'person',
        aliases: ['Ali'],
        observations: ['likes green tea'],
        origin: 'user',
        createdAt: at(),
        updatedAt: at(),
      };
      expect(alice).toEqual(expected);
      expect(await store.getEntities(TENANT, ['e-alice-smith'])).toEqual([expected]);
    });

    it('merges a write naming a stored entity in any case into it, keeping its id, spelling and type', async () => {
      await store.upsertEntities(TENANT, [person('Alice Smith', { aliases: ['Ali'], observations: ['likes tea'] })], at());

      const [merged] = await store.upsertEntities(
        TENANT,
        [
          {
            id: 'e-new',
            name: '  alice   SMITH ',
            type: 'organization',
            aliases: ['ALI', 'Allie', 'alice smith'],
            observations: ['likes tea', 'lives in Paris'],
          },
        ],
        at(5),
      );

      expect(merged).toEqual({
        tenant: TENANT,
        id: 'e-alice-smith',
        name: 'Alice Smith',
        type: 'person',
        aliases: ['Ali', 'Allie'],
        observations: ['likes tea', 'lives in Paris'],
        origin: 'user',
        createdAt: at(),
        updatedAt: at(5),
      });
      expect(await store.getEntities(TENANT, ['e-new'])).toEqual([]);
    });

    it('returns the merged entity for every input of one batch that names it', async () => {
      const [first, second] = await store.upsertEntities(
        TENANT,
        [person('Bob', { observations: ['a'] }), person('BOB', { id: 'e-other', observations: ['b'] })],
        at(),
      );

      expect(first).toEqual(second);
      expect(first).toMatchObject({ id: 'e-bob', name: 'Bob', observations: ['a', 'b'] });
    });

    it('refuses an entity without a name', async () => {
      await expect(attempt(() => store.upsertEntities(TENANT, [person('   ')], at()))).rejects.toMatchObject({
        code: 'invalid_input',
      });
    });

    it('reads entities by id in the order asked for, leaving out unknown ids and other tenants', async () => {
      await store.upsertEntities(TENANT, [person('Alice'), person('Bob')], at());
      await store.upsertEntities(OTHER_TENANT, [person('Carol')], at());

      expect(idsOf(await store.getEntities(TENANT, ['e-bob', 'e-missing', 'e-carol', 'e-alice']))).toEqual(['e-bob', 'e-alice']);
      expect(await store.getEntities(TENANT, [])).toEqual([]);
    });

    it('finds entities by name or alias, ignoring case and spacing: per name, the named entity before aliases', async () => {
      await store.upsertEntities(
        TENANT,
        [person('Robert Smith', { aliases: ['Bob'] }), person('Bob'), person('Paris', { type: 'place' })],
        at(),
      );

      expect(idsOf(await store.findEntities(TENANT, ['bob']))).toEqual(['e-bob', 'e-robert-smith']);
      expect(idsOf(await store.findEntities(TENANT, ['PARIS', '  robert  smith', 'nobody', 'paris']))).toEqual([
        'e-paris',
        'e-robert-smith',
      ]);
      expect(await store.findEntities(TENANT, ['', '  '])).toEqual([]);
    });

    it('finds each name its own entities in one read, as findEntities finds them for that name alone', async () => {
      await store.upsertEntities(
        TENANT,
        [person('Robert Smith', { aliases: ['Bob', 'Rob'] }), person('Bob'), person('Rob', { aliases: ['Robert'] })],
        at(),
      );
      const asked = ['bob', 'nobody', 'ROB', '', 'Bob', 'robert'];
      const byName = await store.findEntitiesByName(TENANT, asked);
      expect(byName.map(idsOf)).toEqual([
        ['e-bob', 'e-robert-smith'],
        [],
        ['e-rob', 'e-robert-smith'],
        [],
        ['e-bob', 'e-robert-smith'],
        ['e-rob'],
      ]);
      for (const [i, name] of asked.entries()) expect(byName[i]).toEqual(await store.findEntities(TENANT, [name]));
      expect(await store.findEntitiesByName(OTHER_TENANT, ['bob'])).toEqual([[]]);
      expect(await store.findEntitiesByName(TENANT, [])).toEqual([]);
    });

    it('keeps tenants apart: an entity of the same name in another tenant is another entity, invisible here', async () => {
      await store.upsertEntities(TENANT, [person('Alice', { observations: ['ours'] })], at());
      await store.upsertEntities(OTHER_TENANT, [person('alice', { id: 'e-theirs', observations: ['theirs'] })], at());

      expect(await store.findEntities(TENANT, ['Alice'])).toMatchObject([{ id: 'e-alice', observations: ['ours'] }]);
      expect(await store.findEntities(OTHER_TENANT, ['Alice'])).toMatchObject([{ id: 'e-theirs', observations: ['theirs'] }]);
      expect(await store.searchEntities(TENANT, 'theirs', 10)).toEqual([]);
      expect(await store.deleteEntities(TENANT, ['e-theirs'])).toBe(0);
      expect(await store.getEntities(OTHER_TENANT, ['e-theirs'])).toHaveLength(1);
    });

    it('searches names, types, aliases and observations for every word of the query, names first', async () => {
      await store.upsertEntities(
        TENANT,
        [
          person('Dana', { observations: ['works with Alice on the Lisbon office'] }),
          person('Alice', { observations: ['moved to Lisbon'] }),
          person('Acme', { type: 'organization', aliases: ['ACME Corp'] }),
          person('Élodie', { observations: ['Speaks FRENCH'] }),
        ],
        at(),
      );

      expect(idsOf(await store.searchEntities(TENANT, 'alice', 10))).toEqual(['e-alice', 'e-dana']);
      expect(idsOf(await store.searchEntities(TENANT, 'LISBON alice', 10))).toEqual(['e-alice', 'e-dana']);
      expect(idsOf(await store.searchEntities(TENANT, 'organization', 10))).toEqual(['e-acme']);
      expect(idsOf(await store.searchEntities(TENANT, 'corp', 10))).toEqual(['e-acme']);
      expect(idsOf(await store.searchEntities(TENANT, 'ÉLODIE french', 10))).toEqual(['e-élodie']);
      expect(idsOf(await store.searchEntities(TENANT, 'alice', 1))).toEqual(['e-alice']);
      expect(await store.searchEntities(TENANT, 'alice berlin', 10)).toEqual([]);
      expect(await store.searchEntities(TENANT, '  ', 10)).toEqual([]);
    });

    it('adds only the observations an entity lacks and says which were added', async () => {
      await store.upsertEntities(TENANT, [person('Alice', { observations: ['likes tea'] })], at());

      const added = await store.addObservations(
        TENANT,
        [
          { entityId: 'e-alice', observations: ['likes tea', 'plays chess', 'plays chess'] },
          { entityId: 'e-missing', observations: ['lost'] },
        ],
        at(3),
      );

      expect(added).toEqual([{ entityId: 'e-alice', observations: ['plays chess'] }]);
      expect(await store.getEntities(TENANT, ['e-alice'])).toMatchObject([
        { observations: ['likes tea', 'plays chess'], updatedAt: at(3) },
      ]);
      expect(idsOf(await store.searchEntities(TENANT, 'chess', 10))).toEqual(['e-alice']);
    });

    it('removes observations where present and counts them', async () => {
      await store.upsertEntities(TENANT, [person('Alice', { observations: ['likes tea', 'plays chess'] })], at());

      const removed = await store.removeObservations(
        TENANT,
        [{ entityId: 'e-alice', observations: ['likes tea', 'never said'] }],
        at(4),
      );

      expect(removed).toBe(1);
      expect(await store.getEntities(TENANT, ['e-alice'])).toMatchObject([{ observations: ['plays chess'], updatedAt: at(4) }]);
      expect(await store.searchEntities(TENANT, 'tea', 10)).toEqual([]);
    });

    it('deletes entities with their relations and mentions, and leaves every memory alone', async () => {
      await storeMemories(store, 'm1');
      await store.recordExtractions(
        TENANT,
        [
          {
            memoryId: 'm1',
            entities: [person('Alice', { aliases: ['Ali'] }), person('Acme', { type: 'organization' })],
            mentions: [
              { name: 'Alice', role: 'speaker' },
              { name: 'Acme', role: 'mention' },
            ],
            relations: [{ id: 'r1', from: 'Alice', to: 'Acme', type: 'works_at' }],
          },
        ],
        at(),
      );

      expect(await store.deleteEntities(TENANT, ['e-alice', 'e-missing'])).toBe(1);

      expect(await store.getEntities(TENANT, ['e-alice'])).toEqual([]);
      expect(await store.findEntities(TENANT, ['Ali'])).toEqual([]);
      expect(await store.listRelations(TENANT, ['e-acme'], { includeInvalidated: true })).toEqual([]);
      expect(await store.listMentionsInMemories(TENANT, ['m1'])).toEqual([
        { tenant: TENANT, memoryId: 'm1', entityId: 'e-acme', role: 'mention' },
      ]);
      expect(await store.getMemory(TENANT, 'm1')).not.toBeNull();
    });
  });
}
