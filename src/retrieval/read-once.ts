/**
 * A view of a store for the span of one recall decision, which searches one query several times
 * (a wide search, then a tier's own): memories and the mentions they make are read once by id
 * and kept, since the searches draft many of the same candidates. Everything else passes
 * through. Nothing is written during a decision's searches, so what is kept stays true for it;
 * make a new view for each decision. A search makes one of its own; inside a decision's view it
 * uses that one.
 * When it is dropped: docs/decisions/what-is-kept.md.
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
  // By tenant, then id: an id's hash is known, a key joining tenant and id would be hashed anew.
  const memoriesBy = new Map<string, Map<string, Memory | null>>();
  const mentionsBy = new Map<string, Map<string, Mention[]>>();

  const getMemories: Reads['getMemories'] = async (tenant, ids) => {
    const memories = ofTenant(memoriesBy, tenant);
    const missing = ids.filter((id) => !memories.has(id));
    if (missing.length > 0) {
      const read = new Map((await store.getMemories(tenant, missing)).map((memory) => [memory.id, memory]));
      for (const id of missing) memories.set(id, read.get(id) ?? null);
    }
    return ids.flatMap((id) => memories.get(id) ?? []);
  };

  const listMentionsInMemories: Reads['listMentionsInMemories'] = async (tenant, memoryIds) => {
    const mentions = ofTenant(mentionsBy, tenant);
    const missing = memoryIds.filter((id) => !mentions.has(id));
    if (missing.length > 0) {
      for (const id of missing) mentions.set(id, []);
      for (const mention of await store.listMentionsInMemories(tenant, missing)) {
        mentions.get(mention.memoryId)?.push(mention);
      }
    }
    return memoryIds.flatMap((id) => mentions.get(id) ?? []);
  };

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

/** The tenant's entries of `byTenant`, made on first use. */
function ofTenant<T>(byTenant: Map<string, Map<string, T>>, tenant: string): Map<string, T> {
  let entries = byTenant.get(tenant);
  if (entries === undefined) byTenant.set(tenant, (entries = new Map()));
  return entries;
}
