import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import type { Entity, Mention } from '../../model/graph.js';
import type { Memory } from '../../model/memory.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { Store } from '../store.js';
import { readView, withKeptReads } from './kept-reads.js';

/**
 * A store of three memories, two in session s1, that counts what it is asked for; its change
 * mark moves when a test says so (`changed()`).
 */
function countingStore({ markCoversStamps = false } = {}) {
  const memories = ['a', 'b', 'c'].map((id) =>
    makeMemory({ id, tenant: 't', text: `memory ${id}`, sessionId: id === 'c' ? null : 's1' }),
  );
  const mentions: Mention[] = [
    { tenant: 't', memoryId: 'a', entityId: 'e1', role: 'subject' },
    { tenant: 't', memoryId: 'a', entityId: 'e2', role: 'mention' },
    { tenant: 't', memoryId: 'c', entityId: 'e1', role: 'mention' },
  ];
  const asked = { memories: [] as string[], mentions: [] as string[], names: [] as string[], marks: 0, turns: 0 };
  let mark = 1;
  /** While set, a read of memories answers what it found only once this settles. */
  let slowRead: Promise<void> | null = null;
  return {
    asked,
    slowly(until: Promise<void>) {
      slowRead = until;
    },
    memories,
    markCoversStamps,
    label: 'the store',
    changed() {
      mark += 1;
    },
    async memoryChangeMark(): Promise<string> {
      asked.marks += 1;
      return String(mark);
    },
    async getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]> {
      asked.memories.push(...ids);
      const found = ids.flatMap((id) => memories.filter((m) => m.tenant === tenant && m.id === id)).map((m) => ({ ...m }));
      if (slowRead !== null) await slowRead;
      return found;
    },
    async listMentionsInMemories(tenant: string, ids: readonly string[]): Promise<Mention[]> {
      asked.mentions.push(...ids);
      return ids.flatMap((id) => mentions.filter((m) => m.tenant === tenant && m.memoryId === id));
    },
    async findEntitiesByName(_tenant: string, names: readonly string[]): Promise<Entity[][]> {
      asked.names.push(...names);
      const entity = (name: string): Entity => ({
        tenant: 't',
        id: `e-${name}`,
        name,
        type: 'person',
        origin: 'user',
        aliases: [],
        observations: [],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      return names.map((name) => (name === 'nobody' ? [] : [entity(name)]));
    },
    async listSessionTurns(_filter: MemoryFilter, session: string): Promise<string[]> {
      asked.turns += 1;
      return session === 's1' ? ['a', 'b'] : [];
    },
    async listSessionNeighbours(_filter: MemoryFilter, ids: readonly string[]) {
      asked.turns += 1;
      return ids.flatMap((id) => (id === 'a' ? [{ memoryId: 'b', of: 'a', distance: 1 }] : []));
    },
    async recordRetrieval(_tenant: string, ids: readonly string[]): Promise<void> {
      for (const memory of memories) if (ids.includes(memory.id)) memory.retrievalCount += 1;
    },
    describe(this: { label: string }): string {
      return this.label;
    },
  };
}

/** The counting store with the read layer, typed as the Store the layer wraps. */
function layered(options: { markCoversStamps?: boolean } = {}) {
  const store = countingStore(options);
  return { store, kept: withKeptReads(store as unknown as Store) };
}

describe('a store without the layer, read once for one recall decision', () => {
  it('reads each memory once, answering in the order asked and leaving unknown ids out', async () => {
    const store = countingStore();
    const view = readView(store);
    expect((await view.getMemories('t', ['b', 'a'])).map((m) => m.id)).toEqual(['b', 'a']);
    expect((await view.getMemories('t', ['c', 'x', 'a', 'b'])).map((m) => m.id)).toEqual(['c', 'a', 'b']);
    expect((await view.getMemories('t', ['x', 'c'])).map((m) => m.id)).toEqual(['c']);
    expect(store.asked.memories).toEqual(['b', 'a', 'c', 'x']);
  });

  it('reads the mentions of each memory once, a memory without any included', async () => {
    const store = countingStore();
    const view = readView(store);
    expect((await view.listMentionsInMemories('t', ['a', 'b'])).map((m) => m.entityId)).toEqual(['e1', 'e2']);
    expect((await view.listMentionsInMemories('t', ['c', 'b', 'a'])).map((m) => `${m.memoryId}:${m.entityId}`)).toEqual([
      'c:e1',
      'a:e1',
      'a:e2',
    ]);
    expect(store.asked.mentions).toEqual(['a', 'b', 'c']);
  });

  it('is itself when asked for over a view, so a search inside a decision shares the decision’s reads', async () => {
    const store = countingStore();
    const decision = readView(store);
    await decision.getMemories('t', ['a']);
    const search = readView(decision);
    expect(search).toBe(decision);
    await search.getMemories('t', ['a', 'b']);
    expect(store.asked.memories).toEqual(['a', 'b']);
  });

  it('keeps tenants apart and passes everything else through to the store', async () => {
    const store = countingStore();
    const view = readView(store);
    await view.getMemories('t', ['a']);
    expect(await view.getMemories('other', ['a'])).toEqual([]);
    expect(store.asked.memories).toEqual(['a', 'a']);
    expect(view.describe()).toBe('the store');
  });
});

describe('the read layer, over any store', () => {
  it('answers a later decision from what it kept while the mark holds, and reads again once it moves', async () => {
    const { store, kept } = layered({ markCoversStamps: true });
    await readView(kept).getMemories('t', ['a', 'b']);
    await readView(kept).listMentionsInMemories('t', ['a', 'c']);
    const later = readView(kept);
    expect((await later.getMemories('t', ['b', 'a'])).map((m) => m.id)).toEqual(['b', 'a']);
    expect((await later.listMentionsInMemories('t', ['c'])).map((m) => m.entityId)).toEqual(['e1']);
    expect([store.asked.memories, store.asked.mentions]).toEqual([
      ['a', 'b'],
      ['a', 'c'],
    ]);

    store.changed();
    await readView(kept).getMemories('t', ['a']);
    await readView(kept).listMentionsInMemories('t', ['a']);
    expect([store.asked.memories, store.asked.mentions]).toEqual([
      ['a', 'b', 'a'],
      ['a', 'c', 'a'],
    ]);
  });

  it('reads the mark once per decision and tenant, however many reads the decision makes', async () => {
    const { store, kept } = layered();
    const view = readView(kept);
    await Promise.all([view.getMemories('t', ['a']), view.listMentionsInMemories('t', ['a']), view.findEntities('t', ['Ann'])]);
    await view.getMemories('t', ['b']);
    await view.getMemories('other', ['a']);
    expect(store.asked.marks).toBe(2);
    expect(readView(view)).toBe(view);
  });

  it('keeps memories for one decision only on a store whose mark leaves out the stamps of others', async () => {
    const { store, kept } = layered({ markCoversStamps: false });
    await readView(kept).getMemories('t', ['a']);
    store.memories[0]!.retrievalCount = 4; // another process stamps it, and the mark does not move
    expect((await readView(kept).getMemories('t', ['a']))[0]?.retrievalCount).toBe(4);
    await readView(kept).listMentionsInMemories('t', ['a']);
    await readView(kept).listMentionsInMemories('t', ['a']);
    expect(store.asked.mentions).toEqual(['a']); // the mentions are kept all the same
  });

  it('drops the memories its own retrieval stamps change, and only those', async () => {
    const { store, kept } = layered({ markCoversStamps: true });
    await readView(kept).getMemories('t', ['a', 'b']);
    await kept.recordRetrieval('t', ['a'], '2026-01-01T00:00:00.000Z');
    const [a, b] = await readView(kept).getMemories('t', ['a', 'b']);
    expect([a?.retrievalCount, b?.retrievalCount]).toEqual([1, 0]);
    expect(store.asked.memories).toEqual(['a', 'b', 'a']);
  });

  it('does not keep a memory read before its own stamps were written and kept after', async () => {
    const { store, kept } = layered({ markCoversStamps: true });
    let finish = () => {};
    store.slowly(new Promise<void>((resolve) => (finish = resolve)));
    const reading = readView(kept).getMemories('t', ['a']);
    await new Promise((resolve) => setImmediate(resolve)); // the store has found a's stamps as they are now
    expect(store.asked.memories).toEqual(['a']);
    await kept.recordRetrieval('t', ['a'], '2026-01-01T00:00:00.000Z');
    finish();
    expect((await reading)[0]?.retrievalCount).toBe(0);
    store.slowly(Promise.resolve());
    expect((await readView(kept).getMemories('t', ['a']))[0]?.retrievalCount).toBe(1);
  });

  it('keeps each name looked up, answering several names in order with each entity once', async () => {
    const { store, kept } = layered();
    expect((await readView(kept).findEntities('t', ['Ann', 'nobody', 'Ann'])).map((e) => e.id)).toEqual(['e-Ann']);
    expect((await readView(kept).findEntities('t', ['Bo', 'Ann'])).map((e) => e.id)).toEqual(['e-Bo', 'e-Ann']);
    expect(store.asked.names).toEqual(['Ann', 'nobody', 'Bo']); // the names not kept, in one read each time
  });

  it("keeps a session's turns from the second time it is asked about, answering as the store does", async () => {
    const { store, kept } = layered();
    const beside = async () => readView(kept).listSessionNeighbours({ tenant: 't' }, ['a'], 1);
    const expected = [{ memoryId: 'b', of: 'a', distance: 1 }];
    expect(await beside()).toEqual(expected); // the store's statement
    expect(await beside()).toEqual(expected); // the session read, and kept
    const asked = store.asked.turns;
    expect(await beside()).toEqual(expected); // from what is kept
    expect(store.asked.turns).toBe(asked);
  });
});
