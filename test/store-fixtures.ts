/**
 * Fixtures shared by the Store contract suites: tenants, a fixed epoch, complete memories with
 * plain defaults, and small unit vectors whose similarities are known.
 */
import type { Memory } from '../src/model/memory.js';
import type { MemoryEntry, MemoryFilter } from '../src/store/store.js';

export const TENANT = 'acme';
export const OTHER_TENANT = 'globex';
export const ALL: MemoryFilter = { tenant: TENANT };

/** The fixtures' epoch; every timestamp is a whole number of minutes after it. */
export const EPOCH = Date.UTC(2025, 0, 15, 9, 0, 0, 0);

/** An ISO-8601 UTC timestamp `minutes` after the fixtures' epoch. */
export function minutesAfterEpoch(minutes: number): string {
  return new Date(EPOCH + minutes * 60_000).toISOString();
}

/** A complete Memory with plain defaults; `createdAt` also sets `occurredAt` and `updatedAt`. */
export function makeMemory(fields: Partial<Memory> & Pick<Memory, 'id'>): Memory {
  const at = fields.createdAt ?? minutesAfterEpoch(0);
  return {
    tenant: TENANT,
    scope: 'user:alice',
    kind: 'fact',
    tier: 'unknown',
    pinned: false,
    hardRule: false,
    text: `memory ${fields.id}`,
    abstract: null,
    context: null,
    key: null,
    sessionId: null,
    source: 'user',
    trust: 1,
    data: null,
    tags: [],
    occurredAt: at,
    createdAt: at,
    updatedAt: at,
    supersededBy: null,
    archivedAt: null,
    lastRetrievedAt: null,
    retrievalCount: 0,
    ...fields,
  };
}

/** `components` scaled to unit length, as a float32 vector. */
export function unitVector(...components: number[]): Float32Array {
  const length = Math.hypot(...components);
  return Float32Array.from(components, (value) => value / length);
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

export const EAST = unitVector(1, 0, 0, 0);
export const NORTH = unitVector(0, 1, 0, 0);
export const UP = unitVector(0, 0, 1, 0);
export const NORTH_EAST = unitVector(1, 1, 0, 0);
export const MOSTLY_EAST = unitVector(1, 0.1, 0, 0);

export function entry(memory: Memory, vector: Float32Array | null = null): MemoryEntry {
  return { memory, vector };
}
