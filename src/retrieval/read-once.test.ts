import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Mention } from '../model/graph.js';
import type { Memory } from '../model/memory.js';
import { readOnce } from './read-once.js';

/** A store of three memories that counts what it is asked for. */
function countingStore() {
  const memories = ['a', 'b', 'c'].map((id) => makeMemory({ id, tenant: 't', text: `memory ${id}` }));
  const mentions: Mention[] = [
    { tenant: 't', memoryId: 'a', entityId: 'e1', role: 'subject' },
    { tenant: 't', memoryId: 'a', entityId: 'e2', role: 'mention' },
    { tenant: 't', memoryId: 'c', entityId: 'e1', role: 'mention' },
  ];
  const asked = { memories: [] as string[], mentions: [] as string[] };
  return {
    asked,
    label: 'the store',
    async getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]> {
      asked.memories.push(...ids);
      return ids.flatMap((id) => memories.filter((m) => m.tenant === tenant && m.id === id));
    },
    async listMentionsInMemories(tenant: string, ids: readonly string[]): Promise<Mention[]> {
      asked.mentions.push(...ids);
      return ids.flatMap((id) => mentions.filter((m) => m.tenant === tenant && m.memoryId === id));
    },
    describe(this: { label: string }): string {
      return this.label;
    },
  };
}

describe('a store read once for one recall decision', () => {
  it('reads each memory once, answering in the order asked and leaving unknown ids out', async () => {
    const store = countingStore();
    const view = readOnce(store);
    expect((await view.getMemories('t', ['b', 'a'])).map((m) => m.id)).toEqual(['b', 'a']);
    expect((await view.getMemories('t', ['c', 'x', 'a', 'b'])).map((m) => m.id)).toEqual(['c', 'a', 'b']);
    expect((await view.getMemories('t', ['x', 'c'])).map((m) => m.id)).toEqual(['c']);
    expect(store.asked.memories).toEqual(['b', 'a', 'c', 'x']);
  });

  it('reads the mentions of each memory once, a memory without any included', async () => {
    const store = countingStore();
    const view = readOnce(store);
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
    const decision = readOnce(store);
    await decision.getMemories('t', ['a']);
    const search = readOnce(decision);
    expect(search).toBe(decision);
    await search.getMemories('t', ['a', 'b']);
    expect(store.asked.memories).toEqual(['a', 'b']);
  });

  it('keeps tenants apart and passes everything else through to the store', async () => {
    const store = countingStore();
    const view = readOnce(store);
    await view.getMemories('t', ['a']);
    expect(await view.getMemories('other', ['a'])).toEqual([]);
    expect(store.asked.memories).toEqual(['a', 'a']);
    expect(view.describe()).toBe('the store');
  });
});
