/**
 * The Store interface: everything Engram keeps, as the union of small parts so SQLite (the
 * embedded default) and later backends are interchangeable and can be built and tested part by
 * part. Methods are async even though the SQLite driver is synchronous, because a networked
 * backend will not be. Every backend passes the shared contract suite in `test/store-contract/`,
 * which is split the same way, one contract per part.
 *
 * A consumer that needs only some parts takes only those (e.g. `MemoryReader & LexicalSearch`),
 * so a partial backend or a test double can stand in for it.
 */
import type { ActivationLog } from './activation-log.js';
import type { ActivityLog } from './activity-log.js';
import type { EmbeddingCache } from './embedding-cache.js';
import type { GraphStore } from './graph-store.js';
import type { LexicalSearch } from './lexical-search.js';
import type { MemoryStore } from './memory-store.js';
import type { SessionStore } from './session-store.js';
import type { StoreStatistics } from './store-statistics.js';
import type { VectorIndexStore } from './vector-index-store.js';
import type { VectorSearch } from './vector-search.js';

export type { ActivationLog, ActivationRecord, Injection, MemoryInjection, ReceiptQuery } from './activation-log.js';
export type { ActivityLog, ActivityQuery } from './activity-log.js';
export type { EmbeddingCache } from './embedding-cache.js';
export type {
  EntityInput,
  ExtractionFailure,
  GraphCounts,
  GraphExtraction,
  GraphPage,
  GraphStore,
  MentionQuery,
  ObservationChange,
  RelationInput,
  RelationListOptions,
} from './graph-store.js';
export type { LexicalHit, LexicalSearch, LexicalSearchOptions } from './lexical-search.js';
export type { MemoryFilter } from './memory-filter.js';
export type { ListOptions, MemoryChange, MemoryEntry, MemoryReader, MemoryStore, SessionNeighbour } from './memory-store.js';
export type { SessionListQuery, SessionStore, SessionSummary } from './session-store.js';
export type { MemoryCounts, ScopeCountOptions, StatsOptions, StoreStatistics, StoreStats } from './store-statistics.js';
export type { VectorIndexInfo, VectorIndexStore } from './vector-index-store.js';
export type { VectorHit, VectorSearch, VectorSearchOptions } from './vector-search.js';

/** A complete backend: every part, and the connection's lifetime. */
export interface Store
  extends
    MemoryStore,
    LexicalSearch,
    VectorSearch,
    VectorIndexStore,
    EmbeddingCache,
    SessionStore,
    ActivationLog,
    ActivityLog,
    GraphStore,
    StoreStatistics {
  /** Releases the backend's connection; the store cannot be used afterwards. */
  close(): Promise<void>;
}
