/**
 * The Store parts both SQL databases implement alike, written once over the programs of this
 * folder: reading and listing memories, the vector index's embedder, sessions, the activation
 * and activity logs, and the knowledge graph. A driver's store extends it and says how a
 * program runs on its connection — a read, a one-statement write, a transaction, a graph write
 * (one tenant's at a time) — and adds what is its own: writing memories with their search
 * columns, full text, vectors, the embedding cache, opening and closing (../sqlite/sqlite-store.ts,
 * ../postgres/postgres-store.ts). SQLite runs every program synchronously inside these methods.
 */
import type { Entity, Mention, Relation } from '../../model/graph.js';
import type { Memory } from '../../model/memory.js';
import type { Receipt } from '../../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../../model/session.js';
import type {
  ActivationRecord,
  EntityInput,
  ExtractionFailure,
  GraphCounts,
  GraphExtraction,
  GraphPage,
  Injection,
  ListOptions,
  MemoryFilter,
  MemoryInjection,
  MentionQuery,
  ObservationChange,
  ReceiptQuery,
  RelationInput,
  ScopeCountOptions,
  SessionListQuery,
  SessionSummary,
  StatsOptions,
  StoreStats,
  VectorHit,
  VectorIndexInfo,
  VectorSearchOptions,
} from '../store.js';
import { subtractCounts } from '../store-statistics.js';
import {
  changeObservations,
  deleteEntityRows,
  findEntityRows,
  findEntityRowsByName,
  readEntities,
  searchEntityRows,
  upsertEntity,
} from './graph-entities.js';
import { recordExtraction } from './graph-extraction.js';
import { recordFailureRows } from './graph-failures.js';
import { mentionsInMemories, mentionsOfEntities, removeMentionRows } from './graph-mentions.js';
import { countGraphRows, readGraphPage } from './graph-overview.js';
import {
  deleteRelationRows,
  insertRelation,
  invalidateRelationRows,
  readRelationsByRowid,
  resolveRelation,
} from './graph-relations.js';
import { rowToEntity } from './graph-rows.js';
import { entityRowids, removeUnheldEntities } from './graph-unheld.js';
import { readIndexInfo, writeIndexInfo } from './index-info.js';
import { memoryCounts } from './memory-counts.js';
import { listMemoryRows } from './memory-list.js';
import { countMemoryRows, memoryPage, memoryPages, readMemories, readMemory, readMemoryByKey } from './memory-reads.js';
import { rowToMemory } from './rows.js';
import { scopeCounts } from './scope-counts.js';
import type { Program } from './session.js';
import { listInjectionRows, listSessionRows } from './session-list.js';
import {
  readActivity,
  readInjections,
  readReceipts,
  readSession,
  writeActivation,
  writeActivity,
  writeSession,
} from './session-tables.js';
import { sessionTurnIds } from './session-turns.js';

/** A vector search with its options settled. */
export interface VectorSearchRequest extends Required<VectorSearchOptions> {
  filter: MemoryFilter;
  vector: Float32Array;
  limit: number;
}

/** The parts of `stats` only a driver knows. */
export type StorageCounts = Pick<StoreStats, 'vectors' | 'cachedEmbeddings' | 'schemaVersion' | 'sizeBytes'>;

/** The Store parts written once for both SQL databases; see the module comment. */
export abstract class SqlStore {
  /** Runs a program that only reads. */
  protected abstract read<T>(program: Program<T>): T | Promise<T>;
  /** Runs a program of one write statement (its own transaction). */
  protected abstract write<T>(program: Program<T>): T | Promise<T>;
  /** Runs a program of several writes in one transaction: all of it or none. */
  protected abstract transaction<T>(program: Program<T>): T | Promise<T>;
  /** Runs a graph write in one transaction, one per tenant at a time (entities are merged by name). */
  protected abstract graphWrite<T>(tenant: string, program: Program<T>): T | Promise<T>;
  /** The nearest neighbours of `request.vector` in the driver's own vector index (see `searchVector`). */
  protected abstract vectorSearch(request: VectorSearchRequest): VectorHit[] | Promise<VectorHit[]>;
  /** What only the driver counts for `stats`: the tenant's vectors, the cached embeddings, its schema and size. */
  protected abstract storageCounts(tenant: string): StorageCounts | Promise<StorageCounts>;

