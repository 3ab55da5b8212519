/**
 * The embedded Store: one SQLite file (better-sqlite3) with an FTS5 index for words, a vector
 * table with binary codes (see vector-table.ts), and the session, receipt and activity tables
 * (see session-tables.ts), and the knowledge graph (see graph-*.ts). The embedder of the vectors is
 * recorded in `engram_meta`.
 * It implements every part of the Store (see ../store.ts) over the one connection, since one
 * change writes a memory and its index entries in a single transaction.
 */
import { existsSync, statSync } from 'node:fs';

import type Database from 'better-sqlite3';

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
import { entitiesHeldBy, entityRowids, removeUnheldEntities } from '../sql-core/graph-unheld.js';
import { memoryCounts } from '../sql-core/memory-counts.js';
import { listMemoryRows } from '../sql-core/memory-list.js';
import { countMemoryRows, memoryPage, memoryPages, readMemories, readMemory, readMemoryByKey } from '../sql-core/memory-reads.js';
import { blobToVector, MEMORY_COLUMNS, memoryToParams, rowToMemory, vectorToBlob } from '../sql-core/rows.js';
import type { SyncSession } from '../sql-core/session.js';
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
} from '../store.js';
import { subtractCounts } from '../store-statistics.js';
import { pickParts } from './common-terms.js';
import { filterClause } from './filter-clause.js';
import { ftsParts } from './fts-query.js';
import { KeptByMark } from './kept-by-mark.js';
import { KeptMemories } from './kept-memories.js';
import { KeptMentions } from './kept-mentions.js';
import { KeptSessionTurns } from './kept-session-turns.js';
import { MemoryWrites } from './memory-writes.js';
import { LATEST_VERSION, SEGMENT_TERMS_SCHEMA } from './migrations.js';
import { checkFolder, IN_MEMORY, openDatabase, type OpenDatabaseOptions } from './open-database.js';
import { PlannerStatistics } from './planner-statistics.js';
import { listRelationRows } from './relation-list.js';
import { segmentColumn } from './segment-column.js';
import { sqliteSession } from './sqlite-session.js';
import { cachedStatement } from './statement-cache.js';
import { isDamage, isUnwritable } from './storage-error.js';
import { VectorTable } from './vector-table.js';

/** The `engram_meta` key of the embedder that made the stored vectors (a VectorIndexInfo as JSON). */
export const INDEX_INFO_KEY = 'vector_index';
/** Full-text rows ranked per result asked for, before filters. */
const LEXICAL_OVERSAMPLE = 4;
/** SQLite's default limit on bound parameters is 32766; stay far below it. */
const IN_CHUNK = 500;

/** How to open the file, and what to hold in memory. */
export interface SqliteStoreOptions extends OpenDatabaseOptions {
  /**
   * Float vectors held in memory for exact re-scores, in bytes at most (vector-table.ts); 0 holds
   * none, and every exact score reads the vector from the file. @default FLOAT_VECTOR_BYTES (256 MiB)
   */
  floatVectorBytes?: number;
}

/** The graph lookups of graph-aware recall, kept across searches. */
interface GraphLookups {
  entities: KeptByMark<Entity>;
  relations: KeptByMark<Relation>;
  mentions: KeptByMark<Mention>;
}

/** The embedded default Store: every part over one SQLite file (or `:memory:`). */
export class SqliteStore implements Store {
  readonly file: string;
  private readonly options: SqliteStoreOptions;
  private handle: Database.Database | null = null;
  private session: SyncSession | null = null;
  private closed = false;
  private vectorTable: VectorTable | null = null;
  private statistics: PlannerStatistics | null = null;
  private keptMemories: KeptMemories | null = null;
  private keptMentionLists: KeptMentions | null = null;
  private memoryWrites: MemoryWrites | null = null;
  private sessionTurns: KeptSessionTurns | null = null;
  private keptLookups: GraphLookups | null = null;

