/**
 * The scale-out Store: every part over one PostgreSQL database, shared by any number of Engram
 * processes. Memories carry a `tsvector` (GIN-indexed) scored with FTS5's BM25 (lexical-search.ts)
 * and a float32 vector searched through Engram's own in-memory quantized index (vector-table.ts);
 * sessions, receipts, the activity log and the knowledge graph are tables beside them, written by
 * the shared SQL core (../sql-core/sql-store.ts) through postgres-session.ts. Every query names
 * its tenant. Each change runs in one transaction on one pooled connection.
 */
import type pg from 'pg';

import { EngramError } from '../../errors.js';
import type { Relation } from '../../model/graph.js';
import { memoryVectorKey } from '../embedding-cache.js';
import { writeIndexInfo } from '../sql-core/index-info.js';
import type { AsyncSession, Program } from '../sql-core/session.js';
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
import { connectionError, createPool, type PoolOptions, type Queryable, reportingFailures, withClient } from './connection.js';
import { readCachedEmbeddings, readStoredVectors, writeCachedEmbeddings } from './embedding-cache-table.js';
import { filterClause, Params } from './filter-clause.js';
import { searchLexicalRows } from './lexical-search.js';
import { purgeRows, writeChange } from './memory-changes.js';
import { migratePostgres, POSTGRES_LATEST_VERSION } from './migrations.js';
import { preparePgvector } from './pgvector.js';
import { postgresSession } from './postgres-session.js';
import { listRelationRows } from './relation-list.js';
import { sessionNeighbours } from './session-neighbours.js';
import { TermStatistics } from './term-statistics.js';
import { bytesToVector, PostgresVectorTable } from './vector-table.js';

/** The scale-out Store over one PostgreSQL database; see the module comment. */
export class PostgresStore extends SqlStore implements Store {
  readonly url: string;
  /** Another process's retrieval stamps leave the change mark where it was (its triggers skip them). */
  readonly markCoversStamps = false;
  private readonly pool: pg.Pool;
  private readonly vectors = new PostgresVectorTable();
  private readonly terms = new TermStatistics();
  private ready: Promise<number> | null = null;
  /** The pool, reporting connection failures as one-line errors. */
  private readonly queries: Queryable;
  /** The shared SQL core's statements on the pool (../sql-core/session.ts). */
  private readonly pooled: AsyncSession;
  private closed = false;

  /** Connects lazily: the first call migrates the database if it needs it. */
  constructor(url: string, options: PoolOptions = {}) {
    super();
    this.url = url;
    this.pool = createPool(url, options);
    this.queries = reportingFailures(this.pool, url);
    this.pooled = postgresSession(this.queries);
  }

  /** Connects and migrates now; a bad URL, an unreachable server or refused credentials reject here. */
  async open(): Promise<this> {
    await this.db();
    return this;
  }

  protected async read<T>(program: Program<T>): Promise<T> {
    await this.db();
    return this.pooled.exec(program);
  }

  protected async write<T>(program: Program<T>): Promise<T> {
    return this.read(program);
  }

  protected transaction<T>(program: Program<T>): Promise<T> {
    return this.inTransaction((db) => postgresSession(db).exec(program));
  }

  protected graphWrite<T>(tenant: string, program: Program<T>): Promise<T> {
    return this.inTransaction(async (db) => {
      await lockGraph(db, tenant);
      return postgresSession(db).exec(program);
    });
  }

  async commit(change: MemoryChange): Promise<void> {
    const touched = (change.update ?? []).some((u) => u.vector !== undefined) || (change.insert ?? []).some((i) => i.vector);
    const { done, counted } = await this.inTransaction(async (db) => {
      const done = await writeChange(db, this.vectors, change);
      return { done, counted: touched ? await this.vectors.countChange(db) : null };
    });
    if (counted !== null) this.vectors.committed(counted, done.removed, done.added);
  }

  async purgeMemories(tenant: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { deleted, change } = await this.inTransaction(async (db) => {
      await lockGraph(db, tenant);
      const rowids = await purgeRows(db, tenant, ids);
      return { deleted: rowids, change: rowids.length > 0 ? await this.vectors.countChange(db) : null };
    });
    if (change !== null) this.vectors.committed(change, deleted, []);
    return deleted.length;
  }

