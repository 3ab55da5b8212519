/**
 * The Store interface: everything Engram keeps, behind one small contract so SQLite (the
 * embedded default) and later backends are interchangeable. Methods are async even though the
 * SQLite driver is synchronous, because a networked backend will not be.
 * Every backend passes the shared contract suite in `test/store-contract.ts`.
 */
import type { Kind, Memory, Tier } from '../model/memory.js';
import type { Lane, Receipt } from '../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../model/session.js';

/** Which memories an operation may see. `tenant` is always required: it is the isolation boundary. */
export interface MemoryFilter {
  tenant: string;
  /** Only these scopes (any of them). */
  scopes?: readonly string[] | undefined;
  /** Only memories that occurred at or after this ISO time. */
  occurredAfter?: string | undefined;
  /** Only memories that occurred before this ISO time. */
  occurredBefore?: string | undefined;
  kinds?: readonly Kind[] | undefined;
  tiers?: readonly Tier[] | undefined;
  sessionId?: string | undefined;
  /** Only pinned or hard-rule memories. */
  pinnedOrHardRule?: boolean | undefined;
  /** Leave out these kinds. */
  excludeKinds?: readonly Kind[] | undefined;
  /** Include memories archived by `forget`. @default false */
  includeArchived?: boolean | undefined;
  /** Include memories replaced by newer ones. @default false */
  includeSuperseded?: boolean | undefined;
}

/** A memory and the vector to index for it (null when no embedder is configured). */
export interface MemoryEntry {
  memory: Memory;
  vector: Float32Array | null;
}

/** A set of writes applied atomically: all of them or none. */
export interface MemoryChange {
  insert?: readonly MemoryEntry[];
  /** Whole records replacing the stored ones with the same id; `vector: undefined` keeps the old vector. */
  update?: readonly { memory: Memory; vector?: Float32Array | null }[];
}

/** The embedder a database's vectors were made with. */
export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

/** A lexical hit: higher `score` is better (BM25, sign flipped). */
export interface LexicalHit {
  id: string;
  score: number;
}

/** A vector hit: cosine similarity in [-1, 1]. */
export interface VectorHit {
  id: string;
  similarity: number;
}

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

/** Listing order and page. */
export interface ListOptions {
  limit: number;
  offset?: number;
  /** @default "newest" */
  order?: 'newest' | 'oldest';
}

/** A memory injected into a session's turn (feeds repeat suppression). */
export interface Injection {
  memoryId: string;
  turn: number;
  lane: Lane;
}

/** An activation decision to record: the receipt, what was injected, and what counts as retrieved. */
export interface ActivationRecord {
  receipt: Receipt;
  injected: readonly Injection[];
  /** Memories whose retrieval time and count are updated (cooldown). */
  retrieved: readonly string[];
}

/** Which receipts to read, newest first. */
export interface ReceiptQuery {
  sessionId?: string | undefined;
  turn?: number | undefined;
  limit: number;
}

export interface Store {
  /** Applies inserts and updates in one transaction. */
  commit(change: MemoryChange): Promise<void>;
  getMemory(tenant: string, id: string): Promise<Memory | null>;
  /** The memories with these ids, in the order asked for; unknown ids are left out. */
  getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]>;
  /** The live (not archived, not superseded) memory with this key in this scope. */
  findByKey(tenant: string, scope: string, key: string): Promise<Memory | null>;
  /** Deletes memories for good, with their index entries. Returns how many were deleted. */
  purgeMemories(tenant: string, ids: readonly string[]): Promise<number>;
  listMemories(filter: MemoryFilter, options: ListOptions): Promise<Memory[]>;
  countMemories(filter: MemoryFilter): Promise<number>;
  /** Every memory matching `filter`, in the order they were stored, read in pages. */
  iterateMemories(filter: MemoryFilter, pageSize?: number): AsyncIterable<Memory>;
  /** Every memory of every tenant, in the order they were stored; for re-indexing. */
  iterateAllMemories(pageSize?: number): AsyncIterable<Memory>;
  /**
   * Full-text search over text, abstract, tags and context; any user text is safe as `query`.
   * With `skipIfOnlyCommon`, a query whose words all appear in a large share of a big store
   * returns nothing rather than scoring most of the store (callers with vectors do this: such
   * words find nothing particular).
   */
  searchLexical(
    filter: MemoryFilter,
    query: string,
    limit: number,
    options?: { skipIfOnlyCommon?: boolean },
  ): Promise<LexicalHit[]>;
  /**
   * Nearest neighbours of `vector` among memories matching `filter`, by cosine similarity.
   * Large stores may answer approximately; `exact: true` asks for an exhaustive search, and
   * `bounded: true` allows fewer than `limit` results rather than an exhaustive search when
   * the filter admits few of the approximate candidates (for "is anything of this kind close?").
   */
  searchVector(
    filter: MemoryFilter,
    vector: Float32Array,
    limit: number,
    options?: { exact?: boolean; bounded?: boolean },
  ): Promise<VectorHit[]>;
  /** Cosine similarity of `vector` to each listed memory that has a vector (others are left out). */
  vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>>;
  /** Notes that these memories were just retrieved (for cooldown and stats). */
  recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void>;
  /** The embedder the stored vectors belong to, or null before the first vector. */
  getIndexInfo(): Promise<VectorIndexInfo | null>;
  /** Replaces every stored vector at once and records the embedder that made them. */
  replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void>;
  /** Records the embedder for a database that has no vectors yet. */
  setIndexInfo(info: VectorIndexInfo): Promise<void>;
  getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void>;
  /** The stored vectors of these memories; memories without one are left out. */
  getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  stats(tenant: string): Promise<StoreStats>;
  getSession(tenant: string, id: string): Promise<SessionRecord | null>;
  /** Creates or replaces the session's record. */
  saveSession(record: SessionRecord): Promise<void>;
  /** Stores a receipt, its injections and the retrieval times in one transaction. */
  recordActivation(record: ActivationRecord): Promise<void>;
  /** Injections into `sessionId` at turn `sinceTurn` or later, oldest first. */
  listInjections(tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]>;
  /** Receipts, newest first. */
  listReceipts(tenant: string, query: ReceiptQuery): Promise<Receipt[]>;
  /** Appends one line to the daily activity log (seed 003). */
  appendActivity(entry: ActivityEntry): Promise<void>;
  /** Activity lines, oldest first; `day` (YYYY-MM-DD, UTC) picks one day. */
  listActivity(tenant: string, options: { day?: string | undefined; limit: number }): Promise<ActivityEntry[]>;
  close(): Promise<void>;
}
