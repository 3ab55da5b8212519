/**
 * `engram.graph` on a real SQLite file: the MCP reference memory server's operations, by name,
 * per tenant, with paging instead of the whole graph at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, openEngram } from '../src/index.js';

describe('engram.graph', () => {
  let dir: string;
  let engram: Engram;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-graph-'));
    engram = await openEngram({ path: path.join(dir, 'engram.db'), embedder: null });
  });
  afterEach(async () => {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates entities once by name, whatever the case, and returns only the new ones', async () => {
    const first = await engram.graph.createEntities([
      { name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] },
      { name: 'Acme', entityType: 'organization' },
    ]);
    expect(first.map((entity) => entity.name)).toEqual(['Alice', 'Acme']);
    const again = await engram.graph.createEntities([{ name: 'alice', entityType: 'robot', observations: ['Is a robot'] }]);
    expect(again).toEqual([]);
    const { entities } = await engram.graph.openNodes(['ALICE']);
    expect(entities).toEqual([{ name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] }]);
  });

  it('ignores create_entities for a name extraction made, observations too, and keeps it from then on', async () => {
    const turn = await engram.remember('Alice said, "I moved to Lyon last spring."');
    expect(await engram.graph.createEntities([{ name: 'alice', entityType: 'robot', observations: ['Is a robot'] }])).toEqual([]);
    expect((await engram.graph.openNodes(['Alice'])).entities).toEqual([
      { name: 'Alice', entityType: 'person', observations: [] },
    ]);
    expect(await engram.graph.addObservations([{ entityName: 'alice', contents: ['Prefers short answers'] }])).toEqual([
      { entityName: 'Alice', addedObservations: ['Prefers short answers'] },
    ]);

    await engram.forget(turn.id, { hard: true });
    // Lyon was extraction's alone; Alice the user created by name (and observed).
    expect((await engram.graph.openNodes(['Alice', 'Lyon'])).entities).toEqual([
      { name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] },
    ]);
    expect((await engram.stats()).graph).toMatchObject({ entities: 1, relations: 0, invalidatedRelations: 0, mentions: 0 });
  });

  it('removes what extraction made when its last memory is deleted or forgotten, and keeps an entity created by hand', async () => {
    const [kept, gone] = await engram.rememberMany(['Theo flew to Dublin.', 'Theo met Nina in Oslo.']);
    await engram.graph.createEntities([{ name: 'Nina', entityType: 'person' }]);

    await engram.forget(gone?.id as string, { hard: true });
    expect((await engram.graph.readGraph()).entities.map((entity) => entity.name)).toEqual(['Theo', 'Dublin', 'Nina']);
    await engram.forget(kept?.id as string);
    expect((await engram.graph.readGraph()).entities.map((entity) => entity.name)).toEqual(['Nina']);
    await engram.restore(kept?.id as string);
    expect((await engram.graph.readGraph()).entities.map((entity) => entity.name)).toEqual(['Nina', 'Theo', 'Dublin']);
  });

  it('relates entities by name, skips duplicates, and refuses unknown names', async () => {
    await engram.graph.createEntities([
      { name: 'Alice', entityType: 'person' },
      { name: 'Acme', entityType: 'organization' },
    ]);
    expect(await engram.graph.createRelations([{ from: 'Alice', to: 'Acme', relationType: 'works_at' }])).toEqual([
      { from: 'Alice', to: 'Acme', relationType: 'works_at' },
    ]);
    expect(await engram.graph.createRelations([{ from: 'alice', to: 'acme', relationType: 'works_at' }])).toEqual([]);
    // Twice in one call: created once.
    expect(
      await engram.graph.createRelations([
        { from: 'Acme', to: 'Alice', relationType: 'employs' },
        { from: 'Acme', to: 'Alice', relationType: 'employs' },
      ]),
    ).toEqual([{ from: 'Acme', to: 'Alice', relationType: 'employs' }]);
    await expect(engram.graph.createRelations([{ from: 'Alice', to: 'Globex', relationType: 'knows' }])).rejects.toThrow(
      /no entity named Globex/,
    );
    await engram.graph.deleteRelations([{ from: 'Acme', to: 'Alice', relationType: 'employs' }]);
    const view = await engram.graph.openNodes(['Alice', 'Acme', 'Nobody']);
    expect(view.relations).toEqual([{ from: 'Alice', to: 'Acme', relationType: 'works_at' }]);
    // As the reference server does: a relation with one end among the nodes shows too.
    expect((await engram.graph.openNodes(['Acme'])).relations).toEqual([{ from: 'Alice', to: 'Acme', relationType: 'works_at' }]);
  });

  it('adds and deletes observations, and says which were new', async () => {
    await engram.graph.createEntities([{ name: 'Alice', entityType: 'person', observations: ['Likes tea'] }]);
    expect(await engram.graph.addObservations([{ entityName: 'Alice', contents: ['Likes tea', 'Lives in Lyon'] }])).toEqual([
      { entityName: 'Alice', addedObservations: ['Lives in Lyon'] },
    ]);
    await expect(engram.graph.addObservations([{ entityName: 'Bob', contents: ['x'] }])).rejects.toThrow(/no entity named Bob/);
    await engram.graph.deleteObservations([{ entityName: 'Alice', observations: ['Likes tea', 'never said'] }]);
    expect((await engram.graph.openNodes(['Alice'])).entities[0]?.observations).toEqual(['Lives in Lyon']);
  });

  it('deletes relations and entities (with their relations), leaving memories alone', async () => {
    const memory = await engram.remember('Alice works at Acme');
    await engram.graph.createEntities([
      { name: 'Alice', entityType: 'person' },
      { name: 'Acme', entityType: 'organization' },
      { name: 'Lyon', entityType: 'place' },
    ]);
    await engram.graph.createRelations([
      { from: 'Alice', to: 'Acme', relationType: 'works_at' },
      { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
    ]);
    await engram.graph.deleteRelations([{ from: 'Alice', to: 'Lyon', relationType: 'lives_in' }]);
    expect((await engram.graph.openNodes(['Alice', 'Acme', 'Lyon'])).relations).toEqual([
      { from: 'Alice', to: 'Acme', relationType: 'works_at' },
    ]);
    await engram.graph.deleteEntities(['acme', 'Nobody']);
    const view = await engram.graph.openNodes(['Alice', 'Acme']);
    expect(view.entities.map((entity) => entity.name)).toEqual(['Alice']);
    expect(view.relations).toEqual([]);
    expect(await engram.get(memory.id)).not.toBeNull();
  });

  it('searches names, types and observations', async () => {
    await engram.graph.createEntities([
      { name: 'Alice', entityType: 'person', observations: ['Speaks fluent Spanish'] },
      { name: 'Acme', entityType: 'organization' },
    ]);
    expect((await engram.graph.searchNodes('spanish')).entities.map((entity) => entity.name)).toEqual(['Alice']);
    expect((await engram.graph.searchNodes('organization')).entities.map((entity) => entity.name)).toEqual(['Acme']);
    expect((await engram.graph.searchNodes('nothing like it')).entities).toEqual([]);
  });

  it('pages through the graph instead of returning it whole', async () => {
    await engram.graph.createEntities(Array.from({ length: 5 }, (_, i) => ({ name: `Entity ${i}`, entityType: 'thing' })));
    const first = await engram.graph.readGraph({ limit: 2 });
    expect(first.entities.map((entity) => entity.name)).toEqual(['Entity 0', 'Entity 1']);
    expect(first).toMatchObject({ totalEntities: 5, nextOffset: 2 });
    const last = await engram.graph.readGraph({ offset: 4, limit: 2 });
    expect(last.entities.map((entity) => entity.name)).toEqual(['Entity 4']);
    expect(last.nextOffset).toBeNull();
    await expect(engram.graph.readGraph({ limit: 0 })).rejects.toThrow(/limit must be a whole number from 1/);
  });

  it('keeps tenants apart', async () => {
    await engram.graph.createEntities([{ name: 'Alice', entityType: 'person' }]);
    const other = await openEngram({ path: path.join(dir, 'engram.db'), embedder: null, tenant: 'globex' });
    try {
      expect((await other.graph.openNodes(['Alice'])).entities).toEqual([]);
      expect(await other.graph.createEntities([{ name: 'Alice', entityType: 'robot' }])).toHaveLength(1);
      expect((await engram.graph.openNodes(['Alice'])).entities[0]?.entityType).toBe('person');
    } finally {
      await other.close();
    }
  });
});
