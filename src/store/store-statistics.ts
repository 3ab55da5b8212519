/**
 * The statistics part of a Store: counts across every other part, for `engram stats`. It sits
 * beside them rather than in any one because it reads all of them.
 */
import type { Kind } from '../model/memory.js';
import type { VectorIndexInfo } from './vector-index-store.js';

/** Counts an operator wants from `engram stats`. */
export interface StoreStats {
  memories: number;
  live: number;
  archived: number;
  superseded: number;
  byKind: Record<string, number>;
  byTier: Record<string, number>;
  byScope: Record<string, number>;
  vectors: number;
  cachedEmbeddings: number;
  index: VectorIndexInfo | null;
  schemaVersion: number;
  /** Bytes on disk, when the backend has a file. */
  sizeBytes: number | null;
}

/** The counts of memories in `StoreStats`: by state, and the live ones by kind, tier and scope. */
export type MemoryCounts = Pick<StoreStats, 'memories' | 'live' | 'archived' | 'superseded' | 'byKind' | 'byTier' | 'byScope'>;

/**
 * `all` without `part` (counts of some of the same memories), groups that reach 0 dropped and
 * the rest largest first, as the stores list them. The
 * stores count a few left-out kinds on their own and take them away: counting those few is one
 * indexed read, where leaving them out of every full count slowed each one down.
 */
export function subtractCounts(all: MemoryCounts, part: MemoryCounts): MemoryCounts {
  const groups = (whole: Record<string, number>, some: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(whole)
        .map(([name, n]): [string, number] => [name, n - (some[name] ?? 0)])
        .filter(([, n]) => n > 0)
        .sort(([a, m], [b, n]) => n - m || a.localeCompare(b)),
    );
  return {
    memories: all.memories - part.memories,
    live: all.live - part.live,
    archived: all.archived - part.archived,
    superseded: all.superseded - part.superseded,
    byKind: groups(all.byKind, part.byKind),
    byTier: groups(all.byTier, part.byTier),
    byScope: groups(all.byScope, part.byScope),
  };
}

/** What the counts leave out. */
export interface StatsOptions {
  /**
   * Memories of these kinds count nowhere: not in the counts by state, kind, tier or scope
   * (`vectors` and `cachedEmbeddings` describe the index and stay whole).
   */
  excludeKinds?: readonly Kind[] | undefined;
}

/** Which live memories `scopeCounts` counts. */
export interface ScopeCountOptions {
  /** Only this scope and the scopes below it (`docs` holds `docs:python`, not `docsets`). */
  under?: string | undefined;
  /** Memories of these kinds count nowhere. */
  excludeKinds?: readonly Kind[] | undefined;
}

/** One tenant's counts. */
export interface StoreStatistics {
  stats(tenant: string, options?: StatsOptions): Promise<StoreStats>;
  /** The tenant's live memories by scope, the largest first: `stats().byScope` in one read. */
  scopeCounts(tenant: string, options?: ScopeCountOptions): Promise<Record<string, number>>;
}