  async searchVector(
    filter: MemoryFilter,
    vector: Float32Array,
    limit: number,
    options: VectorSearchOptions = {},
  ): Promise<VectorHit[]> {
    return this.vectorSearch({ filter, vector, limit, exact: options.exact ?? false, bounded: options.bounded ?? false });
  }

  async stats(tenant: string, options: StatsOptions = {}): Promise<StoreStats> {
    const excluded = options.excludeKinds ?? [];
    const all = await this.read(memoryCounts(tenant));
    const storage = await this.storageCounts(tenant);
    return {
      ...(excluded.length > 0 ? subtractCounts(all, await this.read(memoryCounts(tenant, excluded))) : all),
      vectors: storage.vectors,
      cachedEmbeddings: storage.cachedEmbeddings,
      index: await this.getIndexInfo(),
      schemaVersion: storage.schemaVersion,
      sizeBytes: storage.sizeBytes,
    };
  }

  async scopeCounts(tenant: string, options: ScopeCountOptions = {}): Promise<Record<string, number>> {
    return this.read(scopeCounts(tenant, options));
  }

  async getMemory(tenant: string, id: string): Promise<Memory | null> {
    const row = await this.read(readMemory(tenant, id));
    return row ? rowToMemory(row) : null;
  }

  async getMemories(tenant: string, ids: readonly string[]): Promise<Memory[]> {
    const found = new Map((await this.read(readMemories(tenant, ids))).map((row) => [row.id, rowToMemory(row)]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async findByKey(tenant: string, scope: string, key: string): Promise<Memory | null> {
    const row = await this.read(readMemoryByKey(tenant, scope, key));
    return row ? rowToMemory(row) : null;
  }

  async listMemories(filter: MemoryFilter, options: ListOptions): Promise<Memory[]> {
    return (await this.read(listMemoryRows(filter, options))).map(rowToMemory);
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    return this.read(countMemoryRows(filter));
  }

  async listSessionTurns(filter: MemoryFilter, sessionId: string, limit: number): Promise<string[]> {
    return this.read(sessionTurnIds(filter, sessionId, limit));
  }

  async *iterateMemories(filter: MemoryFilter, pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(filter, pageSize);
  }

  async *iterateAllMemories(pageSize = 1000): AsyncIterable<Memory> {
    yield* this.pages(null, pageSize);
  }

  async getIndexInfo(): Promise<VectorIndexInfo | null> {
    return this.read(readIndexInfo());
  }

  async setIndexInfo(info: VectorIndexInfo): Promise<void> {
    await this.write(writeIndexInfo(info));
  }

  async getSession(tenant: string, id: string): Promise<SessionRecord | null> {
    return this.read(readSession(tenant, id));
  }

  async saveSession(record: SessionRecord): Promise<void> {
    await this.write(writeSession(record));
  }

  async listSessions(tenant: string, query: SessionListQuery): Promise<SessionSummary[]> {
    return this.read(listSessionRows(tenant, query));
  }

  async recordActivation(record: ActivationRecord): Promise<void> {
    await this.transaction(writeActivation(record));
  }

  async listInjections(tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]> {
    return this.read(readInjections(tenant, sessionId, sinceTurn));
  }

  async listMemoryInjections(
    tenant: string,
    memoryId: string,
    page: { limit: number; offset?: number },
  ): Promise<MemoryInjection[]> {
    return this.read(listInjectionRows(tenant, memoryId, page));
  }

  async listReceipts(tenant: string, query: ReceiptQuery): Promise<Receipt[]> {
    return this.read(readReceipts(tenant, query));
  }

  async appendActivity(entry: ActivityEntry): Promise<void> {
    await this.write(writeActivity(entry));
  }

  async listActivity(tenant: string, options: { day?: string | undefined; limit: number }): Promise<ActivityEntry[]> {
    return this.read(readActivity(tenant, options));
  }

  async upsertEntities(tenant: string, entities: readonly EntityInput[], at: string): Promise<Entity[]> {
    const when = Date.parse(at);
    // Read back after every write: a later input may have merged more into an earlier one's entity.
    const ids = await this.graphWrite(
      tenant,
      (function* () {
        const out: string[] = [];
        for (const input of entities) out.push((yield* upsertEntity(tenant, input, when)).id);
        return out;
      })(),
    );
    const found = new Map((await this.read(readEntities(tenant, ids))).map((entity) => [entity.id, entity]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]> {
    return this.read(readEntities(tenant, ids));
  }

  async findEntities(tenant: string, names: readonly string[]): Promise<Entity[]> {
    return (await this.read(findEntityRows(tenant, names))).map(rowToEntity);
  }

  async findEntitiesByName(tenant: string, names: readonly string[]): Promise<Entity[][]> {
    return (await this.read(findEntityRowsByName(tenant, names))).map((rows) => rows.map(rowToEntity));
  }

  async searchEntities(tenant: string, query: string, limit: number): Promise<Entity[]> {
    return this.read(searchEntityRows(tenant, query, limit));
  }

  async deleteEntities(tenant: string, ids: readonly string[]): Promise<number> {
    return this.graphWrite(tenant, deleteEntityRows(tenant, ids));
  }

  async addObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<ObservationChange[]> {
    return this.graphWrite(tenant, changeObservations(tenant, changes, 'add', Date.parse(at)));
  }

  async removeObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<number> {
    const removed = await this.graphWrite(
      tenant,
      (function* () {
        const done = yield* changeObservations(tenant, changes, 'remove', Date.parse(at));
        yield* removeUnheldEntities(
          yield* entityRowids(
            tenant,
            done.map((change) => change.entityId),
          ),
        );
        return done;
      })(),
    );
    return removed.reduce((sum, change) => sum + change.observations.length, 0);
  }

  async addRelations(tenant: string, relations: readonly RelationInput[], at: string): Promise<Relation[]> {
    const when = Date.parse(at);
    const rowids = await this.graphWrite(
      tenant,
      (function* () {
        const out: number[] = [];
        for (const input of relations) out.push(yield* insertRelation(tenant, yield* resolveRelation(tenant, input), when));
        return out;
      })(),
    );
    return this.read(readRelationsByRowid(rowids));
  }

  async deleteRelations(tenant: string, ids: readonly string[]): Promise<number> {
    return this.graphWrite(tenant, deleteRelationRows(tenant, ids));
  }

  async invalidateRelations(tenant: string, memoryIds: readonly string[], at: string): Promise<number> {
    return this.graphWrite(tenant, invalidateRelationRows(tenant, memoryIds, Date.parse(at)));
  }

  async recordExtractions(tenant: string, extractions: readonly GraphExtraction[], at: string): Promise<number> {
    const when = Date.parse(at);
    return this.graphWrite(
      tenant,
      (function* () {
        let recorded = 0;
        for (const extraction of extractions) if (yield* recordExtraction(tenant, extraction, when)) recorded++;
        return recorded;
      })(),
    );
  }

  async recordExtractionFailures(tenant: string, failures: readonly ExtractionFailure[], at: string): Promise<number> {
    return this.write(recordFailureRows(tenant, failures, Date.parse(at)));
  }

  async removeMentions(tenant: string, memoryIds: readonly string[]): Promise<number> {
    return this.graphWrite(tenant, removeMentionRows(tenant, memoryIds));
  }

  async listMentionsOfEntities(filter: MemoryFilter, entityIds: readonly string[], query: MentionQuery): Promise<Mention[]> {
    return this.read(mentionsOfEntities(filter, entityIds, query));
  }

  async listMentionsInMemories(tenant: string, memoryIds: readonly string[]): Promise<Mention[]> {
    return this.read(mentionsInMemories(tenant, memoryIds));
  }

  async readGraph(tenant: string, page: { offset?: number; limit: number; includeInvalidated?: boolean }): Promise<GraphPage> {
    return this.read(readGraphPage(tenant, page));
  }

  async countGraph(tenant: string): Promise<GraphCounts> {
    return this.read(countGraphRows(tenant));
  }

  private async *pages(filter: MemoryFilter | null, pageSize: number): AsyncIterable<Memory> {
    for await (const row of memoryPages((after) => this.read(memoryPage(filter, after, pageSize)), pageSize)) {
      yield rowToMemory(row);
    }
  }
}
