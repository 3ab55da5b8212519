/**
 * The scale-out Store: every part over one PostgreSQL database, shared by any number of Engram
 * processes. Memories carry a `tsvector` (GIN-indexed) scored with FTS5's BM25 (lexical-search.ts)
 * and a float32 vector searched through Engram's own in-memory quantized index (vector-table.ts);
 * sessions, receipts, the activity log and the knowledge graph are tables beside them. Every
 * query names its tenant. Each change runs in one transaction on one pooled connection.
 */
import type pg from 'pg';

import { EngramError } from '../../errors.js';
import type { Entity, Mention, Relation } from '../../model/graph.js';
import type { Memory } from '../../model/memory.js';
import type { Receipt } from '../../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../../model/session.js';
import {
  changeObservations,
  deleteEntityRows,
  findEntityRows,
  readEntities,
  searchEntityRows,
  upsertEntity,
} from '../sql-core/graph-entities.js';
import { recordExtraction } from '../sql-core/graph-extraction.js';
import { recordFailureRows } from '../sql-core/graph-failures.js';
import { mentionsInMemories, mentionsOfEntities, removeMentionRows } from '../sql-core/graph-mentions.js';
import { countGraphRows, readGraphPage } from '../sql-core/graph-overview.js';
import {
  deleteRelationRows,
  insertRelation,
  invalidateRelationRows,
  readRelationsByRowid,
  resolveRelation,
} from '../sql-core/graph-relations.js';
import { rowToEntity } from '../sql-core/graph-rows.js';
import { entitiesHeldBy, entityRowids, memoryRowids, removeUnheldEntities } from '../sql-core/graph-unheld.js';
import { memoryCounts } from '../sql-core/memory-counts.js';
import { listMemoryRows } from '../sql-core/memory-list.js';
import { countMemoryRows, memoryPage, memoryPages, readMemories, readMemory, readMemoryByKey } from '../sql-core/memory-reads.js';
import { MEMORY_COLUMNS, memoryToParams, rowToMemory } from '../sql-core/rows.js';
import { type AsyncSession, type Program } from '../sql-core/session.js';
import { listInjectionRows, listSessionRows } from '../sql-core/session-list.js';
import {
  readActivity,
  readInjections,
  readReceipts,
  readSession,
  stampRetrieval,
  writeActivation,
  writeActivity,
  writeSession,
} from '../sql-core/session-tables.js';
import type {
  ActivationRecord,
  EntityInput,
  ExtractionFailure,
  GraphCounts,
  GraphExtraction,
  GraphPage,
  Injection,
  LexicalHit,
  LexicalSearchOptions,
  ListOptions,
  MemoryChange,
  MemoryFilter,
  MemoryInjection,
  MentionQuery,
  ObservationChange,
  ReceiptQuery,
  RelationInput,
  RelationListOptions,
  SessionListQuery,
  SessionNeighbour,
  SessionSummary,
  StatsOptions,
  Store,
  StoreStats,
  VectorHit,
  VectorIndexInfo,
  VectorSearchOptions,
} from '../store.js';
import { subtractCounts } from '../store-statistics.js';
import { connectionError, createPool, type PoolOptions, type Queryable, reportingFailures, withClient } from './connection.js';
import { filterClause, Params } from './filter-clause.js';
import { lockClaimedKeys, supersededMeanwhile, supersedeHolder } from './key-holders.js';
import { searchLexicalRows } from './lexical-search.js';
import { searchFields, searchVectorSql } from './lexical-text.js';
import { migratePostgres, POSTGRES_LATEST_VERSION } from './migrations.js';
import { preparePgvector } from './pgvector.js';
import { postgresSession } from './postgres-session.js';
import { listRelationRows } from './relation-list.js';
import { sessionNeighbours } from './session-neighbours.js';
import { TermStatistics } from './term-statistics.js';
import { bytesToVector, PostgresVectorTable, vectorToBytes } from './vector-table.js';

/** The `engram_meta` key of the embedder that made the stored vectors (as in the SQLite store). */
export const INDEX_INFO_KEY = 'vector_index';
/** Every column of a memory row but the rowid and the search columns, in `MEMORY_COLUMNS` order. */
const COLUMNS = MEMORY_COLUMNS.join(', ');

