/**
 * A view of a store for the span of one recall decision, which searches one query several times
 * (a wide search, then a tier's own), or of one search: memories and the mentions they make are
 * read once by id, since the searches draft many of the same candidates. Nothing is written
 * during a decision's searches, so what the view holds stays true for it; a new view is made for
 * each decision and each lone search (kept-reads.ts says where).
 *
 * Under the read layer a view also answers from what is kept across views: the layer's set for
 * the tenant under the change mark, which the view reads once, at its first read of that tenant
 * (kept-under-mark.ts). Memories, their mentions, the graph's lookups and the turns beside a
 * memory are then read from the store only when not kept. Everything else passes through.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Entity, Mention } from '../../model/graph.js';
import type { Memory } from '../../model/memory.js';
import type { GraphStore, MentionQuery, RelationListOptions } from '../graph-store.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { MemoryReader } from '../memory-store.js';
import type { Store } from '../store.js';
import type { SessionReads } from './kept-session-turns.js';
import type { KeptUnderMark } from './kept-under-mark.js';

/** What a view reads once per decision; any Store is one. */
export type ViewReads = Pick<MemoryReader, 'getMemories'> & Pick<GraphStore, 'listMentionsInMemories'>;

/** The tenant's kept set under the mark the view read (the same promise for every read of the view). */
export type KeptSet = (tenant: string) => Promise<KeptUnderMark>;

/** Marks a view, so a view asked for over a view is the same view (a decision's searches share its). */
export const VIEW = Symbol('read view');

/**
 * A view of `store`: read once, and with `kept` (the layer's, over a whole Store: kept-reads.ts)
 * also from what is kept across views.
 */
export function viewOf<S extends ViewReads>(store: S, kept: KeptSet | null): S {
  // By tenant, then id: an id's hash is known, a key joining tenant and id would be hashed anew.
  const memoriesBy = new Map<string, Map<string, Memory | null>>();
  const mentionsBy = new Map<string, Map<string, Mention[]>>();

  const getMemories: ViewReads['getMemories'] = async (tenant, ids) => {
    const memories = ofTenant(memoriesBy, tenant);
    let missing = ids.filter((id) => !memories.has(id));
    if (missing.length === 0) return ids.flatMap((id) => memories.get(id) ?? []);
    const across = kept === null ? null : (await kept(tenant)).memories;
    if (across !== null) {
      const { found, missing: unkept } = across.split(missing);
      for (const [id, memory] of found) memories.set(id, memory);
      missing = unkept;
    }
    if (missing.length > 0) {
      const since = across?.since ?? 0;
      const read = await store.getMemories(tenant, missing);
      across?.keep(read, since);
      const byId = new Map(read.map((memory) => [memory.id, memory]));
      for (const id of missing) memories.set(id, byId.get(id) ?? null);
    }
    return ids.flatMap((id) => memories.get(id) ?? []);
  };

  const listMentionsInMemories: ViewReads['listMentionsInMemories'] = async (tenant, memoryIds) => {
    const mentions = ofTenant(mentionsBy, tenant);
    const missing = memoryIds.filter((id) => !mentions.has(id));
    if (missing.length > 0) {
      const read = (ids: readonly string[]) => store.listMentionsInMemories(tenant, ids);
      const found = kept === null ? await read(missing) : await (await kept(tenant)).mentions.mentionsIn(missing, read);
      for (const id of missing) mentions.set(id, []);
      for (const mention of found) mentions.get(mention.memoryId)?.push(mention);
    }
    return [...new Set(memoryIds)].flatMap((id) => mentions.get(id) ?? []); // once each, as the store answers
  };

  const reads: Record<PropertyKey, unknown> = { [VIEW]: true, getMemories, listMentionsInMemories };
  if (kept !== null) Object.assign(reads, keptLookups(store as unknown as Store, kept, getMemories));
  return new Proxy(store, {
    get(target, property) {
      if (Object.hasOwn(reads, property)) return reads[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The graph's lookups and the turns beside a memory, answered from the kept set when kept there. */
function keptLookups(store: Store, kept: KeptSet, getMemories: ViewReads['getMemories']) {
  return {
    async findEntities(tenant: string, names: readonly string[]): Promise<Entity[]> {
      // Name by name, each answer kept: a query's names are the n-grams of its words, most of which
      // the previous queries named too. In order, each entity once, as one lookup of them all.
      const { entities } = await kept(tenant);
      const each = await entities.answers(names, (missing) => store.findEntitiesByName(tenant, missing));
      const seen = new Set<string>();
      return each.flat().filter((entity) => !seen.has(entity.id) && seen.add(entity.id));
    },

    async listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions) {
      const { relations } = await kept(tenant);
      return relations.answer(JSON.stringify([entityIds, options ?? null]), () =>
        store.listRelations(tenant, entityIds, options),
      );
    },

    async listMentionsOfEntities(filter: MemoryFilter, entityIds: readonly string[], query: MentionQuery) {
      const { mentionsOf } = await kept(filter.tenant);
      return mentionsOf.answer(JSON.stringify([filter, entityIds, query]), () =>
        store.listMentionsOfEntities(filter, entityIds, query),
      );
    },

    async listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number) {
      const reads: SessionReads = {
        async sessionsOf(ids) {
          const sessions = new Map<string, string | null>(ids.map((id) => [id, null]));
          for (const memory of await getMemories(filter.tenant, ids)) sessions.set(memory.id, memory.sessionId);
          return sessions;
        },
        turns: (on, session, limit) => store.listSessionTurns(on, session, limit),
        neighbours: (on, ids, distance) => store.listSessionNeighbours(on, ids, distance),
      };
      return (await kept(filter.tenant)).sessionTurns.neighbours(reads, filter, memoryIds, radius);
    },
  };
}

/** The tenant's entries of `byTenant`, made on first use. */
function ofTenant<T>(byTenant: Map<string, Map<string, T>>, tenant: string): Map<string, T> {
  let entries = byTenant.get(tenant);
  if (entries === undefined) byTenant.set(tenant, (entries = new Map()));
  return entries;
}
