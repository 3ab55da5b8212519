/**
 * The embedded Store: one SQLite file (better-sqlite3) with an FTS5 index for words
 * (lexical-search.ts), a vector table with binary codes (vector-table.ts), and the session,
 * receipt, activity and graph tables the shared SQL core writes (../sql-core/sql-store.ts, run
 * synchronously here through sqlite-session.ts). The embedder of the vectors is recorded in
 * `engram_meta`. It implements every part of the Store (see ../store.ts) over the one
 * connection, since one change writes a memory and its index entries in a single transaction.
 * What recall keeps across reads is the read layer's (../kept/), over this store as over any.
 */
import { existsSync } from 'node:fs';

import type Database from 'better-sqlite3';

import { EngramError } from '../../errors.js';
import type { Relation } from '../../model/graph.js';
import { memoryVectorKey } from '../embedding-cache.js';
import { readIndexInfo, writeIndexInfo } from '../sql-core/index-info.js';
import type { Program, SyncSession } from '../sql-core/session.js';
import { stampRetrieval } from '../sql-core/session-tables.js';
import { SqlStore, type StorageCounts, type VectorSearchRequest } from '../sql-core/sql-store.js';
import type {
  LexicalHit,
  LexicalSearchOptions,
  MemoryChange,
  MemoryFilter,
  RelationListOptions,
  SessionNeighbour,
  Store,
  VectorHit,
  VectorIndexInfo,
} from '../store.js';
import { closeDatabase, sizeOnDisk } from './close-database.js';
import { readCachedEmbeddings, readStoredVectors, writeCachedEmbeddings } from './embedding-cache-table.js';
import { filterClause } from './filter-clause.js';
import { searchLexicalRows } from './lexical-search.js';
import { purgeRows, writeChange } from './memory-changes.js';
import { MemoryWrites } from './memory-writes.js';
import { LATEST_VERSION } from './migrations.js';
import { checkFolder, IN_MEMORY, openDatabase, type OpenDatabaseOptions } from './open-database.js';
import { PlannerStatistics } from './planner-statistics.js';
import { listRelationRows } from './relation-list.js';
import { sessionNeighbours } from './session-neighbours.js';
import { sqliteSession } from './sqlite-session.js';
import { VectorTable } from './vector-table.js';

/** How to open the file, and what to hold in memory. */
export interface SqliteStoreOptions extends OpenDatabaseOptions {
  /**
   * Float vectors held in memory for exact re-scores, in bytes at most (vector-table.ts); 0 holds
   * none, and every exact score reads the vector from the file. @default FLOAT_VECTOR_BYTES (32 MiB)
   */
  floatVectorBytes?: number;
}

/** What the store holds once the file is open. */
interface Opened {
  db: Database.Database;
  /** The shared SQL core's statements, run synchronously on this connection (../sql-core/session.ts). */
  sql: SyncSession;
  vectors: VectorTable;
  statistics: PlannerStatistics;
  writes: MemoryWrites;
}

/** The embedded default Store: every part over one SQLite file (or `:memory:`). */
export class SqliteStore extends SqlStore implements Store {
  readonly file: string;
  /** Another connection's retrieval stamps move the change mark too (its data_version). */
  readonly markCoversStamps = true;
  private readonly options: SqliteStoreOptions;
  private opened: Opened | null = null;
  private closed = false;

  /**
   * Opens `file` now if it exists; a new file is created on first use, so a command refused
   * for bad input leaves no empty database behind.
   */
  constructor(file: string, options: SqliteStoreOptions = {}) {
    super();
    this.file = file;
    this.options = options;
    if (file === IN_MEMORY || options.mustExist || existsSync(file)) this.open();
    // A missing folder is refused now, not at the first write; it is created only at that write.
    else checkFolder(file, options);
  }

  /** The underlying connection, for tests and tools in this folder only. */
  get connection(): Database.Database {
    return this.open().db;
  }

  private open(): Opened {
    if (this.opened === null) {
      if (this.closed) throw new EngramError('closed', `${this.file} is closed`);
      const db = openDatabase(this.file, this.options);
      this.opened = {
        db,
        sql: sqliteSession(db),
        vectors: new VectorTable(db, { floatBytes: this.options.floatVectorBytes }),
        statistics: new PlannerStatistics(db),
        writes: new MemoryWrites(db),
      };
    }
    return this.opened;
  }

  protected read<T>(program: Program<T>): T {
    return this.open().sql.exec(program);
  }

