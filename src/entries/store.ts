/**
 * `engram/store`, experimental: the `Store` interface a backend implements to hold Engram's
 * memories — the union of small parts (memories, lexical and vector search, sessions, logs, the
 * knowledge graph, statistics) — and the types its methods use. The interfaces may change in any
 * release until they are declared stable; `STORE_API_VERSION` rises with every change. Pass a
 * backend as `openEngram({ store })`; `engram/sqlite` and `engram/postgres` open the built-in ones.
 */
export { STORE_API_VERSION } from '../store/api-version.js';
export type {
  ActivationLog,
  ActivationRecord,
  ActivityLog,
  ActivityQuery,
  EmbeddingCache,
  EntityInput,
  ExtractionFailure,
  GraphCounts,
  GraphExtraction,
  GraphPage,
  GraphStore,
  Injection,
  LexicalHit,
  LexicalSearch,
  LexicalSearchOptions,
  ListOptions,
  MemoryChange,
  MemoryCounts,
  MemoryEntry,
  MemoryFilter,
  MemoryInjection,
  MemoryReader,
  MemoryStore,
  MentionQuery,
  ObservationChange,
  ReceiptQuery,
  RelationInput,
  RelationListOptions,
  SessionListQuery,
  SessionNeighbour,
  SessionStore,
  SessionSummary,
  StatsOptions,
  Store,
  StoreStatistics,
  StoreStats,
  VectorHit,
  VectorIndexInfo,
  VectorIndexStore,
  VectorSearch,
  VectorSearchOptions,
} from '../store/store.js';