  /**
   * Opens `file` now if it exists; a new file is created on first use, so a command refused
   * for bad input leaves no empty database behind.
   */
  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    this.options = options;
    if (file === IN_MEMORY || options.mustExist || existsSync(file)) this.open();
    // A missing folder is refused now, not at the first write; it is created only at that write.
    else checkFolder(file, options);
  }

  /** The underlying connection, for tests and tools in this folder only. */
  get connection(): Database.Database {
    return this.db;
  }

  private get db(): Database.Database {
    return this.open();
  }

  /** The shared SQL core's statements, run synchronously on this connection (../sql-core/session.ts). */
  private get sql(): SyncSession {
    this.open();
    return this.session as SyncSession;
  }

  private get vectors(): VectorTable {
    this.open();
    return this.vectorTable as VectorTable;
  }

  private get kept(): KeptMemories {
    this.open();
    return this.keptMemories as KeptMemories;
  }

  /** The graph's lookups, kept under the memories' change mark (kept-by-mark.ts). */
  private get lookups(): GraphLookups {
    this.open();
    return this.keptLookups as GraphLookups;
  }

  private get keptMentions(): KeptMentions {
    this.open();
    return this.keptMentionLists as KeptMentions;
  }

  private open(): Database.Database {
    if (this.handle === null) {
      if (this.closed) throw new EngramError('closed', `${this.file} is closed`);
      this.handle = openDatabase(this.file, this.options);
      this.session = sqliteSession(this.handle);
      this.vectorTable = new VectorTable(this.handle, { floatBytes: this.options.floatVectorBytes });
      this.statistics = new PlannerStatistics(this.handle);
      this.keptMemories = new KeptMemories(this.handle);
      this.memoryWrites = new MemoryWrites(this.handle);
      this.keptMentionLists = new KeptMentions(this.memoryWrites);
      this.sessionTurns = new KeptSessionTurns(this.handle, this.memoryWrites, this.keptMemories);
      this.keptLookups = {
        entities: new KeptByMark(this.memoryWrites, (entity) => ({
          ...entity,
          aliases: [...entity.aliases],
          observations: [...entity.observations],
        })),
        relations: new KeptByMark(this.memoryWrites, (relation) => ({ ...relation })),
        mentions: new KeptByMark(this.memoryWrites, (mention) => ({ ...mention })),
      };
    }
    return this.handle;
  }

  async commit(change: MemoryChange): Promise<void> {
    // The CJK bigrams and emoji the full-text index holds apart (schema 10; a file held at an
    // older schema by `migrateTo` has no such column).
    const segmented = (this.db.pragma('user_version', { simple: true }) as number) >= SEGMENT_TERMS_SCHEMA;
    const columns = segmented ? [...MEMORY_COLUMNS, 'segment_terms'] : MEMORY_COLUMNS;
    const paramsOf = (memory: Memory) => {
      const params = memoryToParams(memory);
      return segmented ? { ...params, segment_terms: segmentColumn(params) } : params;
    };
    const insert = this.db.prepare(
      `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const update = this.db.prepare(
      `UPDATE memories SET ${columns
        .filter((c) => c !== 'id' && c !== 'tenant')
        .map((c) => `${c} = @${c}`)
        .join(', ')} WHERE id = @id AND tenant = @tenant`,
    );
    const rowidOf = this.db.prepare(`SELECT rowid FROM memories WHERE id = ?`).pluck();
    const replacing = change.replaceKeyHolders === true;
    const supersededBy = this.db.prepare(`SELECT superseded_by FROM memories WHERE tenant = ? AND id = ?`).pluck();
    const supersedeHolder = this.db.prepare(
      `UPDATE memories SET superseded_by = @id, updated_at = @at
       WHERE tenant = @tenant AND scope = @scope AND key = @key AND superseded_by IS NULL AND archived_at IS NULL`,
    );
    // Updates first: a memory superseded in this change frees its key for the insert.
    this.writeTransaction(() => {
      for (const { memory, vector } of change.update ?? []) {
        // Superseded by another writer since the engine read it: their pointer stays (MemoryChange).
        const current = replacing && memory.supersededBy !== null ? supersededBy.get(memory.tenant, memory.id) : null;
        if (current != null && current !== memory.supersededBy) continue;
        const { changes } = update.run(paramsOf(memory));
        if (changes === 0) throw new Error(`update of unknown memory ${memory.id}`);
        if (vector !== undefined) {
          const rowid = rowidOf.get(memory.id) as number;
          this.vectors.delete(rowid);
          if (vector) this.vectors.write(rowid, memory.id, memory.tenant, vector);
        }
      }
      for (const { memory, vector } of change.insert ?? []) {
        if (replacing && memory.key !== null && memory.supersededBy === null && memory.archivedAt === null) {
          const { tenant, scope, key, id } = memory;
          supersedeHolder.run({ tenant, scope, key, id, at: Date.parse(memory.createdAt) });
        }
        const { lastInsertRowid } = insert.run(paramsOf(memory));
        if (vector) this.vectors.write(Number(lastInsertRowid), memory.id, memory.tenant, vector);
      }
    });
    (this.statistics as PlannerStatistics).noteInserted(change.insert?.length ?? 0);
  }

  async getMemory(tenant: string, id: string): Promise<Memory | null> {
    const row = this.sql.exec(readMemory(tenant, id));
    return row ? rowToMemory(row) : null;
  }

  async getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const kept = this.kept;
    const { found, missing } = kept.split(tenant, ids);
    if (missing.length > 0) {
      const read = this.sql.exec(readMemories(tenant, missing)).map(rowToMemory);
      kept.keep(read);
      for (const memory of read) found.set(memory.id, memory);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async findByKey(tenant: string, scope: string, key: string): Promise<Memory | null> {
    const row = this.sql.exec(readMemoryByKey(tenant, scope, key));
    return row ? rowToMemory(row) : null;
  }

  async purgeMemories(tenant: string, ids: readonly string[]): Promise<number> {
    let deleted = 0;
    this.writeTransaction(() => {
      for (const chunk of chunks(ids, IN_CHUNK)) {
        const marks = chunk.map(() => '?').join(', ');
        const rowids = this.db
          .prepare(`SELECT rowid FROM memories WHERE tenant = ? AND id IN (${marks})`)
          .pluck()
          .all(tenant, ...chunk) as number[];
        for (const rowid of rowids) this.vectors.delete(rowid);
        // Injections feed repeat suppression of memories that exist; a purged one's would be orphans.
        this.db.prepare(`DELETE FROM injections WHERE tenant = ? AND memory_id IN (${marks})`).run(tenant, ...chunk);
        const held = this.sql.exec(entitiesHeldBy(rowids));
        deleted += this.db.prepare(`DELETE FROM memories WHERE tenant = ? AND id IN (${marks})`).run(tenant, ...chunk).changes;
        // The memories' mentions went with them (trigger): what extraction made for them alone goes too.
        this.sql.exec(removeUnheldEntities(held));
      }
    });
    return deleted;
  }

  async listMemories(filter: MemoryFilter, options: ListOptions): Promise<Memory[]> {
    return this.sql.exec(listMemoryRows(filter, options)).map(rowToMemory);
  }

  async listSessionNeighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]> {
    this.open();
    return (this.sessionTurns as KeptSessionTurns).neighbours(filter, memoryIds, radius);
  }

  async memoryChangeMark(_tenant: string): Promise<string> {
    this.open();
    return (this.memoryWrites as MemoryWrites).mark();
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    return this.sql.exec(countMemoryRows(filter));
  }

  async *iterateMemories(filter: MemoryFilter, pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(filter, pageSize);
  }

  async *iterateAllMemories(pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(null, pageSize);
  }

  async searchLexical(
    filter: MemoryFilter,
    query: string,
    limit: number,
    options: { skipIfOnlyCommon?: boolean } = {},
  ): Promise<LexicalHit[]> {
    const parts = ftsParts(query);
    if (parts === null || limit <= 0) return [];
    const picked = pickParts(this.db, parts);
    if (picked.onlyCommon && options.skipIfOnlyCommon) return [];
    const match = picked.parts.join(' OR ');
    const where = filterClause(filter, 'm');
    // Rank inside the full-text index alone first (BM25 with column weights: text, abstract,
    // tags, context — context helps find a memory, but less than its own words — and the CJK
    // bigrams and emoji, which count as the text's words), then look up
    // and filter only the best rows. Any join inside the ranking query costs more than the
    // match itself: 14 ms instead of 9 ms at 100k memories, 50 ms if the planner starts from
    // the memories table.
    const rank = cachedStatement(
      this.db,
      `SELECT rowid, -bm25(memories_fts, 1.0, 0.5, 0.5, 0.5, 1.0) AS score FROM memories_fts
       WHERE memories_fts MATCH ? ORDER BY score DESC LIMIT ?`,
    );
    const admit = cachedStatement(
      this.db,
      `SELECT j.key AS position, m.id AS id FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where.sql}`,
    );
    const ranked = (rows: number): LexicalHit[] => {
      const best = rank.raw().all(match, rows) as [number, number][];
      const admitted = admit.all(JSON.stringify(best.map(([rowid]) => rowid)), ...where.params) as {
        position: number;
        id: string;
      }[];
      return admitted
        .sort((a, b) => a.position - b.position)
        .slice(0, limit)
        .map(({ position, id }) => ({ id, score: (best[position] as [number, number])[1] }));
    };
    const pool = limit * LEXICAL_OVERSAMPLE;
    const hits = ranked(pool);
    if (hits.length === limit) return hits;
    // Short: either there are no more matches, or the filters (another tenant, a scope,
    // archived rows) removed too many of the best — then rank every match.
    const more = cachedStatement(
      this.db,
      `SELECT count(*) FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)`,
    )
      .pluck()
      .get(match, pool + 1) as number;
    return more > pool ? ranked(-1) : hits;
  }

  async searchVector(
    filter: MemoryFilter,
    vector: Float32Array,
    limit: number,
    options: { exact?: boolean; bounded?: boolean } = {},
  ): Promise<VectorHit[]> {
    return this.vectors.search(filter.tenant, filterClause(filter, 'm'), vector, limit, {
      exact: options.exact ?? false,
      bounded: options.bounded ?? false,
    });
  }

  async vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return this.vectors.similarities(tenant, ids, vector);
  }

  async recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void> {
    this.kept.drop(tenant, ids);
    this.immediate(() => this.sql.exec(stampRetrieval(tenant, ids, Date.parse(at))));
  }

  async getIndexInfo(): Promise<VectorIndexInfo | null> {
    const value = cachedStatement(this.db, `SELECT value FROM engram_meta WHERE key = ?`).pluck().get(INDEX_INFO_KEY) as
      string | undefined;
    return value === undefined ? null : (JSON.parse(value) as VectorIndexInfo);
  }

  async setIndexInfo(info: VectorIndexInfo): Promise<void> {
    this.immediate(() => this.writeIndexInfo(info));
  }

  async replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    const rowOf = this.db.prepare(`SELECT rowid, tenant FROM memories WHERE id = ?`);
    this.writeTransaction(() => {
      this.vectors.clear();
      this.writeIndexInfo(info);
      for (const { id, vector } of vectors) {
        const row = rowOf.get(id) as { rowid: number; tenant: string } | undefined;
        if (row) this.vectors.write(row.rowid, id, row.tenant, vector);
      }
    });
  }

  async getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const chunk of chunks(hashes, IN_CHUNK)) {
      const rows = this.db
        .prepare(`SELECT hash, vector FROM embedding_cache WHERE model = ? AND hash IN (${chunk.map(() => '?').join(', ')})`)
        .all(model, ...chunk) as { hash: string; vector: Buffer }[];
      for (const row of rows) found.set(row.hash, blobToVector(row.vector));
    }
    return found;
  }

  async putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    const statement = this.db.prepare(`INSERT OR REPLACE INTO embedding_cache (model, hash, vector) VALUES (?, ?, ?)`);
    this.immediate(() => {
      for (const { hash, vector } of entries) statement.run(model, hash, vectorToBlob(vector));
    });
  }

  async getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.vectors.vectorsOf(tenant, ids);
  }

  async getSession(tenant: string, id: string): Promise<SessionRecord | null> {
    return this.sql.exec(readSession(tenant, id));
  }

  async saveSession(record: SessionRecord): Promise<void> {
    this.sql.exec(writeSession(record));
  }

  async listSessions(tenant: string, query: SessionListQuery): Promise<SessionSummary[]> {
    return this.sql.exec(listSessionRows(tenant, query));
  }

  async recordActivation(record: ActivationRecord): Promise<void> {
    this.kept.drop(record.receipt.tenant, record.retrieved); // their retrieval stamps change
    this.immediate(() => this.sql.exec(writeActivation(record)));
  }

  async listInjections(tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]> {
    return this.sql.exec(readInjections(tenant, sessionId, sinceTurn));
  }

  async listMemoryInjections(
    tenant: string,
    memoryId: string,
    page: { limit: number; offset?: number },
  ): Promise<MemoryInjection[]> {
    return this.sql.exec(listInjectionRows(tenant, memoryId, page));
  }

  async listReceipts(tenant: string, query: ReceiptQuery): Promise<Receipt[]> {
    return this.sql.exec(readReceipts(tenant, query));
  }

  async appendActivity(entry: ActivityEntry): Promise<void> {
    this.sql.exec(writeActivity(entry));
  }

  async listActivity(tenant: string, options: { day?: string | undefined; limit: number }): Promise<ActivityEntry[]> {
    return this.sql.exec(readActivity(tenant, options));
  }

  async upsertEntities(tenant: string, entities: readonly EntityInput[], at: string): Promise<Entity[]> {
    const when = Date.parse(at);
    // Read back after every write: a later input may have merged more into an earlier one's entity.
    const ids = this.immediate(() => entities.map((input) => this.sql.exec(upsertEntity(tenant, input, when)).id));
    const found = new Map(this.sql.exec(readEntities(tenant, ids)).map((entity) => [entity.id, entity]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]> {
    return this.sql.exec(readEntities(tenant, ids));
  }

  async findEntities(tenant: string, names: readonly string[]): Promise<Entity[]> {
    // Name by name, each answer kept: a query's names are the n-grams of its words, most of which
    // the previous queries named too. In order, each entity once, as one lookup of them all.
    const seen = new Set<string>();
    const found: Entity[] = [];
    const each = this.lookups.entities.answers(
      names.map((name) => JSON.stringify([tenant, name])),
      (_, index) => this.sql.exec(findEntityRows(tenant, [names[index] as string])).map(rowToEntity),
    );
    for (const entities of each) {
      for (const entity of entities) {
        if (seen.has(entity.id)) continue;
        seen.add(entity.id);
        found.push(entity);
      }
    }
    return found;
  }

  async searchEntities(tenant: string, query: string, limit: number): Promise<Entity[]> {
    return this.sql.exec(searchEntityRows(tenant, query, limit));
  }

  async deleteEntities(tenant: string, ids: readonly string[]): Promise<number> {
    return this.immediate(() => this.sql.exec(deleteEntityRows(tenant, ids)));
  }

  async addObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<ObservationChange[]> {
    return this.immediate(() => this.sql.exec(changeObservations(tenant, changes, 'add', Date.parse(at))));
  }

  async removeObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<number> {
    const removed = this.immediate(() => {
      const done = this.sql.exec(changeObservations(tenant, changes, 'remove', Date.parse(at)));
      const touched = this.sql.exec(
        entityRowids(
          tenant,
          done.map((change) => change.entityId),
        ),
      );
      this.sql.exec(removeUnheldEntities(touched));
      return done;
    });
    return removed.reduce((sum, change) => sum + change.observations.length, 0);
  }

  async addRelations(tenant: string, relations: readonly RelationInput[], at: string): Promise<Relation[]> {
    const when = Date.parse(at);
    const rowids = this.immediate(() =>
      relations.map((input) => this.sql.exec(insertRelation(tenant, this.sql.exec(resolveRelation(tenant, input)), when))),
    );
    return this.sql.exec(readRelationsByRowid(rowids));
  }

  async listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions): Promise<Relation[]> {
    return this.lookups.relations.answer(JSON.stringify([tenant, entityIds, options ?? null]), () =>
      this.sql.exec(listRelationRows(tenant, entityIds, options)),
    );
  }

  async deleteRelations(tenant: string, ids: readonly string[]): Promise<number> {
    return this.immediate(() => this.sql.exec(deleteRelationRows(tenant, ids)));
  }

  async invalidateRelations(tenant: string, memoryIds: readonly string[], at: string): Promise<number> {
    return this.immediate(() => this.sql.exec(invalidateRelationRows(tenant, memoryIds, Date.parse(at))));
  }

  async recordExtractions(tenant: string, extractions: readonly GraphExtraction[], at: string): Promise<number> {
    const when = Date.parse(at);
    return this.immediate(
      () => extractions.filter((extraction) => this.sql.exec(recordExtraction(tenant, extraction, when))).length,
    );
  }

  async recordExtractionFailures(tenant: string, failures: readonly ExtractionFailure[], at: string): Promise<number> {
    return this.immediate(() => this.sql.exec(recordFailureRows(tenant, failures, Date.parse(at))));
  }

  async removeMentions(tenant: string, memoryIds: readonly string[]): Promise<number> {
    return this.immediate(() => this.sql.exec(removeMentionRows(tenant, memoryIds)));
  }

  async listMentionsOfEntities(filter: MemoryFilter, entityIds: readonly string[], query: MentionQuery): Promise<Mention[]> {
    return this.lookups.mentions.answer(JSON.stringify([filter, entityIds, query]), () =>
      this.sql.exec(mentionsOfEntities(filter, entityIds, query)),
    );
  }

  async listMentionsInMemories(tenant: string, memoryIds: readonly string[]): Promise<Mention[]> {
    return this.keptMentions.mentionsIn(tenant, memoryIds, (missing) => this.sql.exec(mentionsInMemories(tenant, missing)));
  }

  async readGraph(tenant: string, page: { offset?: number; limit: number; includeInvalidated?: boolean }): Promise<GraphPage> {
    return this.sql.exec(readGraphPage(tenant, page));
  }

  async countGraph(tenant: string): Promise<GraphCounts> {
    return this.sql.exec(countGraphRows(tenant));
  }

  async stats(tenant: string, options: StatsOptions = {}): Promise<StoreStats> {
    const excluded = options.excludeKinds ?? [];
    const all = this.sql.exec(memoryCounts(tenant));
    return {
      ...(excluded.length > 0 ? subtractCounts(all, this.sql.exec(memoryCounts(tenant, excluded))) : all),
      vectors: this.vectors.count(tenant),
      cachedEmbeddings: this.db.prepare(`SELECT count(*) FROM embedding_cache`).pluck().get() as number,
      index: await this.getIndexInfo(),
      schemaVersion: LATEST_VERSION,
      sizeBytes: this.sizeOnDisk(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const db = this.handle;
    this.handle = null;
    if (db?.open) {
      try {
        db.pragma('busy_timeout = 0'); // housekeeping never waits for another process's lock
        db.pragma('optimize'); // keeps the query planner's statistics fresh, as SQLite advises on close
        if (this.file !== IN_MEMORY) db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (error) {
        // Housekeeping only: on a read-only file, a full disk or one another process is writing,
        // it waits for a close that can write, and the command that read the file has done its work.
        // On a damaged file it is not done at all: the statistics would be written into the damage,
        // and an export copying what still reads out of the file must not fail at the end.
        if (!isUnwritable(error) && !isDamage(error)) throw error;
      } finally {
        db.close();
      }
    }
  }

  private async *pages(filter: MemoryFilter | null, pageSize: number): AsyncIterable<Memory> {
    for await (const row of memoryPages((after) => this.sql.exec(memoryPage(filter, after, pageSize)), pageSize)) {
      yield rowToMemory(row);
    }
  }

  /**
   * Runs `action` in a write transaction. Every write transaction here begins IMMEDIATE: one that
   * began deferred and read first could not wait for another process's write lock (SQLite answers
   * SQLITE_BUSY_SNAPSHOT at once, past the busy timeout), and concurrent writers saw that error.
   */
  private immediate<T>(action: () => T): T {
    return this.db.transaction(action).immediate();
  }

  /**
   * A write transaction that may touch memories and their vectors: the memories kept are let go
   * (nothing can read them back before it ends: it runs synchronously), and a failed one drops
   * the loaded indexes.
   */
  private writeTransaction(action: () => void): void {
    this.kept.clear();
    try {
      this.immediate(action);
    } catch (error) {
      this.vectors.forget(); // a rollback may have undone additions to a loaded index
      throw error;
    }
  }

  private writeIndexInfo(info: VectorIndexInfo): void {
    this.db
      .prepare(`INSERT INTO engram_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`)
      .run(INDEX_INFO_KEY, JSON.stringify(info));
  }

  private sizeOnDisk(): number | null {
    if (this.file === IN_MEMORY) return null;
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += statSync(this.file + suffix).size;
      } catch {
        // no WAL file at the moment: nothing to add
      }
    }
    return total;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
