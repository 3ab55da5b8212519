/**
 * A view of a store for the span of one recall decision, which searches one query several times
 * (a wide search, then a tier's own): memories and the mentions they make are read once by id
 * and kept, since the searches draft many of the same candidates. Everything else passes
 * through. Nothing is written during a decision's searches, so what is kept stays true for it;
 * make a new view for each decision. A search makes one of its own; inside a decision's view it
 * uses that one.
 */
import type { Mention } from '../model/graph.js';
import type { Memory } from '../model/memory.js';
import type { GraphStore } from '../store/graph-store.js';
import type { MemoryReader } from '../store/memory-store.js';

type Reads = Pick<MemoryReader, 'getMemories'> & Pick<GraphStore, 'listMentionsInMemories'>;

/** Marks a view, so a view asked for over a view is the same view (a decision's searches share its). */
const VIEW = Symbol('read-once view');

export function readOnce<S extends Reads>(store: S): S {
  if ((store as { [VIEW]?: true })[VIEW]) return store;
  const memories = new Map<string, Memory | null>();
  const mentions = new Map<string, Mention[]>();

  const getMemories: Reads['getMemories'] = async (tenant, ids) => {
    const missing = ids.filter((id) => !memories.has(key(tenant, id)));
    if (missing.length > 0) {
      const read = new Map((await store.getMemories(tenant, missing)).map((memory) => [memory.id, memory]));
      for (const id of missing) memories.set(key(tenant, id), read.get(id) ?? null);
    }
    return ids.flatMap((id) => memories.get(key(tenant, id)) ?? []);
  };

  const listMentionsInMemories: Reads['listMentionsInMemories'] = async (tenant, memoryIds) => {
    const missing = memoryIds.filter((id) => !mentions.has(key(tenant, id)));
    if (missing.length > 0) {
      for (const id of missing) mentions.set(key(tenant, id), []);
      for (const mention of await store.listMentionsInMemories(tenant, missing)) {
        mentions.get(key(tenant, mention.memoryId))?.push(mention);
      }
    }
    return memoryIds.flatMap((id) => mentions.get(key(tenant, id)) ?? []);
  };

  const key = (tenant: string, id: string) => `${tenant}\u0000${id}`;
  return new Proxy(store, {
    get(target, property) {
      if (property === VIEW) return true;
      if (property === 'getMemories') return getMemories;
      if (property === 'listMentionsInMemories') return listMentionsInMemories;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