  protected write<T>(program: Program<T>): T {
    return this.open().sql.exec(program);
  }

  protected transaction<T>(program: Program<T>): T {
    return this.immediate(() => this.open().sql.exec(program));
  }

  protected graphWrite<T>(_tenant: string, program: Program<T>): T {
    return this.transaction(program); // one writer at a time: SQLite's write lock
  }

  async commit(change: MemoryChange): Promise<void> {
    const { db, vectors, statistics } = this.open();
    this.writeTransaction(() => writeChange(db, vectors, change));
    statistics.noteInserted(change.insert?.length ?? 0);
  }

  async purgeMemories(tenant: string, ids: readonly string[]): Promise<number> {
    const { db, sql, vectors } = this.open();
    let deleted = 0;
    this.writeTransaction(() => {
      deleted = purgeRows(db, sql, vectors, tenant, ids);
    });
    return deleted;
  }

  async listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]> {
    return sessionNeighbours(this.open().db, filter, memoryIds, radius);
  }

  async memoryChangeMark(_tenant: string): Promise<string> {
    return this.open().writes.mark();
  }

  async searchLexical(
    filter: MemoryFilter,
    query: string,
    limit: number,
    options: LexicalSearchOptions = {},
  ): Promise<LexicalHit[]> {
    return searchLexicalRows(this.open().db, filter, query, limit, options);
  }

  protected vectorSearch({ filter, vector, limit, ...options }: VectorSearchRequest): VectorHit[] {
    return this.open().vectors.search(filter.tenant, filterClause(filter, 'm'), vector, limit, options);
  }

  async vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return this.open().vectors.similarities(tenant, ids, vector);
  }

  async getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.open().vectors.vectorsOf(tenant, ids);
  }

  async recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void> {
    this.transaction(stampRetrieval(tenant, ids, Date.parse(at)));
  }

  override async setIndexInfo(info: VectorIndexInfo): Promise<void> {
    this.transaction(writeIndexInfo(info));
  }

  async replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    const { db, vectors: table } = this.open();
    const rowOf = db.prepare(`SELECT rowid, tenant, text, context FROM memories WHERE id = ?`);
    this.writeTransaction(() => {
      table.clear();
      this.write(writeIndexInfo(info));
      for (const { id, vector } of vectors) {
        const row = rowOf.get(id) as { rowid: number; tenant: string; text: string; context: string | null } | undefined;
        if (row) table.write(row.rowid, id, row.tenant, vector, memoryVectorKey(row));
      }
    });
  }

  /** From the memories' own vectors (when `model` made them), then from the cache table. */
  async getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const { db } = this.open();
    const stored = this.read(readIndexInfo())?.model === model ? readStoredVectors(db, hashes) : new Map<string, Float32Array>();
    const rest = hashes.filter((hash) => !stored.has(hash));
    for (const [hash, vector] of readCachedEmbeddings(db, model, rest)) stored.set(hash, vector);
    return stored;
  }

  async putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    const { db } = this.open();
    this.immediate(() => writeCachedEmbeddings(db, model, entries));
  }

  async listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions): Promise<Relation[]> {
    return this.read(listRelationRows(tenant, entityIds, options));
  }

  protected storageCounts(tenant: string): StorageCounts {
    const { db, vectors } = this.open();
    return {
      vectors: vectors.count(tenant),
      cachedEmbeddings: db.prepare(`SELECT count(*) FROM embedding_cache`).pluck().get() as number,
      schemaVersion: LATEST_VERSION,
      sizeBytes: sizeOnDisk(this.file),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const opened = this.opened;
    this.opened = null;
    if (opened) closeDatabase(opened.db, this.file);
  }

  /**
   * Runs `action` in a write transaction. Every write transaction here begins IMMEDIATE: one that
   * began deferred and read first could not wait for another process's write lock (SQLite answers
   * SQLITE_BUSY_SNAPSHOT at once, past the busy timeout), and concurrent writers saw that error.
   */
  private immediate<T>(action: () => T): T {
    return this.open().db.transaction(action).immediate();
  }

  /** A write transaction that may touch memories and their vectors: a failed one drops the loaded indexes. */
  private writeTransaction(action: () => void): void {
    const { vectors } = this.open();
    try {
      this.immediate(action);
    } catch (error) {
      vectors.forget(); // a rollback may have undone additions to a loaded index
      throw error;
    }
  }
}
