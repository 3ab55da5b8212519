/**
 * Persisting the working set (seed 002: `working_set:<scope>`): one keyed memory per scope,
 * rewritten in place when the synthesised text changes and left alone when it does not. It has
 * no vector: it repeats other memories and is read through sessions, never found by meaning.
 */
import type { Memory } from '../model/memory.js';
import type { ParsedMemoryInput } from '../model/memory-input.js';
import type { StoredWorkingSet } from '../model/working-set.js';
import type { MemoryStore } from '../store/store.js';

/** Makes a complete memory stamped now. */
export type MemoryFactory = (input: ParsedMemoryInput) => Memory;

/** The key of a scope's working set. */
export function workingSetKey(scope: string): string {
  return `working_set:${scope}`;
}

/** Stores `workingSet` and returns its memory id. */
export async function persistWorkingSet(store: MemoryStore, workingSet: StoredWorkingSet, make: MemoryFactory): Promise<string> {
  const key = workingSetKey(workingSet.scope);
  const data = { itemIds: [...workingSet.itemIds] };
  const fresh = make({
    text: workingSet.text,
    kind: 'working_set',
    tier: 'must',
    key,
    scope: workingSet.scope,
    source: 'system',
    data,
  });
  const current = await store.findByKey(fresh.tenant, workingSet.scope, key);
  if (current === null) {
    await store.commit({ insert: [{ memory: fresh, vector: null }] });
    return fresh.id;
  }
  if (current.text !== workingSet.text) {
    await store.commit({ update: [{ memory: { ...current, text: fresh.text, data, updatedAt: fresh.updatedAt } }] });
  }
  return current.id;
}