  async listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]> {
    return sessionNeighbours(await this.db(), filter, memoryIds, radius);
  }

  async memoryChangeMark(_tenant: string): Promise<string> {
    // Moved by triggers inside every transaction that writes a memory, its vector or its mentions (migration 6),
    // or an entity, an alias or a relation (migration 9).
    const result = await (await this.db()).query(`SELECT change FROM memory_change_count`);
    return String((result.rows[0] as { change: string | number }).change);
  }

  async searchLexical(filter: MemoryFilter, query: string, limit: number, options?: LexicalSearchOptions): Promise<LexicalHit[]> {
    return searchLexicalRows(await this.db(), this.terms, filter, query, limit, options);
  }

  protected async vectorSearch({ filter, vector, limit, ...options }: VectorSearchRequest): Promise<VectorHit[]> {
    const params = new Params();
    const where = filterClause(filter, 'm', params);
    const search = (db: Queryable) => this.vectors.search(db, filter.tenant, where, params, vector, limit, options);
    // pgvector's search sets how far its scan goes for one transaction (pgvector.ts).
    return this.vectors.pgvector && !options.exact ? this.inTransaction(search) : search(await this.db());
  }

  async vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return this.vectors.similarities(await this.db(), tenant, ids, vector);
  }

  async getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.vectors.vectorsOf(await this.db(), tenant, ids);
  }

  async recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void> {
    await this.write(stampRetrieval(tenant, ids, Date.parse(at)));
  }

  async replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    try {
      await this.inTransaction(async (db) => {
        await db.query(`DELETE FROM memory_embeddings`);
        await postgresSession(db).exec(writeIndexInfo(info));
        for (const { id, vector } of vectors) {
          const found = await db.query(`SELECT rowid, tenant, text, context FROM memories WHERE id = $1`, [id]);
          const row = found.rows[0] as { rowid: number; tenant: string; text: string; context: string | null } | undefined;
          if (row) await this.vectors.write(db, row.rowid, row.tenant, vector, memoryVectorKey(row));
        }
        await this.vectors.countChange(db);
      });
    } finally {
      this.vectors.forget();
    }
  }

  /** From the memories' own vectors (when `model` made them), then from the cache table. */
  async getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const db = await this.db();
    const stored =
      (await this.getIndexInfo())?.model === model ? await readStoredVectors(db, hashes) : new Map<string, Float32Array>();
    const rest = hashes.filter((hash) => !stored.has(hash));
    for (const [hash, vector] of await readCachedEmbeddings(db, model, rest)) stored.set(hash, vector);
    return stored;
  }

  async putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    await writeCachedEmbeddings(await this.db(), model, entries);
  }

  async listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions): Promise<Relation[]> {
    return this.read(listRelationRows(tenant, entityIds, options));
  }

  protected async storageCounts(tenant: string): Promise<StorageCounts> {
    const indexed = await (
      await this.db()
    ).query(
      `SELECT (SELECT count(*) FROM memory_embeddings WHERE tenant = $1) AS vectors,
         (SELECT count(*) FROM embedding_cache) AS cached`,
      [tenant],
    );
    const row = indexed.rows[0] as { vectors: number; cached: number };
    return { vectors: row.vectors, cachedEmbeddings: row.cached, schemaVersion: POSTGRES_LATEST_VERSION, sizeBytes: null };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.vectors.forget();
    await this.pool.end();
  }

  /** The pool, once the database is reachable and migrated. */
  private async db(): Promise<Queryable> {
    if (this.closed) throw new EngramError('closed', 'the PostgreSQL store is closed');
    this.ready ??= migratePostgres(this.pool, this.url).then(async (version) => {
      this.vectors.pgvector = await preparePgvector(this.queries, bytesToVector);
      return version;
    });
    try {
      await this.ready;
    } catch (error) {
      this.ready = null; // a server that was down may be up next time
      throw error;
    }
    return this.queries;
  }

  /** Runs `action` in one transaction on one connection: all of it or none. */
  private async inTransaction<T>(action: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.db();
    return withClient(this.pool, this.url, async (client) => {
      try {
        await client.query('BEGIN');
        const result = await action(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw connectionError(error, this.url);
      }
    });
  }
}

/** Takes the tenant's graph lock until the transaction ends: entities are merged by name, and removed when unheld. */
async function lockGraph(db: Queryable, tenant: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('engram-graph:' || $1))`, [tenant]);
}
