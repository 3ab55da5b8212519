/**
 * Fixtures of the graph contracts: the store shape they need, entity and relation inputs with
 * plain defaults, memories to mention, one extraction ("Alice works at Acme") and mentions as read.
 */
import type { MentionRole, Relation } from '../../src/model/graph.js';
import type { EntityInput, GraphExtraction, GraphStore, MemoryStore, RelationInput } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, TENANT } from '../fixtures/memory.js';
import { entry } from './fixtures.js';

/** What the graph contracts need: the graph, and memories to mention. */
export type GraphTestStore = GraphStore & MemoryStore;

/** The time of the graph writes of a test, `minutes` after the fixtures' epoch. */
export const at = (minutes = 0): string => minutesAfterEpoch(minutes);

/** An entity input: a person unless `type` says otherwise; the id is derived from the name. */
export function person(name: string, fields: Partial<EntityInput> = {}): EntityInput {
  return { id: `e-${name.toLowerCase().replace(/\s+/g, '-')}`, name, type: 'person', ...fields };
}

/** A relation input between entity ids, with no source memory unless given. */
export function link(id: string, from: string, type: string, to: string, fields: Partial<RelationInput> = {}): RelationInput {
  return { id, from, to, type, ...fields };
}

/** The relation a fresh `link` becomes, written at `at()` in the fixtures' tenant. */
export function stored(input: RelationInput, fields: Partial<Relation> = {}): Relation {
  return {
    tenant: TENANT,
    id: input.id,
    from: input.from,
    to: input.to,
    type: input.type,
    memoryId: input.memoryId ?? null,
    validFrom: input.validFrom ?? null,
    invalidatedAt: null,
    createdAt: at(),
    ...fields,
  };
}

/** Stores plain memories with these ids in the fixtures' tenant (or as given). */
export async function storeMemories(store: MemoryStore, ...ids: (string | Parameters<typeof makeMemory>[0])[]): Promise<void> {
  await store.commit({ insert: ids.map((id) => entry(makeMemory(typeof id === 'string' ? { id } : id))) });
}

/** Alice says she works at Acme, in memory `memoryId`. */
export function aliceAtAcme(memoryId: string, relationId = `r-${memoryId}`): GraphExtraction {
  return {
    memoryId,
    entities: [person('Alice'), person('Acme', { type: 'organization' })],
    mentions: [
      { name: 'Alice', role: 'speaker' },
      { name: 'acme', role: 'mention' },
    ],
    relations: [{ id: relationId, from: 'Alice', to: 'ACME', type: 'works_at' }],
  };
}

/** A mention as the store returns it. */
export const mention = (memoryId: string, entityId: string, role: MentionRole, tenant = TENANT) => ({
  tenant,
  memoryId,
  entityId,
  role,
});
