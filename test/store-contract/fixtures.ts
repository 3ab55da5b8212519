/**
 * Store-level fixtures of the contract suite: the filter that sees every live memory of the
 * fixtures' tenant, and memories paired with their vectors for a write.
 */
import type { Memory } from '../../src/model/memory.js';
import type { MemoryEntry, MemoryFilter } from '../../src/store/store.js';
import { TENANT } from '../fixtures/memory.js';

/** Every live memory of the fixtures' tenant. */
export const ALL: MemoryFilter = { tenant: TENANT };

/** `memory` with the vector to index for it (none by default). */
export function entry(memory: Memory, vector: Float32Array | null = null): MemoryEntry {
  return { memory, vector };
}