/** The scale-out Store over one PostgreSQL database; see the module comment. */
export class PostgresStore implements Store {
  readonly url: string;
  private readonly pool: pg.Pool;
  private readonly vectors = new PostgresVectorTable();
  private readonly terms = new TermStatistics();
  private ready: Promise<number> | null = null;
  /** The pool, reporting connection failures as one-line errors. */
  private readonly queries: Queryable;
  private session: AsyncSession | null = null;
  private closed = false;

  /** Connects lazily: the first call migrates the database if it needs it. */
  constructor(url: string, options: PoolOptions = {}) {
    this.url = url;
    this.pool = createPool(url, options);
    this.queries = reportingFailures(this.pool, url);
  }

  /** Connects and migrates now; a bad URL, an unreachable server or refused credentials reject here. */
  async open(): Promise<this> {
    await this.db();
    return this;
  }

  async commit(change: MemoryChange): Promise<void> {
    const removed: number[] = [];
    const added: { rowid: number; tenant: string; vector: Float32Array }[] = [];
    const touched = (change.update ?? []).some((u) => u.vector !== undefined) || (change.insert ?? []).some((i) => i.vector);
    const counted = await this.transaction(async (db) => {
      // Writers of one key, on any server, take turns from here (key-holders.ts).
      const replacing = change.replaceKeyHolders === true;
      if (replacing)
        await lockClaimedKeys(
          db,
          (change.insert ?? []).map(({ memory }) => memory),
        );
      // Updates first: a memory superseded in this change frees its key for the insert.
      for (const { memory, vector } of change.update ?? []) {
        if (replacing && (await supersededMeanwhile(db, memory))) continue;
        const rowid = await this.writeMemory(db, memory, 'update');
        if (vector !== undefined) {
          await this.vectors.delete(db, rowid);
          removed.push(rowid);
          if (vector) {
            await this.vectors.write(db, rowid, memory.tenant, vector);
            added.push({ rowid, tenant: memory.tenant, vector });
          }
        }
      }
      for (const { memory, vector } of change.insert ?? []) {
        if (replacing) await supersedeHolder(db, memory);
        const rowid = await this.writeMemory(db, memory, 'insert');
        if (vector) {
          await this.vectors.write(db, rowid, memory.tenant, vector);
          added.push({ rowid, tenant: memory.tenant, vector });
        }
      }
      return touched ? this.vectors.countChange(db) : null;
    });
    if (counted !== null) this.vectors.committed(counted, removed, added);
  }

  async getMemory(tenant: string, id: string): Promise<Memory | null> {
    const row = await (await this.sql()).exec(readMemory(tenant, id));
    return row ? rowToMemory(row) : null;
  }

  async getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const found = new Map((await (await this.sql()).exec(readMemories(tenant, ids))).map((row) => [row.id, rowToMemory(row)]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async findByKey(tenant: string, scope: string, key: string): Promise<Memory | null> {
    const row = await (await this.sql()).exec(readMemoryByKey(tenant, scope, key));
    return row ? rowToMemory(row) : null;
  }

  async purgeMemories(tenant: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { deleted, change } = await this.transaction(async (db) => {
      await lockGraph(db, tenant);
      // Injections feed repeat suppression of memories that exist; a purged one's would be orphans.
      await db.query(`DELETE FROM injections WHERE tenant = $1 AND memory_id = ANY($2::text[])`, [tenant, [...ids]]);
      const sql = postgresSession(db);
      const held = await sql.exec(entitiesHeldBy(await sql.exec(memoryRowids(tenant, ids))));
      const result = await db.query(`DELETE FROM memories WHERE tenant = $1 AND id = ANY($2::text[]) RETURNING rowid`, [
        tenant,
        [...ids],
      ]);
      // The memories' mentions went with them (foreign keys): what extraction made for them alone goes too.
      await sql.exec(removeUnheldEntities(held));
      const rowids = (result.rows as { rowid: number }[]).map((row) => row.rowid);
      return { deleted: rowids, change: rowids.length > 0 ? await this.vectors.countChange(db) : null };
    });
    if (change !== null) this.vectors.committed(change, deleted, []);
    return deleted.length;
  }

  async listMemories(filter: MemoryFilter, options: ListOptions): Promise<Memory[]> {
    return (await (await this.sql()).exec(listMemoryRows(filter, options))).map(rowToMemory);
  }

  async listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]> {
    return sessionNeighbours(await this.db(), filter, memoryIds, radius);
  }

  async memoryChangeMark(_tenant: string): Promise<string> {
    // Moved by triggers inside every transaction that writes a memory, its vector or its mentions (migration 6).
    const result = await (await this.db()).query(`SELECT change FROM memory_change_count`);
    return String((result.rows[0] as { change: string | number }).change);
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    return (await this.sql()).exec(countMemoryRows(filter));
  }

  async *iterateMemories(filter: MemoryFilter, pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(filter, pageSize);
  }

  async *iterateAllMemories(pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(null, pageSize);
  }

  async searchLexical(filter: MemoryFilter, query: string, limit: number, options?: LexicalSearchOptions): Promise<LexicalHit[]> {
    return searchLexicalRows(await this.db(), this.terms, filter, query, limit, options);
  }

  async searchVector(
    filter: MemoryFilter,
    vector: Float32Array,
    limit: number,
    options: VectorSearchOptions = {},
  ): Promise<VectorHit[]> {
    const params = new Params();
    const where = filterClause(filter, 'm', params);
    return this.vectors.search(await this.db(), filter.tenant, where, params, vector, limit, {
      exact: options.exact ?? false,
      bounded: options.bounded ?? false,
    });
  }

  async vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return this.vectors.similarities(await this.db(), tenant, ids, vector);
  }

