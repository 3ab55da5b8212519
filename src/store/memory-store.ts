/**
 * The memories part of a Store: the memory records themselves, read and written. A write
 * carries each memory's vector too, so one change keeps the memory and its search entries in
 * step (the search parts read what these writes index).
 */
import type { Memory } from '../model/memory.js';
import type { MemoryFilter } from './memory-filter.js';

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
  /**
   * How an inserted live memory with a key meets another live holder of that key (tenant, scope,
   * key) at commit time, one that another writer committed after this one looked: refused
   * (false), or superseded by the inserted memory (true: the last write to commit holds the key,
   * the earlier ones are kept, superseded, in one chain). With true, an update in this change that
   * supersedes a memory someone else superseded meanwhile is skipped, keeping their pointer.
   * @default false
   */
  replaceKeyHolders?: boolean;
}

/**
 * Listing order and page. A page is found by `offset`, or — cheaper deep into a long list —
 * by a cursor: the id of a memory (of the same tenant) the page continues from. `after` gives
 * the memories that follow it in `order`; `before` the `limit` memories that come just before
 * it, still in `order`. The cursor memory need not pass the filter; one that does not exist
 * (purged meanwhile) is refused as `invalid_input`. Only one of `offset`, `after`, `before`.
 */
export interface ListOptions {
  limit: number;
  offset?: number;
  /** Continue after the memory with this id. */
  after?: string | undefined;
  /** The page just before the memory with this id. */
  before?: string | undefined;
  /**
   * `newest` and `oldest` follow creation time (ties in storing order). `spread` follows the
   * random part of the ids (a ULID's last 16 characters, then the whole id): an order unrelated
   * to time that a new memory enters only where its id falls, so its first `limit` memories are
   * an even sample of the whole list that stays put as the list grows (per-store calibration's).
   * @default "newest"
   */
  order?: 'newest' | 'oldest' | 'spread';
}

/** Reading memories: by id, by key, listed, counted or visited in pages. */
export interface MemoryReader {
  getMemory(tenant: string, id: string): Promise<Memory | null>;
  /** The memories with these ids, in the order asked for; unknown ids are left out. */
  getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]>;
  /** The live (not archived, not superseded) memory with this key in this scope. */
  findByKey(tenant: string, scope: string, key: string): Promise<Memory | null>;
  listMemories(filter: MemoryFilter, options: ListOptions): Promise<Memory[]>;
  countMemories(filter: MemoryFilter): Promise<number>;
  /** Every memory matching `filter`, in the order they were stored, read in pages. */
  iterateMemories(filter: MemoryFilter, pageSize?: number): AsyncIterable<Memory>;
  /** Every memory of every tenant, in the order they were stored; for re-indexing. */
  iterateAllMemories(pageSize?: number): AsyncIterable<Memory>;
  /**
   * The memories stored just before and after each of `memoryIds` in its session (by
   * `occurredAt`, then storing order), up to `radius` each way, that `filter` admits; for
   * recall to follow a conversation to the turns beside a strong hit. A memory without a
   * session has no neighbours. Nearest first for each memory asked for, in that order.
   */
  listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]>;
  /**
   * The ids of the memories of `sessionId` that `filter` admits, in session order (occurred_at,
   * then storing order, as listSessionNeighbours orders them), at most `limit`.
   */
  listSessionTurns(filter: MemoryFilter, sessionId: string, limit: number): Promise<string[]>;
  /**
   * A mark that moves whenever a memory of `tenant` may have changed — its record (its retrieval
   * stamps aside), its vector or its mentions — or the graph's entities, aliases and relations,
   * written by this store or by any other connection or process sharing the database: what a
   * caller read under one mark is still true while the store gives the same mark. It may move for
   * other writes too (another tenant's, another connection's anything), never stay for one of
   * these. One cheap read, for checking before every decision (the read layer, store/kept/) and
   * search (per-store calibration's sample).
   */
  memoryChangeMark(tenant: string): Promise<string>;
  /**
   * True when another process's retrieval stamps move `memoryChangeMark` too (SQLite: any commit
   * by another connection does), so a memory, stamps and all, read under one mark is true while
   * it holds. Absent or false: memories are kept for one decision only.
   */
  readonly markCoversStamps?: boolean;
}

/** A memory beside another in the same session. */
export interface SessionNeighbour {
  memoryId: string;
  /** The memory asked for. */
  of: string;
  /** Turns apart: 1 is right before or after. */
  distance: number;
}

/** Reading and writing memories. */
export interface MemoryStore extends MemoryReader {
  /** Applies inserts and updates in one transaction. */
  commit(change: MemoryChange): Promise<void>;
  /**
   * Deletes memories for good, with their index entries and the record of their injections (receipts,
   * the history of what each turn decided, are kept). Returns how many were deleted.
   */
  purgeMemories(tenant: string, ids: readonly string[]): Promise<number>;
  /** Notes that these memories were just retrieved (for cooldown and stats). */
  recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void>;
}
