/**
 * Extraction on write with a real SQLite file: a conversation turn's speaker, the people and
 * places it names and the dates it speaks of enter the graph; supersession ends what the old
 * memory stated; forgetting removes its mentions; `reindex` extracts memories stored before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, manualClock, openEngram } from '../src/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const TURN = 'Caroline said, "I went to a support group in Boston yesterday."';

describe('extraction on write', () => {
  let dir: string;
  let file: string;
  const open = (extract = true) =>
    openEngram({
      path: file,
      embedder: null,
      clock: manualClock(new Date('2023-05-08T12:00:00Z')),
      config: { graph: { extract } },
    });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-extract-'));
    file = path.join(dir, 'engram.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function mentionsOf(memoryId: string) {
    const store = new SqliteStore(file);
    try {
      const mentions = await store.listMentionsInMemories('default', [memoryId]);
      const entities = await store.getEntities(
        'default',
        mentions.map((mention) => mention.entityId),
      );
      const names = new Map(entities.map((entity) => [entity.id, `${entity.type}:${entity.name}`]));
      return mentions.map((mention) => `${mention.role} ${names.get(mention.entityId)}`).sort();
    } finally {
      await store.close();
    }
  }

  it('records the speaker, the places named and the resolved date of a turn', async () => {
    const engram: Engram = await open();
    const memory = await engram.remember({ text: TURN, occurredAt: '2023-05-08T10:00:00Z' });
    expect(await mentionsOf(memory.id)).toEqual(['mention date:2023-05-07', 'mention place:Boston', 'speaker person:Caroline']);
    const view = await engram.graph.openNodes(['Caroline', 'Boston']);
    expect(view.relations).toEqual([{ from: 'Caroline', to: 'Boston', relationType: 'talks_about' }]);
    expect((await engram.stats()).graph).toEqual({
      entities: 3,
      relations: 1,
      invalidatedRelations: 0,
      mentions: 3,
      extractionFailures: 0,
    });
    await engram.close();
  });

  it('takes the speaker from data.speaker too', async () => {
    const engram = await open();
    const memory = await engram.remember({
      text: 'I moved to Lisbon last year.',
      data: { speaker: 'Melanie' },
      occurredAt: '2023-05-08T10:00:00Z',
    });
    expect(await mentionsOf(memory.id)).toEqual([
      'mention date:2022-01-01..2022-12-31',
      'mention place:Lisbon',
      'speaker person:Melanie',
    ]);
    await engram.close();
  });

  it('extracts nothing when [graph] extract is off', async () => {
    const engram = await open(false);
    const memory = await engram.remember(TURN);
    expect(await mentionsOf(memory.id)).toEqual([]);
    expect((await engram.graph.readGraph()).totalEntities).toBe(0);
    await engram.close();
  });

  it('ends the relations a superseded memory stated, and keeps the new ones', async () => {
    const engram = await open();
    const old = await engram.remember({ text: 'Caroline said, "I live in Boston. Theo visits."', key: 'home' });
    await engram.remember({ text: 'Caroline said, "I live in Denver now. Theo visits."', key: 'home' });
    expect(await mentionsOf(old.id)).toEqual([]);
    const view = await engram.graph.openNodes(['Caroline', 'Boston', 'Denver']);
    expect(view.relations).toEqual([
      { from: 'Caroline', to: 'Theo', relationType: 'talks_about' },
      { from: 'Caroline', to: 'Denver', relationType: 'talks_about' },
    ]);
    // The ended relation to Theo stays; Boston, which only the old memory named, went with its own.
    expect(view.entities.map((entity) => entity.name)).toEqual(['Caroline', 'Denver']);
    expect((await engram.stats()).graph).toMatchObject({ relations: 2, invalidatedRelations: 1 });
    await engram.close();
  });

  it('removes the mentions of a forgotten memory, archived or deleted, and the entities it alone named', async () => {
    const engram = await open();
    const archived = await engram.remember(TURN);
    const deleted = await engram.remember('Melanie said, "Paris was lovely, Boston too."');
    await engram.forget(archived.id);
    await engram.forget(deleted.id, { hard: true });
    expect(await mentionsOf(archived.id)).toEqual([]);
    expect(await mentionsOf(deleted.id)).toEqual([]);
    expect((await engram.graph.readGraph()).entities).toEqual([]);
    expect((await engram.stats()).graph).toMatchObject({ entities: 0, relations: 0, invalidatedRelations: 0, mentions: 0 });
    await engram.restore(archived.id);
    expect(await mentionsOf(archived.id)).toEqual(['mention date:2023-05-07', 'mention place:Boston', 'speaker person:Caroline']);
    await engram.close();
  });

  it('re-extracts when the text changes', async () => {
    const engram = await open();
    const memory = await engram.remember('Caroline said, "Boston was cold."');
    await engram.update(memory.id, { text: 'Caroline said, "Denver was cold."' });
    expect(await mentionsOf(memory.id)).toEqual(['mention place:Denver', 'speaker person:Caroline']);
    await engram.close();
  });

  it('extracts memories stored before, on reindex', async () => {
    const before = await open(false);
    const memory = await before.remember(TURN);
    await before.close();
    const after = await open(true);
    await after.reindex();
    expect(await mentionsOf(memory.id)).toContain('speaker person:Caroline');
    await after.close();
  });
});