  async getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.vectors.vectorsOf(await this.db(), tenant, ids);
  }

  async recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void> {
    await (await this.sql()).exec(stampRetrieval(tenant, ids, Date.parse(at)));
  }

  async getIndexInfo(): Promise<VectorIndexInfo | null> {
    const result = await (await this.db()).query(`SELECT value FROM engram_meta WHERE key = $1`, [INDEX_INFO_KEY]);
    const row = result.rows[0] as { value: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.value) as VectorIndexInfo);
  }

  async setIndexInfo(info: VectorIndexInfo): Promise<void> {
    await writeIndexInfo(await this.db(), info);
  }

  async replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    try {
      await this.transaction(async (db) => {
        await db.query(`DELETE FROM memory_embeddings`);
        await writeIndexInfo(db, info);
        for (const { id, vector } of vectors) {
          const found = await db.query(`SELECT rowid, tenant FROM memories WHERE id = $1`, [id]);
          const row = found.rows[0] as { rowid: number; tenant: string } | undefined;
          if (row) await this.vectors.write(db, row.rowid, row.tenant, vector);
        }
        await this.vectors.countChange(db);
      });
    } finally {
      this.vectors.forget();
    }
  }

  async getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    if (hashes.length === 0) return new Map();
    const result = await (
      await this.db()
    ).query(`SELECT hash, vector FROM embedding_cache WHERE model = $1 AND hash = ANY($2::text[])`, [model, [...hashes]]);
    return new Map(
      (result.rows as { hash: string; vector: Buffer }[]).map((row) => [
        row.hash,
        new Float32Array(Uint8Array.from(row.vector).buffer),
      ]),
    );
  }

  async putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    if (entries.length === 0) return;
    // The last entry of a hash wins, as a row-by-row replace would leave it.
    const latest = new Map(entries.map((e) => [e.hash, e.vector]));
    await (
      await this.db()
    ).query(
      `INSERT INTO embedding_cache (model, hash, vector) SELECT $1, h, v FROM unnest($2::text[], $3::bytea[]) AS u(h, v)
       ON CONFLICT (model, hash) DO UPDATE SET vector = excluded.vector`,
      [model, [...latest.keys()], [...latest.values()].map(vectorToBytes)],
    );
  }

  async getSession(tenant: string, id: string): Promise<SessionRecord | null> {
    return (await this.sql()).exec(readSession(tenant, id));
  }

  async saveSession(record: SessionRecord): Promise<void> {
    await (await this.sql()).exec(writeSession(record));
  }

  async listSessions(tenant: string, query: SessionListQuery): Promise<SessionSummary[]> {
    return (await this.sql()).exec(listSessionRows(tenant, query));
  }

  async recordActivation(record: ActivationRecord): Promise<void> {
    await this.transaction((db) => postgresSession(db).exec(writeActivation(record)));
  }

  async listInjections(tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]> {
    return (await this.sql()).exec(readInjections(tenant, sessionId, sinceTurn));
  }

  async listMemoryInjections(
    tenant: string,
    memoryId: string,
    page: { limit: number; offset?: number },
  ): Promise<MemoryInjection[]> {
    return (await this.sql()).exec(listInjectionRows(tenant, memoryId, page));
  }

  async listReceipts(tenant: string, query: ReceiptQuery): Promise<Receipt[]> {
    return (await this.sql()).exec(readReceipts(tenant, query));
  }

  async appendActivity(entry: ActivityEntry): Promise<void> {
    await (await this.sql()).exec(writeActivity(entry));
  }

  async listActivity(tenant: string, options: { day?: string | undefined; limit: number }): Promise<ActivityEntry[]> {
    return (await this.sql()).exec(readActivity(tenant, options));
  }

  async upsertEntities(tenant: string, entities: readonly EntityInput[], at: string): Promise<Entity[]> {
    const when = Date.parse(at);
    // Read back after every write: a later input may have merged more into an earlier one's entity.
    const ids = await this.graphTransaction(tenant, function* () {
      const out: string[] = [];
      for (const input of entities) out.push((yield* upsertEntity(tenant, input, when)).id);
      return out;
    });
    const found = new Map((await (await this.sql()).exec(readEntities(tenant, ids))).map((entity) => [entity.id, entity]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]> {
    return (await this.sql()).exec(readEntities(tenant, ids));
  }

  async findEntities(tenant: string, names: readonly string[]): Promise<Entity[]> {
    return (await (await this.sql()).exec(findEntityRows(tenant, names))).map(rowToEntity);
  }

  async searchEntities(tenant: string, query: string, limit: number): Promise<Entity[]> {
    return (await this.sql()).exec(searchEntityRows(tenant, query, limit));
  }

  async deleteEntities(tenant: string, ids: readonly string[]): Promise<number> {
    return this.graphTransaction(tenant, () => deleteEntityRows(tenant, ids));
  }

  async addObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<ObservationChange[]> {
    return this.graphTransaction(tenant, () => changeObservations(tenant, changes, 'add', Date.parse(at)));
  }

  async removeObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<number> {
    const removed = await this.graphTransaction(tenant, function* () {
      const done = yield* changeObservations(tenant, changes, 'remove', Date.parse(at));
      yield* removeUnheldEntities(
        yield* entityRowids(
          tenant,
          done.map((change) => change.entityId),
        ),
      );
      return done;
    });
    return removed.reduce((sum, change) => sum + change.observations.length, 0);
  }

  async addRelations(tenant: string, relations: readonly RelationInput[], at: string): Promise<Relation[]> {
    const when = Date.parse(at);
    const rowids = await this.graphTransaction(tenant, function* () {
      const out: number[] = [];
      for (const input of relations) out.push(yield* insertRelation(tenant, yield* resolveRelation(tenant, input), when));
      return out;
    });
    return (await this.sql()).exec(readRelationsByRowid(rowids));
  }

  async listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions): Promise<Relation[]> {
    return (await this.sql()).exec(listRelationRows(tenant, entityIds, options));
  }

  async deleteRelations(tenant: string, ids: readonly string[]): Promise<number> {
    return this.graphTransaction(tenant, () => deleteRelationRows(tenant, ids));
  }

  async invalidateRelations(tenant: string, memoryIds: readonly string[], at: string): Promise<number> {
    return this.graphTransaction(tenant, () => invalidateRelationRows(tenant, memoryIds, Date.parse(at)));
  }

  async recordExtractions(tenant: string, extractions: readonly GraphExtraction[], at: string): Promise<number> {
    const when = Date.parse(at);
    return this.graphTransaction(tenant, function* () {
      let recorded = 0;
      for (const extraction of extractions) if (yield* recordExtraction(tenant, extraction, when)) recorded++;
      return recorded;
    });
  }

  async recordExtractionFailures(tenant: string, failures: readonly ExtractionFailure[], at: string): Promise<number> {
    return (await this.sql()).exec(recordFailureRows(tenant, failures, Date.parse(at)));
  }

  async removeMentions(tenant: string, memoryIds: readonly string[]): Promise<number> {
    return this.graphTransaction(tenant, () => removeMentionRows(tenant, memoryIds));
  }

  async listMentionsOfEntities(filter: MemoryFilter, entityIds: readonly string[], query: MentionQuery): Promise<Mention[]> {
    return (await this.sql()).exec(mentionsOfEntities(filter, entityIds, query));
  }

  async listMentionsInMemories(tenant: string, memoryIds: readonly string[]): Promise<Mention[]> {
    return (await this.sql()).exec(mentionsInMemories(tenant, memoryIds));
  }

  async readGraph(tenant: string, page: { offset?: number; limit: number; includeInvalidated?: boolean }): Promise<GraphPage> {
    return (await this.sql()).exec(readGraphPage(tenant, page));
  }

  async countGraph(tenant: string): Promise<GraphCounts> {
    return (await this.sql()).exec(countGraphRows(tenant));
  }

  async stats(tenant: string, options: StatsOptions = {}): Promise<StoreStats> {
    const db = await this.db();
    const excluded = options.excludeKinds ?? [];
    const sql = await this.sql();
    const all = await sql.exec(memoryCounts(tenant));
    const indexed = await db.query(
      `SELECT (SELECT count(*) FROM memory_embeddings WHERE tenant = $1) AS vectors,
         (SELECT count(*) FROM embedding_cache) AS cached`,
      [tenant],
    );
    const row = indexed.rows[0] as Record<string, number>;
    return {
      ...(excluded.length > 0 ? subtractCounts(all, await sql.exec(memoryCounts(tenant, excluded))) : all),
      vectors: row.vectors as number,
      cachedEmbeddings: row.cached as number,
      index: await this.getIndexInfo(),
      schemaVersion: POSTGRES_LATEST_VERSION,
      sizeBytes: null,
    };
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

  /** The shared SQL core's statements on the pool (../sql-core/session.ts), once the database is ready. */
  private async sql(): Promise<AsyncSession> {
    const db = await this.db();
    this.session ??= postgresSession(db);
    return this.session;
  }

  /** Runs `action` in one transaction on one connection: all of it or none. */
  private async transaction<T>(action: (db: pg.PoolClient) => Promise<T>): Promise<T> {
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

  /** A graph write of the shared core: one transaction per tenant at a time, as entities are merged by name. */
  private graphTransaction<T>(tenant: string, program: () => Program<T>): Promise<T> {
    return this.transaction(async (db) => {
      await lockGraph(db, tenant);
      return postgresSession(db).exec(program());
    });
  }

  /** Inserts or updates one memory with its search columns; returns its rowid. */
  private async writeMemory(db: Queryable, memory: Memory, mode: 'insert' | 'update'): Promise<number> {
    const values = memoryToParams(memory);
    const { fields, length } = searchFields(memory);
    const params = new Params(MEMORY_COLUMNS.map((column) => values[column]));
    const vector = searchVectorSql(fields.map((field) => params.add(field)));
    const lengthParam = params.add(length);
    if (mode === 'insert') {
      const result = await db.query(
        `INSERT INTO memories (${COLUMNS}, search_vector, search_length)
         VALUES (${MEMORY_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, ${vector}, ${lengthParam}) RETURNING rowid`,
        params.values,
      );
      return (result.rows[0] as { rowid: number }).rowid;
    }
    const assignments = MEMORY_COLUMNS.map((column, i) => ({ column, i }))
      .filter(({ column }) => column !== 'id' && column !== 'tenant')
      .map(({ column, i }) => `${column} = $${i + 1}`);
    const result = await db.query(
      `UPDATE memories SET ${assignments.join(', ')}, search_vector = ${vector}, search_length = ${lengthParam}
       WHERE id = $1 AND tenant = $2 RETURNING rowid`,
      params.values,
    );
    const row = result.rows[0] as { rowid: number } | undefined;
    if (row === undefined) throw new Error(`update of unknown memory ${memory.id}`);
    return row.rowid;
  }

  private async *pages(filter: MemoryFilter | null, pageSize: number): AsyncIterable<Memory> {
    const sql = await this.sql();
    for await (const row of memoryPages((after) => sql.exec(memoryPage(filter, after, pageSize)), pageSize)) {
      yield rowToMemory(row);
    }
  }
}

async function writeIndexInfo(db: Queryable, info: VectorIndexInfo): Promise<void> {
  await db.query(`INSERT INTO engram_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
    INDEX_INFO_KEY,
    JSON.stringify(info),
  ]);
}

/** Takes the tenant's graph lock until the transaction ends: entities are merged by name, and removed when unheld. */
async function lockGraph(db: Queryable, tenant: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('engram-graph:' || $1))`, [tenant]);
}
